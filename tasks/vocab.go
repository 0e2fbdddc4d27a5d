package tasks

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
)

// Vocabulary is a named list of values, served at GET /v1/vocab/{name}.
type Vocabulary struct {
	Name        string       `json:"name"`
	Description string       `json:"description"`
	Values      []VocabValue `json:"values"`
	Default     *string      `json:"default"`
	Concept     *string      `json:"concept"`
	SubsetOf    *string      `json:"subset_of"`
	Groups      []VocabGroup `json:"groups"`
	Source      *string      `json:"source"`
	UsedIn      []UsedIn     `json:"used_in"`
}

// VocabValue is one value of a vocabulary.
type VocabValue struct {
	Value       string   `json:"value"`
	Label       string   `json:"label"`
	Description string   `json:"description"`
	ChooseWhen  string   `json:"choose_when,omitempty"`
	Group       string   `json:"group,omitempty"`
	Since       string   `json:"since,omitempty"`
	Default     bool     `json:"default,omitempty"`
	Deprecated  bool     `json:"deprecated,omitempty"`
	Aliases     []string `json:"aliases,omitempty"`
}

// VocabGroup is one group of a vocabulary's values.
type VocabGroup struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// UsedIn is one place a vocabulary is used; Direction is input or output.
type UsedIn struct {
	Where     string `json:"where"`
	Field     string `json:"field"`
	Direction string `json:"direction"`
}

// Vocabularies returns every vocabulary, with the used_in rows of task
// fields found in the published schemas (the x-vocab keyword).
func Vocabularies() []Vocabulary {
	uses := schemaUses()
	out := staticVocabs()
	for i := range out {
		out[i].UsedIn = append(out[i].UsedIn, uses[out[i].Name]...)
	}
	return out
}

// VocabByName returns one vocabulary with its used_in rows.
func VocabByName(name string) (Vocabulary, bool) {
	for _, v := range Vocabularies() {
		if v.Name == name {
			return v, true
		}
	}
	return Vocabulary{}, false
}

// VocabValues returns the values of a vocabulary, for enums outside tasks
// (for example the webhook events an endpoint subscribes to).
func VocabValues(name string) []string {
	v, _ := vocabByName(name)
	out := make([]string, len(v.Values))
	for i, x := range v.Values {
		out[i] = x.Value
	}
	return out
}

func vocabByName(name string) (Vocabulary, bool) {
	for _, v := range staticVocabs() {
		if v.Name == name {
			return v, true
		}
	}
	return Vocabulary{}, false
}

// schemaUses scans every runnable task's schemas for x-vocab properties.
func schemaUses() map[string][]UsedIn {
	uses := map[string][]UsedIn{}
	for _, d := range Runnable() {
		for _, s := range []struct {
			raw       []byte
			prefix    string
			direction string
		}{{d.InputSchema, "", "input"}, {d.OutputSchema, "data", "output"}} {
			if len(s.raw) == 0 {
				continue
			}
			var doc map[string]any
			if json.Unmarshal(s.raw, &doc) != nil {
				continue
			}
			walkVocab(doc, s.prefix, func(vocab, field string) {
				uses[vocab] = append(uses[vocab], UsedIn{Where: d.Name, Field: field, Direction: s.direction})
			})
		}
	}
	return uses
}

