package records

import (
	"encoding/json"
	"fmt"
	"image"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// exampleFile is an example file drawn by a motif, as PNG.
func exampleFile(ref, name string, m motif) tasks.ExampleFile {
	return tasks.ExampleFile{Ref: ref, Name: name, MediaType: "image/png", Data: func() []byte {
		b, _ := encodePNG(m(curatedImageSide))
		return b
	}}
}

// validation are the codes every record task's validation answers.
var validation = []apierr.Code{apierr.FieldNotAccepted, apierr.NameRequired}

// specs are spec rows, each a key and its text.
func specs(rows ...[2]string) []tasks.SpecRow {
	out := make([]tasks.SpecRow, len(rows))
	for i, r := range rows {
		out[i] = tasks.Spec(r[0], r[1])
	}
	return out
}

func moodboardDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "moodboard.create keeps 3 to 24 images as a moodboard record. The record exists from the moment the job is " +
			"accepted (status analysing); the job delivers a collage, then analyses the board: a palette of 5 to 8 colours " +
			"clustered in CIELAB with their weights and nearest named colours, and one look per image with its dominant " +
			"colours, lightness, chroma, temperature and whether it reads as a print or a solid.",
		BuiltFor: []string{
			"Collecting inspiration for a collection and reading its colour story.",
			"Giving brand_kit.create analysed looks and palettes to keep.",
		},
		WhatYouGet: []string{
			"The record moodboard:<id>, listed at GET /v1/refs/moodboard and read at GET /v1/files/moodboard:<id>: " +
				"analysing, then ready with its analysis, or failed with a reason.",
			"File 0: the collage (JPEG, 1800 px wide), the images in justified rows under the board's name: each image at " +
				"its own proportions (never stretched; cropped only beyond 2.5:1 or 1:2.5), every row filling the width but a " +
				"short last row, which keeps the rows' height and is centred.",
			"File 1: the analysis sheet (PNG) whose data holds the palette and the looks; each look's url is the service's " +
				"stored copy of the image.",
		},
		Outputs: tasks.DocsOutputs{
			Count: "Two: the collage, then the analysis.", CountDependsOn: []string{},
			Order: new("Collage first, analysis second."),
			AbsentWhen: new(
				"The analysis runs on the capacity-limited analysis queue: a job that cannot get a slot within the capacity " +
					"deadline fails capacity_busy (retryable), charged for the collage only; the record then reads failed.",
			),
		},
		Specs: specs(
			[2]string{
				"input_formats",
				"Images: PNG, JPEG, GIF, WebP or BMP, at most 8192 px a side; file: and art: handles or public https URLs.",
			},
			[2]string{"input_count", fmt.Sprintf("%d to %d images.", minBoardImages, maxBoardImages)},
			[2]string{
				"output_format",
				"Collage JPEG; analysis sheet PNG; looks stored as JPEG, at most 1200 px a side.",
			},
			[2]string{"output_resolution", "1800 px wide; height grows with the number of images."},
			[2]string{"outputs_per_job", "2."},
			[2]string{"watermark", "None."},
			[2]string{"commercial_use", "Allowed for images you hold the rights to."},
			[2]string{"content_checks", "None."},
			[2]string{"reproducibility", "Deterministic: the same images give the same palette, looks and bytes."},
		),
		Limitations: []string{
			"The palette has 5 to 8 colours, fewer when the board holds fewer distinct colours (a board of pure red and pure " +
				"blue gives those two); colours within CIEDE2000 4 of each other are one colour, and colours under 1.5% of the " +
				"board are left out. Each image weighs the same, whatever its size.",
			"Looks are read at 128 px a side: temperature counts pixels with C*ab over 12 (warm is hue 330° to 100°), " +
				"surface is print when more than 8% of pixels sit on a lightness edge (14 of 14 right on the project's labelled " +
				"set of plain colours, cloths, product shots, blurred photos, stripes, checks and dots).",
			"With ignore_backdrops (the default) an image whose border is mostly one light, near-neutral colour (L* 60 or " +
				"more, C*ab 12 or less) is read as a product shot: that backdrop, and its soft shadow, reached from the border, " +
				"are left out of the palette and the look's colours (its look names it in backdrop). An image that is nearly " +
				"all that colour is its own subject and is kept whole; a white garment touching a white sweep loses its edge to " +
				"it.",
			"URLs are fetched when the job runs, within limits.url_fetch; an image that cannot be fetched or read " +
				"fails the job with processing_failed, saying why.",
			"Images are read one at a time, each within the pixel budget (" + tasks.ImageBudget +
				"; an upload over it is refused at submit with request_refused naming images[i]) and at most 8192 px a side.",
		},
		Errors: tasks.ErrorList(
			append(validation, apierr.ImagesRequired, apierr.MoodboardNeedsImages, apierr.TooManyImages,
				apierr.ImageNotPublic, apierr.RequestRefused, apierr.CapacityBusy)...),
		Related: []tasks.Related{
			{Task: "brand_kit.create", Relation: "after"},
			{Task: "pattern.repeat", Relation: "sibling"},
		},
	}
}

