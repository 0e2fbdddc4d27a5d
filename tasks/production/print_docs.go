package production

import (
	"encoding/json"
	"fmt"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

func printOutput() json.RawMessage {
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": "Print file data", "type": "object",
		"description": "The data of the print PNG (index 0) or the print PDF (index 1).",
		"properties": obj{
			"index":  obj{"type": "integer", "minimum": 0, "maximum": 1},
			"format": obj{"type": "string", "enum": []any{"png", "pdf"}},
			"image":  obj{"type": "string", "description": "The input image reference, as sent."},
			"dpi":    obj{"type": "integer", "minimum": minDPI, "maximum": maxDPI},
			"width_px": obj{
				"type":        "integer",
				"minimum":     1,
				"description": "The PNG's width: trim_width_px + 2 × bleed_px.",
			},
			"height_px": obj{
				"type":        "integer",
				"minimum":     1,
				"description": "The PNG's height: trim_height_px + 2 × bleed_px.",
			},
			"trim_width_px":  obj{"type": "integer", "minimum": 1, "description": "round(width_mm × dpi / 25.4)."},
			"trim_height_px": obj{"type": "integer", "minimum": 1, "description": "round(height_mm × dpi / 25.4)."},
			"bleed_px": obj{
				"type":        "integer",
				"minimum":     0,
				"description": "round(bleed_mm × dpi / 25.4), on each side.",
			},
			"width_mm": obj{
				"type": "number",
			}, "height_mm": obj{"type": "number"}, "bleed_mm": obj{"type": "number"},
			"repeat":       obj{"type": "string", tasks.VocabKeyword: "print_repeat"},
			"source_width": obj{"type": "integer", "minimum": 1}, "source_height": obj{"type": "integer", "minimum": 1},
			"scale": obj{
				"type":        "number",
				"description": "Print pixels per image pixel: above 1 the image was enlarged (softer in print); 1 when tiled.",
			},
			"fit":        obj{"type": "string", tasks.VocabKeyword: "print_fit"},
			"anchor":     obj{"type": "string", tasks.VocabKeyword: "print_anchor"},
			"background": tasks.ColourSchema("The background colour, in capitals."),
			"effective_dpi": obj{
				"type":        "number",
				"minimum":     0,
				"description": "Image pixels per printed inch: dpi ÷ scale. Below dpi, the warning low_resolution.",
			},
			"cut_width_percent": obj{"type": "number", "minimum": 0, "maximum": 100,
				"description": "Percent of the artwork's width outside the trim: 0 unless fit is cover (warning artwork_cropped)."},
			"cut_height_percent": obj{
				"type":        "number",
				"minimum":     0,
				"maximum":     100,
				"description": "Percent of the artwork's height outside the trim.",
			},
			"page_width_pt": obj{
				"type": "number",
				"description": "The PDF's page (media box) width in points (1/72 in): (width_mm + 2 × bleed_mm + 20) × 72 / " +
					"25.4, the 20 mm a slug for the crop marks. PDF only.",
			},
			"page_height_pt": obj{"type": "number", "description": "The PDF's page height in points. PDF only."},
			"colour_space": obj{"type": "string", tasks.VocabKeyword: "print_colour_space",
				"description": "The PDF image's colour space. PDF only."},
			"cmyk_conversion": obj{"type": "string", "description": "How the art was converted to CMYK: \"ICC <profile " +
				"name> (relative colorimetric)\" or \"formula (no ICC profile)\". colour_space cmyk only."},
			"output_intent": obj{"type": "string", "description": "The ICC profile embedded as the PDF's output " +
				"intent (its description). colour_space cmyk with a profile only."},
		},
		"required": []string{
			"index",
			"format",
			"image",
			"dpi",
			"width_px",
			"height_px",
			"trim_width_px",
			"trim_height_px",
			"bleed_px",
			"width_mm",
			"height_mm",
			"bleed_mm",
			"repeat",
			"source_width",
			"source_height",
			"scale",
			"fit",
			"anchor",
			"background",
			"effective_dpi",
			"cut_width_percent",
			"cut_height_percent",
		},
	})
}