func walkVocab(s map[string]any, path string, f func(vocab, field string)) {
	if v, ok := s[VocabKeyword].(string); ok {
		f(v, path)
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(props)) {
			if ps, ok := props[k].(map[string]any); ok {
				walkVocab(ps, join(path, k), f)
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		walkVocab(items, path+"[]", f)
	}
}

func sp(s string) *string { return &s }

func staticVocabs() []Vocabulary {
	return []Vocabulary{
		{
			Name: "webhook_event", Description: "The kinds of job event a webhook delivers.",
			Values: []VocabValue{
				{Value: "job.started", Label: "Job started", Description: "The job left the queue; sent once per job."},
				{Value: "job.progress", Label: "Job progress", Description: "One more output was delivered (progress.done rose)."},
				{Value: "job.succeeded", Label: "Job succeeded", Description: "The job finished and its files are ready; the body carries the result.", Default: true},
				{Value: "job.failed", Label: "Job failed", Description: "The job failed; the body carries error.", Default: true},
				{Value: "job.cancelled", Label: "Job cancelled", Description: "The job was cancelled; the body carries error with code cancelled.", Default: true},
				{Value: "ping", Label: "Ping", Description: "A signed test event sent to an endpoint on request."},
			},
			Concept: sp("webhook"),
			UsedIn: []UsedIn{
				{Where: "webhook delivery body", Field: "event", Direction: "output"},
				{Where: "webhook endpoint", Field: "events", Direction: "input"},
			},
		},
		{
			Name: "error_type", Description: "The category of an error; branch on it for codes you do not know.",
			Values: errorTypeValues(),
			UsedIn: []UsedIn{
				{Where: "error object", Field: "error.type", Direction: "output"},
				{Where: "response header", Field: "X-Service-Error-Type", Direction: "output"},
				{Where: "GET /v1/errors", Field: "items[].type", Direction: "output"},
			},
		},
		{
			Name: "resolution", Description: "The side in pixels of a square output tile.",
			Values: []VocabValue{
				{Value: "512", Label: "512 × 512 px", Description: "Small tile for previews, swatches and screens.", ChooseWhen: "you try ideas or need web backgrounds"},
				{Value: "1024", Label: "1024 × 1024 px", Description: "Standard tile; prints about 8.7 cm wide at 300 dpi.", ChooseWhen: "you are unsure", Default: true},
				{Value: "2048", Label: "2048 × 2048 px", Description: "Large tile for print; about 17.3 cm wide at 300 dpi.", ChooseWhen: "the tile goes to print or large screens"},
			},
			Default: sp("1024"), Concept: sp("output_resolution"),
		},
		{
			Name: "use_case", Description: "Where a design will be used; it sets the motif size when repeats is not sent.",
			Values: useCaseValues(), Default: sp("general"), Concept: sp("seamless_tile"),
		},
		{
			Name: "pattern_kind", Description: "The motif of a repeat pattern.",
			Values: patternKindValues(), Default: sp("stripes"), Concept: sp("task_variant"),
			Groups: []VocabGroup{
				{Name: "geometric", Description: "Lines and shapes on a regular grid."},
				{Name: "woven", Description: "Patterns of woven cloth, drawn thread by thread in a 2/2 twill."},
				{Name: "spot", Description: "Separate motifs on a ground colour."},
			},
		},
		{
			Name: "repeat_layout", Description: "How copies of a motif are placed in a repeat tile.",
			Values: []VocabValue{
				{Value: "grid", Label: "Grid", Description: "Copies in straight rows and columns.", ChooseWhen: "the motif is geometric or meant to read as a grid"},
				{Value: "half_drop", Label: "Half-drop", Description: "Every other column drops by half a cell, hiding the grid.", ChooseWhen: "you are unsure; the textile default", Default: true},
				{Value: "brick", Label: "Brick", Description: "Every other row shifts by half a cell, like brickwork.", ChooseWhen: "the motif is wide"},
				{Value: "mirror", Label: "Mirror", Description: "Copies alternate with their mirror image.", ChooseWhen: "the motif has a direction you want balanced"},
			},
			Default: sp("half_drop"), Concept: sp("seamless_tile"),
		},
		{
			Name: "colour_scheme", Description: "A colour harmony: how colours are chosen around a base colour on the colour wheel.",
			Values: colourSchemeValues(), Concept: sp("colour_harmony"),
		},
		{
			Name: "task_category", Description: "The category of a task.",
			Values: []VocabValue{
				{Value: CategoryDesignGeneration, Label: "Design generation", Description: "Makes new designs: patterns, palettes, artwork."},
				{Value: CategoryImageEditing, Label: "Image editing", Description: "Changes existing images."},
				{Value: CategoryPhotoshoots, Label: "Photoshoots", Description: "Puts products on models and in scenes."},
				{Value: CategoryVideo, Label: "Video", Description: "Makes or edits moving images."},
				{Value: CategoryProductionPrep, Label: "Production prep", Description: "Readies designs for making: separations, repeats, sizes."},
				{Value: CategoryRecordsLibraries, Label: "Records and libraries", Description: "Keeps records: moodboards, fabrics, brand kits."},
			},
			UsedIn: []UsedIn{{Where: "Task", Field: "category", Direction: "output"}},
		},
		{
			Name: "credit_type", Description: "The kinds of credit a balance holds.",
			Values: []VocabValue{
				{Value: CreditService, Label: "Service credits", Description: "Spent by tasks.", Default: true},
				{Value: "model_credits", Label: "Model credits", Description: "Spent on model training."},
			},
			Default: sp(CreditService), Concept: sp("credit_hold"),
			UsedIn: []UsedIn{
				{Where: "POST /v1/tasks/{name}/estimate", Field: "credit_type", Direction: "output"},
				{Where: "response header", Field: "X-Service-Credit-Type", Direction: "output"},
				{Where: "GET /v1/pricing", Field: "items[].credit_type", Direction: "output"},
				{Where: "GET /v1/account/balance", Field: "balances[].credit_type", Direction: "output"},
			},
		},
		{
			Name: "job_lifecycle", Description: "Where a job is in its life.",
			Values: []VocabValue{
				{Value: "queued", Label: "Queued", Description: "Accepted and waiting to start."},
				{Value: "running", Label: "Running", Description: "Delivering outputs."},
				{Value: "terminal", Label: "Terminal", Description: "Ended; outcome says how."},
			},
			Concept: sp("job"),
			UsedIn:  []UsedIn{{Where: "Job", Field: "lifecycle", Direction: "output"}, {Where: "webhook delivery body", Field: "lifecycle", Direction: "output"}},
		},
		{
			Name: "job_outcome", Description: "How a terminal job ended; null until then.",
			Values: []VocabValue{
				{Value: "succeeded", Label: "Succeeded", Description: "Files are ready at the result."},
				{Value: "failed", Label: "Failed", Description: "The job has an error and no result."},
				{Value: "cancelled", Label: "Cancelled", Description: "The job was cancelled; error code cancelled."},
			},
			Concept: sp("job"),
			UsedIn:  []UsedIn{{Where: "Job", Field: "outcome", Direction: "output"}, {Where: "webhook delivery body", Field: "outcome", Direction: "output"}},
		},
	}
}

func errorTypeValues() []VocabValue {
	out := make([]VocabValue, len(apierr.Types))
	for i, t := range apierr.Types {
		label := strings.ToUpper(string(t.Type[:1])) + strings.ReplaceAll(string(t.Type[1:]), "_", " ")
		out[i] = VocabValue{Value: string(t.Type), Label: label, Description: t.Description}
	}
	return out
}

func useCaseValues() []VocabValue {
	out := make([]VocabValue, len(useCases))
	for i, u := range useCases {
		out[i] = VocabValue{
			Value: u.value, Label: u.label, Default: u.value == "general",
			Description: fmt.Sprintf("%s Motifs repeat %d times across the tile unless repeats is sent.", u.text, u.repeats),
		}
	}
	return out
}

func patternKindValues() []VocabValue {
	out := make([]VocabValue, len(patternKinds))
	for i, k := range patternKinds {
		out[i] = VocabValue{Value: k.value, Label: k.label, Description: k.text, Group: k.group, Default: k.value == "stripes"}
	}
	return out
}

func colourSchemeValues() []VocabValue {
	out := make([]VocabValue, len(colourSchemes))
	for i, s := range colourSchemes {
		out[i] = VocabValue{Value: s.value, Label: s.label, Description: s.text, ChooseWhen: s.when}
	}
	return out
}
