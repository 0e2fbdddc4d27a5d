package production

import (
	"math"
	"strings"
	"unicode"
)

// segment is a measurement line on a flat, in the flat's pixels.
type segment struct{ x1, y1, x2, y2 float64 }

// body reads the landmarks of a flat's silhouette the callouts hang on:
// its top and bottom rows, centre column, armpit (tops) or crotch
// (bottoms).
type body struct {
	f                   flat
	top, bottom, cx     int
	minX, maxX          int
	armpit, crotch      int
	bottoms, hasArmpits bool
}

// readBody finds a flat's landmarks.
func readBody(f flat) body {
	b := body{f: f, top: -1, minX: f.w, maxX: -1}
	for y := range f.h {
		for x := range f.w {
			if f.in(x, y) {
				if b.top < 0 {
					b.top = y
				}
				b.bottom = y
				b.minX, b.maxX = min(b.minX, x), max(b.maxX, x)
			}
		}
	}
	if b.top < 0 {
		return b
	}
	b.cx = (b.minX + b.maxX) / 2
	h := b.bottom - b.top
	b.bottoms = !f.in(b.cx, b.top+h*85/100) && !f.in(b.cx, b.top+h*95/100)
	b.crotch = b.bottom
	if b.bottoms {
		for y := b.top + h/10; y <= b.bottom; y++ {
			if !f.in(b.cx, y) {
				b.crotch = y
				break
			}
		}
		return b
	}
	b.armpit = b.top + h*3/10
	for y := b.top + h/10; y < b.top+h*7/10; y++ {
		l, r, ok := b.run(y, b.cx)
		el, er := b.extent(y)
		if ok && float64(r-l) < 0.8*float64(er-el) {
			b.armpit, b.hasArmpits = y, true
			break
		}
	}
	return b
}

// run is the stretch of silhouette on row y through column x.
func (b body) run(y, x int) (int, int, bool) {
	if !b.f.in(x, y) {
		return 0, 0, false
	}
	l, r := x, x
	for b.f.in(l-1, y) {
		l--
	}
	for b.f.in(r+1, y) {
		r++
	}
	return l, r, true
}

// extent is the first and last silhouette column of row y.
func (b body) extent(y int) (int, int) {
	l, r := b.f.w, -1
	for x := range b.f.w {
		if b.f.in(x, y) {
			l, r = min(l, x), max(r, x)
		}
	}
	return l, r
}

// across is the horizontal measurement through column x at a fraction of
// the height.
func (b body) across(y, x int) (segment, bool) {
	l, r, ok := b.run(y, x)
	if !ok || r-l < 4 {
		return segment{}, false
	}
	return segment{float64(l), float64(y), float64(r + 1), float64(y)}, true
}

// at is the row a fraction t down the silhouette.
func (b body) at(t float64) int { return b.top + int(t*float64(b.bottom-b.top)) }

// leftLeg is a column inside the left leg on row y.
func (b body) leftLeg(y int) int {
	l, _ := b.extent(y)
	return l + 2
}