func moodboardExamples() []tasks.Example {
	// crop is a motif drawn square, cut to w:h.
	crop := func(m motif, w, h int) motif {
		return func(side int) image.Image {
			img := m(side)
			cw, ch := side, side*h/w
			if h > w {
				cw, ch = side*w/h, side
			}
			return imaging.CropCenter(img, cw, ch)
		}
	}
	shot := func(kind, hex string) motif {
		return func(side int) image.Image { return ProductShot(kind, hex, "#FFFFFF", side) }
	}
	return []tasks.Example{{Name: "harbour", Title: "A seaside board of seven images",
		Description: "Breton stripes, a sand linen, a sky blue and four product shots and crops of other proportions: " +
			"the collage keeps each image's shape; the analysis finds navy, white, sand and sky and leaves the " +
			"product shots' white sweep out.",
		Input: json.RawMessage(`{"name":"Harbour SS27","images":["file:example_mb_breton","file:example_mb_linen",` +
			`"file:example_mb_sky","file:example_mb_tee","file:example_mb_dress","file:example_mb_check",` +
			`"file:example_mb_shirt"],"description":"Seaside stripes and linen."}`),
		Files: []tasks.ExampleFile{
			exampleFile("file:example_mb_breton", "breton.png", stripes("#1B2A4A", "#FAFAF7", 24)),
			exampleFile("file:example_mb_linen", "linen.png", cloth("plain_weave", "#D6C3A1")),
			exampleFile("file:example_mb_sky", "sky.png", solid("#8EC6EA")),
			exampleFile("file:example_mb_tee", "tee.png", shot("t_shirt", "#1B2A4A")),
			exampleFile("file:example_mb_dress", "dress.png", crop(shot("dress", "#D6C3A1"), 3, 4)),
			exampleFile("file:example_mb_check", "check.png", crop(check("#1B2A4A", "#8EC6EA", 40), 3, 2)),
			exampleFile("file:example_mb_shirt", "shirt.png", crop(shot("shirt", "#8EC6EA"), 4, 5)),
		},
	}}
}

func brandKitDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "brand_kit.create keeps a brand's colours, the analysed moodboards it draws on and the looks it picks from " +
			"them as a brand kit record, and delivers a brand sheet: a PNG and a one-page PDF whose text is real, searchable " +
			"text. The job matches each look's dominant colours to the nearest kit colour, so you see which looks sit on brand.",
		BuiltFor: []string{
			"Fixing a collection's colours with their names, RGB and CMYK for suppliers.",
			"Handing image and techpack tasks one brand_kit:<id> instead of colour lists.",
		},
		WhatYouGet: []string{
			"The record brand_kit:<id> (colours with names, moodboards, looks with their analysis and kit match), creating " +
				"until the sheet is drawn, then ready.",
			"File 0: the brand sheet as PNG; file 1: the same as a one-page A4 PDF with the Go fonts embedded.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          "Two: PNG, then PDF.",
			CountDependsOn: []string{},
			Order:          new("PNG first, PDF second."),
		},
		Specs: specs(
			[2]string{"input_formats", "Colours #RRGGBB; moodboard:<id> handles; look URLs from those moodboards."},
			[2]string{"input_count", "1 to 12 colours, 1 to 6 moodboards, up to 12 looks."},
			[2]string{"output_format", "PNG and PDF (A4 portrait, one page)."},
			[2]string{"output_resolution", "PNG 1800 px wide."},
			[2]string{"outputs_per_job", "2."},
			[2]string{"watermark", "None."},
			[2]string{"commercial_use", "Allowed."},
			[2]string{"content_checks", "None."},
			[2]string{"reproducibility", "Deterministic."},
		),
		Limitations: []string{
			"Every moodboard must be the account's or a curated one, and analysed (status ready): a moodboard still " +
				"analysing or failed answers moodboard_not_ready.",
			"A look is named by its url from a named moodboard's analysis; any other address answers look_not_in_moodboard.",
			"CMYK figures are a plain conversion without an ICC profile; ask your printer for profiled values.",
			"A look counts as on brand when its colour is within CIEDE2000 10 of a kit colour.",
		},
		Errors: tasks.ErrorList(
			append(validation, apierr.InvalidColour, apierr.TooManyColours, apierr.MoodboardRequired,
				apierr.MoodboardNotReady, apierr.LookNotInMoodboard)...),
		Related: []tasks.Related{
			{Task: "moodboard.create", Relation: "before"},
			{Task: "range_plan.create", Relation: "after"},
		},
	}
}

func brandKitExamples() []tasks.Example {
	return []tasks.Example{{Name: "harbour_kit", Title: "A kit on a curated moodboard",
		Description: "Four colours and the curated Coastal linen moodboard, with usage notes.",
		Input: json.RawMessage(
			`{"name":"Harbour","colours":["#1B2A4A","#D6C3A1","#FAFAF7","#8EC6EA"],"moodboards":["moodboard:mb_cur_coastal"],` +
				`"notes":"Navy leads; sand and white for grounds; sky blue only as an accent."}`,
		),
	}}
}

func fabricDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "fabric.create keeps a fabric as a record: its weight in g/m² (with its weight class and oz/yd²), its " +
			"composition by fibre, its construction, a short code such as CO98EL2-DN-340, and its colour: the one you send " +
			"(#RRGGBB, a colour name such as forest, or words such as \"forest green\" read as the colour_name entry they " +
			"name), else the main colour measured from a swatch photo, else none — the " +
			"colour is never guessed, and the card says which. What a buyer orders by goes in trade: usable width (cm), " +
			"shrinkage after washing (length and width, %), price a metre with its currency and minimum order (m); the " +
			"card and the techpack's fabric page print what is sent, with inches and yards beside. The job delivers a " +
			"swatch card.",
		BuiltFor: []string{
			"Building a fabric library to plan ranges and techpacks on.",
			"Labelling: composition written with the ISO 2076 / EU fibre codes.",
		},
		WhatYouGet: []string{
			"The record fabric:<id>, creating until the card is drawn, then ready.",
			"One PNG swatch card (1200 × 1440 px): the swatch (your photo, or the construction drawn in the fabric's colour, " +
				"undyed ecru when it has none), name, code, composition, construction, weight, and the colour with its source " +
				"(as given, measured from the swatch photo, or not given); light colours are outlined so white shows on the " +
				"card. " +
				"Each trade fact sent adds a row (64 px): Width (cm and in), Shrinkage, Price (a metre and a yard), Minimum " +
				"order (m and yd).",
		},
		Outputs: tasks.DocsOutputs{Count: "One card.", CountDependsOn: []string{}},
		Specs: specs(
			[2]string{"input_formats", "An optional swatch image: PNG, JPEG, GIF, WebP or BMP."},
			[2]string{
				"input_count",
				fmt.Sprintf(
					"Weight %d to %d g/m², a whole number; 1 to 6 fibres adding up to 100.",
					minWeight,
					maxWeight,
				),
			},
			[2]string{"output_format", "PNG."},
			[2]string{"output_resolution", "1200 × 1440 px, 64 px taller for each trade row."},
			[2]string{"outputs_per_job", "1."},
			[2]string{"watermark", "None."},
			[2]string{"commercial_use", "Allowed."},
			[2]string{"content_checks", "None."},
			[2]string{"reproducibility", "Deterministic."},
		),
		Limitations: []string{
			"Weight classes: light under 170 g/m², medium 170 to 270, heavy over 270.",
			"Percentages must add up to 100 (to 0.01) with each fibre once, else invalid_request names facts.composition.",
			"trade.price_per_m needs trade.currency (request_refused naming trade.currency); prices are not converted " +
				"between currencies, and the width is the usable width as sent, not measured.",
			"A colour sent in colour is the fabric's colour even when a swatch photo is sent too; a colour is measured only " +
				"from a photo, as its heaviest colour cluster, and lighting in the photo shifts it.",
			"A colour in words is read as the colour_name entry whose value, label or everyday alias makes up most of its " +
				"words, a colour's own word beating its family's (\"forest green\", \"bottle green\" and \"dark green\" are " +
				"forest); the card data's colour_sent keeps the words and colour.name says what they were read as. Words " +
				"naming no entry (\"greenish\") answer invalid_colour at submit, naming colour.",
			"Width, shrinkage, price and minimum order are not fields of a fabric yet.",
		},
		Errors: tasks.ErrorList(append(validation, apierr.InvalidOption, apierr.InvalidWeight, apierr.InvalidColour,
			apierr.ImageNotPublic,
			apierr.RequestRefused)...),
		Related: []tasks.Related{{Task: "range_plan.create", Relation: "after"}},
	}
}

func fabricExamples() []tasks.Example {
	return []tasks.Example{
		{Name: "stretch_denim", Title: "A stretch denim without a photo",
			Description: "98% cotton, 2% elastane, 340 g/m² in the colour sent, with width, shrinkage, price and " +
				"minimum order: the card draws a denim twill in it and lists the buying facts.",
			Input: json.RawMessage(
				`{"name":"Stretch denim, mid blue","facts":{"weight_gsm":340,"composition":[{"fibre":"cotton","percent":98},` +
					`{"fibre":"elastane","percent":2}],"construction":"denim"},"colour":"denim",` +
					`"trade":{"width_cm":150,"shrinkage_length_pct":3,"shrinkage_width_pct":2,"price_per_m":7.2,` +
					`"currency":"EUR","minimum_order_m":300}}`,
			)},
		{Name: "camel_twill", Title: "A camel twill from a swatch photo",
			Description: "The swatch's colour is measured and named.",
			Input: json.RawMessage(
				`{"name":"Stretch twill, camel","facts":{"weight_gsm":260,"composition":[{"fibre":"cotton","percent":97},` +
					`{"fibre":"elastane","percent":3}],"construction":"twill"},"swatch":"file:example_fb_twill"}`,
			),
			Files: []tasks.ExampleFile{
				exampleFile("file:example_fb_twill", "twill.png", cloth("twill", "#B9895A")),
			}},
	}
}

func rangePlanDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "range_plan.create keeps a season's styles as a range plan record and lays them out as a buyer's line " +
			"sheet: the totals per garment type and per delivery drop (styles, units, value, margin) first, then a card per " +
			"style, image first — its product shot (your upload, an art: handle such as a photoshoot's shot) or else its " +
			"fabric's swatch — with its name, type, fabric and code, colourway, size run, price, cost, margin and units, " +
			"laid out by drop (or by type when no item names a drop). An overview PNG and a PDF line sheet with page " +
			"numbers. A brand kit, when sent, heads the sheet with its colours.",
		BuiltFor: []string{
			"Planning a season's line: how many styles of each type, in which fabrics and colours.",
			"Sharing a buy plan as a PDF with merchandisers and suppliers.",
		},
		WhatYouGet: []string{
			"The record range_plan:<id> (season, currency, items, totals per type and per drop, the plan's value, cost and " +
				"margin), creating until the overview is drawn, then ready.",
			"File 0: the overview PNG (1800 px wide); file 1: the PDF line sheet, A4 landscape, each page numbered. A drop " +
				"(its heading and a row of cards) continues on the page the last one ended on whenever it fits, and the " +
				"cards are sized for it: six a row with 124 pt images, or, where that saves a page, smaller (down to " +
				"seven a row with 70 pt images), so the example's two drops of four styles fit one page. A style's name " +
				"wraps onto up to three lines (80 characters fit) rather than being cut.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          "Two: PNG, then PDF.",
			CountDependsOn: []string{},
			Order:          new("PNG first, PDF second."),
		},
		Specs: specs(
			[2]string{
				"input_formats",
				"Items with a garment_type, optional fabric:<id>, #RRGGBB colourways, images (PNG, JPEG, GIF, WebP or BMP by " +
					"file:/art: handle or https URL), price, cost, sizes and drop; optional brand_kit:<id>.",
			},
			[2]string{"input_count", "1 to 60 items; at most so many of one type: " + limitsText() + "."},
			[2]string{"output_format", "PNG and PDF (A4 landscape)."},
			[2]string{"output_resolution", "PNG 1800 px wide."},
			[2]string{"outputs_per_job", "2."},
			[2]string{"watermark", "None."},
			[2]string{"commercial_use", "Allowed."},
			[2]string{"content_checks", "None."},
			[2]string{"reproducibility", "Deterministic."},
		),
		Limitations: []string{
			"One item over its type's limit answers too_many_items naming that item (items[i]).",
			"A fabric must be the account's or curated (GET /v1/refs/fabric?curated=true); a brand kit must be the " +
				"account's, and a kit whose looks are still being analysed answers brand_kit_look_not_ready.",
			"Swatches are drawn from the fabric's construction and colour, not from its photo.",
			"Drops flow on: a drop's heading and cards continue on the page the previous drop ended on whenever its " +
				"heading and first row of cards fit there, so a page ends with less than a heading and a row (about 250 pt " +
				"of the 531 pt a page holds) left empty; the example's first page holds the totals and drop 1 (84 pt left).",
			"Images are shown whole (never cropped or stretched) on a light ground; an item's second to fourth images are " +
				"small thumbnails beside its first.",
			"Value is units × price over the items with a price; margin is (value − cost) / value over the items with both a " +
				"price and a cost. Prices and costs need the plan's currency (request_refused otherwise).",
			"An item names its own images (items[i].images), each checked at submit like any image field (another " +
				"account's or a missing file answers invalid_request naming items[i].images[j]); an image two items " +
				"name is loaded once. At most 60 different images and 8 drops.",
		},
		Errors: tasks.ErrorList(
			append(
				validation,
				apierr.InvalidOption,
				apierr.InvalidColour,
				apierr.TooManyItems,
				apierr.BrandKitLookNotReady,
				apierr.ImageNotPublic,
				apierr.RequestRefused,
			)...),
		Related: []tasks.Related{
			{Task: "fabric.create", Relation: "before"},
			{Task: "brand_kit.create", Relation: "before"},
		},
	}
}

