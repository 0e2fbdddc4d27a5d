package image

import "math"

// heldOutScenes is the held-out half of the varied light set: drawn after
// the tuning and measured, never looked at to tune the cut-out.
func heldOutScenes() []scene {
	var out []scene
	// A white mug on a light grey sweep, handle right, a rim 12 levels down, JPEG 75.
	mug, mugHole := mugWithHole(60, 85, 135, 170, 1)
	out = append(out, scene{name: "h_mug_white_grey_q75", w: 240, h: 240, jpeg: true, quality: 75,
		backdrop: sweep(rgbf{226, 226, 228}, rgbf{206, 206, 209}, 240), hole: mugHole, noise: 1.3,
		parts: []part{{in: grown(mug, 1.3), col: flat(rgbf{214, 214, 216})},
			{in: mug, col: litWhite(rgbf{249, 249, 248}, 60, 165, 0.12, 0.004), light: true}},
		shadow: softShadow(100, 171, 42, 5, 0.3, 3)})
	// A cream tee on white, a hem 10 levels down, JPEG 80.
	tee := union(rect(90, 70, 150, 205), rect(55, 70, 185, 105))
	out = append(out, scene{name: "h_tee_cream_white_q80", w: 240, h: 240, jpeg: true, quality: 80, noise: 1,
		backdrop: plain(rgbf{250, 250, 250}),
		parts: []part{{in: grown(tee, 1.2), col: flat(rgbf{232, 228, 218})},
			{in: tee, col: litWhite(rgbf{246, 240, 226}, 55, 185, 0.1, 0.008), light: true}},
		shadow: softShadow(122, 206, 55, 6, 0.2, 5)})
	// A six-panel beach ball on a near-white backdrop, JPEG 85.
	cols := []rgbf{{248, 248, 246}, {230, 50, 40}, {248, 248, 246}, {40, 100, 220}, {248, 248, 246}, {250, 200, 30}}
	out = append(out, scene{name: "h_ball6_offwhite_q85", w: 240, h: 240, jpeg: true, quality: 85, noise: 1.2,
		backdrop: vignette(rgbf{238, 238, 236}, 240, 240, 0.1),
		parts:    ball(130, 115, 62, 100, 85, cols, func(k int) bool { return k%2 == 0 }),
		shadow:   softShadow(132, 178, 45, 5, 0.35, 4)})
	// A drawn house on white: white walls and a white window inside black
	// outlines, a red roof; JPEG 80.
	ink, paper := rgbf{12, 12, 14}, rgbf{254, 254, 254}
	walls := rect(70, 110, 170, 200)
	roof := func(x, y float64) bool { return y >= 60 && y < 110 && math.Abs(x-120) < (y-60)*1.1 }
	window := rect(90, 130, 115, 155)
	door := rect(130, 150, 155, 200)
	out = append(out, scene{name: "h_drawn_house_q80", w: 240, h: 230, jpeg: true, quality: 80,
		backdrop: plain(paper),
		parts: []part{{in: grown(union(walls, roof), 2.5), col: flat(ink)},
			{in: walls, col: flat(paper), light: true}, {in: roof, col: flat(rgbf{200, 50, 40})},
			{in: grown(union(window, door), 2), col: flat(ink)}, {in: window, col: flat(paper), light: true},
			{in: door, col: flat(rgbf{120, 80, 40})}}})
	// An amber bottle on a white sweep.
	bg := sweep(rgbf{249, 249, 249}, rgbf{235, 235, 237}, 240)
	out = append(out, scene{name: "h_glass_amber_white", w: 240, h: 240, backdrop: bg, noise: 1,
		parts: []part{{in: bottle(115, 40, 20, 60, 98, 205), col: glassOver(bg, rgbf{0.75, 0.5, 0.2}, 115, 30, 100)},
			{in: rect(104, 32, 126, 42), col: flat(rgbf{30, 30, 30})}},
		shadow: softShadow(115, 206, 34, 4, 0.3, 3)})
	// A white bowl touching the frame's bottom on a grey sweep, JPEG 85.
	bowl := and(ellipse(120, 200, 80, 60), func(x, y float64) bool { return y > 180 })
	out = append(out, scene{name: "h_bowl_touching_grey_q85", w: 240, h: 240, jpeg: true, quality: 85, noise: 1.2,
		backdrop: sweep(rgbf{212, 212, 214}, rgbf{195, 195, 198}, 240),
		parts: []part{{in: grown(bowl, 1.2), col: flat(rgbf{185, 185, 188})},
			{in: bowl, col: litWhite(rgbf{248, 248, 247}, 40, 200, 0.12, 0.004), light: true}}})
	// A brown basket with a handle hole on a white sweep, JPEG 70.
	basket := union(rect(75, 120, 165, 195), and(ring(120, 120, 30, 37), func(x, y float64) bool { return y < 124 }))
	bHole := and(ellipse(120, 120, 30, 30), func(x, y float64) bool { return y < 118 })
	out = append(out, scene{name: "h_basket_hole_white_q70", w: 240, h: 240, jpeg: true, quality: 70, noise: 1,
		backdrop: sweep(rgbf{251, 251, 251}, rgbf{239, 239, 240}, 240), hole: bHole,
		parts:  []part{{in: basket, col: shaded(rgbf{150, 100, 55}, 75, 165, 0.05)}},
		shadow: softShadow(120, 196, 50, 5, 0.35, 3)})
	return out
}
