package colour

import "math"

const rad = math.Pi / 180

// hueEps absorbs rounding in hue differences: two hues exactly opposite
// (Sharma's pairs 13–14) count as 180° apart, not a hair over.
const hueEps = 1e-9

// DeltaE is the CIEDE2000 difference of two colours (kL = kC = kH = 1):
// about 1 is the smallest difference an observer sees side by side, 2–3 a
// difference clear on a swatch, above 10 different colours. It is the one
// colour difference the platform reports and thresholds.
func DeltaE(p, q Lab) float64 {
	c1, c2 := p.Chroma(), q.Chroma()
	cm7 := math.Pow((c1+c2)/2, 7)
	g := 0.5 * (1 - math.Sqrt(cm7/(cm7+6103515625))) // 25^7
	a1, a2 := (1+g)*p.A, (1+g)*q.A
	c1p, c2p := math.Hypot(a1, p.B), math.Hypot(a2, q.B)
	h1, h2 := hueDeg(a1, p.B), hueDeg(a2, q.B)
	dL, dC := q.L-p.L, c2p-c1p
	var dh float64
	switch {
	case c1p*c2p == 0:
	case math.Abs(h2-h1) <= 180+hueEps:
		dh = h2 - h1
	case h2-h1 > 180:
		dh = h2 - h1 - 360
	default:
		dh = h2 - h1 + 360
	}
	dH := 2 * math.Sqrt(c1p*c2p) * math.Sin(dh/2*rad)
	lm, cpm := (p.L+q.L)/2, (c1p+c2p)/2
	var hm float64
	switch {
	case c1p*c2p == 0:
		hm = h1 + h2
	case math.Abs(h1-h2) <= 180+hueEps:
		hm = (h1 + h2) / 2
	case h1+h2 < 360:
		hm = (h1 + h2 + 360) / 2
	default:
		hm = (h1 + h2 - 360) / 2
	}
	t := 1 - 0.17*math.Cos((hm-30)*rad) + 0.24*math.Cos(2*hm*rad) +
		0.32*math.Cos((3*hm+6)*rad) - 0.20*math.Cos((4*hm-63)*rad)
	dTheta := 30 * math.Exp(-math.Pow((hm-275)/25, 2))
	cpm7 := math.Pow(cpm, 7)
	rc := 2 * math.Sqrt(cpm7/(cpm7+6103515625))
	l50 := (lm - 50) * (lm - 50)
	sl := 1 + 0.015*l50/math.Sqrt(20+l50)
	sc := 1 + 0.045*cpm
	sh := 1 + 0.015*cpm*t
	rt := -math.Sin(2*dTheta*rad) * rc
	x, y, z := dL/sl, dC/sc, dH/sh
	return math.Sqrt(x*x + y*y + z*z + rt*y*z)
}

// hueDeg is atan2(b, a) in degrees, 0–360, and 0 for a = b = 0.
func hueDeg(a, b float64) float64 {
	if a == 0 && b == 0 {
		return 0
	}
	h := math.Atan2(b, a) / rad
	if h < 0 {
		h += 360
	}
	return h
}
