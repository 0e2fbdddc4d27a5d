package image

import "math"

// The eleventh set's backdrops (cutout_eleventh_test.go): linen, terrazzo,
// marble and felt, each drawn from smooth value noise (cutout_photo_test.go)
// as the tenth set's woods and fabrics are.

// p11Hash is a pseudo-random number in 0..1 for the cell (i, j).
func p11Hash(i, j, seed float64) float64 {
	v := math.Sin(i*127.1+j*311.7+seed*74.7) * 43758.5453
	return v - math.Floor(v)
}

// p11Linen is a plain-weave linen: warp and weft threads about a unit
// apart, slubs (thicker runs of yarn) along the weft, a soft mottling.
func p11Linen(c rgbf, seed float64) func(x, y float64) rgbf {
	slub, mottle := valueNoise(seed, 6), valueNoise(seed+1, 30)
	return func(x, y float64) rgbf {
		warp, weft := math.Cos(2*math.Pi*x/1.1), math.Cos(2*math.Pi*y/1.0)
		k := 1 + 0.025*warp*weft + 0.02*weft + 0.03*math.Max(0, slub(x*0.15, y)-0.3) + 0.015*mottle(x, y)
		return rgbf{c[0] * k, c[1] * k, c[2] * k * 0.995}
	}
}

// p11Terrazzo is a terrazzo slab: a pale cement ground with chips of
// marble a few units across (grey, rust, sage, cream), each in its cell of
// a grid, and a fine sand in the ground.
func p11Terrazzo(c rgbf, cell, seed float64) func(x, y float64) rgbf {
	sand := valueNoise(seed, 0.8)
	chips := []rgbf{{150, 150, 148}, {186, 112, 84}, {150, 168, 146}, {236, 226, 206}, {90, 90, 92}}
	return func(x, y float64) rgbf {
		i0, j0 := math.Floor(x/cell), math.Floor(y/cell)
		for di := -1.0; di <= 1; di++ {
			for dj := -1.0; dj <= 1; dj++ {
				i, j := i0+di, j0+dj
				if p11Hash(i, j, seed+3) < 0.35 {
					continue
				}
				cx, cy := (i+p11Hash(i, j, seed))*cell, (j+p11Hash(i, j, seed+1))*cell
				r := cell * (0.12 + 0.3*p11Hash(i, j, seed+2))
				a := 6 * p11Hash(i, j, seed+4)
				dx, dy := x-cx, y-cy
				u, v := dx*math.Cos(a)+dy*math.Sin(a), -dx*math.Sin(a)+dy*math.Cos(a)
				if u*u/(r*r)+v*v/(0.55*r*0.55*r) <= 1 {
					return chips[int(5*p11Hash(i, j, seed+5))%5]
				}
			}
		}
		k := 1 + 0.03*sand(x, y)
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}

// p11Marble is a white marble: grey veins along a turbulent diagonal
// (sines of a position warped by noise, after Perlin 1985), and a faint
// cloud.
func p11Marble(c rgbf, seed float64) func(x, y float64) rgbf {
	warp, fine, cloud := valueNoise(seed, 40), valueNoise(seed+1, 9), valueNoise(seed+2, 60)
	return func(x, y float64) rgbf {
		s := (x*0.6+y)*0.045 + 2.6*warp(x, y) + 0.7*fine(x, y)
		vein := math.Exp(-math.Abs(math.Sin(s)) * 9)
		k := 1 - 0.16*vein - 0.02*cloud(x, y)
		return rgbf{c[0] * k, c[1] * k, c[2] * k * (1 + 0.01*vein)}
	}
}

// p11Felt is a charcoal wool felt: fibres in clumps, no weave.
func p11Felt(c rgbf, seed float64) func(x, y float64) rgbf {
	fibre, clump := valueNoise(seed, 0.7), valueNoise(seed+1, 7)
	return func(x, y float64) rgbf {
		k := 1 + 0.08*fibre(x, y) + 0.06*clump(x, y)
		return rgbf{c[0] * k, c[1] * k, c[2] * k}
	}
}
