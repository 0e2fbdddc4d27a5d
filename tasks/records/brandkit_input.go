package records

import "github.com/taskplatform/taskplatform/tasks"

// brandKitInput is a brand_kit.create request.
type brandKitInput struct {
	Name       string   `json:"name" schema:"required"`
	Colours    []string `json:"colours" schema:"required"`
	Moodboards []string `json:"moodboards" schema:"required"`
	Looks      []string `json:"looks"`
	Notes      *string  `json:"notes"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (brandKitInput) FieldSchemas() map[string]any {
	props := obj{
		"name": nameSchema("The brand or collection the kit is for."),
		"colours": obj{
			"items":       tasks.ColourSchema("A brand colour, #RRGGBB."),
			"minItems":    1,
			"maxItems":    12,
			"description": "The brand's colours, most important first: 1 to 12.",
		},
		"moodboards": obj{"minItems": 1, "maxItems": 6, "uniqueItems": true,
			"items": obj{
				"pattern":  tasks.HandlePattern(KindMoodboard),
				"examples": []any{"moodboard:mb_cur_coastal"},
			},
			"description": "Moodboards the kit draws on: moodboard:<id> handles of the account's (GET /v1/refs/moodboard) or " +
				"the curated library's (curated=true), each analysed (status ready)."},
		"looks": obj{"maxItems": 12, "uniqueItems": true,
			"items": obj{"pattern": `^https?://\S+$`, "maxLength": 2048,
				"examples": []any{"https://files.example.com/files/mb_cur_coastal_look0.jpg"}},
			"description": "Looks the kit keeps: looks[].url values of the named moodboards' analysis."},
		"notes": obj{
			"maxLength":   2000,
			"description": "Usage notes printed on the sheet: tone, do's and don'ts.",
		},
	}
	return props
}
