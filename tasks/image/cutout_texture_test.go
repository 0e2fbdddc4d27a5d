package image

import (
	"math"
	"testing"
)

// The texture set: products on backdrops with a visible texture — a linen
// weave, concrete speckle, wood grain, kraft paper, a knit — each once
// with a product of a far tone and once of a close one, through the fifth
// set's camera (cutout_fifth_render_test.go) with JPEG at 70 to 90 and a
// soft shadow. The texture here is coarse enough to survive the lens
// blur: a few pixels across and several levels deep, as real linen or
// concrete is at catalogue resolution. It is a tuning set.

// weave is a linen weave of colour c: warp and weft threads period wide,
// slubs (thicker, lighter runs) along the weft, a fall to the bottom.
func weave(c rgbf, h, period, depth, seed float64) func(x, y float64) rgbf {
	slub := valueNoise(seed, 2.5)
	return func(x, y float64) rgbf {
		wx, wy := math.Sin(2*math.Pi*x/period), math.Sin(2*math.Pi*y/period)
		w := depth * (0.6*wx*wy + 0.4*math.Abs(wy) - 0.2 + 0.5*slub(x*0.3, y))
		k := 1 + w - 0.04*y/h
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// speckle is concrete with a coarse aggregate: light and dark grains a
// few pixels across, pits and broad clouds.
func speckle(c rgbf, depth, seed float64) func(x, y float64) rgbf {
	grain, cloud, pit := valueNoise(seed, 1.3), valueNoise(seed+1, 30), valueNoise(seed+2, 2)
	return func(x, y float64) rgbf {
		k := 1 + depth*(grain(x, y)+0.4*cloud(x, y)) - 0.15*math.Max(0, pit(x, y)-0.6)
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// grainedWood is wood: long rings along x, bent by a slow noise, with pores.
func grainedWood(c rgbf, depth, seed float64) func(x, y float64) rgbf {
	bend, pore := valueNoise(seed, 40), valueNoise(seed+1, 1.1)
	return func(x, y float64) rgbf {
		r := math.Sin(2*math.Pi*(y+14*bend(x, y))/7) + 0.5*math.Sin(2*math.Pi*(y+9*bend(y, x))/2.6)
		k := 1 + depth*(0.6*r+0.3*pore(x*0.4, y*3))
		return rgbf{c[0] * k, c[1] * k * (1 - 0.02*r), c[2] * k * (1 - 0.05*r)}
	}
}

// kraft is kraft paper: fibres (short streaks), flecks and a mottle.
func kraft(c rgbf, depth, seed float64) func(x, y float64) rgbf {
	fibre, fleck, mottle := valueNoise(seed, 1.2), valueNoise(seed+1, 0.9), valueNoise(seed+2, 12)
	return func(x, y float64) rgbf {
		k := 1 + depth*(0.7*fibre(x*0.35, y)+0.5*mottle(x, y)) - 0.12*math.Max(0, fleck(x, y)-0.7)
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// knit is a knitted throw: rows of chevrons (the Vs of stockinette
// stitches) period wide, each stitch shaded from its middle to its edges.
func knit(c rgbf, period, depth float64) func(x, y float64) rgbf {
	return func(x, y float64) rgbf {
		u := math.Mod(x, period)/period - 0.5
		v := math.Mod(y+1.2*period*math.Abs(u), period) / period
		k := 1 + depth*(math.Cos(2*math.Pi*v)*0.7+math.Cos(4*math.Pi*u)*0.3)
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// textureShots is the texture set.
func textureShots() []shot {
	cam := func(q int, read float64) camera {
		return camera{defocus: 1.0, vignette: 0.1, luma: 2.2, chroma: 1.4, read: read, quality: q}
	}
	mug := roundRect(90, 70, 160, 160, 5)
	handle := without(and(ring(164, 112, 13, 21), func(x, y float64) bool { return x > 158 }), mug)
	hole := without(and(ellipse(164, 112, 13, 13), func(x, y float64) bool { return x > 158 }), mug)
	bottle := union(roundRect(100, 80, 140, 170, 8), rect(112, 50, 128, 84), roundRect(110, 42, 130, 54, 2))
	box := roundRect(70, 80, 170, 160, 3)
	puck := blob(120, 115, 60, 40, 2.6)
	var out []shot
	add := func(name string, bd func(x, y float64) rgbf, parts []part, hl func(x, y float64) bool,
		sh func(x, y float64) float64, c camera) {
		out = append(out, shot{scene: scene{name: name, w: 240, h: 200, scale: 2, backdrop: bd, parts: parts,
			hole: hl, shadow: sh}, cam: c})
	}
	// Linen: a navy bottle (far) and a cream mug a shade lighter (close).
	lin := weave(rgbf{226, 216, 196}, 200, 2.2, 0.05, 901)
	add("tx_bottle_navy_linen_q84", lin, []part{
		{in: bottle, col: rounded(rgbf{34, 44, 84}, 120, 20, -0.5, 0.3, none)},
	}, nil, softShadow(122, 171, 26, 3, 0.4, 3), cam(84, 1.2))
	add("tx_mug_cream_linen_q80", lin, []part{
		{in: union(mug, handle), col: rounded(rgbf{240, 232, 214}, 125, 35, -0.6, 0.1, none), light: true},
		{in: ellipse(125, 70, 33, 4), col: flat(rgbf{204, 194, 174})},
	}, hole, softShadow(126, 161, 38, 3, 0.4, 3), cam(80, 1.2))
	// Concrete: a red speaker (far) and a grey one a little darker (close).
	con := speckle(rgbf{150, 150, 148}, 0.07, 911)
	add("tx_speaker_red_concrete_q78", con, []part{
		{in: puck, col: rounded(rgbf{190, 40, 44}, 120, 60, -0.4, 0.25, none)},
	}, nil, softShadow(124, 154, 58, 4, 0.4, 4), cam(78, 1.6))
	add("tx_speaker_grey_concrete_q86", con, []part{
		{in: puck, col: rounded(rgbf{128, 128, 130}, 120, 60, -0.4, 0.2, none), light: true},
		{in: ellipse(120, 115, 18, 12), col: flat(rgbf{60, 60, 62})},
	}, nil, softShadow(124, 154, 58, 4, 0.4, 4), cam(86, 1.6))
	// Wood: a white cup (far) and a tan leather wallet (close).
	wood := grainedWood(rgbf{168, 120, 78}, 0.1, 921)
	add("tx_cup_white_wood_q82", wood, []part{
		{in: union(mug, handle), col: rounded(rgbf{246, 245, 242}, 125, 35, -0.6, 0.15, none)},
		{in: ellipse(125, 70, 33, 4), col: flat(rgbf{214, 212, 206})},
	}, hole, softShadow(126, 161, 38, 3, 0.45, 3), cam(82, 1.2))
	add("tx_wallet_tan_wood_q74", wood, []part{
		{in: box, col: fromAbove(rgbf{176, 126, 82}, 80, 160, 0.1, grain2(922, 0.01)), light: true},
		{in: rect(70, 118, 170, 121), col: flat(rgbf{120, 84, 52})},
	}, nil, boxShadow(74, 158, 174, 166, 0.35, 5), cam(74, 1.4))
	// Kraft paper: a green bottle (far) and a kraft-brown box a shade
	// darker (close).
	kr := kraft(rgbf{196, 160, 116}, 0.06, 931)
	add("tx_bottle_green_kraft_q88", kr, []part{
		{in: bottle, col: rounded(rgbf{40, 110, 60}, 120, 20, -0.5, 0.3, none)},
	}, nil, softShadow(122, 171, 26, 3, 0.4, 3), cam(88, 1.2))
	add("tx_box_brown_kraft_q72", kr, []part{
		{in: box, col: fromAbove(rgbf{176, 140, 98}, 80, 160, 0.06, none), light: true},
		{in: rect(70, 80, 170, 86), col: flat(rgbf{188, 152, 108}), light: true},
	}, nil, boxShadow(74, 158, 174, 166, 0.35, 5), cam(72, 1.4))
	// Knit: black headphones (far) and an oatmeal beanie a shade lighter
	// (close), no knit of its own.
	kn := knit(rgbf{200, 190, 176}, 4, 0.06)
	phones := union(ring(120, 110, 44, 52), ellipse(80, 132, 12, 20), ellipse(160, 132, 12, 20))
	add("tx_headphones_black_knit_q90", kn, []part{
		{in: phones, col: rounded(rgbf{30, 30, 32}, 120, 52, -0.4, 0.2, none)},
	}, and(ellipse(120, 110, 44, 44), func(x, y float64) bool { return y < 125 }),
		softShadow(124, 150, 50, 4, 0.3, 4), cam(90, 1.2))
	add("tx_beanie_oat_knit_q76", kn, []part{
		{in: union(blob(120, 110, 52, 50, 2.2), rect(68, 110, 172, 150)), col: fromAbove(rgbf{218, 208, 192},
			60, 150, 0.08, grain2(941, 0.01)), light: true},
	}, nil, softShadow(122, 152, 54, 3, 0.4, 3), cam(76, 1.2))
	return out
}

// textureFloors and textureMean are the texture set's figures from one
// run (branch textured) less a margin: IoU and light parts 0.02 under,
// enclosed backdrop and shadow kept 0.03 over. Before the texture test
// (smoothTextures) the set's mean was 0.662: the grey speaker 0 (taken
// for a shadow), the wallet refused, the beanie 0.39, the box 0.72; after
// it 0.885 (0.83, 0.81, 0.96, 0.74). With the added regions' outline
// settled by a watershed on the gradient (settleSmoothEdges) it is 0.932:
// the grey speaker 0.97, the wallet 0.95 (its seam kept), the beanie 0.97,
// the box 0.91 (its light top rim still lost). The mug on linen keeps
// 0.68: its linen is too fine to survive the lens (the texture energy of
// mug and linen differ by under a third, and the linen's is under
// textureLeast), so only colour and edges tell it. With the grain's specks
// apart from the product dropped (dropGrainSpecks) the speakers on concrete
// rise from 0.97 to 0.985 (red) and 0.968 to 0.984 (grey), the mean to
// 0.935.
var (
	textureFloors = map[string]fifthFloor{
		"tx_bottle_navy_linen_q84":     {iou: 0.97, hole: 0.03, shadow: 0.03},
		"tx_mug_cream_linen_q80":       {iou: 0.66, light: 0.65, hole: 0.03, shadow: 0.03},
		"tx_speaker_red_concrete_q78":  {iou: 0.965, shadow: 0.03},
		"tx_speaker_grey_concrete_q86": {iou: 0.965, light: 0.97, shadow: 0.03},
		"tx_cup_white_wood_q82":        {iou: 0.96, hole: 0.03, shadow: 0.03},
		"tx_wallet_tan_wood_q74":       {iou: 0.93, light: 0.98, shadow: 0.03},
		"tx_bottle_green_kraft_q88":    {iou: 0.97, shadow: 0.03},
		"tx_box_brown_kraft_q72":       {iou: 0.89, light: 0.90, shadow: 0.03},
		"tx_headphones_black_knit_q90": {iou: 0.86, hole: 0.03, shadow: 0.49},
		"tx_beanie_oat_knit_q76":       {iou: 0.95, light: 0.98, shadow: 0.03},
	}
	textureMean = 0.915
)

// textureSet is the texture set, as its floor test and benchmark read it.
var textureSet = shotSet{
	name:   "texture",
	shots:  textureShots,
	floors: textureFloors,
	mean:   textureMean,
}

// TestCutoutOnTexturedBackdrops holds the texture set to its floors: a
// product keeps its body (IoU against the known alpha, light parts kept)
// on linen, concrete, wood, kraft paper and knit.
func TestCutoutOnTexturedBackdrops(t *testing.T) {
	textureSet.hold(t)
}

// BenchmarkCutoutTexture prints the texture set's figures: go test -run
// '^$' -bench CutoutTexture ./tasks/image (CUTOUT_DIR=/some/dir writes each
// input, its cut-out over magenta beside it and the cut-out).
func BenchmarkCutoutTexture(b *testing.B) {
	textureSet.bench(b)
}
