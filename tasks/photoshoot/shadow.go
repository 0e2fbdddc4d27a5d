package photoshoot

import (
	"image"
	"math"
)

// One soft contact shadow: the floor is darkened where the product meets
// it, from the product's own silhouette. Each column of the product casts
// shadow at the floor line in proportion to how close its lowest point is
// to the floor (a sole's toe that lifts casts less), spread by two
// Gaussians centred on that one line — a tight core and a wider, fainter
// penumbra — so the shadow has a single darkest line and fades away from
// it: never a second, offset shadow. It fades out a little beyond the
// product's sides and under its floor line, and where the darkening is
// under half a level the floor is left untouched (pure white stays
// #FFFFFF).

// The shadow's shape, as shares of the product's width, and its depth.
const (
	coreSpread     = 0.015
	coreDepth      = 0.01
	penumbraSpread = 0.04
	penumbraDepth  = 0.022
	penumbraWeight = 0.45
	// shadowSide and shadowBelow bound the shadow, as shares of the
	// product's width: it fades out within shadowSide beyond either side
	// and shadowBelow under the floor line, so the product and its shadow
	// together stay within a marketplace's frame and fill.
	shadowSide  = 0.03
	shadowBelow = 0.05
	// liftFade is the height, as a share of the product's, over which a
	// column lifted off the floor stops casting.
	liftFade = 0.04
	// shadowStudio and shadowScene are the darkest the floor gets.
	shadowStudio = 0.42
	shadowScene  = 0.5
)

// contactShadow darkens the floor of img under laid, the product at box's
// size and place, and returns the floor line: the row under its lowest
// opaque pixel.
func contactShadow(img, laid *image.NRGBA, box image.Rectangle, studio bool) int {
	W, H := laid.Rect.Dx(), laid.Rect.Dy()
	bottom := make([]int, W)
	low := -1
	for x := range W {
		bottom[x] = -1
		for y := H - 1; y >= 0; y-- {
			if laid.Pix[y*laid.Stride+x*4+3] > holeAlpha {
				bottom[x] = y
				break
			}
		}
		low = max(low, bottom[x])
	}
	floor := box.Min.Y + low + 1
	if low < 0 {
		return box.Max.Y
	}
	fade := math.Max(1, liftFade*float64(H))
	bw := float64(W)
	sx1, sy1 := math.Max(1.2, coreSpread*bw), math.Max(1, coreDepth*bw)
	sx2, sy2 := math.Max(2.5, penumbraSpread*bw), math.Max(2, penumbraDepth*bw)
	pad := int(math.Ceil(3 * sx2))
	x0 := box.Min.X - pad
	n := W + 2*pad
	cast := make([]float64, n)
	for x, b := range bottom {
		if b >= 0 {
			cast[x+pad] = math.Exp(-float64(low-b) / fade)
		}
	}
	core, pen := blur1D(cast, sx1), blur1D(cast, sx2)
	strength := shadowStudio
	if !studio {
		strength = shadowScene
	}
	side, below := math.Max(2, shadowSide*bw), math.Max(2, shadowBelow*bw)
	top, end := floor-int(math.Ceil(3*sy2)), floor+int(math.Ceil(below))
	for y := max(top, img.Rect.Min.Y); y < min(end, img.Rect.Max.Y); y++ {
		dy := float64(y) + 0.5 - float64(floor)
		wy := 1 - smoothstep(0.5*below, below, dy)
		if dy < 0 {
			dy *= 2 // the floor behind the contact line is seen foreshortened
		}
		g1, g2 := math.Exp(-dy*dy/(2*sy1*sy1)), math.Exp(-dy*dy/(2*sy2*sy2))
		for i := range n {
			x := x0 + i
			if x < img.Rect.Min.X || x >= img.Rect.Max.X {
				continue
			}
			fx := float64(x) + 0.5
			wx := smoothstep(float64(box.Min.X)-side, float64(box.Min.X)+side/2, fx) *
				(1 - smoothstep(float64(box.Max.X)-side/2, float64(box.Max.X)+side, fx))
			m := strength * wx * wy * math.Min(1, core[i]*g1+penumbraWeight*pen[i]*g2)
			if m*255 < 0.5 {
				continue
			}
			o := img.PixOffset(x, y)
			for k := range 3 {
				img.Pix[o+k] = uint8(float64(img.Pix[o+k])*(1-m) + 0.5)
			}
		}
	}
	return floor
}

// smoothstep is 0 below a, 1 above b, and eases between.
func smoothstep(a, b, v float64) float64 {
	t := math.Max(0, math.Min(1, (v-a)/(b-a)))
	return t * t * (3 - 2*t)
}

// blur1D is v convolved with a normalised Gaussian of deviation s.
func blur1D(v []float64, s float64) []float64 {
	r := int(math.Ceil(3 * s))
	k := make([]float64, 2*r+1)
	sum := 0.0
	for i := range k {
		d := float64(i - r)
		k[i] = math.Exp(-d * d / (2 * s * s))
		sum += k[i]
	}
	out := make([]float64, len(v))
	for i := range v {
		acc := 0.0
		for j, w := range k {
			if p := i + j - r; p >= 0 && p < len(v) {
				acc += v[p] * w
			}
		}
		out[i] = acc / sum
	}
	return out
}

// reflectionOpacity is the reflection's opacity at the contact line; it
// fades out over reflectionDepth of the product's height.
const (
	reflectionOpacity = 0.22
	reflectionDepth   = 0.3
)

// reflect draws laid mirrored in the floor line under it, fading with
// distance: the product on a glossy studio floor.
func reflect(img, laid *image.NRGBA, box image.Rectangle, floor int) {
	H := laid.Rect.Dy()
	depth := reflectionDepth * float64(H)
	for j := 0; float64(j) < depth; j++ {
		y := floor + j
		sy := floor - 1 - j - box.Min.Y // the laid row mirrored to y
		if y >= img.Rect.Max.Y || sy < 0 {
			break
		}
		t := 1 - float64(j)/depth
		op := reflectionOpacity * t * t
		for x := range laid.Rect.Dx() {
			so := sy*laid.Stride + x*4
			a := float64(laid.Pix[so+3]) / 255 * op
			if a*255 < 0.5 {
				continue
			}
			c := laid.NRGBAAt(x, sy)
			c.A = 255
			blend(img, box.Min.X+x, y, c, a)
		}
	}
}
