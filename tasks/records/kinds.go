package records

import "github.com/taskplatform/taskplatform/tasks"

// recordKinds are the kinds of record the family keeps, with the fields
// each shows at GET /v1/files/{ref}.
func recordKinds() []tasks.RecordKind {
	return []tasks.RecordKind{
		{
			Name: KindMoodboard,
			Description: "A moodboard (moodboard.create, or curated): its images, and once ready the analysis " +
				"of its palette and looks.",
			Fields: obj{
				"description": obj{"type": []any{"string", "null"}, "description": "What the board is for."},
				"images": obj{"type": "array", "items": obj{"type": "string"},
					"description": "The images as sent; a curated board's are its stored copies."},
			},
			Required: []string{"description", "images"},
			Analysis: analysisSchema(),
			Listing:  tasks.RecordListing{Curated: true},
		},
		{
			Name:        KindBrandKit,
			Description: "A brand kit (brand_kit.create): its colours, moodboards and chosen looks.",
			Fields: obj{
				"colours": obj{"type": "array", "items": kitColourSchema("A colour of the kit."),
					"description": "The kit's colours with their names."},
				"moodboards": obj{"type": "array", "items": obj{"type": "string"},
					"description": "The moodboards it draws on, moodboard:<id>."},
				"looks": obj{"type": "array", "items": kitLookSchema(), "description": "The looks it keeps."},
				"notes": obj{"type": []any{"string", "null"}, "description": "Usage notes."},
			},
			Required: []string{"colours", "moodboards", "looks", "notes"},
		},
		{
			Name:        KindFabric,
			Description: "A fabric (fabric.create, or curated): its facts, code, weight class and colour.",
			Fields:      fabricFieldSchemas(),
			Required:    []string{"facts", "code", "weight_class", "weight_oz_yd2", "swatch", "swatch_url", "colour"},
			Listing:     tasks.RecordListing{Curated: true},
		},
		{
			Name:        KindRangePlan,
			Description: "A range plan (range_plan.create): a season's styles with their fabrics and colourways.",
			Fields:      rangePlanFieldSchemas(),
			Required:    []string{"season", "brand_kit", "items", "totals", "quantity"},
		},
	}
}

// analysisSchema is a moodboard's analysis.
func analysisSchema() obj {
	return obj{
		"type": "object", "required": []string{"palette", "looks"},
		"description": "The board's palette (5 to 8 colours with weight and colour_name) and one look per image.",
		"properties": obj{
			"palette": obj{"type": "array", "items": namedColourSchema("A colour of the board."),
				"description": "The board's palette, heaviest first; weights sum to 1."},
			"looks": obj{"type": "array", "items": lookSchema(), "description": "One look per image, in images order."},
		},
	}
}

// kitColourSchema is a colour with its colour_name.
func kitColourSchema(what string) obj {
	return obj{"type": "object", "description": what, "required": []string{"hex", "name"}, "properties": obj{
		"hex":  tasks.ColourSchema("The colour."),
		"name": obj{"type": "string", tasks.VocabKeyword: "colour_name", "description": "Vocabulary colour_name."},
	}}
}

// kitLookSchema is one look a brand kit keeps.
func kitLookSchema() obj {
	analysis := lookSchema()
	analysis["type"] = []any{"object", "null"}
	analysis["description"] = "The look's analysis; null until the kit is ready."
	return obj{
		"type": "object", "required": []string{"url", "moodboard", "index", "analysis", "kit_match"},
		"properties": obj{
			"url":       obj{"type": "string", "description": "The look's stored copy."},
			"moodboard": obj{"type": "string", "description": "The moodboard it comes from, moodboard:<id>."},
			"index":     obj{"type": "integer", "minimum": 0, "description": "Its position in that moodboard."},
			"analysis":  analysis,
			"kit_match": obj{
				"type":        []any{"array", "null"},
				"description": "Per dominant colour of the look, the nearest kit colour; null until the kit is ready.",
				"items": obj{"type": "object", "required": []string{"hex", "kit_colour", "delta_e", "on_brand"},
					"properties": obj{
						"hex":        tasks.ColourSchema("A dominant colour of the look."),
						"kit_colour": tasks.ColourSchema("The kit colour nearest it."),
						"delta_e":    obj{"type": "number", "minimum": 0, "description": "CIEDE2000 between the two."},
						"on_brand":   obj{"type": "boolean", "description": "delta_e is 10 or less."},
					}},
			},
		},
	}
}

