package video

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// maxSlides bounds the images of a slideshow.
const maxSlides = 20

// fadeSteps is the number of blended frames of a GIF crossfade.
const fadeSteps = 8

func slideshow(o Options) *tasks.Definition {
	refuse := tasks.Refusal(func(in *slideInput, _ map[string]tasks.ImageSize) *apierr.Error {
		return refuseFormat(o, in.Format, in.Size, in.frames(), "size")
	})
	return &tasks.Definition{
		Name: "video.slideshow", Title: "Make a slideshow video",
		Description: "Shows images one after another, cut or crossfaded, as an animated GIF or an H.264 MP4.",
		Category:    tasks.CategoryVideo, Unit: "video",
		InputSchema: tasks.MustJSON(tasks.DerivedSchema[slideInput](
			"video.slideshow input",
			"Images and how to show them: one video.",
			slideInput{}.fieldSchemas(o),
			nil,
		)),
		OutputSchema: tasks.MustJSON(obj{
			"$schema": tasks.SchemaDialect, "title": "Slideshow data", "type": "object", "description": "The data of the " +
				"slideshow video.",
			"properties": obj{
				"format": obj{
					"type":             "string",
					tasks.VocabKeyword: "video_format",
					"description":      "The file format.",
				},
				"size": obj{
					"type":             "string",
					tasks.VocabKeyword: "video_size",
					"description":      "The frame size.",
				},
				"width":  obj{"type": "integer", "minimum": 1, "description": "The frame width in pixels."},
				"height": obj{"type": "integer", "minimum": 1, "description": "The frame height in pixels."},
				"frames": obj{"type": "integer", "minimum": 1, "description": "The number of frames in the file."},
				"duration_ms": obj{
					"type":        "integer",
					"minimum":     1,
					"description": "The length of one play, in milliseconds.",
				},
				"images": obj{"type": "integer", "minimum": 1, "description": "The number of images shown."},
			},
			"required": []string{"format", "size", "width", "height", "frames", "duration_ms", "images"},
		}),
		Runner:   tasks.Typed[slideInput](slideRunner{o}),
		Pricing:  tasks.Pricing{CreditType: "service_credits", PerOutput: 5},
		RefSides: map[string]tasks.ImageSides{"images": inputSides},
		Refuse:   refuse,
		ErrorRules: []tasks.ErrorRule{
			{Field: "images", Keyword: "required", Code: apierr.ImagesRequired},
			{Field: "images", Keyword: "minItems", Code: apierr.ImagesRequired},
			{Field: "images", Keyword: "maxItems", Code: apierr.TooManyImages},
			{Field: "background", Keyword: "pattern", Code: apierr.InvalidColour},
			{Field: "background", Keyword: "type", Code: apierr.InvalidColour},
		},
		Docs: slideshowDocs(o),
		Examples: []tasks.Example{{
			Name: "three_products_crossfade", Title: "Three product shots, crossfaded",
			Description: "Three 480 × 480 frames, one second each, fading into one another: an animated GIF for a product page.",
			Input: json.RawMessage(
				`{"images":["file:example_slide_1","file:example_slide_2","file:example_slide_3"],"frame_ms":1000,` +
					`"transition":"crossfade","size":"480x480","format":"gif"}`,
			),
			Files: slideFiles,
		}},
	}
}

// frames is the number of frames of a GIF of in: the images, and
// fadeSteps between two with a crossfade.
func (in *slideInput) frames() int {
	n := len(in.Images)
	if in.Transition == "crossfade" {
		return n + fadeSteps*(n-1)
	}
	return n
}

// slideRunner makes one video.
type slideRunner struct{ o Options }

// Plan asks for one video.
func (slideRunner) Plan(*slideInput) tasks.Plan {
	return tasks.Plan{Steps: 1, Phase: "making the slideshow"}
}

// timeline is a slideshow's frames: each shows image a blended towards
// image b by t (0 = a alone).
type shot struct {
	a, b int
	t    float64
}

