package image

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// The cast shadow set: opaque products of their own colour, and a white
// one, under a hard sun that throws a sharp shadow across a light sweep
// from the product's base to one side, beside clear glass on light
// backdrops. The shadow darkens the sweep by one factor per channel, its
// hue unchanged, with a short penumbra at its edge; the glass bends the
// sweep behind it and shows rim lines and a highlight. Each cast shadow
// must be left out and not taken for the backdrop seen through glass;
// each glass must be cut whole. Glass is scored as glass (scoreGlass).

// sunShadow is a hard sun's shadow of the given darkness over in, its edge
// a penumbra about pen wide: in averaged over a small square round each
// point.
func sunShadow(in func(x, y float64) bool, dark, pen float64) func(x, y float64) float64 {
	return func(x, y float64) float64 {
		hit := 0
		for i := -2; i <= 2; i++ {
			for j := -2; j <= 2; j++ {
				if in(x+pen*float64(i)/4, y+pen*float64(j)/4) {
					hit++
				}
			}
		}
		return 1 - dark*float64(hit)/25
	}
}

// castShadowShots is the cast shadow set.
func castShadowShots() []shot {
	var out []shot
	// A green enamel kettle left of the centre on a warm white sweep, the
	// sun from the upper left: a round body, a spout to the right, a black
	// handle arched over it (the sweep seen through it), a hard shadow
	// falling right from its base. JPEG 80.
	body := union(ellipse(110, 170, 58, 46), rect(56, 168, 164, 210), ellipse(110, 210, 54, 5))
	spout := tube(160, 178, 196, 138, 7)
	handle := without(ellipse(110, 112, 42, 40), ellipse(110, 112, 34, 32))
	handleTop := and(handle, func(x, y float64) bool { return y < 130 })
	kettle := []part{
		{in: union(body, spout), col: rounded(rgbf{52, 140, 86}, 110, 60, -0.6, 0.35, grain2(901, 0.008))},
		{in: ellipse(110, 126, 22, 5), col: flat(rgbf{38, 104, 64})},
		{in: handleTop, col: flat(rgbf{30, 30, 32})},
		{in: ellipse(88, 160, 8, 18), col: flat(rgbf{170, 220, 186})},
	}
	kettleHole := and(ellipse(110, 112, 34, 32), func(x, y float64) bool { return y < 122 })
	kettleShade := quad([2]float64{110, 200}, [2]float64{168, 214}, [2]float64{286, 200}, [2]float64{240, 166})
	out = append(out, shot{scene: scene{name: "cs_kettle_green_sun_warmwhite_q80", w: 320, h: 250,
		backdrop: sweep(rgbf{246, 243, 236}, rgbf{230, 226, 217}, 250), parts: kettle, hole: kettleHole,
		shadow: shadows(softShadow(110, 214, 54, 2.5, 0.45, 1.5), sunShadow(kettleShade, 0.38, 3))},
		cam: camera{defocus: 0.7, vignette: 0.1, luma: 2, chroma: 1.4, quality: 80}})

	// A blue cardboard box right of the centre on a light grey sweep, the
	// sun from the right: a darker side face, a white label, a long hard
	// shadow falling left and down from its base. JPEG 75.
	front := rect(170, 96, 246, 206)
	side := quad([2]float64{246, 96}, [2]float64{266, 86}, [2]float64{266, 196}, [2]float64{246, 206})
	top := quad([2]float64{170, 96}, [2]float64{190, 86}, [2]float64{266, 86}, [2]float64{246, 96})
	box := []part{
		{in: front, col: rounded(rgbf{40, 88, 168}, 208, 40, 0.6, 0.12, grain2(911, 0.01))},
		{in: side, col: flat(rgbf{30, 64, 126})},
		{in: top, col: flat(rgbf{70, 120, 200})},
		{in: rect(186, 130, 230, 160), col: flat(rgbf{244, 244, 244})},
	}
	boxShade := quad([2]float64{170, 206}, [2]float64{246, 206}, [2]float64{130, 236}, [2]float64{40, 230})
	out = append(out, shot{scene: scene{name: "cs_box_blue_sun_lgrey_q75", w: 300, h: 260,
		backdrop: sweep(rgbf{238, 239, 241}, rgbf{220, 221, 224}, 260), parts: box,
		shadow: shadows(softShadow(208, 207, 40, 2, 0.45, 1.2), sunShadow(boxShade, 0.34, 2.5))},
		cam: camera{defocus: 0.6, vignette: 0.12, luma: 2.2, chroma: 1.6, quality: 75}})

	// A coral ceramic mug in the centre on a pale blue sweep, the sun from
	// behind on the left: a hard shadow falling forward and right, longer
	// than the mug is wide, a handle on the right. JPEG 84.
	mug := union(rect(110, 110, 180, 200), ellipse(145, 200, 35, 4))
	mugHandle := without(ellipse(186, 150, 20, 24), ellipse(186, 150, 12, 16))
	mugParts := []part{
		{in: union(mug, and(mugHandle, func(x, y float64) bool { return x > 179 })),
			col: rounded(rgbf{232, 112, 92}, 145, 36, -0.5, 0.3, grain2(921, 0.006))},
		{in: ellipse(145, 110, 35, 5), col: flat(rgbf{196, 86, 70})},
	}
	mugShade := quad([2]float64{112, 200}, [2]float64{180, 202}, [2]float64{268, 240}, [2]float64{190, 246})
	out = append(out, shot{scene: scene{name: "cs_mug_coral_sun_paleblue_q84", w: 300, h: 260,
		backdrop: sweep(rgbf{226, 234, 244}, rgbf{208, 218, 232}, 260), parts: mugParts,
		hole:   and(ellipse(186, 150, 12, 16), func(x, y float64) bool { return x > 180 }),
		shadow: shadows(softShadow(145, 203, 38, 2, 0.45, 1.2), sunShadow(mugShade, 0.4, 3.5))},
		cam: camera{defocus: 0.6, vignette: 0.1, luma: 2, chroma: 1.2, quality: 84}})

	// A yellow ceramic bottle right of the centre on a white sweep, a faint
	// sharp shadow (the sun's light mostly bounced back by the white room)
	// falling left from its base, a cork stopper. JPEG 78.
	yb := union(roundRect(176, 96, 232, 214, 10), rect(194, 70, 214, 100))
	yellow := []part{
		{in: yb, col: rounded(rgbf{236, 196, 58}, 204, 28, 0.5, 0.28, grain2(941, 0.006))},
		{in: roundRect(196, 56, 212, 74, 2), col: flat(rgbf{170, 130, 86})},
	}
	yShade := quad([2]float64{178, 204}, [2]float64{232, 214}, [2]float64{96, 232}, [2]float64{70, 220})
	out = append(out, shot{scene: scene{name: "cs_bottle_yellow_faintsun_white_q78", w: 290, h: 250,
		backdrop: sweep(rgbf{250, 250, 250}, rgbf{236, 236, 237}, 250), parts: yellow,
		shadow: shadows(softShadow(204, 215, 30, 2, 0.4, 1.2), sunShadow(yShade, 0.11, 2))},
		cam: camera{defocus: 0.6, vignette: 0.08, luma: 2, chroma: 1.2, quality: 78}})

	// A white low sneaker, toe left, on a cream sweep, the sun from the
	// upper right: a hard shadow off to the left of its heel and sole, a
	// grey sole line and laces. JPEG 82.
	upper := union(quad([2]float64{70, 150}, [2]float64{150, 112}, [2]float64{236, 108}, [2]float64{246, 170},
		[2]float64{70, 172}), ellipse(78, 160, 20, 13))
	sole := union(rect(56, 170, 252, 184), ellipse(58, 177, 6, 7))
	sneaker := []part{
		{in: grown(upper, 1.2), col: flat(rgbf{214, 212, 206})},
		{in: upper, col: litWhite(rgbf{250, 250, 248}, 250, 60, 0.12, 0.004), light: true},
		{in: sole, col: litWhite(rgbf{244, 243, 238}, 250, 56, 0.08, 0), light: true},
		{in: rect(56, 178, 252, 180), col: flat(rgbf{176, 174, 170})},
		{in: tube(150, 124, 196, 116, 2), col: flat(rgbf{200, 200, 204})},
	}
	sneakerShade := quad([2]float64{56, 184}, [2]float64{160, 184}, [2]float64{70, 206}, [2]float64{14, 200})
	out = append(out, shot{scene: scene{name: "cs_sneaker_white_sun_cream_q82", w: 300, h: 230,
		backdrop: sweep(rgbf{247, 242, 232}, rgbf{236, 229, 215}, 230), parts: sneaker,
		shadow: shadows(softShadow(154, 185, 98, 2.5, 0.45, 1.5), sunShadow(sneakerShade, 0.3, 2.5))},
		cam: camera{defocus: 0.5, vignette: 0.08, luma: 1.8, chroma: 1, quality: 82}})

	// A clear square perfume bottle on a white sweep: thick clear glass
	// with a pale pink perfume in its lower two thirds, a black cap, rim
	// lines and a highlight. JPEG 86.
	pIn := roundRect(104, 110, 196, 250, 12)
	pAlpha := func(x, y float64) float64 {
		e := math.Min(1, math.Max(math.Abs(x-150)/46, math.Abs(y-180)/70))
		a := 0.1 + 0.6*math.Pow(e, 6)
		if y > 150 && e < 0.84 {
			a += 0.16
		}
		return math.Min(0.8, a)
	}
	pCol := func(x, y float64) rgbf {
		e := math.Min(1, math.Max(math.Abs(x-150)/46, math.Abs(y-180)/70))
		v := 240 - 74*math.Pow(e, 8)
		if y > 150 && e < 0.84 {
			return rgbf{v, v - 26, v - 20}
		}
		return rgbf{v - 2, v, v + 1}
	}
	perfume := []part{
		{in: union(pIn, rect(140, 96, 160, 112)), col: pCol, alpha: pAlpha},
		{in: and(pIn, func(x, y float64) bool { return math.Abs(x-116) < 2 && y > 124 && y < 236 }),
			col: flat(rgbf{254, 254, 254}), alpha: func(x, y float64) float64 { return 0.8 }},
		{in: roundRect(130, 58, 170, 98, 4), col: rounded(rgbf{30, 30, 34}, 150, 20, -0.4, 0.2, none)},
	}
	out = append(out, shot{scene: scene{name: "cs_perfume_clear_white_q86", w: 300, h: 290,
		backdrop: sweep(rgbf{251, 251, 251}, rgbf{236, 236, 238}, 290), parts: perfume,
		shadow: shadows(softShadow(150, 251, 46, 3, 0.22, 2), softShadow(170, 255, 64, 7, 0.08, 10))},
		cam: camera{defocus: 1.1, vignette: 0.1, luma: 2, chroma: 1.2, read: 1, quality: 86}, glass: true})

	// A clear glass bottle with a cream paper label, left of the centre on
	// a warm pale grey sweep: a cork stopper, round shoulders, the label
	// across its middle. JPEG 82.
	lHalf := func(y float64) float64 {
		switch {
		case y < 80:
			return 10
		case y < 116:
			t := (y - 80) / 36
			return 10 + 28*t*t*(3-2*t)
		}
		return 38
	}
	lIn := func(x, y float64) bool { return y >= 60 && y < 258 && math.Abs(x-120) < lHalf(y) }
	lAlpha, lCol := clearWall(120, lHalf, 0.1, 0.7)
	labelled := []part{
		{in: lIn, col: lCol, alpha: lAlpha},
		{in: and(lIn, func(x, y float64) bool { return math.Abs(x-136) < 1.8 && y > 122 && y < 246 }),
			col: flat(rgbf{254, 254, 254}), alpha: func(x, y float64) float64 { return 0.8 }},
		{in: rect(86, 150, 154, 214), col: rounded(rgbf{238, 228, 204}, 120, 36, -0.3, 0.15, none)},
		{in: rect(98, 170, 142, 176), col: flat(rgbf{90, 60, 44})},
		{in: roundRect(111, 40, 129, 64, 2), col: rounded(rgbf{178, 140, 96}, 120, 10, -0.3, 0.2, grain2(931, 0.02))},
	}
	out = append(out, shot{scene: scene{name: "cs_bottle_clear_label_warmgrey_q82", w: 280, h: 290,
		backdrop: sweep(rgbf{236, 234, 230}, rgbf{222, 219, 214}, 290), parts: labelled,
		shadow: softShadow(122, 259, 40, 3, 0.25, 2)},
		cam: camera{defocus: 0.9, vignette: 0.1, luma: 2, chroma: 1.2, quality: 82}, glass: true})
	return out
}

