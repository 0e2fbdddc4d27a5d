package tasks

import (
	"encoding/json"

	"github.com/taskplatform/taskplatform/apierr"
)

// patternStripes is the deprecated first stripes task. It still runs
// unchanged, drawing with pattern.generate's renderer as kind stripes.
func patternStripes() *Definition {
	props := patternFields()
	delete(props, "use_case")
	docs := patternDocs()
	docs.Lead = "Deprecated: use pattern.generate with kind stripes, which draws the same tiles. pattern.stripes draws seamless stripe tiles in the colours you send."
	docs.Limitations = append([]string{"Deprecated since 2026-09-29; it keeps working until its removal is announced in the changelog."}, docs.Limitations[:1]...)
	docs.Errors = errorList(apierr.FieldNotAccepted, apierr.InvalidOption, apierr.TooManyColours, apierr.InvalidColour)
	docs.Compares = []Compare{{
		Task:         "pattern.generate",
		UseThisWhen:  "an existing integration still calls it.",
		UseOtherWhen: "always for new work; send the same body plus \"kind\": \"stripes\".",
	}}
	docs.Related = []Related{{Task: "pattern.generate", Relation: "sibling"}}
	return &Definition{
		Name: "pattern.stripes", Title: "Generate stripes (deprecated)",
		Description: "Draws seamless stripe tiles; replaced by pattern.generate with kind stripes.",
		Category:    CategoryDesignGeneration, Unit: "tile",
		InputSchema: mustJSON(objectSchema("pattern.stripes input",
			"A seamless stripe tile request.", props, []string{"colors"}, nil)),
		OutputSchema: patternOutputSchema(),
		Status:       "deprecated",
		ReplacedBy:   "pattern.generate",
		Runner:       patternRunner{kind: "stripes"},
		Pricing:      resolutionPricing,
		ErrorRules:   colourRules,
		Docs:         docs,
		Examples: []Example{{Name: "stripes", Title: "Navy and cream stripes",
			Description: "The same tile as pattern.generate with kind stripes.",
			Input:       json.RawMessage(`{"colors":["#1B2A4A","#F4F1EA"],"stripe_angle":90,"resolution":"512","seed":1}`)}},
	}
}

// patternLegacy was removed: every call naming it answers 410 task_removed.
func patternLegacy() *Definition {
	return &Definition{
		Name: "pattern.legacy", Title: "Legacy pattern (removed)",
		Description: "Removed; use pattern.generate.",
		Category:    CategoryDesignGeneration, Unit: "tile",
		ReplacedBy: "pattern.generate",
		Removed:    true,
	}
}
