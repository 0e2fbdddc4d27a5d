package image

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Photo-like packshots: what a phone or a small studio delivers rather
// than clean renders — textured products (knit, leather grain, canvas),
// light from one side falling off across the product, a paper backdrop
// with its own grain, a wide soft shadow, sensor noise and JPEG at quality
// 85 — still with a known alpha.

// valueNoise is smooth value noise in about -1..1 at the given cell size.
func valueNoise(seed, cell float64) func(x, y float64) float64 {
	h := func(i, j float64) float64 {
		v := math.Sin(i*127.1+j*311.7+seed*74.7) * 43758.5453
		return 2*(v-math.Floor(v)) - 1
	}
	return func(x, y float64) float64 {
		u, v := x/cell, y/cell
		i, j := math.Floor(u), math.Floor(v)
		fu, fv := u-i, v-j
		fu, fv = fu*fu*(3-2*fu), fv*fv*(3-2*fv)
		a := h(i, j) + (h(i+1, j)-h(i, j))*fu
		b := h(i, j+1) + (h(i+1, j+1)-h(i, j+1))*fu
		return a + (b-a)*fv
	}
}

// lit is c under a soft light from the upper left across [x0, x1], with a
// texture t (about -1..1) of the given depth.
func lit(c rgbf, x0, x1, depth float64, t func(x, y float64) float64) func(x, y float64) rgbf {
	return func(x, y float64) rgbf {
		s := (x - x0) / (x1 - x0)
		k := 1.15 - 0.45*s*s + depth*t(x, y)
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// paper is a backdrop colour with a faint grain and light falling off
// towards the lower right.
func paper(c rgbf, w, h float64) func(x, y float64) rgbf {
	g := valueNoise(9, 3)
	return func(x, y float64) rgbf {
		k := 1 - 0.05*(x/w+y/h) + 0.01*g(x, y)
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// photoScenes are the photo-like packshots.
func photoScenes() []scene {
	const W, H = 240, 240
	knit := func(x, y float64) float64 { // rows of V stitches
		return 0.6*math.Abs(math.Sin(x*1.1+math.Abs(math.Mod(y, 4)-2)*0.9)) - 0.3 + 0.4*valueNoise(1, 1.5)(x, y)
	}
	sweater := []part{{
		in: union(rect(75, 55, 165, 195), func(x, y float64) bool { // body and sleeves falling off the shoulders
			left := x >= 45 && x < 75 && x > 45+0.15*(y-58)
			right := x >= 165 && x < 195 && x < 195-0.15*(y-58)
			return y >= 58 && y < 170 && (left || right)
		}),
		col: lit(rgbf{170, 150, 120}, 45, 195, 0.12, knit),
	}}
	leather := valueNoise(2, 0.8)
	handle := and(ring(120, 92, 26, 33), func(x, y float64) bool { return y < 98 })
	bag := []part{
		{in: union(func(x, y float64) bool { // a trapezoid body
			return y >= 95 && y < 195 && x > 70-0.15*(y-95) && x < 170+0.15*(y-95)
		}, handle), col: lit(rgbf{95, 45, 30}, 55, 185, 0.08, leather)},
		{in: rect(112, 120, 128, 128), col: flat(rgbf{200, 180, 120})}, // a brass clasp
	}
	bagHole := and(ellipse(120, 92, 26, 26), func(x, y float64) bool { return y < 92 })
	canvas := func(x, y float64) float64 { return 0.5*math.Sin(x*2.2)*math.Sin(y*2.2) + 0.5*valueNoise(3, 1)(x, y) }
	sneaker := []part{
		{in: union(func(x, y float64) bool { // a toe cap and a heel, rounded
			return y >= 120 && y < 165 && x >= 50 && x < 190 && (x-50)*(x-50)/(140*140)+(165-y)*(165-y)/(60*60) < 1.1
		}, ellipse(165, 128, 25, 28)), col: lit(rgbf{60, 90, 150}, 50, 190, 0.07, canvas)},
		{in: rect(45, 162, 195, 181), col: flat(rgbf{120, 118, 115})}, // the sole's seam, as stitched or glued
		{in: rect(46, 163, 194, 180), col: lit(rgbf{242, 240, 236}, 46, 194, 0.01, canvas), light: true},
	}
	bottle := []part{
		{in: union(rect(100, 85, 140, 195), ellipse(120, 85, 20, 8)), col: lit(rgbf{30, 110, 60}, 100, 140, 0.02, leather)},
		{in: rect(112, 50, 128, 82), col: lit(rgbf{30, 110, 60}, 112, 128, 0, leather)},
		{in: rect(104, 120, 136, 160), col: lit(rgbf{236, 230, 214}, 100, 140, 0.01, canvas)}, // a label
		{in: rect(110, 40, 130, 52), col: flat(rgbf{180, 150, 60})},
	}
	soft := func(cx, cy, rx float64) func(x, y float64) float64 { // a window's wide soft shadow
		return shadows(softShadow(cx, cy, rx, 7, 0.4, 4), softShadow(cx+15, cy+3, rx*1.3, 14, 0.22, 14))
	}
	scenes := []scene{
		{name: "photo_sweater_white", w: W, h: H, backdrop: paper(rgbf{247, 246, 243}, W, H), parts: sweater,
			shadow: soft(125, 196, 55), noise: 2.5},
		{name: "photo_bag_grey", w: W, h: H, backdrop: paper(rgbf{208, 208, 206}, W, H), parts: bag,
			hole: bagHole, shadow: soft(122, 196, 60), noise: 2.5},
		{name: "photo_sneaker_white", w: W, h: H, backdrop: paper(rgbf{250, 249, 247}, W, H), parts: sneaker,
			shadow: soft(120, 181, 78), noise: 2},
		{name: "photo_bottle_beige", w: W, h: H, backdrop: paper(rgbf{228, 214, 190}, W, H), parts: bottle,
			shadow: soft(122, 196, 26), noise: 2},
	}
	for i := range scenes {
		scenes[i].jpeg, scenes[i].scale = true, 2
	}
	return scenes
}

// TestCutoutOnPhotoLikeShots holds the cut-out to the figures on
// the photo-like shots too (CUTOUT_DIR=/some/dir writes them to look at).
func TestCutoutOnPhotoLikeShots(t *testing.T) {
	dir := os.Getenv("CUTOUT_DIR")
	for _, s := range photoScenes() {
		tr := s.render()
		res, err := cutOut(context.Background(), tr.img, 12, 2)
		require.NoError(t, err, s.name)
		sc := score(tr, res.img)
		t.Logf("%-22s IoU %.4f MAE %5.2f/255 shadow %.3f hole %.3f light %.3f halo %.3f (raw %.3f)",
			s.name, sc.iou, sc.mae*255, sc.shadow, sc.hole, sc.light, sc.halo, sc.haloRaw)
		if dir != "" {
			writePNG(t, filepath.Join(dir, s.name+"_in.png"), tr.img)
			writePNG(t, filepath.Join(dir, s.name+"_side.png"), sideBySide(tr.img, res.img))
		}
		require.GreaterOrEqual(t, sc.iou, 0.93, "%s: IoU", s.name)
		require.LessOrEqual(t, sc.mae, 4.0/255, "%s: alpha error", s.name)
		require.LessOrEqual(t, sc.shadow, 0.05, "%s: shadow", s.name)
		require.LessOrEqual(t, sc.hole, 0.05, "%s: enclosed backdrop", s.name)
		if sc.hasLight {
			require.GreaterOrEqual(t, sc.light, 0.95, "%s: light part", s.name)
		}
	}
}