// Step loads and fits every image, then encodes the video.
func (r slideRunner) Step(ctx context.Context, in *slideInput, i int) (tasks.Output, error) {
	if i != 0 {
		return tasks.Output{}, fmt.Errorf("video.slideshow: no output %d", i)
	}
	W, H := size(in.Size)
	fit := in.Fit
	bg := tasks.ParseColour(in.Background)
	refs := tasks.ListRefs("images", in.Images)
	slides := make([]*image.NRGBA, len(refs))
	for j, ref := range refs {
		// One image at full size at a time: each is fitted to the frame
		// and released before the next is read.
		slide, err := tasks.ReduceImage(ctx, ref, inputSides, func(full image.Image) *image.NRGBA {
			return fitFrame(full, W, H, fit, bg)
		})
		if err != nil {
			return tasks.Output{}, err
		}
		slides[j] = slide
	}
	frameMS := (in.FrameMS + 5) / 10 * 10
	crossfade := in.Transition == "crossfade" && len(slides) > 1
	fade := 0
	if crossfade {
		fade = min(400, frameMS/2/(10*fadeSteps)*10*fadeSteps) // a multiple of fadeSteps × 10 ms
	}
	format := in.Format
	var enc encoded
	var frames int
	var err error
	if format == "mp4" {
		enc, frames, err = slideMP4(ctx, r.o.FFmpeg, slides, frameMS, fade, W, H)
	} else {
		enc, frames, err = slideGIF(ctx, slides, frameMS, fade)
	}
	if err != nil {
		return tasks.Output{}, err
	}
	duration := frameMS * len(slides)
	if format == "mp4" {
		duration = frames * 1000 / mp4FPS
	}
	return tasks.Output{Data: enc.data, MediaType: enc.mediaType, Ext: enc.ext, Meta: map[string]any{
		"format": format, "size": in.Size, "width": W, "height": H,
		"frames": frames, "duration_ms": duration, "images": len(slides),
	}}, nil
}

// fitFrame fits an image to a W × H frame: cover fills it (centre crop),
// contain centres the whole image on bg. Lanczos resampling.
func fitFrame(img image.Image, W, H int, fit string, bg color.Color) *image.NRGBA {
	if fit == "contain" {
		scaled := imaging.Fit(img, W, H, imaging.Lanczos)
		canvas := imaging.New(W, H, bg)
		return imaging.Overlay(canvas, scaled, image.Pt((W-scaled.Rect.Dx())/2, (H-scaled.Rect.Dy())/2), 1)
	}
	out := imaging.Fill(img, W, H, imaging.Center, imaging.Lanczos)
	// Transparent parts show the background.
	return imaging.Overlay(imaging.New(W, H, bg), out, image.Point{}, 1)
}

// blend is a crossfade frame: a towards b by t.
func blend(a, b *image.NRGBA, t float64) *image.NRGBA {
	out := image.NewNRGBA(a.Rect)
	wb := int(t*256 + 0.5)
	wa := 256 - wb
	for i := range out.Pix {
		out.Pix[i] = uint8((int(a.Pix[i])*wa + int(b.Pix[i])*wb + 128) >> 8)
	}
	return out
}

func (s shot) frame(slides []*image.NRGBA) *image.NRGBA {
	if s.t == 0 {
		return slides[s.a]
	}
	return blend(slides[s.a], slides[s.b], s.t)
}

