package image

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
)

// cutThroughTheTask cuts out the rendered t through image.remove_background
// and measures the result against its truth.
func cutThroughTheTask(t *testing.T, tr truth) (iou, quality float64, uncharged bool, warnings []string) {
	t.Helper()
	out, errs := run(t, "image.remove_background", `{"images":["file:s"]}`, files{"file:s": pngBytes(tr.img)})
	require.Empty(t, errs)
	img := decode(t, out[0])
	got := cloneNRGBA(img)
	for _, w := range out[0].Warnings {
		warnings = append(warnings, w.Code)
	}
	return score(tr, got).iou, out[0].Meta["cut_quality"].(float64), out[0].Uncharged, warnings
}

// TestABadCutIsWarnedAndNotCharged: a teapot whose body the cut-out drops
// (IoU under 0.5) is delivered with cutout_uncertain and not charged; a
// bottle cut out well is charged without a warning.
func TestABadCutIsWarnedAndNotCharged(t *testing.T) {
	var bad shot
	for _, s := range fifthShots() {
		if s.name == "p5_teapot_hole_offwhite_q78" {
			bad = s
		}
	}
	require.NotEmpty(t, bad.name)
	iou, q, uncharged, warnings := cutThroughTheTask(t, bad.photograph())
	require.Less(t, iou, 0.5, "the teapot's cut-out is bad")
	require.Less(t, q, minCutQuality)
	require.True(t, uncharged, "a bad cut is not charged")
	require.Equal(t, []string{string(apierr.CutoutUncertain)}, warnings)

	iou, q, uncharged, warnings = cutThroughTheTask(t, truthScenes()[0].render())
	require.Greater(t, iou, 0.99, "the bottle's cut-out is good")
	require.GreaterOrEqual(t, q, minCutQuality)
	require.False(t, uncharged, "a good cut is charged")
	require.Empty(t, warnings)
}
