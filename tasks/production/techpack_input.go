package production

import (
	"fmt"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/recordread"
)

// techpackInput is a techpack.create request as sent.
type techpackInput struct {
	Name         string          `json:"name" schema:"required"`
	StyleImages  []string        `json:"style_images" schema:"required"`
	Fabric       string          `json:"fabric" schema:"required"`
	Colourways   colourwaysInput `json:"colourways" schema:"required"`
	Measurements []Measurement   `json:"measurements" schema:"required"`
	BOM          []bomInput      `json:"bom" schema:"required"`
	RangePlan    *string         `json:"range_plan"`
	Notes        *string         `json:"notes"`
	StyleCode    *string         `json:"style_code"`
	Version      string          `json:"version"`
	Date         *string         `json:"date"`
	Construction []string        `json:"construction"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (techpackInput) FieldSchemas() map[string]any {
	bomRow := obj{
		"additionalProperties": false,
		"required":             []string{"item", "material", "quantity", "unit"},
		"properties": obj{
			"item": obj{
				"minLength":   1,
				"maxLength":   60,
				"description": "The part, such as Shell fabric, Main label or Zip.",
			},
			"material": obj{
				"minLength":   1,
				"maxLength":   80,
				"description": "What it is made of or its reference.",
			},
			"supplier": obj{"minLength": 1, "maxLength": 80, "description": "Who supplies it."},
			"quantity": obj{
				"minimum":     0,
				"maximum":     100000,
				"description": "How much one garment takes, in unit.",
			},
			"unit": tasks.VocabEnum(bomUnitVocab(), "The unit of quantity."),
		},
	}
	measurement := obj{
		"additionalProperties": false,
		"required":             []string{"point", "tolerance_mm", "sizes"},
		"properties": obj{
			"point": obj{
				"minLength":   1,
				"maxLength":   60,
				"description": "The point of measure, such as Chest width or Centre back length.",
			},
			"tolerance_mm": obj{
				"minimum":     0,
				"maximum":     100,
				"description": "The tolerance, ± millimetres.",
			},
			"sizes": obj{"additionalProperties": obj{"type": "number", "minimum": 0, "maximum": 5000},
				"description": fmt.Sprintf(
					"The measurement in millimetres by size name (S, M, L or 38, 40…): 1 to %d sizes, names of 1 to %d characters. "+
						"The table's columns run in size order: letter sizes XXS to 5XL, then numeric sizes ascending, then other "+
						"names alphabetically.",
					maxSizes,
					maxSizeName,
				),
				"examples": []any{obj{"S": 480, "M": 510, "L": 540}}},
		},
	}
	way := obj{
		"type":        "array",
		"minItems":    1,
		"maxItems":    maxWayColours,
		"items":       tasks.ColourSchema("A colour of the colourway, #RRGGBB."),
		"description": fmt.Sprintf("One colourway: 1 to %d colours, main colour first.", maxWayColours),
	}
	props := obj{
		"name": obj{
			"minLength":   1,
			"maxLength":   80,
			"description": "The style's name, printed on every page.",
			"examples":    []any{"Harbour Breton tee"},
		},
		"style_images": obj{tasks.RefKeyword: "image", "minItems": 1, "maxItems": maxStyleImages,
			"items": obj{
				"pattern":     tasks.RefPattern,
				"maxLength":   2048,
				"description": "A file: handle (POST /v1/files), an art: handle a job delivered, or a public https URL.",
			},
			"description": fmt.Sprintf(
				"Flats or photos of the style, 1 to %d, laid out on the cover in this order.",
				maxStyleImages,
			)},
		"fabric": obj{"pattern": tasks.HandlePattern(recordread.KindFabric),
			"description": "fabric:<id> of the account's or the curated library's (GET /v1/refs/fabric): its facts fill the " +
				"fabric card."},
		"colourways": obj{
			"description": fmt.Sprintf(
				"The style's colourways: brand_kit:<id> of the account's (one colourway per kit colour, named after it; the "+
					"kit's looks must be analysed, brand_kit_look_not_ready), or a list of 1 to %d colourways, each a list of 1 to "+
					"%d colours #RRGGBB.",
				maxColourways,
				maxWayColours,
			),
			"oneOf": []any{
				obj{
					"type":        "string",
					"pattern":     tasks.HandlePattern(recordread.KindBrandKit),
					"description": "brand_kit:<id>.",
				},
				obj{
					"type":        "array",
					"minItems":    1,
					"maxItems":    maxColourways,
					"items":       way,
					"description": "Colourways, each a list of colours.",
				},
			},
			"examples": []any{[]any{[]any{"#1B2A4A", "#FAFAF7"}, []any{"#D6C3A1"}}, "brand_kit:bk_abc123"}},
		"measurements": obj{"minItems": 1, "maxItems": maxMeasurements, "items": measurement,
			"description": fmt.Sprintf("The graded measurement table: 1 to %d points of measure.", maxMeasurements)},
		"bom": obj{"minItems": 1, "maxItems": maxBOMRows, "items": bomRow,
			"description": fmt.Sprintf("The bill of materials: 1 to %d rows.", maxBOMRows)},
		"range_plan": obj{"pattern": tasks.HandlePattern(recordread.KindRangePlan),
			"description": "range_plan:<id> of the account's the style belongs to; its name and season head the cover."},
		"notes": obj{
			"maxLength":   2000,
			"description": "Construction or finishing notes, printed on the cover and in full on the construction page.",
		},
		"style_code": obj{"minLength": 1, "maxLength": 24,
			"description": "The style's code, such as HB-TEE-001: printed with the name at the head of every page.",
			"examples":    []any{"HB-TEE-001"}},
		"version": obj{"minLength": 1, "maxLength": 12, "default": "1",
			"description": "The techpack's version, such as 1, 2 or 2b: at the head of every page."},
		"date": obj{"pattern": `^\d{4}-\d{2}-\d{2}$`,
			"description": "The techpack's date, YYYY-MM-DD, at the head of every page; without it, the day the job runs " +
				"(UTC)."},
		"construction": obj{"maxItems": maxConstruction,
			"items": obj{"maxLength": 300,
				"description": "One step or spec, such as Side seams: 4-thread overlock, 1 cm allowance."},
			"description": fmt.Sprintf("Construction notes, up to %d, numbered on the construction page.", maxConstruction)},
	}
	return props
}