// callout places the measurement named point on the flat, or answers
// false when its name is none the flat can place.
func (b body) callout(point string) (segment, bool) {
	if b.top < 0 {
		return segment{}, false
	}
	p := strings.ToLower(point)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(p, w) {
				return true
			}
		}
		return false
	}
	if namesPart(p) {
		return segment{}, false
	}
	h := float64(b.bottom - b.top)
	if b.bottoms {
		switch {
		case has("rise"):
			return segment{float64(b.cx), float64(b.top), float64(b.cx), float64(b.crotch)}, true
		case has("inseam", "inside leg"):
			_, r, ok := b.run(b.bottom-2, b.leftLeg(b.bottom-2))
			if !ok {
				return segment{}, false
			}
			return segment{float64(b.cx), float64(b.crotch), float64(r), float64(b.bottom)}, true
		case has("waist"):
			return b.across(b.at(0.02), b.cx)
		case has("hip", "seat"):
			return b.across(b.at(0.18), b.cx)
		case has("thigh"):
			y := min(b.bottom, b.crotch+int(0.03*h))
			return b.across(y, b.leftLeg(y))
		case has("leg opening", "hem", "bottom", "knee"):
			y := b.bottom - 2
			if has("knee") {
				y = b.crotch + (b.bottom-b.crotch)/2
			}
			return b.across(y, b.leftLeg(y))
		case has("length", "outseam"):
			x := float64(b.minX) - 10
			return segment{x, float64(b.top), x, float64(b.bottom)}, true
		}
		return segment{}, false
	}
	switch {
	case has("chest", "bust"):
		return b.across(min(b.bottom, b.armpit+int(0.03*h)), b.cx)
	case has("waist"):
		return b.across(b.at(0.55), b.cx)
	case has("hip"):
		return b.across(b.at(0.8), b.cx)
	case has("hem", "sweep", "bottom"):
		return b.across(b.bottom-2, b.cx)
	case has("shoulder"):
		y := b.at(0.03)
		l, r := b.extent(y)
		return segment{float64(l), float64(y), float64(r + 1), float64(y)}, r > l
	case has("neck"):
		return b.neck()
	case has("sleeve"):
		return b.sleeve()
	case has("armhole"):
		sx, sy := b.shoulderPoint()
		_, r, ok := b.run(b.armpit, b.cx)
		return segment{sx, sy, float64(r), float64(b.armpit)}, ok
	case has("length", "hps", "body"):
		x := float64(b.cx) + 0.12*float64(b.maxX-b.minX)
		return segment{x, float64(b.top), x, float64(b.bottom)}, true
	}
	return segment{}, false
}

// parts are words naming a part of a garment other than its body: a
// point of measure that names one ("Fringe length", "Pocket width", "Hood
// height") measures that part, which the sketch cannot find, so it is not
// drawn rather than drawn over the whole garment.
var parts = []string{"fringe", "pom", "tassel", "brim", "peak", "visor", "cuff", "pocket", "collar", "hood",
	"strap", "zip", "placket", "label", "logo", "loop", "tab", "button", "flap", "yoke", "drawcord", "drawstring",
	"belt", "print", "embroider", "trim", "lining", "heel", "sole", "toe", "lace", "shaft", "crown", "frill",
	"ruffle", "handle", "vent", "slit", "pleat", "dart", "facing", "gusset", "kangaroo"}

// namesPart tells whether the lower-cased point names one of parts as a
// word of its own (or a word's start: "pockets", "embroidery").
func namesPart(p string) bool {
	words := strings.FieldsFunc(p, func(r rune) bool { return !unicode.IsLetter(r) })
	for _, w := range words {
		for _, part := range parts {
			if strings.HasPrefix(w, part) && (len(w)-len(part) <= 3 || part == "embroider") {
				return true
			}
		}
	}
	return false
}

// shoulderPoint is the right shoulder's outer point.
func (b body) shoulderPoint() (float64, float64) {
	y := b.at(0.03)
	_, r := b.extent(y)
	return float64(r), float64(y)
}

// neck is the width of the neck opening along the top: the gap round the
// centre column.
func (b body) neck() (segment, bool) {
	y := b.top + 1
	if b.f.in(b.cx, y) {
		return segment{}, false
	}
	l, r := b.cx, b.cx
	for l > 0 && !b.f.in(l, y) {
		l--
	}
	for r < b.f.w && !b.f.in(r, y) {
		r++
	}
	return segment{float64(l), float64(y), float64(r), float64(y)}, r-l > 4 && r < b.f.w
}

// sleeve runs from the right shoulder point to the sleeve's farthest point
// out: its cuff's outer corner.
func (b body) sleeve() (segment, bool) {
	if !b.hasArmpits {
		return segment{}, false
	}
	sx, sy := b.shoulderPoint()
	// The torso's right edge below the armpit: what lies beyond it, above
	// the armpit's depth, is sleeve.
	_, torso, ok := b.run(min(b.bottom, b.armpit+2), b.cx)
	if !ok {
		return segment{}, false
	}
	best, bx, by := 0.0, 0, 0
	for y := b.top; y <= b.armpit+(b.bottom-b.top)/4 && y <= b.bottom; y++ {
		for x := torso + 3; x < b.f.w; x++ {
			if b.f.in(x, y) {
				// The cuff's outer corner: the sleeve's farthest point out.
				if d := float64(x) + 0.001*float64(y); d > best {
					best, bx, by = d, x, y
				}
			}
		}
	}
	return segment{sx, sy, float64(bx), float64(by)}, math.Hypot(float64(bx)-sx, float64(by)-sy) > 10
}
