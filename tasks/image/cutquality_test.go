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

// TestABadCutIsWarnedAndNotCharged: a white spray bottle cut out with its
// hard shadow and without part of its head (IoU under 0.7; the teapot whose
// body the cut-out dropped, the example before, now comes out whole) is
// delivered with cutout_uncertain and not charged; a
// bottle cut out well is charged without a warning.
func TestABadCutIsWarnedAndNotCharged(t *testing.T) {
	var bad shot
	for _, s := range sixthShots() {
		if s.name == "p6_spray_bottle_right_edge_q74" {
			bad = s
		}
	}
	require.NotEmpty(t, bad.name)
	iou, q, uncharged, warnings := cutThroughTheTask(t, bad.photograph())
	require.Less(t, iou, 0.7, "the spray bottle's cut-out is bad")
	require.Less(t, q, minCutQuality)
	require.True(t, uncharged, "a bad cut is not charged")
	require.Equal(t, []string{string(apierr.CutoutUncertain)}, warnings)

	iou, q, uncharged, warnings = cutThroughTheTask(t, truthScenes()[0].render())
	require.Greater(t, iou, 0.99, "the bottle's cut-out is good")
	require.GreaterOrEqual(t, q, minCutQuality)
	require.False(t, uncharged, "a good cut is charged")
	require.Empty(t, warnings)
}
