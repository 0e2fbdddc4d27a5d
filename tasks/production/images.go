package production

import (
	"context"
	"image"

	"github.com/taskplatform/taskplatform/tasks"
)

// inputSides bounds the sides of an input image; the pixel budget
// (tasks.ImageBudget) bounds its area and the memory it takes to decode.
var inputSides = tasks.ImageSides{Min: 16, Max: 8192}

// inputFormats is the input_formats spec row of the family's image fields.
const inputFormats = "PNG, JPEG, WebP, GIF (first frame) or BMP; 16 to 8192 px a side, " + tasks.ImageBudget +
	", fetched through the service's SSRF-safe loader (file: and art: handles, public https URLs). " +
	"JPEG EXIF orientation is applied."

// loadImage fetches one image reference through the step's loader and
// decodes it within the pixel budget, checking its header first.
func loadImage(ctx context.Context, r tasks.Ref) (image.Image, error) {
	return tasks.LoadImage(ctx, r, inputSides)
}
