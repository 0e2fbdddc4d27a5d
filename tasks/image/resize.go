package image

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// maxUpscale is how far image.resize enlarges: more invents detail that
// is not there, so it is refused.
const maxUpscale = 4.0

// maxOutputSide bounds an output's sides.
const maxOutputSide = 8192

func resize() *tasks.Definition {
	return &tasks.Definition{
		Name: "image.resize", Title: "Resize images",
		Description: "Scales images to an exact size or a longer side with Lanczos resampling, honouring EXIF orientation " +
			"and keeping the colour profile.",
		Category: tasks.CategoryImageEditing, Unit: "image",
		InputSchema: tasks.MustJSON(tasks.InputSchema[resizeInput](
			"image.resize input",
			"Images and the size to scale them to: one output per image.",
			formatVariant,
		)),
		OutputSchema: outputSchema("Resized image data", "The data of one resized image.", obj{
			"fit": obj{"type": "string", tasks.VocabKeyword: "image_fit", "description": "How the image met the box."},
		}),
		Runner:   tasks.Typed[resizeInput](resizeRunner{}),
		Pricing:  perOutput(1),
		Variant:  formatVariant,
		RefSides: map[string]tasks.ImageSides{"images": inputSides},
		Refuse:   tasks.Refusal(refuseResize),
		ErrorRules: append(
			[]tasks.ErrorRule{
				{Field: "background", Keyword: "pattern", Code: apierr.InvalidColour},
				{Field: "background", Keyword: "type", Code: apierr.InvalidColour},
			},
			imagesRules...),
		Docs: resizeDocs(),
		Examples: []tasks.Example{{
			Name: "shop_square_and_banner", Title: "A product shot and a photo for a shop",
			Description: "Both images scaled into 480 × 480 px squares on white, as JPEG: the whole image is kept and centred.",
			Input: json.RawMessage(
				`{"images":["file:example_product","file:example_scene"],"width":480,"height":480,"fit":"contain",` +
					`"background":"#FFFFFF","format":"jpeg","quality":85}`,
			),
			Files: []tasks.ExampleFile{productFile, sceneFile},
		}},
	}
}

// box is where a resize goes: the output size, the size the image is scaled
// to inside it, and the field that decided the scale.
type box struct {
	outW, outH     int
	scaleW, scaleH int
	factor         float64
	field          string
}

// plan decides the output of a w × h image for the input.
func resizeBox(in *resizeInput, w, h int) box {
	var W, H int
	if in.Width != nil {
		W = *in.Width
	}
	if in.Height != nil {
		H = *in.Height
	}
	fw, fh := float64(W)/float64(w), float64(H)/float64(h)
	side := func(v float64) int { return max(1, int(math.Round(v))) }
	switch {
	case W > 0 && H > 0:
		b := box{outW: W, outH: H, scaleW: W, scaleH: H}
		switch in.Fit {
		case "fill":
			b.factor, b.field = math.Max(fw, fh), pick(fw >= fh, "width", "height")
		case "cover":
			f := math.Max(fw, fh)
			b.factor, b.field = f, pick(fw >= fh, "width", "height")
			b.scaleW, b.scaleH = side(float64(w)*f), side(float64(h)*f)
		default: // contain
			f := math.Min(fw, fh)
			b.factor, b.field = f, pick(fw <= fh, "width", "height")
			b.scaleW, b.scaleH = min(W, side(float64(w)*f)), min(H, side(float64(h)*f))
		}
		return b
	case W > 0:
		return box{
			outW:   W,
			outH:   side(float64(h) * fw),
			scaleW: W,
			scaleH: side(float64(h) * fw),
			factor: fw,
			field:  "width",
		}
	case H > 0:
		return box{
			outW:   side(float64(w) * fh),
			outH:   H,
			scaleW: side(float64(w) * fh),
			scaleH: H,
			factor: fh,
			field:  "height",
		}
	}
	r, _ := strconv.Atoi(in.Resolution)
	f := float64(r) / float64(max(w, h))
	ow, oh := side(float64(w)*f), side(float64(h)*f)
	return box{outW: ow, outH: oh, scaleW: ow, scaleH: oh, factor: f, field: "resolution"}
}

