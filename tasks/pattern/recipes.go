package pattern

import (
	"encoding/json"
	"fmt"

	"github.com/taskplatform/taskplatform/tasks"
)

// recipes are the walk-throughs that end in a pattern task.
func recipes() []tasks.Recipe {
	const base = "#1F6FEB"
	// The triad palette.generate delivers for base; the catalogue's tests
	// run step 1 and check step 3 sends exactly these colours.
	colours, _ := json.Marshal([]string{"#1F6FEB", "#D42B43", "#2C8E00"})
	stripesBody := `{"colors":["#1B2A4A","#F4F1EA"],"stripe_angle":90,"resolution":"1024","seed":1}`
	return []tasks.Recipe{
		{
			Name: "pattern_from_brand_colour", Title: "A plaid in a brand colour's triad",
			Description: "Turn one brand colour into a triadic palette, then weave its colours into a plaid.",
			Steps: []tasks.RecipeStep{
				{Title: "Make the triad", Method: "POST", Path: "/v1/tasks/palette.generate", Task: "palette.generate",
					Body: json.RawMessage(
						`{"base_color":"` + base + `","schemes":["triadic"]}`,
					), Note: "Answers 202 with job_id."},
				{Title: "Read the palette", Method: "GET", Path: "/v1/jobs/{job_id}/result",
					Note: fmt.Sprintf("files[0]'s data.colors[].hex are the triad: %s.", colours)},
				{Title: "Weave the plaid", Method: "POST", Path: "/v1/tasks/pattern.generate", Task: "pattern.generate",
					Headers: map[string]string{"Prefer": "wait=30"},
					Body: json.RawMessage(
						`{"kind":"plaid","colors":` + string(
							colours,
						) + `,"count":2,"seed":11,"resolution":"1024","use_case":"home_textiles"}`,
					),
					Note: "Waits up to 30 seconds and answers the result itself."},
			},
		},
		{
			Name: "estimate_then_run", Title: "Price a job, then run it safely",
			Description: "Ask the cost ceiling, submit with an Idempotency-Key so a retry never runs twice, then read the " +
				"result.",
			Steps: []tasks.RecipeStep{
				{
					Title:  "Estimate",
					Method: "POST",
					Path:   "/v1/tasks/pattern.generate/estimate",
					Task:   "pattern.generate",
					Body: json.RawMessage(
						`{"kind":"checks","colors":["#222222","#EEEEEE"],"count":4,"resolution":"2048"}`,
					),
					Note: "Answers credits 16 (4 tiles × 4 credits at 2048) and credit_type service_credits.",
				},
				{Title: "Submit", Method: "POST", Path: "/v1/tasks/pattern.generate", Task: "pattern.generate",
					Headers: map[string]string{"Idempotency-Key": "3f0c1f9e-8d1e-4c5b-9a51-2f0d7f6b2c11"},
					Body: json.RawMessage(
						`{"kind":"checks","colors":["#222222","#EEEEEE"],"count":4,"resolution":"2048"}`,
					),
					Note: "Holds 16 credits; resend the same body with the same key after a network error."},
				{
					Title:  "Follow the job",
					Method: "GET",
					Path:   "/v1/jobs/{job_id}",
					Note:   "progress.done rises from 0 to 4.",
				},
				{
					Title:  "Read the tiles",
					Method: "GET",
					Path:   "/v1/jobs/{job_id}/result",
					Note:   "Four PNG files, in index order.",
				},
			},
		},
		{
			Name: "motif_to_repeat", Title: "From a generated motif to a print repeat",
			Description: "Draw a polka-dot tile, then lay that tile out as a half-drop and a mirror repeat for print.",
			Steps: []tasks.RecipeStep{
				{Title: "Draw the motif", Method: "POST", Path: "/v1/tasks/pattern.generate", Task: "pattern.generate",
					Headers: map[string]string{"Prefer": "wait=30"},
					Body: json.RawMessage(
						`{"kind":"dots","colors":["#AA3355","#FFF8F0"],"resolution":"512","seed":3}`,
					),
					Note: "Answers the result; files[0].file is an art: handle."},
				{Title: "Lay it out", Method: "POST", Path: "/v1/tasks/pattern.repeat", Task: "pattern.repeat",
					Headers: map[string]string{"Prefer": "wait=30"},
					Body: json.RawMessage(
						`{"image":"art:FROM_STEP_1","layouts":["half_drop","mirror"],"resolution":"2048","background":"#FFF8F0"}`,
					),
					Note: "Put step 1's files[0].file in image. Two 2048 px tiles; an uploaded file: handle or a public https URL " +
						"works the same."},
			},
		},
		{
			Name: "migrate_from_pattern_stripes", Title: "Move from pattern.stripes to pattern.generate",
			Description: "pattern.stripes is deprecated. The same body sent to pattern.generate with kind stripes draws the " +
				"same bytes.",
			Steps: []tasks.RecipeStep{
				{Title: "The old call", Method: "POST", Path: "/v1/tasks/pattern.stripes", Task: "pattern.stripes",
					Body: json.RawMessage(
						stripesBody,
					), Note: "Still runs; its catalogue entry carries status deprecated."},
				{Title: "The new call", Method: "POST", Path: "/v1/tasks/pattern.generate", Task: "pattern.generate",
					Body: json.RawMessage(`{"kind":"stripes",` + stripesBody[1:]), Note: "Same tile, same price."},
			},
		},
	}
}
