package records

import (
	"fmt"

	"github.com/taskplatform/taskplatform/tasks"
)

// rangePlanInput is a range_plan.create request.
type rangePlanInput struct {
	Name     string          `json:"name" schema:"required"`
	Season   string          `json:"season" schema:"required"`
	Items    []planItemInput `json:"items" schema:"required"`
	BrandKit *string         `json:"brand_kit"`
	Currency *string         `json:"currency"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (rangePlanInput) FieldSchemas() map[string]any {
	item := obj{
		"additionalProperties": false,
		"required":             []string{"type", "name", "quantity"},
		"properties": obj{
			"type": tasks.VocabEnum(
				garmentVocab(),
				"The garment type; see the vocabulary for the most items of each type.",
			),
			"name": obj{"minLength": 1, "maxLength": 80, "description": "The style's name."},
			"fabric": obj{
				"pattern":     tasks.HandlePattern(KindFabric),
				"description": "fabric:<id> of the account's or the curated library's.",
			},
			"colours": obj{
				"maxItems":    6,
				"items":       tasks.ColourSchema("A colourway, #RRGGBB."),
				"description": "Colourways, up to 6.",
			},
			"quantity": obj{"minimum": 1, "maximum": 100000, "description": "Units planned."},
			"images": obj{"minItems": 1, "maxItems": maxItemImages, tasks.RefKeyword: "image",
				"items": obj{"pattern": tasks.RefPattern, "maxLength": 2048,
					"description": "A file: handle (POST /v1/files), an art: handle a job delivered " +
						"(a photoshoot's shots are art: handles) or a public https URL."},
				"description": fmt.Sprintf("The item's images, up to %d; the first leads the item's card. "+
					"An image two items show is named in each and loaded once; at most %d different images "+
					"in a plan.", maxItemImages, maxPlanImages)},
			"price": obj{"minimum": 0, "maximum": 1000000,
				"description": "The selling price of one unit, in the plan's currency."},
			"cost": obj{"minimum": 0, "maximum": 1000000,
				"description": "The cost of one unit (landed), in the plan's currency."},
			"sizes": obj{"minItems": 1, "maxItems": 12,
				"items":       obj{"maxLength": 8, "description": "A size name; blank ones are left out."},
				"description": "The size run, smallest first: XS, S, M, L or 36, 38, 40."},
			"drop": obj{"minLength": 1, "maxLength": 24,
				"description": fmt.Sprintf("The delivery drop, such as Drop 1 or Feb; the sheet is laid out "+
					"by drop when any item names one (at most %d drops).", maxDrops)},
			"colourway": obj{"minLength": 1, "maxLength": 40,
				"description": "The colourway's name, such as Navy/Ecru, printed beside its colours."},
		},
	}
	props := obj{
		"name": nameSchema("The range's name."),
		"season": obj{
			"minLength":   1,
			"maxLength":   40,
			"description": "The season, such as SS27 or Autumn/Winter 2026.",
			"examples":    []any{"SS27"},
		},
		"items": obj{"minItems": 1, "maxItems": 60, "items": item,
			"description": "The styles of the range, 1 to 60, grouped by type on the sheet. " +
				"At most so many of one type: " + limitsText() + "."},
		"currency": obj{"enum": currencyCodes(),
			"description": "The ISO 4217 currency of the items' prices and costs; required when an item has one."},
		"brand_kit": obj{"pattern": tasks.HandlePattern(KindBrandKit),
			"description": "brand_kit:<id> of the account's: its colours and looks head the sheet; its looks must be " +
				"analysed (brand_kit_look_not_ready)."},
	}
	return props
}
