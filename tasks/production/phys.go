package production

import (
	"image/png"

	"github.com/taskplatform/taskplatform/tasks/pngenc"
)

// pngEncoder writes print files: fast compression, as they are large.
var pngEncoder = pngenc.Encoder(png.BestSpeed)
