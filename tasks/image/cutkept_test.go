package image

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// shotNamed is the shot of shots named name.
func shotNamed(t *testing.T, shots []shot, name string) shot {
	t.Helper()
	for _, s := range shots {
		if s.name == name {
			return s
		}
	}
	require.FailNow(t, "no shot "+name)
	return shot{}
}

// TestACutKeepingItsCastShadowIsFlagged: a white mug on a pale sweep cut
// out with its hard cast shadow (the truth's product and shadow kept) is
// flagged; the mug alone is not, nor a charcoal speaker (a product that
// is a shade of the backdrop all over) cut without its hard shadow.
func TestACutKeepingItsCastShadowIsFlagged(t *testing.T) {
	tr := shotNamed(t, shineShots(), "s_mug_white_hard_left_q80").photograph()
	mug := readCutQuality(tr.img, truthCut(tr, nil))
	require.LessOrEqual(t, mug.shadow, shadowFree, "the mug alone")
	require.GreaterOrEqual(t, mug.score, minCutQuality, "the mug alone")
	withShadow := truthCut(tr, nil)
	W := withShadow.Rect.Dx()
	for i, s := range tr.shadow {
		if s {
			withShadow.Pix[(i/W)*withShadow.Stride+4*(i%W)+3] = 255
		}
	}
	kept := readCutQuality(tr.img, withShadow)
	require.Greater(t, kept.shadow, 2*shadowFree, "the mug with its shadow")
	require.Less(t, kept.score, minCutQuality, "the mug with its shadow")

	sp := shotNamed(t, shineShots(), "s_speaker_grey_foot_hard_q85").photograph()
	speaker := readCutQuality(sp.img, truthCut(sp, nil))
	require.LessOrEqual(t, speaker.shadow, shadowFree, "a grey speaker is no shadow")
	require.GreaterOrEqual(t, speaker.score, minCutQuality, "the grey speaker")
}

// TestACutLosingAThinStemIsFlagged: a white lamp on a pale sweep cut out
// without its thin stem (the truth with the stem's column cleared) leaves
// the stem joined to it and is flagged; the whole lamp is not.
func TestACutLosingAThinStemIsFlagged(t *testing.T) {
	tr := shotNamed(t, seventhShots(), "p7_lamp_white_thinstem_q92").photograph()
	whole := readCutQuality(tr.img, truthCut(tr, nil))
	require.LessOrEqual(t, whole.strands, strandsFree, "the whole lamp")
	require.GreaterOrEqual(t, whole.score, minCutQuality, "the whole lamp")
	noStem := readCutQuality(tr.img, truthCut(tr, func(x, y float64) bool {
		return x < 145 || x > 155 || y < 132 || y > 250
	}))
	require.Greater(t, noStem.strands, 2*strandsFree, "the lamp without its stem")
	require.Less(t, noStem.score, minCutQuality, "the lamp without its stem")
}
