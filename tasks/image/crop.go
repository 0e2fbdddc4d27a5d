package image

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/faces"
	"github.com/taskplatform/taskplatform/tasks/resample"
)

func crop() *tasks.Definition {
	return &tasks.Definition{
		Name: "image.crop", Title: "Crop images to an aspect ratio",
		Description: "Cuts the largest region of each image with the asked aspect ratio, placed on the most interesting " +
			"part (content-aware) or in the middle; pixels are kept, never resampled.",
		Category: tasks.CategoryImageEditing, Unit: "image",
		InputSchema: tasks.MustJSON(tasks.InputSchema[cropInput](
			"image.crop input",
			"Images and the aspect ratio to crop them to: one output per image.",
			formatVariant,
		)),
		OutputSchema: outputSchema("Cropped image data", "The data of one cropped image.", obj{
			"aspect_ratio": obj{
				"type":             "string",
				tasks.VocabKeyword: "aspect_ratio",
				"description":      "The crop's aspect ratio.",
			},
			"anchor": obj{
				"type":             "string",
				tasks.VocabKeyword: "crop_anchor",
				"description":      "How the crop was placed.",
			},
			"x": obj{
				"type":        "integer",
				"minimum":     0,
				"description": "The crop's left edge in the input, in pixels.",
			},
			"y": obj{
				"type":        "integer",
				"minimum":     0,
				"description": "The crop's top edge in the input, in pixels.",
			},
		}),
		Runner:     tasks.Typed[cropInput](cropRunner{}),
		Pricing:    perOutput(1),
		Variant:    formatVariant,
		RefSides:   map[string]tasks.ImageSides{"images": inputSides},
		ErrorRules: imagesRules,
		Docs:       cropDocs(),
		Examples: []tasks.Example{{
			Name: "square_on_the_subject", Title: "A square of a wide photo, on its subject",
			Description: "A wide photo whose bright flower is near the right edge: the attention crop keeps the flower, " +
				"where a centre crop would cut it off.",
			Input: json.RawMessage(`{"images":["file:example_scene"],"aspect_ratio":"1:1","anchor":"attention"}`),
			Files: []tasks.ExampleFile{sceneFile},
		}},
	}
}

// cropSize is the largest w:h region of a W × H image.
func cropSize(W, H, aw, ah int) (int, int) {
	if W*ah >= H*aw { // wider than the ratio: full height
		return max(1, min(W, H*aw/ah)), H
	}
	return W, max(1, min(H, W*ah/aw))
}

func aspect(value string) (int, int) {
	for _, a := range aspectRatios {
		if a.value == value {
			return a.w, a.h
		}
	}
	return 1, 1
}

// attentionSide is the long side of the copy saliency reads: the
// subject's span needs no more, and reading the full image costs several
// times the crop's encode.
const attentionSide = 256

// cropRect places a cw × ch crop in img: in the middle, or centred on the
// main subject's span (saliencyOf, subjectSpan) read on a copy at most
// attentionSide px long, its position scaled back, then moved as little as
// keeps a face whole with its headroom (faceSpan); the crop keeps its
// exact size, so its aspect ratio is the one asked.
func cropRect(img image.Image, cw, ch int, anchor string) (image.Rectangle, error) {
	b := img.Bounds()
	x, y := (b.Dx()-cw)/2, (b.Dy()-ch)/2
	if anchor == "attention" && (cw < b.Dx() || ch < b.Dy()) {
		small := attentionCopy(img)
		sb := small.Bounds()
		fx, fy := float64(sb.Dx())/float64(b.Dx()), float64(sb.Dy())/float64(b.Dy())
		// The crop is the full height or the full width: it moves along one
		// axis only, centred on the subject's span there.
		alongX := cw < b.Dx()
		window, f, at := int(math.Round(float64(ch)*fy)), fy, &y
		if alongX {
			window, f, at = int(math.Round(float64(cw)*fx)), fx, &x
		}
		size := ch
		if alongX {
			size = cw
		}
		if lo, hi, ok := saliencyOf(small).subjectSpan(alongX, max(1, window)); ok {
			*at = int(math.Round(float64(lo+hi)/2/f)) - size/2
		}
		if lo, hi, ok := faceSpan(img, small, alongX); ok { // a face is kept whole, with headroom
			if hi-lo <= size {
				*at = min(max(*at, hi-size), lo)
			} else {
				*at = (lo+hi)/2 - size/2
			}
		}
		x, y = min(max(0, x), b.Dx()-cw), min(max(0, y), b.Dy()-ch)
	}
	return image.Rect(b.Min.X+x, b.Min.Y+y, b.Min.X+x+cw, b.Min.Y+y+ch), nil
}

