package image

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/pngenc"
)

// inputSides bounds the sides of every input image; the pixel budget
// (tasks.ImageBudget) bounds its area and the memory it takes to decode.
var inputSides = tasks.ImageSides{Min: 16, Max: 8192}

// inputFormats is the input_formats spec row every task of the family shares.
const inputFormats = "PNG, JPEG, WebP, GIF (first frame) or BMP; 16 to 8192 px a side, " + tasks.ImageBudget +
	". JPEG EXIF orientation is applied before anything else."

// failf is a permanent step failure whose message names the input: the
// job's summary (output_not_produced) or failure (processing_failed)
// carries it.
func failf(field, ref, format string, args ...any) error {
	return &tasks.StepError{
		Code:    contract.ErrTypeProcessing,
		Message: fmt.Sprintf("%s (%s): ", field, ref) + fmt.Sprintf(format, args...),
	}
}

// source is one decoded input image with the EXIF orientation applied.
type source struct {
	field, ref string
	img        image.Image
	// icc is the input's embedded ICC colour profile, nil when it has none.
	icc []byte
}

// load fetches and decodes one reference. Sides and area are checked from
// the header before the pixels are decoded.
func load(ctx context.Context, r tasks.Ref) (*source, error) {
	data, err := tasks.LoadRef(ctx, r)
	if err != nil {
		return nil, err
	}
	return decodeRef(r, data)
}

// decodeRef reads the bytes of reference r within the pixel budget: sides
// and area are checked from the header before the pixels are decoded.
func decodeRef(r tasks.Ref, data []byte) (*source, error) {
	img, err := tasks.DecodeImage(r, data, inputSides)
	if err != nil {
		return nil, err
	}
	return &source{field: r.Field, ref: r.Ref, img: img, icc: readICC(data)}, nil
}

// encoded is an output image in its file format.
type encoded struct {
	data      []byte
	mediaType string
	ext       string
}

// encode writes img as png or jpeg (quality 1–100), embedding icc when
// given. JPEG has no transparency: transparent parts are laid on white.
func encode(img image.Image, format string, quality int, icc []byte) (encoded, error) {
	var buf bytes.Buffer
	switch format {
	case "jpeg":
		flat := imaging.New(img.Bounds().Dx(), img.Bounds().Dy(), color.White)
		flat = imaging.Overlay(flat, img, image.Point{}, 1)
		if err := jpeg.Encode(&buf, flat, &jpeg.Options{Quality: quality}); err != nil {
			return encoded{}, err
		}
		return encoded{withJPEGICC(buf.Bytes(), icc), "image/jpeg", "jpg"}, nil
	default:
		// BestSpeed, deliberately: the encode is most of a step's CPU, and
		// DefaultCompression costs 2–4× the time to save 15–25 % (the
		// example crop: 77 KB in 11 ms against 58 KB in 46 ms; the
		// cut-out: 20 KB in 6 ms against 17 KB in 11 ms; make bench, tasks
		// table).
		enc := pngenc.Encoder(png.BestSpeed)
		if err := enc.Encode(&buf, img); err != nil {
			return encoded{}, err
		}
		return encoded{withPNGICC(buf.Bytes(), icc), "image/png", "png"}, nil
	}
}

// output is a step's file with its data.
func (e encoded) output(meta map[string]any) tasks.Output {
	return tasks.Output{Data: e.data, MediaType: e.mediaType, Ext: e.ext, Meta: meta}
}

// pngBytes encodes an image as PNG; a failure is a programming error.
func pngBytes(img image.Image) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// jpegBytes encodes an image as JPEG at quality 92; a failure is a
// programming error.
func jpegBytes(img image.Image) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 92}); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// hex writes a colour #RRGGBB.
func hex(c color.Color) string {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	return fmt.Sprintf("#%02X%02X%02X", n.R, n.G, n.B)
}