func pick(cond bool, a, b string) string {
	if cond {
		return a
	}
	return b
}

// refusal is why the box cannot be made of a w × h image, or "".
func (b box) refusal(w, h int) string {
	if b.factor > maxUpscale {
		return fmt.Sprintf(
			"it is %d × %d px, and %s would enlarge it %.1f×; image.resize enlarges at most %g×",
			w,
			h,
			b.field,
			b.factor,
			maxUpscale,
		)
	}
	if b.outW > maxOutputSide || b.outH > maxOutputSide {
		return fmt.Sprintf(
			"it is %d × %d px, and %s would make it %d × %d px; outputs are at most %d px a side",
			w,
			h,
			b.field,
			b.outW,
			b.outH,
			maxOutputSide,
		)
	}
	return ""
}

// refuseResize refuses, at submit, an upload the size would enlarge more
// than maxUpscale (or beyond the largest output); other images are checked
// when the job runs.
func refuseResize(in *resizeInput, sizes map[string]tasks.ImageSize) *apierr.Error {
	for j := range in.Images {
		r, _ := imageRef(in.Images, j)
		s, ok := sizes[r.Ref]
		if !ok {
			continue
		}
		b := resizeBox(in, s.Width, s.Height)
		if reason := b.refusal(s.Width, s.Height); reason != "" {
			return apierr.New(apierr.RequestRefused, fmt.Sprintf("%s (%s) cannot be resized: %s.", r.Field, r.Ref, reason)).
				WithField(b.field)
		}
	}
	return nil
}

// resizeRunner makes one resized image per input image.
type resizeRunner struct{}

// Plan asks for one output per image.
func (resizeRunner) Plan(in *resizeInput) tasks.Plan { return perImage(in.Images, "resizing") }

// Step resizes images[i].
func (resizeRunner) Step(ctx context.Context, in *resizeInput, i int) (tasks.Output, error) {
	r, err := imageRef(in.Images, i)
	if err != nil {
		return tasks.Output{}, err
	}
	src, err := load(ctx, r)
	if err != nil {
		return tasks.Output{}, err
	}
	w, h := src.img.Bounds().Dx(), src.img.Bounds().Dy()
	b := resizeBox(in, w, h)
	if reason := b.refusal(w, h); reason != "" {
		return tasks.Output{}, failf(r.Field, r.Ref, "%s", reason)
	}
	out := resizeImage(src.img, b, in.Fit, in.Background)
	format := in.Format
	enc, err := encode(out, format, in.Quality, src.icc)
	if err != nil {
		return tasks.Output{}, err
	}
	return enc.output(map[string]any{"index": i, "image": r.Ref, "width": b.outW, "height": b.outH, "format": format,
		"source_width": w, "source_height": h, "fit": in.Fit}), nil
}

// resizeImage scales img into the box with Lanczos resampling.
func resizeImage(img image.Image, b box, fit string, background *string) *image.NRGBA {
	if b.scaleW == b.outW && b.scaleH == b.outH {
		return imaging.Resize(img, b.outW, b.outH, imaging.Lanczos)
	}
	if fit == "cover" {
		return imaging.Fill(img, b.outW, b.outH, imaging.Center, imaging.Lanczos)
	}
	var bg color.Color = color.Transparent
	if background != nil {
		bg = tasks.ParseColour(*background)
	}
	canvas := imaging.New(b.outW, b.outH, bg)
	scaled := imaging.Resize(img, b.scaleW, b.scaleH, imaging.Lanczos)
	return imaging.Overlay(canvas, scaled, image.Pt((b.outW-b.scaleW)/2, (b.outH-b.scaleH)/2), 1)
}