// attentionCopy is img at most attentionSide px long, as saliency reads it.
func attentionCopy(img image.Image) image.Image {
	b := img.Bounds()
	long := max(b.Dx(), b.Dy())
	if long <= attentionSide {
		return img
	}
	side := func(n int, f float64) int { return max(1, int(math.Round(float64(n)*f))) }
	small := img
	if long > 4*attentionSide {
		// Pick every few pixels down to twice the size, then average
		// 2 × 2: reading a large photo whole costs more than the crop.
		// (Up to 4 × the size, picking costs more than it saves.)
		f := float64(2*attentionSide) / float64(long)
		small = imaging.Resize(img, side(b.Dx(), f), side(b.Dy(), f), imaging.NearestNeighbor)
	}
	f := float64(attentionSide) / float64(long)
	return resample.Resize(small, side(b.Dx(), f), side(b.Dy(), f), imaging.Box)
}

// minSkinShare is the share of skin-toned pixels (faces.IsSkinLab) the
// attention copy must show for the face detector to run: a face a
// twentieth of the image wide covers more.
const minSkinShare = 0.001

// showsSkin says whether at least minSkinShare of small's pixels are
// skin-toned.
func showsSkin(small image.Image) bool {
	b := small.Bounds()
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.NRGBAModel.Convert(small.At(x, y)).(color.NRGBA)
			if c.A >= 128 && faces.IsSkinLab(colour.LabOf8(c.R, c.G, c.B)) {
				n++
			}
		}
	}
	return float64(n) >= minSkinShare*float64(b.Dx()*b.Dy())
}

// faceSpan is the span, along x (alongX) or y in img's pixels, of the face
// img shows (small, its attention copy, showing skin) (faces.Find, read on a copy faces.Side px long) with its
// headroom: the head's box widened by a quarter of its width each side
// and raised by half its height (hair), and a fifth of its height below
// (the chin); false when img shows no face.
func faceSpan(img, small image.Image, alongX bool) (lo, hi int, ok bool) {
	if !showsSkin(small) {
		return 0, 0, false // no face to look for: the detector's cost is spared
	}
	b := img.Bounds()
	src, pre := img, 1.0
	if long := max(b.Dx(), b.Dy()); long > 2*faces.Side {
		// Picked down to twice the read size first: Find's box filter over a
		// large photo costs more than the crop.
		pre = float64(2*faces.Side) / float64(long)
		src = imaging.Resize(img, max(1, int(float64(b.Dx())*pre)), max(1, int(float64(b.Dy())*pre)),
			imaging.NearestNeighbor)
	}
	f, found := faces.Find(src)
	if !found {
		return 0, 0, false
	}
	k := 1 / (f.Scale * pre) // the image's pixels per pixel of the copy
	h := f.Head
	if alongX {
		lo, hi = int(float64(h.Min.X)*k-0.25*float64(h.Dx())*k), int(float64(h.Max.X)*k+0.25*float64(h.Dx())*k)
		return max(0, lo), min(b.Dx(), hi), true
	}
	lo, hi = int(float64(h.Min.Y)*k-0.5*float64(h.Dy())*k), int(float64(h.Max.Y)*k+0.2*float64(h.Dy())*k)
	return max(0, lo), min(b.Dy(), hi), true
}

// cropRunner makes one crop per input image.
type cropRunner struct{}

// Plan asks for one output per image.
func (cropRunner) Plan(in *cropInput) tasks.Plan { return perImage(in.Images, "cropping") }

