package pattern

import (
	"encoding/json"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// stripes is the deprecated first stripes task. It still runs
// unchanged, drawing with pattern.generate's renderer as kind stripes.
func stripes() *tasks.Definition {
	docs := generateDocs()
	docs.Lead = "Deprecated: use pattern.generate with kind stripes, which draws the same tiles. pattern.stripes draws " +
		"seamless stripe tiles in the colours you send."
	docs.Limitations = append(
		[]string{"Deprecated since 2026-09-29; it keeps working until its removal is announced in the changelog."},
		docs.Limitations[:1]...)
	docs.Errors = tasks.ErrorList(
		apierr.FieldNotAccepted,
		apierr.InvalidOption,
		apierr.TooManyColours,
		apierr.InvalidColour,
	)
	docs.Compares = []tasks.Compare{{
		Task:         "pattern.generate",
		UseThisWhen:  "an existing integration still calls it.",
		UseOtherWhen: "always for new work; send the same body plus \"kind\": \"stripes\".",
	}}
	docs.Related = []tasks.Related{{Task: "pattern.generate", Relation: "sibling"}}
	return &tasks.Definition{
		Name: "pattern.stripes", Title: "Generate stripes (deprecated)",
		Description: "Draws seamless stripe tiles; replaced by pattern.generate with kind stripes.",
		Category:    tasks.CategoryDesignGeneration, Unit: "tile",
		InputSchema: tasks.MustJSON(tasks.InputSchema[stripesInput](
			"pattern.stripes input",
			"A seamless stripe tile request.",
			nil,
		)),
		OutputSchema: outputSchema(),
		Status:       "deprecated",
		ReplacedBy:   "pattern.generate",
		DeprecatedOn: "2026-09-29",
		Migration: `POST the same body to /v1/tasks/pattern.generate with "kind": "stripes" added; the tiles, prices ` +
			`and outputs are the same.`,
		Runner:     tasks.Typed[stripesInput](stripesRunner{}),
		Pricing:    resolutionPricing,
		ErrorRules: colourRules,
		Docs:       docs,
		Produces:   []string{"seamless_tile", "job"},
		Uses:       []string{"seed", "output_resolution", "credit_hold"},
		Examples: []tasks.Example{{Name: "stripes", Title: "Navy and cream stripes",
			Description: "The same tile as pattern.generate with kind stripes.",
			Input: json.RawMessage(
				`{"colors":["#1B2A4A","#F4F1EA"],"stripe_angle":90,"resolution":"512","seed":1}`,
			)}},
	}
}

// legacy was removed: every call naming it answers 410 task_removed.
func legacy() *tasks.Definition {
	return &tasks.Definition{
		Name: "pattern.legacy", Title: "Legacy pattern (removed)",
		Description: "Removed; use pattern.generate.",
		Category:    tasks.CategoryDesignGeneration, Unit: "tile",
		ReplacedBy: "pattern.generate",
		Removed:    true,
		RemovedOn:  "2026-09-29",
		Migration:  "Call pattern.generate; its kind field picks the pattern pattern.legacy drew.",
	}
}
