package image

import (
	"github.com/taskplatform/taskplatform/tasks"
)

// PairInput is one explicit pairing as a request sends it.
type PairInput struct {
	From string `json:"from" schema:"required"`
	To   string `json:"to" schema:"required"`
}

// Pairs are the pairings of a request, parsed.
func Pairs(in []PairInput) []Pair {
	var out []Pair
	for _, p := range in {
		out = append(out, Pair{From: tasks.ParseColour(p.From), To: tasks.ParseColour(p.To)})
	}
	return out
}

// MappingSchema is the schema of an explicit mapping, as image.recolour
// and colourway.generate take it.
func MappingSchema() map[string]any {
	return obj{
		"type":     "array",
		"minItems": 1,
		"maxItems": maxPaletteColours,
		"items": obj{"type": "object", "required": []string{"from", "to"}, "additionalProperties": false,
			"examples": []any{obj{"from": "#F2C91E", "to": "#F6E1DC"}},
			"properties": obj{
				"from": tasks.ColourSchema(
					"A colour of the image: the image's colour nearest it (within ΔE2000 20) is recoloured."),
				"to": tasks.ColourSchema("The colour it becomes."),
			}},
		"description": "Explicit pairs instead of a palette: each image colour nearest a from becomes its to; " +
			"colours of the image no from is near keep their colour. The mapping a job returns names the image's colours.",
		"examples": []any{[]any{obj{"from": "#F2C91E", "to": "#F6E1DC"}, obj{"from": "#1B2A4A", "to": "#5A2446"}}},
	}
}

// AreaSchema is the schema of the area recoloured.
func AreaSchema() map[string]any {
	return tasks.VocabEnum(AreaVocab(), "What is recoloured: the product on its backdrop, or the whole image.")
}

// AreaVocab is the recolour_area vocabulary.
func AreaVocab() tasks.Vocabulary {
	return tasks.Vocabulary{
		Name: "recolour_area", Description: "What a recolouring changes.",
		Values: []tasks.VocabValue{
			{
				Value: AreaAuto, Label: "Automatic", Default: true,
				Description: "The product only when the image is one object on a plain or graded backdrop " +
					"(found as image.remove_background finds it); otherwise the whole image.",
				ChooseWhen: "you are unsure",
			},
			{
				Value: AreaProduct, Label: "Product",
				Description: "The product only: backdrop and shadows are kept as they are, and the product's soft " +
					"edge is laid back over them. Fails when no plain backdrop is found.",
				ChooseWhen: "a product shot must keep its backdrop and shadow",
			},
			{
				Value: AreaWhole, Label: "Whole image",
				Description: "Every pixel, the ground of a print included.",
				ChooseWhen:  "a print or an illustration whose ground should change too",
			},
		},
		Default: new(AreaAuto),
	}
}
