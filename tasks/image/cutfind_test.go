package image

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
)

// faintRing is a small pale stone ring (1.5 % of the frame) off-centre low
// on a grey-white sweep, lit from the right: at the asked tolerance all of
// it is within reach of the backdrop.
func faintRing() shot {
	cx, cy := 92.0, 150.0
	in := without(ellipse(cx, cy, 21, 21), ellipse(cx, cy, 8, 8))
	col := func(x, y float64) rgbf {
		r := math.Hypot(x-cx, y-cy)
		s := (r - 14.5) / 6.5
		k := 0.97 + 0.02*(x-cx)/21 - 0.03*s*s
		return rgbf{250 * k, 247 * k, 238 * k}
	}
	return shot{scene: scene{name: "faint_ring", w: 300, h: 220,
		backdrop: sweep(rgbf{247, 247, 248}, rgbf{240, 240, 242}, 220),
		parts:    []part{{in: in, col: col, light: true}}, hole: ellipse(cx, cy, 8, 8)},
		cam: camera{defocus: 0.6, vignette: 0.08, luma: 1.8, chroma: 0.8, quality: 88}}
}

// TestCutoutFindsAFaintSmallProduct: a pale ring the first look misses is
// cut out by the second, its hole cleared.
func TestCutoutFindsAFaintSmallProduct(t *testing.T) {
	ctx := context.Background()
	tr := faintRing().photograph()
	st, _, _, err := newCutState(ctx, tr.img, 12)
	require.NoError(t, err)
	first, err := st.cut(0, false)
	st.release()
	require.NoError(t, err)
	require.Less(t, first, minObjectShare, "the first look at tolerance 12 must miss it, or this tests nothing new")

	res, err := cutOut(ctx, tr.img, 12, 0)
	require.NoError(t, err)
	s := score(tr, res.img)
	require.GreaterOrEqual(t, s.iou, 0.85) // 0.90 measured
	require.LessOrEqual(t, s.hole, 0.1)
}

// TestCutoutRefusesAnEmptyBackdrop: a backdrop with nothing on it, plain,
// noisy, JPEG or graded, is refused as having no object, never cut.
func TestCutoutRefusesAnEmptyBackdrop(t *testing.T) {
	backdrops := map[string]shot{
		"plain": {scene: scene{name: "plain", w: 300, h: 220, backdrop: plain(rgbf{245, 245, 245})}},
		"noisy": {scene: scene{name: "noisy", w: 300, h: 220, backdrop: plain(rgbf{240, 241, 244})},
			cam: camera{luma: 4, chroma: 2}},
		"jpeg": {scene: scene{name: "jpeg", w: 300, h: 220, backdrop: plain(rgbf{236, 236, 232})},
			cam: camera{defocus: 0.5, luma: 2.5, chroma: 1.5, quality: 70}},
		"graded": {scene: scene{name: "graded", w: 300, h: 220, backdrop: sweep(rgbf{252, 252, 252},
			rgbf{226, 227, 230}, 220)}, cam: camera{defocus: 0.5, vignette: 0.15, luma: 2, chroma: 1, quality: 80}},
	}
	for name, sh := range backdrops {
		tr := sh.photograph()
		res, err := cutOut(context.Background(), tr.img, 12, 0)
		require.Error(t, err, name)
		var low *tasks.LowConfidence
		require.False(t, errors.As(err, &low), "%s: refused as no object, not as a busy backdrop", name)
		require.Nil(t, res.img, name)
	}
}
