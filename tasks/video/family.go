// Package video is the video family: video.slideshow (images shown in turn,
// cut or crossfaded) and video.pattern_loop (a seamless scrolling loop of a
// pattern tile), as animated GIF — encoded here, a palette per frame with
// dithering — or H.264 MP4 through ffmpeg when the server has it.
package video

import (
	"context"
	"fmt"
	"image"
	"strconv"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

type obj = map[string]any

// Options are what the family's tasks depend on in the machine.
type Options struct {
	// FFmpeg is the path of the ffmpeg program, "" when the server has
	// none: format mp4 is then refused at submit with request_refused.
	FFmpeg string
}

// Family is the video family with ffmpeg as found on PATH.
func Family() tasks.Family { return NewFamily(Options{FFmpeg: LookFFmpeg()}) }

// NewFamily is the video family for the given machine.
func NewFamily(o Options) tasks.Family {
	return tasks.Family{
		Name:         "video",
		Tasks:        []*tasks.Definition{slideshow(o), patternLoop(o)},
		Vocabularies: []tasks.Vocabulary{formatVocab(o), sizeVocab(), directionVocab()},
		Concepts: []tasks.Concept{{
			Name: "seamless_loop", Short: "A video whose last frame leads into its first without a jump, so it can play on " +
				"repeat forever.",
			Long: "A seamless loop ends one step before it begins again: played on repeat, the motion never stutters. " +
				"video.pattern_loop makes one by moving a seamless tile exactly one tile length over the loop, a whole number " +
				"of pixels per frame.",
			Related: []string{"seamless_tile"},
		}},
	}
}

// gifBudget bounds a GIF: frames × width × height pixels. Larger GIFs
// are tens of MB; MP4 has no such bound.
const gifBudget = 120_000_000

// refuseFormat is the Refuse check of both tasks: mp4 needs ffmpeg, and a
// GIF of frames frames of frame size sz must fit gifBudget (field names
// what to change).
func refuseFormat(o Options, format, sz string, frames int, field string) *apierr.Error {
	switch format {
	case "mp4":
		if o.FFmpeg == "" {
			return apierr.New(apierr.RequestRefused, "This server cannot make MP4: ffmpeg is not installed where it runs. "+
				"Send format gif, or ask the operator to install ffmpeg.").
				WithField("format")
		}
	default:
		w, h := size(sz)
		if frames*w*h > gifBudget {
			return apierr.New(apierr.RequestRefused, fmt.Sprintf("The GIF would hold %d frames of %d × %d px, more than a "+
				"GIF can carry at a sensible file size (%d megapixels in all). Choose a smaller size, a shorter video or format "+
				"mp4.", frames, w, h, gifBudget/1_000_000)).
				WithField(field)
		}
	}
	return nil
}

// formats says which formats this server makes, for the docs.
func (o Options) formats() string {
	if o.FFmpeg == "" {
		return "GIF only on this server: MP4 needs ffmpeg, which is not installed here, so format mp4 answers 422 " +
			"request_refused at submit."
	}
	return "GIF and MP4 on this server (ffmpeg is installed); MP4 is the default here."
}

// size is the frame size of a size field's value (WIDTHxHEIGHT).
func size(sz string) (int, int) {
	w, h, _ := strings.Cut(sz, "x")
	W, _ := strconv.Atoi(w)
	H, _ := strconv.Atoi(h)
	return max(W, 16), max(H, 16)
}

// inputSides bounds the sides of every input image; the pixel budget
// (tasks.ImageBudget) bounds its area and the memory it takes to decode.
var inputSides = tasks.ImageSides{Min: 16, Max: 8192}

// load fetches and decodes one reference within the pixel budget, EXIF
// orientation applied; the header is checked before the pixels are decoded.
func load(ctx context.Context, r tasks.Ref) (image.Image, error) {
	return tasks.LoadImage(ctx, r, inputSides)
}

// failf is a permanent step failure naming the input.
func failf(r tasks.Ref, format string, args ...any) error {
	return &tasks.StepError{
		Code:    contract.ErrTypeProcessing,
		Message: fmt.Sprintf("%s (%s): ", r.Field, r.Ref) + fmt.Sprintf(format, args...),
	}
}

// encoded is a finished video file.
type encoded struct {
	data      []byte
	mediaType string
	ext       string
}

func specs(o Options, input, count, resolution string) []tasks.SpecRow {
	return append([]tasks.SpecRow{
		{Key: "input_formats", Title: "Input formats",
			Text: "PNG, JPEG, WebP, GIF (first frame) or BMP; 16 to 8192 px a side, " + tasks.ImageBudget +
				"; EXIF orientation applied."},
		{Key: "input_count", Title: "Input count", Text: input},
		{
			Key:   "output_format",
			Title: "Output format",
			Text: "MP4 (format mp4: H.264 High, yuv420p, 30 fps, no audio; the default where the server has ffmpeg) or " +
				"animated GIF (format gif, the default where it has not: up to 256 colours, Floyd–Steinberg dithered, " +
				"loops forever; a pattern loop keeps to a size cap, see its limitations). " + o.formats(),
		},
		{Key: "output_resolution", Title: "Output resolution", Text: resolution},
		{Key: "outputs_per_job", Title: "Outputs per job", Text: count},
	}, tasks.Terms{
		CommercialUse: "Allowed for images you hold the rights to.",
		Reproducibility: "Deterministic: the same input gives the same GIF bytes; " +
			"an MP4 is the same for the same ffmpeg build.",
	}.Rows()...)
}

// formatVocab is the video_format vocabulary of a server: MP4 is the
// default where the server has ffmpeg (files 20 to 200 times smaller than
// GIF, BenchmarkLoopSizes), GIF where it has not.
func formatVocab(o Options) tasks.Vocabulary {
	def := "gif"
	if o.FFmpeg != "" {
		def = "mp4"
	}
	return tasks.Vocabulary{
		Name: "video_format", Description: "The file format of a video. MP4 needs ffmpeg on the server and is the " +
			"default where the server has it, GIF where it has not; each video task's docs say which formats this " +
			"server makes.",
		Values: []tasks.VocabValue{
			{
				Value:       "gif",
				Label:       "Animated GIF",
				Description: "Plays everywhere images do (e-mail, marketplaces, chat); 256 colours per frame, larger files.",
				ChooseWhen:  "the video must play where only images are allowed",
				Default:     def == "gif",
			},
			{
				Value:       "mp4",
				Label:       "MP4 (H.264)",
				Description: "Full colour, small files; plays in browsers, phones and social apps. Needs ffmpeg on the server.",
				ChooseWhen:  "the video goes to a web page or social media",
				Default:     def == "mp4",
			},
		},
		Default: &def,
	}
}

func sizeVocab() tasks.Vocabulary {
	v := func(value, label, desc string) tasks.VocabValue {
		return tasks.VocabValue{Value: value, Label: label, Description: desc, Default: value == "720x720"}
	}
	return tasks.Vocabulary{
		Name: "video_size", Description: "The frame size of a video, WIDTHxHEIGHT in pixels.",
		Values: []tasks.VocabValue{
			v("480x480", "Square 480", "Small square: chat, e-mail, previews."),
			v("720x720", "Square 720", "Square for feeds and product pages."),
			v("1080x1080", "Square 1080", "Full-resolution square feed posts."),
			v("720x900", "Portrait 4:5", "Portrait feed posts."),
			v("720x1280", "Vertical 9:16", "Stories and Reels."),
			v("1080x1920", "Vertical 9:16 HD", "Full-resolution Stories and Reels (mp4)."),
			v("1280x720", "Landscape 16:9", "Web banners and slides."),
			v("1920x1080", "Landscape 16:9 HD", "Full HD video (mp4)."),
		},
		Default: new("720x720"),
	}
}

// transitions are how a slideshow passes from one image to the next:
// only video.slideshow's transition takes them, so they are its schema's
// enum and have no vocabulary name.
func transitions() []tasks.VocabValue {
	return []tasks.VocabValue{
		{
			Value:       "crossfade",
			Description: "The next image fades in over the last moments of each image (up to 400 ms).",
			Default:     true,
		},
		{
			Value:       "cut",
			Description: "The next image replaces the last at once; the smallest GIFs.",
			ChooseWhen:  "the file must be small",
		},
	}
}

func directionVocab() tasks.Vocabulary {
	return tasks.Vocabulary{
		Name: "scroll_direction", Description: "Which way a pattern moves in a loop.",
		Values: []tasks.VocabValue{
			{Value: "left", Label: "Left", Description: "The pattern moves to the left.", Default: true},
			{Value: "right", Label: "Right", Description: "The pattern moves to the right."},
			{Value: "up", Label: "Up", Description: "The pattern moves up."},
			{Value: "down", Label: "Down", Description: "The pattern moves down."},
			{Value: "diagonal", Label: "Diagonal", Description: "The pattern moves up and to the left at once."},
		},
		Default: new("left"),
	}
}

// frameFits are how an image fills a video frame of another aspect ratio:
// only video.slideshow's fit takes them, so they are its schema's enum and
// have no vocabulary name.
func frameFits() []tasks.VocabValue {
	return []tasks.VocabValue{
		{
			Value:       "cover",
			Description: "The image fills the frame; the overflow is cut equally from both sides.",
			Default:     true,
		},
		{
			Value:       "contain",
			Description: "The whole image, centred on the background colour.",
			ChooseWhen:  "nothing of the image may be cut",
		},
	}
}