// Step crops images[i].
func (cropRunner) Step(ctx context.Context, in *cropInput, i int) (tasks.Output, error) {
	r, err := imageRef(in.Images, i)
	if err != nil {
		return tasks.Output{}, err
	}
	src, err := load(ctx, r)
	if err != nil {
		return tasks.Output{}, err
	}
	ratio, anchor := in.AspectRatio, in.Anchor
	aw, ah := aspect(ratio)
	img := cropSource(src.img)
	b := img.Bounds()
	cw, ch := cropSize(b.Dx(), b.Dy(), aw, ah)
	rect, err := cropRect(img, cw, ch, anchor)
	if err != nil {
		return tasks.Output{}, failf(r.Field, r.Ref, "no crop could be placed: %v", err)
	}
	format := in.Format
	enc, err := encode(cropped(img, rect), format, in.Quality, src.icc)
	if err != nil {
		return tasks.Output{}, err
	}
	if m, ok := img.(*image.NRGBA); ok && img != src.img {
		releaseImage(m) // the step's copy, encoded: read no more
	}
	return enc.output(map[string]any{"index": i, "image": r.Ref, "width": cw, "height": ch, "format": format,
		"source_width": b.Dx(), "source_height": b.Dy(), "aspect_ratio": ratio, "anchor": anchor,
		"x": rect.Min.X - b.Min.X, "y": rect.Min.Y - b.Min.Y}), nil
}

// cropSource is img as the crop reads it: a YCbCr photo (a JPEG)
// converted once (cloneNRGBA), where imaging would convert its pixels for
// the scoring copy and again for the crop; any other image as it is.
func cropSource(img image.Image) image.Image {
	if _, ok := img.(*image.YCbCr); ok {
		return cloneNRGBA(img)
	}
	return img
}

// cropped is img's pixels inside r with imaging.Crop's bytes: a view of
// img's own when it is NRGBA, or RGBA opaque there (the same bytes), else
// imaging's copy.
func cropped(img image.Image, r image.Rectangle) image.Image {
	switch m := img.(type) {
	case *image.NRGBA:
		return m.SubImage(r)
	case *image.RGBA:
		if sub := m.SubImage(r).(*image.RGBA); sub.Opaque() {
			return sub
		}
	}
	return imaging.Crop(img, r)
}

func cropDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "image.crop cuts the largest region of each image that has the asked aspect ratio. With anchor attention " +
			"(the default) the region is centred on the main subject: the pixels whose colour stands out from the " +
			"backdrop (the colours filling the frame's border: a sweep, a sky, a wall), grouped into regions, the subject " +
			"being the region with the most salience counted as far as it is solid — a body, not a lattice of lamps or " +
			"the brightest clutter, and not glare: a region at least a quarter burnt out to white (a lamp, the sun, a " +
			"window) weighs a tenth, and its burnt-out pixels fill none of it (a window's panes; its frame is " +
			"detail). A pixel also stands out by its contrast with its own surround (a dark bird against a sunset " +
			"sky). A region weighs less without a sharp outline (a glow, steam, a halo), as a light (brighter than " +
			"a ring round it that is itself lit above the border: a lamp, a neon tube, the sun), as backdrop " +
			"running along two sides of the frame, or as a band across it (a horizon); such regions are weighed " +
			"down and the rest read again — so a small or off-centre subject stays whole in the frame. The crop's edges " +
			"are moved off any salient region they would cut (an eye is in or out, never halved), and a subject " +
			"wider than the crop is cut where its edges cross the least detail, among the positions holding at least " +
			"85 % of the most salience; with centre it is the " +
			"middle. Where the image shows a face (the face detector model.create uses: a skin-toned region with two " +
			"eyes with whites and a mouth), the crop is then moved as little as keeps that face whole with its hair " +
			"above it. Pixels are copied as they are: nothing is resampled.",
		BuiltFor: []string{
			"Turning wide photos into square marketplace images or vertical stories without cutting off the product.",
			"Cropping a batch of images to one format for a catalogue or a feed.",
		},
		WhatYouGet: []string{
			"One PNG or JPEG per input image, in the order sent, at the input's resolution.",
			"Each file's data: the crop's size and position in the input, the aspect ratio and anchor, the input reference.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          fmt.Sprintf("One file per entry of images (1 to %d).", maxImages),
			CountDependsOn: []string{"images"},
			Order:          new("The order of images."),
			AbsentWhen: new(
				"An image that cannot be fetched or read gives no file and is not charged; the summary carries " +
					"output_not_produced naming it. When no image works the job fails with processing_failed.",
			),
		},
		Specs: append([]tasks.SpecRow{
			{Key: "input_formats", Title: "Input formats", Text: inputFormats},
			{Key: "input_count", Title: "Input count", Text: fmt.Sprintf("1 to %d images.", maxImages)},
			{
				Key:   "output_format",
				Title: "Output format",
				Text:  "PNG (default) or JPEG (format, quality). The colour profile is kept.",
			},
			{
				Key:   "output_resolution",
				Title: "Output resolution",
				Text: "The largest region of the aspect ratio inside the input: the input's full height or full width. Resize " +
					"afterwards for a fixed size.",
			},
			{
				Key:   "aspect_ratios",
				Title: "Aspect ratios",
				Text:  "1:1, 4:5, 3:4, 2:3, 16:9, 9:16 (vocabulary aspect_ratio).",
			},
			{Key: "outputs_per_job", Title: "Outputs per job", Text: fmt.Sprintf("1 to %d (images).", maxImages)},
		}, commonSpecs()...),
		Limitations: []string{
			"attention finds the subject by colour contrast with the frame's border; it does not recognise objects. " +
				"It keeps one face whole (with headroom: half the head's height above it, a fifth below): a face in " +
				"profile, with eyes closed or too small to show the whites of its eyes on a copy 512 px long (under about " +
				"a twentieth of the image's long side) is not found, nor is every drawn face (some sizes' eye whites blur " +
				"out on that copy); a face not found leaves the crop to the saliency alone. With several faces the " +
				"largest is the one kept. " +
				"On rendered rooms with a face 70 × 90 px in 1600 × 900, off the centre beside a brighter window and lamp, " +
				"the face is kept whole in 9:16, 4:5 and 1:1 crops wherever it stands (TestCropKeepsFacesWhole). " +
				"The detector runs only where the attention copy shows skin tones (0.1 % of it or more) and then adds " +
				"about 0.2 s of CPU to a crop (-bench CropWithFaces). Measured on rendered scenes with a known subject box " +
				"(a rocket beside a brighter, busier lit " +
				"gantry; a cat's head with its eyes near the crop's edge beside a striped cushion; a small kite far " +
				"off-centre; a figure low in a tall frame; a bottle left on a white sweep; a small person before facades " +
				"of five colours with rows of dark windows; a white cut-out near the edge of a transparent frame; a " +
				"cat's face filling the frame, its far eye in shadow; 21 crops in 9:16, 4:5, 3:4, 1:1 and 16:9) it " +
				"keeps 1.00 of the subject's box in every crop. " +
				"Weaker salient regions next to the subject (a second eye in shadow, a nose) are kept with it when they " +
				"fit, the crop as near centred on the subject as holds them. On a " +
				"transparent image the opaque pixels are the subject.",
			"Beside lights and glare the crop weighs down a bright region with a halo, a glow that fades out with no " +
				"outline, a band across the frame and a region spread along two sides of the frame; on rendered scenes " +
				"of a small subject beside such light (go test -bench CropGlow and CropHeldOut ./tasks/image) it keeps " +
				"the subject's box in 24 of 33 crops we tuned on and 9 of 12 held out. It loses a small sharp subject " +
				"among out-of-focus highlights (a finch or a bird on a branch before bokeh: the rounds' rims read as " +
				"outlines) and a gull far from a low sun in a wide frame.",
			"A subject the same colour as the frame's border (a grey product touching a grey frame edge on all sides), " +
				"or a subject wider than the crop, is not kept whole: the crop holds the subject's most salient part.",
			"The crop is always the largest of its ratio: there is no zoom.",
			"URLs are fetched when the job runs, within limits.url_fetch.",
		},
		Errors: tasks.ErrorList(apierr.FieldNotAccepted, apierr.FieldNotSupported, apierr.InvalidOption,
			apierr.ImagesRequired, apierr.TooManyImages, apierr.ImageNotPublic, apierr.RequestRefused),
		Compares: []tasks.Compare{
			{
				Task:         "image.resize",
				UseThisWhen:  "the image must change shape without distortion or margins",
				UseOtherWhen: "the whole image must stay, at a given size",
			},
		},
		Related: []tasks.Related{{Task: "image.resize", Relation: "before"}},
	}
}
