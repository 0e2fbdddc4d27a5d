package image

import (
	"context"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// Each stage of the cut-out on small drawn images (cutmatte.go names them).

// staged is img's cut state after steps 1 and 2.
func staged(t *testing.T, img image.Image) *cutState {
	st, share, _, err := newCutState(context.Background(), img, 12)
	require.NoError(t, err)
	require.Greater(t, share, 0.99, "a plain backdrop all round")
	st.candidates()
	st.walls()
	st.dropSeams()
	t.Cleanup(st.release)
	return st
}

// drawn is a w × h image of f's colours.
func drawn(w, h int, f func(x, y int) color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, f(x, y))
		}
	}
	return img
}

func grey(v float64) color.NRGBA {
	g := uint8(math.Round(v))
	return color.NRGBA{g, g, g, 255}
}

func TestBackdropFollowsASweep(t *testing.T) {
	sweepAt := func(y int) float64 { return 250 - 50*float64(y)/99 }
	img := drawn(120, 100, func(x, y int) color.NRGBA {
		if x >= 40 && x < 80 && y >= 30 && y < 70 {
			return color.NRGBA{30, 60, 200, 255}
		}
		return grey(sweepAt(y))
	})
	st := staged(t, img)
	for _, p := range [][2]int{{0, 0}, {60, 50}, {119, 99}} {
		require.InDelta(t, sweepAt(p[1]), st.bd.at(p[0], p[1])[1], 1.5, "the backdrop at %v", p)
	}
	require.Less(t, st.noise, 1.0, "a clean sweep")
}

func TestCandidatesTellAShadowFromAColour(t *testing.T) {
	img := drawn(110, 60, func(x, y int) color.NRGBA {
		switch {
		case y < 20 || y >= 40 || x < 10 || x >= 100:
			return grey(240)
		case x < 40:
			return grey(0.7 * 240) // a shadow
		case x < 70:
			return grey(0.4 * 240) // a contact shadow's core
		}
		return color.NRGBA{220, 120, 110, 255} // a product of its own hue
	})
	st := staged(t, img)
	at := func(x, y int) int { return y*st.W + x }
	require.True(t, st.near[at(5, 5)])
	require.True(t, st.cand[at(25, 30)] && !st.near[at(25, 30)] && !st.deep[at(25, 30)], "a shadow is a candidate")
	require.True(t, st.deep[at(55, 30)], "a deep shadow")
	require.False(t, st.cand[at(85, 30)], "a colour is never a shadow")
}

// ringed is white paper with a square white body lit from below
// inside an outline d levels darker (1 px),
// with a gap of gap pixels in its bottom side, and with ramp a soft
// shadow (40 levels deep, ramps 12 px wide) at the right.
func ringed(d float64, gap int, ramp bool) *image.NRGBA {
	return drawn(160, 120, func(x, y int) color.NRGBA {
		onSide := (x == 30 || x == 90) && y >= 30 && y <= 90 || (y == 30 || y == 90) && x >= 30 && x <= 90
		if onSide && !(y == 90 && x >= 60 && x < 60+gap) {
			return grey(250 - d)
		}
		if x > 30 && x < 90 && y > 30 && y < 90 { // a white body lit from below
			return grey(250 - 18*float64(89-y)/58)
		}
		if ramp && x >= 110 && x < 150 {
			return grey(250 - 40*math.Min(1, math.Min(float64(x-110), float64(149-x))/12))
		}
		return grey(250)
	})
}

func TestRimLinesFindAFaintRimNotASoftShadow(t *testing.T) {
	img := ringed(10, 0, true)
	lines := rimLines(img, 0)
	defer boolPool.put(lines)
	W := img.Rect.Dx()
	require.True(t, lines[75*W+30] && lines[90*W+40], "a rim 10 levels down is a line")
	for x := 115; x < 140; x++ {
		require.False(t, lines[60*W+x], "a soft shadow's ramp is no line (x %d)", x)
	}
	require.False(t, lines[60*W+60], "flat paper")
}