// fabricFieldSchemas are a fabric record's own fields.
func fabricFieldSchemas() obj {
	return obj{
		"facts": obj{"type": "object", "description": "The facts as sent.",
			"required": []string{"weight_gsm", "composition", "construction"},
			"properties": obj{
				"weight_gsm": obj{"type": "integer", "description": "Grams per square metre."},
				"composition": obj{"type": "array", "items": obj{"type": "object",
					"required": []string{"fibre", "percent"}, "properties": obj{
						"fibre":   obj{"type": "string", tasks.VocabKeyword: "fibre"},
						"percent": obj{"type": "number"}}}},
				"construction": obj{"type": "string", tasks.VocabKeyword: "fabric_construction"},
			}},
		"code": obj{"type": "string",
			"description": "Composition, construction and weight, such as CO98EL2-DN-340."},
		"weight_class": obj{"type": "string", "enum": []any{"light", "medium", "heavy"},
			"description": "Under 170 g/m², 170 to 270, over 270."},
		"weight_oz_yd2": obj{"type": "number", "description": "The weight in ounces per square yard."},
		"swatch":        obj{"type": []any{"string", "null"}, "description": "The swatch reference as sent."},
		"swatch_url": obj{"type": []any{"string", "null"},
			"description": "The stored swatch image; null until the fabric is ready."},
		"colour": nullableObj(kitColourSchema(
			"The fabric's colour: the caller's, or measured from the swatch photo; null when neither was sent.")),
		"colour_source": obj{"type": "string", "enum": []any{colourGiven, colourMeasured, colourNone},
			"description": "Where colour comes from: given, measured from the photo, or none."},
	}
}

// rangePlanFieldSchemas are a range plan record's own fields.
func rangePlanFieldSchemas() obj {
	number := func(what string) obj { return obj{"type": []any{"number", "null"}, "description": what} }
	money := obj{
		"value":  number("Units times price over the items with a price; null when none has one."),
		"cost":   number("Units times cost over the items with a cost; null when none has one."),
		"margin": number("(value − cost) / value over the items with both, a fraction; null when none has both."),
	}
	total := func(key string, keySchema obj, what string) obj {
		props := obj{key: keySchema, "items": obj{"type": "integer"}, "quantity": obj{"type": "integer"}}
		for k, v := range money {
			props[k] = v
		}
		return obj{"type": "array", "description": what, "items": obj{"type": "object",
			"required": []string{key, "items", "quantity", "value", "cost", "margin"}, "properties": props}}
	}
	sum := obj{"type": "object", "description": "The plan's value, cost and margin in all.",
		"required": []string{"value", "cost", "margin"}, "properties": money}
	return obj{
		"season":    obj{"type": "string", "description": "The season."},
		"brand_kit": obj{"type": []any{"string", "null"}, "description": "The brand kit heading the sheet."},
		"currency": obj{"type": "string",
			"description": "The ISO 4217 currency of prices and costs; absent when no item has one."},
		"items": obj{"type": "array", "description": "The styles.", "items": obj{"type": "object",
			"required": []string{"type", "name", "fabric", "colours", "quantity"},
			"properties": obj{
				"type":      obj{"type": "string", tasks.VocabKeyword: "garment_type"},
				"name":      obj{"type": "string"},
				"fabric":    obj{"type": []any{"string", "null"}, "description": "fabric:<id>, or null."},
				"colours":   obj{"type": "array", "items": kitColourSchema("A colour of the colourway.")},
				"quantity":  obj{"type": "integer", "minimum": 0, "description": "Units planned."},
				"images":    obj{"type": "array", "items": obj{"type": "string"}, "description": "Its images as sent."},
				"price":     obj{"type": "number", "description": "The unit price, in currency."},
				"cost":      obj{"type": "number", "description": "The unit cost, in currency."},
				"sizes":     obj{"type": "array", "items": obj{"type": "string"}, "description": "The sizes offered."},
				"drop":      obj{"type": "string", "description": "The delivery drop."},
				"colourway": obj{"type": "string", "description": "The colourway's name."},
			}}},
		"totals": total("type", obj{"type": "string", tasks.VocabKeyword: "garment_type"},
			"Styles, units and money per garment type."),
		"drops": total("drop", obj{"type": "string", "description": "The drop; empty for items sent without one."},
			"Styles, units and money per delivery drop; absent when no item names a drop."),
		"quantity": obj{"type": "integer", "description": "Units planned in all."},
		"sum":      sum,
	}
}

// nullableObj lets an object schema be null.
func nullableObj(s obj) obj {
	s["type"] = []any{"object", "null"}
	return s
}
