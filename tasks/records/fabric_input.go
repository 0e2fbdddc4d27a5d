package records

import (
	"fmt"

	"github.com/taskplatform/taskplatform/tasks"
)

// fabricInput is a fabric.create request. The record keeps its facts as
// sent, so they decode into the record's FabricFacts.
type fabricInput struct {
	Name   string       `json:"name" schema:"required"`
	Facts  FabricFacts  `json:"facts" schema:"required"`
	Swatch *string      `json:"swatch"`
	Colour *string      `json:"colour"`
	Trade  *FabricTrade `json:"trade"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (fabricInput) FieldSchemas() map[string]any {
	props := obj{
		"name": nameSchema("The fabric's name, as a mill or a designer calls it."),
		"facts": obj{
			"additionalProperties": false,
			"required":             []string{"weight_gsm", "composition", "construction"},
			"description":          "What the fabric is made of and how.",
			"properties": obj{
				"weight_gsm": obj{"minimum": minWeight, "maximum": maxWeight,
					"description": fmt.Sprintf(
						"Weight in grams per square metre: a whole number, %d to %d.",
						minWeight,
						maxWeight,
					)},
				"composition": obj{"minItems": 1, "maxItems": 6,
					"description": "Fibres and their percentages, adding up to 100; each fibre once.",
					"items": obj{
						"additionalProperties": false,
						"required":             []string{"fibre", "percent"},
						"properties": obj{
							"fibre": tasks.VocabEnum(fibreVocab(), "A fibre."),
							"percent": obj{
								"minimum":     0.5,
								"maximum":     100,
								"description": "Its share, in percent.",
							},
						},
					}},
				"construction": tasks.VocabEnum(constructionVocab(), "How the fabric is made."),
			},
		},
		"swatch": obj{"pattern": tasks.RefPattern, "maxLength": 2048, tasks.RefKeyword: "image",
			"description": "A photo or scan of the fabric: a file: or art: handle or a public https URL. Without one the " +
				"card shows the construction drawn in the fabric's colour. When colour is not sent, the colour is measured from " +
				"this photo."},
		"colour": obj{
			"minLength": 1, "maxLength": 60,
			"description": "The fabric's colour: #RRGGBB, a colour_name value (forest, navy…) or a colour in words " +
				"(\"forest green\", \"dusty rose\"), read as the colour_name entry its words name (the data's colour.name " +
				"says which, colour_sent what was sent); words that name no colour answer invalid_colour. It is the " +
				"record's colour; without it the colour is measured from the swatch photo, and with neither the fabric has " +
				"no colour (the card says so and draws the construction undyed).",
			"examples": []any{"#1F4A2C", "forest", "forest green"},
		},
		"trade": tradeSchema(),
	}
	return props
}