func rangePlanExamples() []tasks.Example {
	shot := func(ref, kind, hex string) tasks.ExampleFile {
		return exampleFile("file:example_rp_"+ref, ref+".png", func(side int) image.Image {
			return ProductShot(kind, hex, "#F4F3F0", side)
		})
	}
	return []tasks.Example{{Name: "harbour_range", Title: "A summer line sheet in two drops",
		Description: "Eight styles in five types, two delivery drops, with product shots, prices, costs and size runs " +
			"on fabrics of the curated library.",
		Input: json.RawMessage(`{"name":"Harbour SS27","season":"SS27","currency":"EUR","items":[` +
			`{"type":"t_shirt","name":"Breton tee","fabric":"fabric:fb_cur_jersey_white","colours":["#1B2A4A","#FAFAF7"],` +
			`"colourway":"Navy/Ecru","quantity":400,"images":["file:example_rp_tee_navy","file:example_rp_tee_ecru"],` +
			`"price":45,"cost":14.5,"sizes":["XS","S","M","L","XL"],"drop":"Drop 1 · Feb"},` +
			`{"type":"trousers","name":"Wide linen trouser","fabric":"fabric:fb_cur_linen_natural","colours":["#D6C3A1"],` +
			`"colourway":"Sand","quantity":200,"images":["file:example_rp_trouser"],"price":95,"cost":31,"sizes":["34","36",` +
			`"38","40","42"],"drop":"Drop 1 · Feb"},` +
			`{"type":"shirt","name":"Oxford overshirt","fabric":"fabric:fb_cur_oxford_blue","colours":["#8EC6EA","#FAFAF7"],` +
			`"colourway":"Sky","quantity":150,"images":["file:example_rp_shirt"],"price":85,"cost":27,"sizes":["S","M","L",` +
			`"XL"],"drop":"Drop 1 · Feb"},` +
			`{"type":"t_shirt","name":"Pocket tee","fabric":"fabric:fb_cur_jersey_black","colours":["#161616"],` +
			`"colourway":"Black","quantity":300,"images":["file:example_rp_tee_black"],"price":39,"cost":11,"sizes":["XS",` +
			`"S","M","L","XL"],"drop":"Drop 1 · Feb"},` +
			`{"type":"dress","name":"Harbour slip dress","fabric":"fabric:fb_cur_crepe_burgundy","colours":["#6D1A2C"],` +
			`"colourway":"Burgundy","quantity":120,"images":["file:example_rp_dress"],"price":139,"cost":46,"sizes":["XS",` +
			`"S","M","L"],"drop":"Drop 2 · Apr"},` +
			`{"type":"jacket","name":"Chore jacket","fabric":"fabric:fb_cur_denim_indigo","colours":["#2B3A5C"],` +
			`"colourway":"Indigo","quantity":100,"images":["file:example_rp_jacket"],"price":165,"cost":58,"sizes":["S","M",` +
			`"L","XL"],"drop":"Drop 2 · Apr"},` +
			`{"type":"trousers","name":"Sailor trouser","fabric":"fabric:fb_cur_linen_natural","colours":["#1B2A4A"],` +
			`"colourway":"Navy","quantity":160,"images":["file:example_rp_trouser_navy"],"price":99,"cost":33,"sizes":["34",` +
			`"36","38","40"],"drop":"Drop 2 · Apr"},` +
			`{"type":"knitwear","name":"Rib cardigan","fabric":"fabric:fb_cur_rib_cream","colours":["#EDE0C2","#1B2A4A"],` +
			`"colourway":"Cream/Navy","quantity":90,"price":120,"cost":44,"sizes":["S","M","L"],"drop":"Drop 2 · Apr"}]}`),
		Files: []tasks.ExampleFile{
			shot("tee_navy", "t_shirt", "#1B2A4A"), shot("tee_ecru", "t_shirt", "#F3EBD7"),
			shot("tee_black", "t_shirt", "#161616"), shot("trouser_navy", "trousers", "#1B2A4A"),
			shot("trouser", "trousers", "#D6C3A1"), shot("shirt", "shirt", "#8EC6EA"),
			shot("dress", "dress", "#6D1A2C"), shot("jacket", "jacket", "#2B3A5C"),
		},
	}}
}
