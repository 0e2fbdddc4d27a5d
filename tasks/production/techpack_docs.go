package production

import (
	"encoding/json"
	"fmt"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

func techpackOutput() json.RawMessage {
	colour := obj{"type": "object", "required": []string{"hex", "srgb", "cmyk"}, "properties": obj{
		"hex": obj{"type": "string", "pattern": tasks.ColourPattern},
		"srgb": obj{
			"type":        "array",
			"items":       obj{"type": "integer", "minimum": 0, "maximum": 255},
			"minItems":    3,
			"maxItems":    3,
			"description": "R, G, B, 0 to 255.",
		},
		"cmyk": obj{
			"type":     "array",
			"items":    obj{"type": "integer", "minimum": 0, "maximum": 100},
			"minItems": 4,
			"maxItems": 4,
			"description": "C, M, Y, K percentages through the service's CMYK ICC profile, or the formula " +
				"fallback: the colourway's cmyk_conversion says which.",
		},
	}}
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": "Techpack data", "type": "object",
		"description": "The data of the techpack PDF: the figures it prints, as JSON.",
		"properties": obj{
			"index":  obj{"type": "integer", "const": 0},
			"format": obj{"type": "string", "const": "pdf"},
			"name":   obj{"type": "string", "description": "The style's name."},
			"pages": obj{
				"type":    "integer",
				"minimum": 4,
				"description": "Pages of the PDF: cover, flat sketch, fabric with colourways, then measurements, grading, bill " +
					"of materials and construction notes (when sent), short sections sharing a page, long lists continuing on " +
					"further pages.",
			},
			"style_code":   obj{"type": []any{"string", "null"}, "description": "The style code printed on every page."},
			"version":      obj{"type": "string", "description": "The version printed on every page."},
			"date":         obj{"type": "string", "description": "The date printed on every page, YYYY-MM-DD."},
			"style_images": obj{"type": "integer", "minimum": 1, "maximum": maxStyleImages},
			"fabric": obj{
				"type": "object",
				"required": []string{
					"handle",
					"name",
					"code",
					"weight_gsm",
					"weight_oz_yd2",
					"weight_class",
					"composition",
					"construction",
				},
				"properties": obj{
					"handle": obj{"type": "string"}, "name": obj{"type": "string"}, "code": obj{"type": "string"},
					"weight_gsm": obj{
						"type": "integer",
					}, "weight_oz_yd2": obj{"type": "number"}, "weight_class": obj{"type": "string", "enum": []any{"light", "medium",
						"heavy"}},
					"composition": obj{
						"type": "array",
						"items": obj{
							"type": "object",
							"properties": obj{
								"fibre":   obj{"type": "string", tasks.VocabKeyword: "fibre"},
								"percent": obj{"type": "number"},
							},
						},
					},
					"construction": obj{"type": "string", tasks.VocabKeyword: "fabric_construction"},
				},
			},
			"colourways": obj{
				"type":     "array",
				"minItems": 1,
				"items": obj{"type": "object", "required": []string{"name", "colours"}, "properties": obj{
					"name": obj{"type": "string"}, "colours": obj{"type": "array", "minItems": 1, "items": colour}}},
			},
			"sizes": obj{
				"type":        "array",
				"items":       obj{"type": "string"},
				"description": "The size columns, in size order.",
			},
			"measurements": obj{
				"type": "array",
				"items": obj{
					"type":     "object",
					"required": []string{"point", "tolerance_mm", "sizes"},
					"properties": obj{
						"point": obj{
							"type": "string",
						}, "tolerance_mm": obj{"type": "number"}, "sizes": obj{"type": "object", "additionalProperties": obj{
							"type": "number"}}},
				},
			},
			"bom": obj{
				"type": "array",
				"items": obj{
					"type":     "object",
					"required": []string{"item", "material", "quantity", "unit"},
					"properties": obj{
						"item": obj{
							"type": "string",
						}, "material": obj{"type": "string"}, "supplier": obj{"type": "string"},
						"quantity": obj{
							"type": "number",
						}, "unit": obj{"type": "string", tasks.VocabKeyword: "bom_unit"}},
				},
			},
			"brand_kit": obj{
				"type":        []any{"string", "null"},
				"description": "The brand kit the colourways came from, or null.",
			},
			"range_plan": obj{
				"type":        []any{"object", "null"},
				"description": "The range plan the style belongs to, or null.",
				"properties": obj{
					"handle": obj{"type": "string"}, "name": obj{"type": "string"}, "season": obj{"type": "string"}},
			},
		},
		"required": []string{
			"index",
			"format",
			"name",
			"pages",
			"style_images",
			"fabric",
			"colourways",
			"sizes",
			"measurements",
			"bom",
			"brand_kit",
			"range_plan",
		},
	})
}

func techpackDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "techpack.create lays one style out as a techpack a factory can quote and sample from: a multi-page PDF on " +
			"A4 landscape with a cover of the style images, a flat sketch (front and back) traced from the style images with " +
			"their backdrop removed, drawn as vector curves, and every point of measure it can place called out on it by " +
			"the letter of its row in the measurement " +
			"table, a fabric card filled from a fabric record, colourway swatches with hex, sRGB and ICC-profiled CMYK " +
			"values, the graded measurement table, the grade rules (each point's step from size to size), the bill of " +
			"materials and numbered construction notes. Every page carries the style code and name, the version and date at " +
			"its head and its page number at its foot. It is deterministic layout of what you send and what your records " +
			"hold; no generative model draws or writes anything.",
		BuiltFor: []string{
			"Sending a style to a factory or agent for a quote or a first sample.",
			"Keeping one printable record of a style's fabric, colours, grading and trims beside its range plan.",
		},
		WhatYouGet: []string{
			"One PDF: cover (name, range plan, fabric, style images, notes); flat sketch (vector line art traced from the " +
				"first two " +
				"style images — front, back — with the measurement lines and their letters; a point whose name the sketch " +
				"cannot place, such as a pocket's position, is listed as in the table only); fabric card (swatch drawn from the " +
				"fabric's construction and colour, code, weight in g/m² and oz/yd², composition, construction, colour and its " +
				"source); colourways; measurements; grading; bill of materials; construction notes. Short sections share a " +
				"page; long tables continue on further pages.",
			"Its text is set in embedded fonts (TrueType subsets with Unicode maps), so it can be searched, selected and " +
				"copied.",
			"The file's data: the same figures as JSON — the fabric's facts, every colour with its sRGB and CMYK values, the " +
				"size columns, measurements and bill of materials, and the page count.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          "One PDF per job.",
			CountDependsOn: []string{},
			Order:          nil,
			AbsentWhen: new(
				"A style image that cannot be fetched or read, or a record that went away after submit, fails the job with " +
					"processing_failed; nothing is charged.",
			),
		},
		Specs: append([]tasks.SpecRow{
			{
				Key:   "input_formats",
				Title: "Input formats",
				Text: "style_images: " + inputFormats + " fabric: fabric:<id> (the account's or curated); colourways: " +
					"brand_kit:<id> or lists of #RRGGBB colours; range_plan: range_plan:<id>.",
			},
			{
				Key:   "input_count",
				Title: "Input count",
				Text: fmt.Sprintf(
					"1 to %d style images, 1 to %d colourways of 1 to %d colours, 1 to %d points of measure over at most %d sizes, "+
						"1 to %d bill of materials rows.",
					maxStyleImages,
					maxColourways,
					maxWayColours,
					maxMeasurements,
					maxSizes,
					maxBOMRows,
				),
			},
			{
				Key:   "output_format",
				Title: "Output format",
				Text: "PDF 1.4, A4 landscape (842 × 595 pt), four pages or more, numbered: cover, flat sketch, fabric and " +
					"colourways, measurements, grading, bill of materials, construction.",
			},
			{Key: "outputs_per_job", Title: "Outputs per job", Text: "1."},
		}, commonSpecs()...),
		Limitations: []string{
			"CMYK values are converted through one CMYK ICC profile, the service's (TP_CMYK_PROFILE; by default " +
				"Ghostscript's Artifex CMYK SWOP Profile where Debian's libgs-common is installed), relative colorimetric " +
				"without black point compensation: values for that profile, not for every press. Without a profile they " +
				"are a plain formula (K = 1 − max(R, G, B)), marked (formula) on the sheet.",
			"The fabric card draws the fabric's construction in its measured colour; it is not a photo of the cloth.",
			"Size columns run in size order (XXS to 5XL, then numeric sizes, then other names), not in the order sent: a " +
				"JSON object keeps no order.",
			"A brand kit gives one single-colour colourway per kit colour; send colour lists for multi-colour colourways.",
			"Style images are fetched when the job runs, within limits.url_fetch.",
			"The flat sketch is traced from the style images, not drawn by a designer: the backdrop is removed as " +
				"image.remove_background does (a busy backdrop cannot be, and the whole image is traced, as the sketch says); " +
				"it is drawn as vector paths, not pixels: the silhouette's edge is followed round, simplified (Douglas–Peucker, " +
				"1.4 px at 720 px) and fitted with cubic Bézier curves, corners (a turn of 28° or more) kept sharp, each " +
				"outline one closed PDF path (one stroke, clean joins), in black; the outlines of its colour areas " +
				"(up to 4 colours, shading merged; stripes, panels, trims) the same " +
				"way in grey. On product shots of known outline a curve's middle lies within 0.9 px of the true edge, with " +
				"about one curve a side; seams sewn in the garment's own colour show no line.",
			"Measurement lines are placed from the silhouette by the point's name: chest or bust, waist, hip, hem or sweep, " +
				"shoulder, neck, sleeve, armhole and length on tops and dresses; waist, hip or seat, rise, inseam, thigh, knee, " +
				"leg opening and length or outseam on trousers. A point that names another part (fringe, pom-pom, pocket, " +
				"hood, cuff, collar, brim, strap and the like) is not drawn; such points, and any other the sketch cannot " +
				"place, are listed beside the sketch and measured by the table alone.",
			"Without style_code the head of each page names the style only; without date it carries the day the job ran (UTC).",
		},
		Errors: tasks.ErrorList(
			apierr.FieldNotAccepted,
			apierr.InvalidOption,
			apierr.InvalidColour,
			apierr.NameRequired,
			apierr.ImagesRequired,
			apierr.TooManyImages,
			apierr.ImageNotPublic,
			apierr.RequestRefused,
			apierr.BrandKitLookNotReady,
		),
		Related: []tasks.Related{
			{Task: "fabric.create", Relation: "before"},
			{Task: "brand_kit.create", Relation: "before"},
			{Task: "range_plan.create", Relation: "before"},
			{Task: "print.prepare", Relation: "sibling"},
		},
	}
}

