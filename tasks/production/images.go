package production

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/gif" // GIF inputs (the first frame)
	_ "image/png" // PNG inputs

	_ "golang.org/x/image/bmp"  // BMP inputs
	_ "golang.org/x/image/webp" // WebP inputs

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/imagefile"
)

// inputSides bounds the sides of an input image; maxInputPixels bounds its
// area, so one decoded image stays within a few hundred MB.
var inputSides = tasks.ImageSides{Min: 16, Max: 8192}

const maxInputPixels = 40_000_000

// inputFormats is the input_formats spec row of the family's image fields.
const inputFormats = "PNG, JPEG, WebP, GIF (first frame) or BMP; 16 to 8192 px a side and at most 40 megapixels, fetched through the service's SSRF-safe loader (file: and art: handles, public https URLs). JPEG EXIF orientation is applied."

// loadImage fetches one image reference through the step's loader and
// decodes it, checking its size from the header first.
func loadImage(ctx context.Context, r tasks.Ref) (image.Image, error) {
	data, err := tasks.LoadRef(ctx, r.Ref)
	if err != nil {
		return nil, err
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fail(fmt.Sprintf("%s (%s) could not be read as PNG, JPEG, WebP, GIF or BMP", r.Field, r.Ref))
	}
	if reason := inputSides.Check(cfg.Width, cfg.Height); reason != "" {
		return nil, fail(fmt.Sprintf("%s (%s): %s", r.Field, r.Ref, reason))
	}
	if cfg.Width*cfg.Height > maxInputPixels {
		return nil, fail(fmt.Sprintf("%s (%s) has %.1f megapixels; at most %d are taken", r.Field, r.Ref, float64(cfg.Width*cfg.Height)/1e6, maxInputPixels/1_000_000))
	}
	img, err := imagefile.Decode(data)
	if err != nil {
		return nil, fail(fmt.Sprintf("%s (%s) could not be decoded", r.Field, r.Ref))
	}
	return img, nil
}