// castShadowSet is the cast shadow set, as its floor test reads it.
var castShadowSet = shotSet{
	name:   "castshadow",
	shots:  castShadowShots,
	floors: castShadowFloors,
	mean:   castShadowMean,
}

// TestCutoutLeavesCastShadowsAndKeepsClearGlass holds the cast shadow set
// to its floors: a hard cast shadow is left out, not taken for glass, and
// clear glass is cut whole.
func TestCutoutLeavesCastShadowsAndKeepsClearGlass(t *testing.T) {
	castShadowSet.hold(t)
}

// TestACastShadowIsNotTakenForGlass: the opaque products' hard cast
// shadows, the sweep darkened evenly, are not given a see-through body as
// clear glass is (the clear outline look, cutclearwide.go, declines them:
// cutcastshade.go). Before that test the coral mug kept its whole shadow
// as glass (IoU 0.67, 0.91 of its shadow kept); so did it under a faint
// sun (a shadow of 0.10) before the test read shades down to castDark.
func TestACastShadowIsNotTakenForGlass(t *testing.T) {
	for _, s := range castShadowShots() {
		if s.glass {
			continue
		}
		tr := s.photograph()
		res, err := cutOutGlass(context.Background(), tr.img, 12, 2, false)
		require.NoError(t, err, s.name)
		require.Nil(t, res.clearBody, "%s: its cast shadow is not glass", s.name)
		require.Less(t, score(tr, res.img).shadow, 0.1, "%s: its cast shadow is left out", s.name)
	}
}