func printDocs() tasks.Docs {
	return tasks.Docs{
		Lead: fmt.Sprintf(
			"print.prepare turns an image into a file a printer can take as it is: a PNG of exactly round(width_mm × dpi / "+
				"25.4) × round(height_mm × dpi / 25.4) pixels, plus round(bleed_mm × dpi / 25.4) pixels of bleed on each side, "+
				"with the resolution written in the PNG's pHYs chunk so layout and RIP software read the physical size; and a "+
				"one-page print PDF holding the same pixels at the same dpi, its TrimBox the trim, its BleedBox bleed_mm "+
				"beyond, its MediaBox 10 mm more for crop marks outside the bleed and a slug line in the embedded Go font, in "+
				"RGB or (colour_space cmyk) CMYK through the service's ICC profile, recorded as the output intent. One "+
				"artwork is scaled with Lanczos resampling to fit "+
				"whole inside the trim by default (fit contain: padded with the background colour, never cut), or to cover the "+
				"print when asked (fit cover: cut at the trim, with a warning naming how much); a repeat tile is tiled at its "+
				"own pixel size (repeat tile). Deterministic image processing; no generative model. A file may hold at most %s "+
				"pixels, bleed included.",
			megapixels(maxPrintPixels),
		),
		BuiltFor: []string{
			"Sending a pattern repeat or an artwork to a print shop or a fabric printer at the size and DPI it asks for.",
			"Handing a print shop a PDF its preflight accepts: boxes set, crop marks outside the bleed, fonts embedded, the " +
				"image at the stated dpi.",
		},
		WhatYouGet: []string{
			"A PNG (RGB, opaque) at the exact pixel size, bleed included, its pHYs chunk giving dpi as pixels per metre.",
			"By default the whole artwork, every edge of it, inside the trim: the trim's free space is the background colour " +
				"(default white) and the bleed repeats the trim's edge pixels. With fit cover the print is filled edge to edge " +
				"and the warning artwork_cropped says what percent of the artwork's width and height was cut.",
			"The warning low_resolution, with the effective dpi, whenever the image is enlarged past the file's dpi; a " +
				"refusal (422 request_refused) below a third of it.",
			"A print PDF (1.6): one page whose TrimBox is width_mm × height_mm, BleedBox bleed_mm beyond it on each side, " +
				"MediaBox (and CropBox) a further 10 mm on each side; the PNG's pixels cover the bleed box at the file's dpi " +
				"(pdfimages reports it); crop marks 0.25 pt in registration colour run 5 mm along each trim line starting 2 mm " +
				"outside the bleed; a slug line below names the image, trim, bleed, dpi and colour space, set in the Go font " +
				"embedded whole (TrueType, WinAnsi). colour_space rgb keeps the sRGB values (DeviceRGB); cmyk converts them to " +
				"DeviceCMYK through the service's CMYK ICC profile (relative colorimetric, no black point compensation; " +
				"within 0.06 % of Little CMS's transicc on 294 colours, and the pixels within 1.5 % ink, 0.13 % on " +
				"average, through a 65-point table) and embeds the profile as the PDF's output intent " +
				"(/OutputIntents, GTS_PDFX, DestOutputProfile); with no profile, by the formula fallback: " + cmykFormula,
			"Each file's data: the pixel sizes, trim and bleed in pixels, dpi, the scale applied to the image and, for the " +
				"PDF, its page size in points.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          "Two files per job: the PNG, then the print PDF.",
			CountDependsOn: []string{},
			Order:          new("The PNG (index 0), then the print PDF (index 1)."),
			AbsentWhen: new(
				"An image that cannot be fetched or read fails the job with processing_failed; nothing is charged.",
			),
		},
		Specs: append([]tasks.SpecRow{
			{Key: "input_formats", Title: "Input formats", Text: inputFormats},
			{Key: "input_count", Title: "Input count", Text: "1 image."},
			{
				Key:   "output_format",
				Title: "Output format",
				Text: "PNG (8-bit RGB, pHYs in pixels per metre: dpi / 0.0254, rounded) and PDF 1.6 (boxes in points, 72 per " +
					"inch; the art's every pixel at dpi, Flate-compressed, DeviceRGB or DeviceCMYK).",
			},
			{
				Key:   "output_resolution",
				Title: "Output resolution",
				Text: fmt.Sprintf(
					"width round(width_mm × dpi / 25.4) + 2 × round(bleed_mm × dpi / 25.4) px, height likewise; width_mm and "+
						"height_mm %d to %d, dpi %d to %d, bleed_mm 0 to %d (default 0). At most %s pixels per file (maxPrintPixels): "+
						"a larger request answers 422 request_refused at submit naming dpi, with the highest dpi that fits (every "+
						"size fits at %d dpi).",
					minSideMM,
					maxSideMM,
					minDPI,
					maxDPI,
					maxBleedMM,
					megapixels(maxPrintPixels),
					minDPI,
				),
			},
			{Key: "outputs_per_job", Title: "Outputs per job", Text: "2."},
		}, commonSpecs()...),
		Limitations: []string{
			"Scaling up cannot add detail: any enlargement (data.scale above 1) warns low_resolution with the effective dpi " +
				"(data.effective_dpi = dpi ÷ scale), and an artwork that would print at less than a third of the asked dpi is " +
				"refused with 422 request_refused naming image and the pixel size it needs — at submit for an uploaded file, " +
				"when the job runs (processing_failed, not charged) for a URL.",
			"fit contain keeps the artwork's aspect ratio, so an artwork of another shape than the trim leaves bands of the " +
				"background colour on two sides; fit cover fills the print and cuts the artwork instead.",
			"colour_space cmyk converts through one profile, the service's (TP_CMYK_PROFILE: an ICC v2 or v4 CMYK " +
				"output profile with a lut8, lut16 or lutBToA table; by default Ghostscript's Artifex CMYK SWOP Profile " +
				"where Debian's libgs-common is installed), relative colorimetric, without black point compensation; the " +
				"file declares the output intent but is not checked as PDF/X (no PDF/X version key, fonts and boxes aside). " +
				"Without a profile the formula fallback is used (" + cmykFormula + "), and the data and slug say so. Send " +
				"rgb when the printer converts with its own profile. colour.separate separates spot colours.",
			"With bleed_mm 0 the crop marks start 2 mm outside the trim; the PNG has no bleed to trim into.",
			fmt.Sprintf("At most %s per file: a 160 cm fabric width at 150 dpi runs to 86 cm (860 mm); a longer length is "+
				"refused with the longest height that fits — print it as panels.", megapixels(maxPrintPixels)),
			"Tiling starts at the trim's top-left corner at one image pixel per printed dot: the tile's size in print is its " +
				"pixel size ÷ dpi.",
			"URLs are fetched when the job runs, within limits.url_fetch.",
		},
		Errors: tasks.ErrorList(
			apierr.FieldNotAccepted,
			apierr.InvalidOption,
			apierr.ImageNotPublic,
			apierr.RequestRefused,
			apierr.InvalidColour,
			apierr.LowResolution,
			apierr.ArtworkCropped,
		),
		Related: []tasks.Related{
			{Task: "pattern.generate", Relation: "before"},
			{Task: "image.resize", Relation: "sibling"},
			{Task: "techpack.create", Relation: "sibling"},
		},
	}
}

