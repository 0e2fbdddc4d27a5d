package photoshoot

import (
	"image"
	"image/color"
	"math"
)

// The scene backdrops, drawn at any size by per-pixel rules: walls and
// skies above the horizon, floors and ground below it in perspective
// (seams meet at a vanishing point on the horizon, rows close up with
// distance), lighter and hazier with depth; seams fade where they would be
// closer together than a few pixels.

// paintRows fills img by a rule of the pixel.
func paintRows(w, h int, at func(x, y int) color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := at(x, y)
			o := img.PixOffset(x, y)
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = c.R, c.G, c.B, 255
		}
	}
	return img
}

// floorUV maps a floor pixel to floor coordinates: u runs across (constant
// along lines through the vanishing point at (w/2, hy)), v is the depth
// (1 at the image's bottom edge, growing with distance). du and dv are the
// sizes of one pixel in those units there.
func floorUV(x, y, w, h int, hy float64) (u, v, du, dv float64) {
	dy := float64(y) + 0.5 - hy
	if dy < 0.5 {
		dy = 0.5
	}
	span := float64(h) - hy
	dx := float64(x) + 0.5 - float64(w)/2
	u = dx / dy
	v = span / dy
	// u changes across a pixel both ways: 1/dy sideways, dx/dy² down.
	return u, v, math.Hypot(1/dy, dx/(dy*dy)), span / (dy * dy)
}

// seam is 1 on a line of a grid of period p in t (px is a pixel's size in
// t), fading over a pixel: the joints of planks and tiles.
func seam(t, p, px float64) float64 {
	f := t/p - math.Floor(t/p)
	d := math.Min(f, 1-f) * p / px
	return math.Max(0, 1-d)
}

// The sizes of a scene's floor, in centimetres: planks and tiles are
// drawn at these sizes for the camera's height, so the floor shows the
// product's scale.
const (
	plankCM = 14
	tileCM  = 30
)

func drawLoft(w, h int, cam float64) *image.NRGBA {
	plank := plankCM / cam
	hy := 0.58 * float64(h)
	wall, oak, board := hexColour("#EFE9E0"), hexColour("#B08A5E"), hexColour("#F7F4EE")
	return paintRows(w, h, func(x, y int) color.NRGBA {
		fx, fy := float64(x)/float64(w), float64(y)
		switch {
		case fy < hy-0.02*float64(h):
			c := darker(wall, 0.1*fy/hy)
			// Window light falling on the wall, upper left.
			lx, ly := (fx-0.28)/0.18, (fy/float64(h)-0.25)/0.2
			if l := 1 - math.Max(math.Abs(lx), math.Abs(ly)); l > 0 {
				c = mix(c, color.NRGBA{255, 252, 246, 255}, math.Min(1, l*4)*0.7)
			}
			return c
		case fy < hy:
			return board
		}
		u, v, du, _ := floorUV(x, y, w, h, hy)
		c := mix(darker(oak, 0.12), mix(oak, wall, 0.25), (v-1)/8)
		// Grain along the planks, and their seams, fade where the planks are
		// only a few pixels wide (far away), instead of shimmering.
		near := math.Min(1, plank/du/12)
		c = darker(c, 0.03*near*noise(int(u*40), y/6))
		if s := seam(u, plank, du); s > 0 {
			c = mix(c, darker(oak, 0.35), s*0.8*near)
		}
		return c
	})
}

func drawGallery(w, h int, _ float64) *image.NRGBA {
	hy := 0.62 * float64(h)
	wall, concrete, skirting := hexColour("#D9D8D4"), hexColour("#A9A7A2"), hexColour("#F2F2F0")
	return paintRows(w, h, func(x, y int) color.NRGBA {
		fy := float64(y)
		switch {
		case fy < hy-0.018*float64(h):
			return darker(wall, 0.08*(1-fy/hy)+0.01*noise(x, y))
		case fy < hy:
			return skirting
		}
		_, v, _, _ := floorUV(x, y, w, h, hy)
		c := mix(darker(concrete, 0.1), concrete, (v-1)/6)
		// The skirting's soft reflection in the polished floor.
		c = mix(c, skirting, 0.35*math.Exp(-(fy-hy)/(0.03*float64(h))))
		return darker(c, 0.015*noise(x, y))
	})
}

func drawTerracotta(w, h int, cam float64) *image.NRGBA {
	tile := tileCM / cam
	hy := 0.6 * float64(h)
	wall, recess, stone := hexColour("#C7764F"), hexColour("#A85F3E"), hexColour("#D8CBB6")
	cx, aw := float64(w)/2, 0.18*float64(w)
	top := 0.16 * float64(h)
	return paintRows(w, h, func(x, y int) color.NRGBA {
		fx, fy := float64(x)+0.5, float64(y)+0.5
		if fy < hy {
			c := darker(wall, 0.06*fy/hy+0.012*noise(x, y))
			dx := math.Abs(fx - cx)
			inArch := dx < aw && (fy > top+aw || math.Hypot(dx, fy-(top+aw)) < aw)
			if inArch {
				c = mix(recess, darker(recess, 0.25), fy/hy)
			}
			return c
		}
		u, v, du, dv := floorUV(x, y, w, h, hy)
		c := mix(darker(stone, 0.12), stone, (v-1)/6)
		c = darker(c, 0.02*noise(x, y))
		near := math.Min(1, math.Min(tile/du, tile/dv)/10)
		if s := math.Max(seam(u, tile, du), seam(v, tile, dv)); s > 0 {
			c = mix(c, darker(stone, 0.3), s*0.7*near)
		}
		return c
	})
}

func drawBeach(w, h int, _ float64) *image.NRGBA {
	hy := 0.5 * float64(h)
	skyTop, skyLow, sea, sandFar, sandNear := hexColour(
		"#6FA8DC",
	), hexColour(
		"#DCEBF5",
	), hexColour(
		"#3E7FA8",
	), hexColour(
		"#EADBB9",
	), hexColour(
		"#D5BA88",
	)
	return paintRows(w, h, func(x, y int) color.NRGBA {
		fy := float64(y) + 0.5
		if fy < hy {
			return mix(skyTop, skyLow, math.Pow(fy/hy, 1.6))
		}
		t := (fy - hy) / (float64(h) - hy)
		if t < 0.12 {
			return mix(darker(sea, 0.1), mix(sea, skyLow, 0.35), t/0.12+0.08*noise(x/4, y))
		}
		return darker(mix(sandFar, sandNear, (t-0.12)/0.88), 0.03*noise(x, y))
	})
}

func drawMeadow(w, h int, _ float64) *image.NRGBA {
	hy := 0.55 * float64(h)
	skyTop, skyLow, hill, grassFar, grassNear := hexColour(
		"#86B6E0",
	), hexColour(
		"#E6EEF0",
	), hexColour(
		"#93A98A",
	), hexColour(
		"#A9BE7E",
	), hexColour(
		"#5E8A3A",
	)
	return paintRows(w, h, func(x, y int) color.NRGBA {
		fx, fy := float64(x)/float64(w), float64(y)+0.5
		ridge := hy - float64(h)*(0.05+0.03*math.Sin(fx*7.1)+0.02*math.Sin(fx*17.3+1))
		switch {
		case fy < ridge:
			return mix(skyTop, skyLow, math.Pow(fy/hy, 1.5))
		case fy < hy:
			return mix(hill, skyLow, 0.35)
		}
		t := (fy - hy) / (float64(h) - hy)
		c := mix(grassFar, grassNear, math.Pow(t, 0.8))
		return darker(c, 0.06*noise(x/2, y/6)*t)
	})
}