// castShadowFloors and castShadowMean are the set's figures from one run
// less a margin (IoU 0.02 under, glass alpha error and shadow kept 0.03
// over). That run: the kettle 0.974, the blue box 0.980, the coral mug
// 0.982, the white sneaker 0.969, the yellow bottle under a faint sun
// 0.975 (each shadow left out, none taken for glass), the clear perfume
// on white 0.856 (alpha error 0.121, 0.62 of its contact shadow kept with
// it; 0.109 with only its cap kept, warned, before the clear outline look
// read its rims within clearRimReach, cutclearwide.go), the labelled
// clear bottle 0.961 (alpha error 0.087, its contact shadow kept); mean
// 0.957.
var (
	castShadowFloors = map[string]fifthFloor{
		"cs_kettle_green_sun_warmwhite_q80":   {iou: 0.954, hole: 1, shadow: 0.05},
		"cs_box_blue_sun_lgrey_q75":           {iou: 0.96, hole: 1, shadow: 0.074},
		"cs_mug_coral_sun_paleblue_q84":       {iou: 0.962, hole: 0.035, shadow: 0.041},
		"cs_sneaker_white_sun_cream_q82":      {iou: 0.95, light: 0.97, hole: 1, shadow: 0.03},
		"cs_bottle_yellow_faintsun_white_q78": {iou: 0.955, hole: 1, shadow: 0.092},
		"cs_perfume_clear_white_q86":          {iou: 0.836, hole: 1, glassMAE: 0.151, shadow: 0.65},
		"cs_bottle_clear_label_warmgrey_q82":  {iou: 0.94, hole: 1, glassMAE: 0.117, shadow: 0.60},
	}
	castShadowMean = 0.93
)

// BenchmarkCutoutCastShadow prints the cast shadow set's figures per shot: go test -run '^$'
// -bench CutoutCastShadow ./tasks/image.
func BenchmarkCutoutCastShadow(b *testing.B) {
	castShadowSet.bench(b)
}