// outputSchema is the data of one output image of the family: its
// position, the input it came from, its size and format, plus extra.
func outputSchema(title, description string, extra obj) json.RawMessage {
	props := obj{
		"index": obj{
			"type":        "integer",
			"minimum":     0,
			"description": "The output number: the position of its image in images.",
		},
		"image":  obj{"type": "string", "description": "The input image reference, as sent."},
		"width":  obj{"type": "integer", "minimum": 1, "description": "The output's width in pixels."},
		"height": obj{"type": "integer", "minimum": 1, "description": "The output's height in pixels."},
		"format": obj{
			"type":             "string",
			tasks.VocabKeyword: "image_format",
			"description":      "The output's file format.",
		},
		"source_width": obj{
			"type":        "integer",
			"minimum":     1,
			"description": "The input's width in pixels, after EXIF orientation.",
		},
		"source_height": obj{
			"type":        "integer",
			"minimum":     1,
			"description": "The input's height in pixels, after EXIF orientation.",
		},
	}
	for k, v := range extra {
		props[k] = v
	}
	return tasks.MustJSON(obj{
		"$schema": tasks.SchemaDialect, "title": title, "type": "object", "description": description,
		"properties": props,
		"required":   []string{"index", "image", "width", "height", "format", "source_width", "source_height"},
	})
}

func resizeDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "image.resize scales each image to an exact width and height, to a width or height with the other side " +
			"following, or to a longer side, with Lanczos resampling (sharp, without the ringing of simpler filters). EXIF " +
			"orientation is applied first, so phone photos come out upright; the colour profile is kept.",
		BuiltFor: []string{
			"Making every product photo of a listing the same size, on a white or transparent ground.",
			"Preparing web-sized copies of large originals.",
		},
		WhatYouGet: []string{
			"One PNG or JPEG per input image, in the order sent.",
			"Each file's data: its size and format, the input's size after orientation, the fit used and the input reference.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          fmt.Sprintf("One file per entry of images (1 to %d).", maxImages),
			CountDependsOn: []string{"images"},
			Order:          new("The order of images."),
			AbsentWhen: new(
				"An image that cannot be read or would be enlarged more than 4× gives no file and is not charged; the summary " +
					"carries output_not_produced naming it. When no image works the job fails with processing_failed.",
			),
		},
		Specs: append([]tasks.SpecRow{
			{Key: "input_formats", Title: "Input formats", Text: inputFormats},
			{Key: "input_count", Title: "Input count", Text: fmt.Sprintf("1 to %d images.", maxImages)},
			{
				Key:   "output_format",
				Title: "Output format",
				Text: "PNG (RGBA, default) or JPEG (format, quality 1–100, default 90). An embedded ICC profile (PNG iCCP, " +
					"JPEG APP2) is kept: pixel values are not converted and the output carries the input's profile; an input " +
					"without one gives sRGB.",
			},
			{
				Key:   "output_resolution",
				Title: "Output resolution",
				Text: "width × height when both are sent (fit: contain, cover or fill); one of them with the other following " +
					"the aspect ratio; otherwise the longer side is resolution (default 1024). At most 8192 px a side and at most " +
					"4× the input: more enlargement answers 422 request_refused naming the field at submit for uploads, and gives " +
					"no output for other images.",
			},
			{Key: "outputs_per_job", Title: "Outputs per job", Text: fmt.Sprintf("1 to %d (images).", maxImages)},
		}, commonSpecs()...),
		Limitations: []string{
			"Enlarging is limited to 4×: resampling cannot add detail, and beyond that the result is visibly soft.",
			"GIF inputs give their first frame; animation is not resized.",
			"Colour profiles are carried over, not applied: the output looks like the input in colour-managed viewers.",
			"URLs are fetched when the job runs, within limits.url_fetch; an image that cannot be fetched or read gives no " +
				"output.",
		},
		Errors: tasks.ErrorList(
			apierr.FieldNotAccepted,
			apierr.FieldNotSupported,
			apierr.InvalidOption,
			apierr.InvalidColour,
			apierr.ImagesRequired,
			apierr.TooManyImages,
			apierr.ImageNotPublic,
			apierr.RequestRefused,
		),
		Related: []tasks.Related{
			{Task: "image.crop", Relation: "sibling"},
			{Task: "image.remove_background", Relation: "after"},
			{Task: "video.slideshow", Relation: "before"},
		},
	}
}
