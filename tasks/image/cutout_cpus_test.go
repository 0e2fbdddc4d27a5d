package image

import (
	"context"
	"runtime"
	"testing"

	"github.com/disintegration/imaging"
	"github.com/stretchr/testify/require"
)

// TestCutOutIsTheSameOnOneCPU: the cut-out's per-pixel passes run split
// across the CPUs on a photo of a megapixel or more; the pixels they give
// are the ones one CPU gives, with the shadow kept or dropped. Not
// parallel: it sets GOMAXPROCS.
func TestCutOutIsTheSameOnOneCPU(t *testing.T) {
	for _, sc := range photoScenes() {
		// Enlarged to 1100 × 1100: over the megapixel Rows splits.
		img := imaging.Resize(sc.render().img, 1100, 1100, imaging.Lanczos)
		for _, keepShadow := range []bool{false, true} {
			cut := func(procs int) []byte {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				res, err := cutOutMatte(context.Background(), img, 12, 1, keepShadow)
				require.NoError(t, err, sc.name)
				return res.img.Pix
			}
			one, two := cut(1), cut(2)
			require.Equal(t, one, two, "%s (shadow kept: %v): the same pixels on one CPU and two", sc.name, keepShadow)
		}
	}
}
