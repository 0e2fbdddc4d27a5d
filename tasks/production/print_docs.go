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
		"description": "The data of the print PNG (index 0) or the PDF proof (index 1).",
		"properties": obj{
			"index":          obj{"type": "integer", "minimum": 0, "maximum": 1},
			"format":         obj{"type": "string", "enum": []any{"png", "pdf"}},
			"image":          obj{"type": "string", "description": "The input image reference, as sent."},
			"dpi":            obj{"type": "integer", "minimum": minDPI, "maximum": maxDPI},
			"width_px":       obj{"type": "integer", "minimum": 1, "description": "The PNG's width: trim_width_px + 2 × bleed_px."},
			"height_px":      obj{"type": "integer", "minimum": 1, "description": "The PNG's height: trim_height_px + 2 × bleed_px."},
			"trim_width_px":  obj{"type": "integer", "minimum": 1, "description": "round(width_mm × dpi / 25.4)."},
			"trim_height_px": obj{"type": "integer", "minimum": 1, "description": "round(height_mm × dpi / 25.4)."},
			"bleed_px":       obj{"type": "integer", "minimum": 0, "description": "round(bleed_mm × dpi / 25.4), on each side."},
			"width_mm":       obj{"type": "number"}, "height_mm": obj{"type": "number"}, "bleed_mm": obj{"type": "number"},
			"repeat":       obj{"type": "string", tasks.VocabKeyword: "print_repeat"},
			"source_width": obj{"type": "integer", "minimum": 1}, "source_height": obj{"type": "integer", "minimum": 1},
			"scale":          obj{"type": "number", "description": "Print pixels per image pixel: above 1 the image was enlarged (softer in print); 1 when tiled."},
			"page_width_pt":  obj{"type": "number", "description": "The proof's page width in points (1/72 in): (width_mm + 2 × bleed_mm) × 72 / 25.4. PDF only."},
			"page_height_pt": obj{"type": "number", "description": "The proof's page height in points. PDF only."},
		},
		"required": []string{"index", "format", "image", "dpi", "width_px", "height_px", "trim_width_px", "trim_height_px", "bleed_px", "width_mm", "height_mm", "bleed_mm", "repeat", "source_width", "source_height", "scale"},
	})
}

func printDocs() tasks.Docs {
	return tasks.Docs{
		Lead: fmt.Sprintf("print.prepare turns an image into a file a printer can take as it is: a PNG of exactly round(width_mm × dpi / 25.4) × round(height_mm × dpi / 25.4) pixels, plus round(bleed_mm × dpi / 25.4) pixels of bleed on each side, with the resolution written in the PNG's pHYs chunk so layout and RIP software read the physical size; and a one-page PDF proof of the trim size plus bleed with crop marks at the trim. The image is scaled with Lanczos resampling to cover the print, or tiled at its own pixel size (repeat tile). Deterministic image processing; no generative model. A file may hold at most %s pixels, bleed included.", megapixels(maxPrintPixels)),
		BuiltFor: []string{
			"Sending a pattern repeat or an artwork to a print shop or a fabric printer at the size and DPI it asks for.",
			"Checking the cut before printing: the proof shows the trim with crop marks and the bleed around it.",
		},
		WhatYouGet: []string{
			"A PNG (RGB, opaque) at the exact pixel size, bleed included, its pHYs chunk giving dpi as pixels per metre.",
			"A PDF proof: one page of (width_mm + 2 × bleed_mm) × (height_mm + 2 × bleed_mm), the art edge to edge, crop marks at the trim.",
			"Each file's data: the pixel sizes, trim and bleed in pixels, dpi, the scale applied to the image and, for the PDF, its page size in points.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          "Two files per job: the PNG, then the PDF proof.",
			CountDependsOn: []string{},
			Order:          new("The PNG (index 0), then the PDF proof (index 1)."),
			AbsentWhen:     new("An image that cannot be fetched or read fails the job with processing_failed; nothing is charged."),
		},
		Specs: append([]tasks.SpecRow{
			{Key: "input_formats", Title: "Input formats", Text: inputFormats},
			{Key: "input_count", Title: "Input count", Text: "1 image."},
			{Key: "output_format", Title: "Output format", Text: "PNG (8-bit RGB, pHYs in pixels per metre: dpi / 0.0254, rounded) and PDF 1.4 (page size in points, 72 per inch; the art is placed at up to 2,400 px on its longer side — a proof, not the print file)."},
			{Key: "output_resolution", Title: "Output resolution", Text: fmt.Sprintf("width round(width_mm × dpi / 25.4) + 2 × round(bleed_mm × dpi / 25.4) px, height likewise; width_mm and height_mm %d to %d, dpi %d to %d, bleed_mm 0 to %d (default 0). At most %s pixels per file (maxPrintPixels): a larger request answers 422 request_refused at submit naming dpi, with the highest dpi that fits (every size fits at %d dpi).", minSideMM, maxSideMM, minDPI, maxDPI, maxBleedMM, megapixels(maxPrintPixels), minDPI)},
			{Key: "outputs_per_job", Title: "Outputs per job", Text: "2."},
		}, commonSpecs()...),
		Limitations: []string{
			"Scaling up cannot add detail: data.scale above about 2 prints soft. Send a larger image or a lower dpi.",
			"Colours are kept as sRGB; no CMYK separation or ICC conversion is made (colour.separate separates spot colours).",
			"With bleed_mm 0 there is no room outside the trim, so the proof's crop marks are short ticks inside each corner.",
			"Tiling starts at the trim's top-left corner at one image pixel per printed dot: the tile's size in print is its pixel size ÷ dpi.",
			"URLs are fetched when the job runs, within limits.url_fetch.",
		},
		Errors: tasks.ErrorList(apierr.FieldNotAccepted, apierr.InvalidOption, apierr.ImageNotPublic, apierr.RequestRefused),
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
			Name: "postcard_with_bleed", Title: "A postcard at 300 dpi with 3 mm bleed",
			Description: "A 148 × 105 mm card: 1748 × 1240 px trim plus 35 px bleed on each side, the lemon print scaled to cover.",
			Input:       json.RawMessage(`{"image":"file:example_motif","width_mm":148,"height_mm":105,"dpi":300,"bleed_mm":3}`),
			Files:       []tasks.ExampleFile{motifFile},
		},
		{
			Name: "fabric_tile", Title: "A fabric panel tiled at 150 dpi",
			Description: "A 200 × 300 mm panel of the 256 px lemon repeat, tiled at its own size (43 mm a repeat at 150 dpi), 5 mm bleed.",
			Input:       json.RawMessage(`{"image":"file:example_motif","width_mm":200,"height_mm":300,"dpi":150,"bleed_mm":5,"repeat":"tile"}`),
			Files:       []tasks.ExampleFile{motifFile},
		},
	}
}