func printExamples() []tasks.Example {
	return []tasks.Example{
		{
			Name: "sticker_with_bleed", Title: "A square sticker at 150 dpi with 3 mm bleed",
			Description: "A 60 × 60 mm sticker: 354 × 354 px trim plus 18 px bleed on each side, the whole 256 px lemon " +
				"print fitted inside the trim; enlarged 1.38×, it prints at 108 dpi effective (warning low_resolution).",
			Input: json.RawMessage(
				`{"image":"file:example_motif","width_mm":60,"height_mm":60,"dpi":150,"bleed_mm":3}`,
			),
			Files: []tasks.ExampleFile{motifFile},
		},
		{
			Name: "fabric_tile", Title: "A fabric panel tiled at 150 dpi",
			Description: "A 200 × 300 mm panel of the 256 px lemon repeat, tiled at its own size (43 mm a repeat at 150 " +
				"dpi), 5 mm bleed.",
			Input: json.RawMessage(
				`{"image":"file:example_motif","width_mm":200,"height_mm":300,"dpi":150,"bleed_mm":5,"repeat":"tile"}`,
			),
			Files: []tasks.ExampleFile{motifFile},
		},
		{
			Name: "banner_cover", Title: "A banner filled edge to edge, cut as asked",
			Description: "A 200 × 60 mm banner at 72 dpi with fit cover and anchor top: the square lemon print fills the " +
				"banner, " +
				"its lower part cut (warning artwork_cropped, 70 % of its height).",
			Input: json.RawMessage(
				`{"image":"file:example_motif","width_mm":200,"height_mm":60,"dpi":72,"fit":"cover","anchor":"top"}`,
			),
			Files: []tasks.ExampleFile{motifFile},
		},
	}
}
