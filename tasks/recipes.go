package tasks

import (
	"encoding/json"
	"fmt"
)

// Recipe is a walk-through over several calls; every step is a real request.
type Recipe struct {
	Name        string       `json:"name"`
	Title       string       `json:"title"`
	Description string       `json:"description"`
	Steps       []RecipeStep `json:"steps"`
}

// RecipeStep is one call of a recipe. Task names the task a POST runs or
// estimates; Body is then valid input of that task.
type RecipeStep struct {
	Title   string            `json:"title"`
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Task    string            `json:"task,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    json.RawMessage   `json:"body,omitempty"`
	Note    string            `json:"note"`
}

// Recipes returns every recipe.
func Recipes() []Recipe {
	const base = "#1F6FEB"
	sc, _ := schemeByValue("triadic")
	var triad []string
	for _, s := range harmony(sc, base) {
		triad = append(triad, s.hex)
	}
	colours, _ := json.Marshal(triad)
	stripes := `{"colors":["#1B2A4A","#F4F1EA"],"stripe_angle":90,"resolution":"1024","seed":1}`
	return []Recipe{
		{
			Name: "pattern_from_brand_colour", Title: "A plaid in a brand colour's triad",
			Description: "Turn one brand colour into a triadic palette, then weave its colours into a plaid.",
			Steps: []RecipeStep{
				{Title: "Make the triad", Method: "POST", Path: "/v1/tasks/palette.generate", Task: "palette.generate",
					Body: json.RawMessage(`{"base_color":"` + base + `","schemes":["triadic"]}`), Note: "Answers 202 with job_id."},
				{Title: "Read the palette", Method: "GET", Path: "/v1/jobs/{job_id}/result",
					Note: fmt.Sprintf("files[0]'s data.colors[].hex are the triad: %s.", colours)},
				{Title: "Weave the plaid", Method: "POST", Path: "/v1/tasks/pattern.generate", Task: "pattern.generate",
					Headers: map[string]string{"Prefer": "wait=30"},
					Body:    json.RawMessage(`{"kind":"plaid","colors":` + string(colours) + `,"count":2,"seed":11,"resolution":"1024","use_case":"home_textiles"}`),
					Note:    "Waits up to 30 seconds and answers the result itself."},
			},
		},
		{
			Name: "estimate_then_run", Title: "Price a job, then run it safely",
			Description: "Ask the cost ceiling, submit with an Idempotency-Key so a retry never runs twice, then read the result.",
			Steps: []RecipeStep{
				{Title: "Estimate", Method: "POST", Path: "/v1/tasks/pattern.generate/estimate", Task: "pattern.generate",
					Body: json.RawMessage(`{"kind":"checks","colors":["#222222","#EEEEEE"],"count":4,"resolution":"2048"}`),
					Note: "Answers credits 16 (4 tiles × 4 credits at 2048) and credit_type service_credits."},
				{Title: "Submit", Method: "POST", Path: "/v1/tasks/pattern.generate", Task: "pattern.generate",
					Headers: map[string]string{"Idempotency-Key": "3f0c1f9e-8d1e-4c5b-9a51-2f0d7f6b2c11"},
					Body:    json.RawMessage(`{"kind":"checks","colors":["#222222","#EEEEEE"],"count":4,"resolution":"2048"}`),
					Note:    "Holds 16 credits; resend the same body with the same key after a network error."},
				{Title: "Follow the job", Method: "GET", Path: "/v1/jobs/{job_id}", Note: "progress.done rises from 0 to 4."},
				{Title: "Read the tiles", Method: "GET", Path: "/v1/jobs/{job_id}/result", Note: "Four PNG files, in index order."},
			},
		},
		{
			Name: "motif_to_repeat", Title: "From a generated motif to a print repeat",
			Description: "Draw a polka-dot tile, then lay that tile out as a half-drop and a mirror repeat for print.",
			Steps: []RecipeStep{
				{Title: "Draw the motif", Method: "POST", Path: "/v1/tasks/pattern.generate", Task: "pattern.generate",
					Headers: map[string]string{"Prefer": "wait=30"},
					Body:    json.RawMessage(`{"kind":"dots","colors":["#AA3355","#FFF8F0"],"resolution":"512","seed":3}`),
					Note:    "Answers the result; files[0].file is an art: handle."},
				{Title: "Lay it out", Method: "POST", Path: "/v1/tasks/pattern.repeat", Task: "pattern.repeat",
					Headers: map[string]string{"Prefer": "wait=30"},
					Body:    json.RawMessage(`{"image":"art:FROM_STEP_1","layouts":["half_drop","mirror"],"resolution":"2048","background":"#FFF8F0"}`),
					Note:    "Put step 1's files[0].file in image. Two 2048 px tiles; an uploaded file: handle or a public https URL works the same."},
			},
		},
		{
			Name: "migrate_from_pattern_stripes", Title: "Move from pattern.stripes to pattern.generate",
			Description: "pattern.stripes is deprecated. The same body sent to pattern.generate with kind stripes draws the same bytes.",
			Steps: []RecipeStep{
				{Title: "The old call", Method: "POST", Path: "/v1/tasks/pattern.stripes", Task: "pattern.stripes",
					Body: json.RawMessage(stripes), Note: "Still runs; its catalogue entry carries status deprecated."},
				{Title: "The new call", Method: "POST", Path: "/v1/tasks/pattern.generate", Task: "pattern.generate",
					Body: json.RawMessage(`{"kind":"stripes",` + stripes[1:]), Note: "Same tile, same price."},
			},
		},
	}
}