// slideGIF is one frame per image held frameMS (less the fade), and
// fadeSteps blended frames between images, each frame with its own palette.
func slideGIF(ctx context.Context, slides []*image.NRGBA, frameMS, fade int) (encoded, int, error) {
	var shots []shot
	var delays []int
	for j := range slides {
		last := j == len(slides)-1
		if fade == 0 || last {
			shots, delays = append(shots, shot{a: j}), append(delays, frameMS/10)
			continue
		}
		shots, delays = append(shots, shot{a: j}), append(delays, (frameMS-fade)/10)
		for k := 1; k <= fadeSteps; k++ {
			shots = append(shots, shot{a: j, b: j + 1, t: float64(k) / (fadeSteps + 1)})
			delays = append(delays, fade/fadeSteps/10)
		}
	}
	frames := make([]*image.Paletted, len(shots))
	for k, s := range shots {
		if err := ctx.Err(); err != nil {
			return encoded{}, 0, err
		}
		frames[k] = quantize(s.frame(slides))
	}
	data, err := encodeGIF(ctx, frames, delays)
	return encoded{data, "image/gif", "gif"}, len(frames), err
}

// slideMP4 is the same timeline at mp4FPS through ffmpeg.
func slideMP4(
	ctx context.Context,
	ffmpeg string,
	slides []*image.NRGBA,
	frameMS, fade, W, H int,
) (encoded, int, error) {
	per := max(1, (frameMS*mp4FPS+500)/1000)
	fadeFrames := (fade*mp4FPS + 500) / 1000
	var shots []shot
	for j := range slides {
		last := j == len(slides)-1
		for k := range per {
			s := shot{a: j}
			if !last && fadeFrames > 0 && k >= per-fadeFrames {
				s = shot{a: j, b: j + 1, t: float64(k-(per-fadeFrames)+1) / float64(fadeFrames+1)}
			}
			shots = append(shots, s)
		}
	}
	data, err := encodeMP4(
		ctx,
		ffmpeg,
		W,
		H,
		frameSource{count: len(shots), frame: func(i int) *image.NRGBA { return shots[i].frame(slides) }},
	)
	if err != nil {
		return encoded{}, 0, err
	}
	return encoded{data, "video/mp4", "mp4"}, len(shots), nil
}

func slideshowDocs(o Options) tasks.Docs {
	return tasks.Docs{
		Lead: "video.slideshow shows images one after another — product shots, a collection, before and after — each for " +
			"frame_ms, with a cut or a crossfade between them. GIFs are encoded here with a palette per frame and " +
			"Floyd–Steinberg dithering, so photos keep their gradients; MP4s are H.264 through ffmpeg. Images are fitted to " +
			"the frame with Lanczos resampling; nothing is generated.",
		BuiltFor: []string{
			"Animated product images for shops and marketplaces that take GIFs.",
			"Short collection or lookbook videos for social media.",
		},
		WhatYouGet: []string{
			"One GIF (looping forever) or MP4 per job.",
			"Its data: format, frame size, number of frames, length of one play and the number of images.",
		},
		Outputs: tasks.DocsOutputs{
			Count:          "One video.",
			CountDependsOn: []string{},
			AbsentWhen: new(
				"An image that cannot be fetched or read fails the job with processing_failed naming it.",
			),
		},
		Specs: specs(
			o,
			fmt.Sprintf("1 to %d images.", maxSlides),
			"One video per job.",
			"size (default 720x720; eight sizes from 480x480 to 1920x1080). One play lasts images × frame_ms. A GIF holds at "+
				"most 120 megapixels of frames in all (frames × width × height; a crossfade adds 8 frames per change); more "+
				"answers 422 request_refused naming size.",
		),
		Limitations: []string{
			"GIF frames have 256 colours each; MP4 is full colour.",
			"No audio, no text, no motion within an image (no Ken Burns).",
			"All images are fetched and decoded when the job runs; one that cannot be read fails the whole video.",
		},
		Errors: tasks.ErrorList(
			apierr.FieldNotAccepted,
			apierr.InvalidOption,
			apierr.InvalidColour,
			apierr.ImagesRequired,
			apierr.TooManyImages,
			apierr.ImageNotPublic,
			apierr.RequestRefused,
		),
		Related: []tasks.Related{
			{Task: "image.crop", Relation: "before"},
			{Task: "image.remove_background", Relation: "before"},
			{Task: "video.pattern_loop", Relation: "sibling"},
		},
	}
}