func techpackExamples() []tasks.Example {
	return []tasks.Example{{
		Name: "breton_tee", Title: "A Breton tee on curated jersey",
		Description: "A striped T-shirt on the curated organic cotton jersey, in two colourways, graded S to XL, with its " +
			"trims.",
		Input: json.RawMessage(
			`{"name":"Harbour Breton tee","style_code":"HB-TEE-001","version":"2","date":"2026-11-20",` +
				`"style_images":["file:example_tee_front","file:example_tee_back"],` +
				`"fabric":"fabric:fb_cur_jersey_white","colourways":[["#1B2A4A","#FAFAF7"],["#A4471F","#FAFAF7"]],` +
				`"measurements":[{"point":"Chest width","tolerance_mm":10,"sizes":{"S":480,"M":510,"L":540,"XL":570}},` +
				`{"point":"Centre back length","tolerance_mm":10,"sizes":{"S":680,"M":700,"L":720,"XL":740}},` +
				`{"point":"Sleeve length","tolerance_mm":5,"sizes":{"S":200,"M":210,"L":220,"XL":230}},` +
				`{"point":"Across shoulder","tolerance_mm":5,"sizes":{"S":420,"M":440,"L":460,"XL":480}},` +
				`{"point":"Neck width","tolerance_mm":3,"sizes":{"S":170,"M":175,"L":180,"XL":185}},` +
				`{"point":"Hem width","tolerance_mm":10,"sizes":{"S":490,"M":520,"L":550,"XL":580}},` +
				`{"point":"Armhole depth","tolerance_mm":5,"sizes":{"S":210,"M":220,"L":230,"XL":240}}],` +
				`"bom":[{"item":"Shell fabric","material":"Organic cotton jersey 180 g/m²","supplier":"Curated library",` +
				`"quantity":1.2,"unit":"m"},` +
				`{"item":"Neck rib","material":"1x1 rib, self colour","quantity":0.1,"unit":"m"},` +
				`{"item":"Main label","material":"Woven label 40 × 20 mm","supplier":"Harbour Labels","quantity":1,"unit":"pcs"},` +
				`{"item":"Thread","material":"Polyester core-spun 120","quantity":1,"unit":"cone"}],` +
				`"construction":["Shoulder seams: 4-thread overlock, taped with 6 mm clear elastic.",` +
				`"Neck: 1x1 rib band, 16 mm finished, joined at left shoulder, coverstitched.",` +
				`"Sleeves: set in flat before side seams; stripes match at the sleeve head.",` +
				`"Side and underarm seams: 4-thread overlock in one pass, stripes matched.",` +
				`"Hems: 25 mm at body, 20 mm at sleeve, twin-needle coverstitch.",` +
				`"Main label at centre back neck, 15 mm below the band."],` +
				`"notes":"Twin-needle coverstitch at hems; stripes must match at side seams."}`,
		),
		Files: []tasks.ExampleFile{teeFrontFile, teeBackFile},
	}}
}