func TestTheWalledFloodClosesAGapInTheOutline(t *testing.T) {
	st := staged(t, ringed(12, 7, false))
	plainSeg, walled := st.segment(false), st.segment(true)
	defer boolPool.put(plainSeg)
	defer boolPool.put(walled)
	centre := 80*st.W + 60
	require.True(t, plainSeg[centre], "without walls the body's lit side is backdrop")
	require.False(t, walled[centre], "the outline, its 7-px gap closed, keeps what it bounds")
	require.True(t, walled[10*st.W+10], "outside stays backdrop")
	require.True(t, walled[94*st.W+62], "the backdrop along the outline's outer side is flooded back")
}

func TestAHoleShowingTheBackdropGoes(t *testing.T) {
	img := drawn(120, 120, func(x, y int) color.NRGBA {
		if r := math.Hypot(float64(x)-60, float64(y)-60); r < 40 && r >= 15 {
			return color.NRGBA{200, 40, 40, 255}
		}
		return grey(235)
	})
	st := staged(t, img)
	bg := st.segment(false)
	defer boolPool.put(bg)
	require.True(t, bg[60*st.W+60], "the ring's hole is backdrop")
	require.False(t, bg[60*st.W+90], "the ring is kept")
}

func TestSoftEdgesUnmixAlphaAndColour(t *testing.T) {
	red := color.NRGBA{220, 20, 30, 255}
	img := drawn(100, 60, func(x, y int) color.NRGBA {
		switch {
		case x < 40 || x >= 70 || y < 10 || y >= 50:
			return color.NRGBA{250, 250, 250, 255}
		case x == 40: // half red, half white
			return color.NRGBA{235, 135, 140, 255}
		}
		return red
	})
	st := staged(t, img)
	isBg := make([]bool, st.n)
	for i := range isBg {
		x, y := i%st.W, i/st.W
		isBg[i] = x < 40 || x >= 70 || y < 10 || y >= 50
	}
	for _, e := range st.softEdges(isBg, 2) {
		if e.i%st.W == 40 && e.i/st.W == 30 {
			require.InDelta(t, 128, float64(e.a), 10, "a half-mixed pixel is half opaque")
			require.InDelta(t, 220, float64(e.r), 8, "its colour is the product's, without the white")
			require.InDelta(t, 20, float64(e.g), 8)
			return
		}
	}
	t.Fatal("the mixed pixel has no soft edge")
}

func TestAPaleHueOrABrighterRegionIsNeverAShade(t *testing.T) {
	img := drawn(80, 40, func(x, y int) color.NRGBA {
		switch {
		case y < 10 || y >= 30 || x < 10 || x >= 70:
			return grey(248)
		case x < 30:
			return color.NRGBA{248, 236, 238, 255} // a pale pink
		case x < 50:
			return grey(0.9 * 248) // a shadow's tone
		}
		return grey(254) // whiter than the backdrop
	})
	st := staged(t, img)
	region := func(x0, x1 int) []int32 {
		var c []int32
		for y := 12; y < 28; y++ {
			for x := x0 + 2; x < x1-2; x++ {
				c = append(c, int32(y*st.W+x))
			}
		}
		return c
	}
	require.True(t, st.notAShade(region(10, 30)), "a pale pink")
	require.False(t, st.notAShade(region(30, 50)), "a grey as dark as a shadow")
	require.True(t, st.notAShade(region(50, 70)), "brighter than the backdrop")
}

func TestDilateGrowsBySquares(t *testing.T) {
	m := make([]bool, 20*10)
	m[5*20+10] = true
	d := dilate(m, 20, 10, 2)
	defer boolPool.put(d)
	require.Equal(t, 25, count(d), "a 5 × 5 square")
	require.True(t, d[3*20+8] && d[7*20+12] && !d[2*20+10] && !d[5*20+13])
}
