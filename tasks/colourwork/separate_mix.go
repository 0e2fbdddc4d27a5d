package colourwork

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// candidateShare is the least share of the design's opaque pixels a
// candidate ink keeps once every pixel is assigned (0.02 %: a 1-px line
// 1,600 px long on an 8 MP design); under it the candidate was a blend of
// edges or noise.
const candidateShare = 0.0002

// When two inks are one to a printer: within mixDE (CIEDE2000) of each
// other, and neither distinct hues (both with chroma C* of at least
// chromatic and hues more than hueApart degrees apart) nor black (L* under
// blackL, chroma under chromatic) beside a colour.
const (
	mixDE     = 20.0
	chromatic = 15.0
	hueApart  = 25.0
	blackL    = 30.0
)

// mixable says whether a printer would print the inks a and b (sRGB) as one.
func mixable(a, b [3]float64) bool {
	la, lb := labOf(a), labOf(b)
	if colour.DeltaE(la, lb) > mixDE {
		return false
	}
	ca, cb := math.Hypot(la.A, la.B), math.Hypot(lb.A, lb.B)
	if ca >= chromatic && cb >= chromatic {
		d := math.Abs(math.Atan2(la.B, la.A)-math.Atan2(lb.B, lb.A)) * 180 / math.Pi
		if min(d, 360-d) > hueApart {
			return false
		}
	}
	black := func(l colour.Lab, c float64) bool { return l.L < blackL && c < chromatic }
	return !(black(la, ca) && cb >= chromatic || black(lb, cb) && ca >= chromatic)
}

// mixablePair is the closest pair of m's inks (CIEDE2000) a printer would
// print as one, if any.
func (m *inkMap) mixablePair(cov []float64) (int, int, bool) {
	a, b, bd := -1, -1, math.Inf(1)
	for i := range m.rgb {
		for j := i + 1; j < len(m.rgb); j++ {
			if !mixable(m.rgb[i], m.rgb[j]) {
				continue
			}
			if d := colour.DeltaE(labOf(m.rgb[i]), labOf(m.rgb[j])); d < bd {
				a, b, bd = i, j, d
			}
		}
	}
	return a, b, a >= 0
}

func labOf(c [3]float64) colour.Lab {
	return colour.LabOf8(uint8(math.Round(c[0])), uint8(math.Round(c[1])), uint8(math.Round(c[2])))
}

func nrgbaOf(c [3]float64) color.NRGBA {
	return color.NRGBA{uint8(math.Round(c[0])), uint8(math.Round(c[1])), uint8(math.Round(c[2])), 255}
}

// tooManyInks is a design with more distinct inks than max_colours: merging
// any two would print a colour the design does not have.
type tooManyInks struct {
	inks  [][3]float64
	share []float64
	limit int
}

func (e *tooManyInks) Error() string {
	var names []string
	for j, c := range e.inks {
		col := nrgbaOf(c)
		names = append(names, fmt.Sprintf("%s %s (%.1f %%)", colourName(col), colour.Hex(col), 100*e.share[j]))
	}
	return fmt.Sprintf("the design has %d distinct inks — %s — more than max_colours %d, and no two of them would "+
		"print as one ink: send max_colours %d, or the garment colour to leave one unprinted",
		len(e.inks), strings.Join(names, ", "), e.limit, len(e.inks))
}

// edgeBlend says whether ink j is a blend of two other inks rather than an
// ink: within blendDist (sRGB) of a mix of them, 10 to 90 % of each, with
// fewer than minFlat flat pixels of its own — what JPEG and anti-aliasing
// make where two inks meet or cross. A flat grey between black and white
// has its flat areas and stays an ink.
func (m *inkMap) edgeBlend(j int) bool {
	return m.flat[j] < minFlat && m.between(j)
}

// The bounds of an edge blend: its distance to a mix of two inks (sRGB
// units) and the flat pixels it has at most.
const (
	blendDist = 40.0
	minFlat   = 64
)

// variant says whether ink j is one ink seen twice (JPEG's chroma blur
// darkens a thin stripe, tints a light ground beside a dark ink), to be
// counted once: within mergeDE (CIEDE2000) of an ink that covers more once
// both have settled on their flat pixels, or, with fewer than minFlat flat
// pixels of its own, mixable with it.
func (m *inkMap) variant(j int, cov []float64) bool {
	for i := range m.rgb {
		if i == j || cov[i] < cov[j] || cov[i] == cov[j] && i > j {
			continue
		}
		if colour.DeltaE(labOf(m.rgb[i]), labOf(m.rgb[j])) < mergeDE || m.flat[j] < minFlat && mixable(m.rgb[i], m.rgb[j]) {
			return true
		}
	}
	return false
}

// mixInto is which of the mixable inks a and b joins the other: the one
// that is a mix of the other and a third ink (a step of a gradient, so the
// gradient keeps its ends), else the one that covers less.
func (m *inkMap) mixInto(a, b int, cov []float64) int {
	between := func(j, o int) bool {
		for c := range m.rgb {
			if c == j || c == o {
				continue
			}
			if t, r := blend(m.rgb[j], m.rgb[o], m.rgb[c]); r <= blendDist && t > 0.02 && t < 0.98 {
				return true
			}
		}
		return false
	}
	switch ba, bb := between(a, b), between(b, a); {
	case ba && !bb:
		return a
	case bb && !ba:
		return b
	case cov[b] < cov[a]:
		return b
	}
	return a
}

// overLimit is the ink to drop when m has more inks than asked: of the
// closest mixable pair, the one mixInto joins to the other; else the ink
// covering least that is a blend of two others (a wide anti-aliased edge
// of a design enlarged to width_mm has flat areas of its own); else none:
// every ink is distinct.
func (m *inkMap) overLimit(cov []float64) (int, bool) {
	if a, b, ok := m.mixablePair(cov); ok {
		return m.mixInto(a, b, cov), true
	}
	drop := -1
	for j := range m.rgb {
		if m.between(j) && (drop < 0 || cov[j] < cov[drop]) {
			drop = j
		}
	}
	return drop, drop >= 0
}

// between says whether ink j is a blend of two other inks, 10 to 90 % of
// each, within blendDist.
func (m *inkMap) between(j int) bool {
	for a := range m.rgb {
		for b := a + 1; b < len(m.rgb); b++ {
			if a == j || b == j {
				continue
			}
			if t, r := blend(m.rgb[j], m.rgb[a], m.rgb[b]); r <= blendDist && t >= 0.1 && t <= 0.9 {
				return true
			}
		}
	}
	return false
}

// chromaBleed says whether ink j is JPEG's chroma subsampling at a thin
// line of one ink over another (a 1-px navy line across orange comes out
// a dark brown): with fewer than minFlat flat pixels of its own, it has the
// lightness of an ink A (within bleedL) and a colour (a*, b*) on the way
// from A's to another ink B's (within bleedAB, 10 to 90 % of the way) —
// the lightness kept at full resolution, the colour averaged over 2 × 2
// pixels.
func (m *inkMap) chromaBleed(j int) bool {
	if m.flat[j] >= minFlat {
		return false
	}
	c := labOf(m.rgb[j])
	for a := range m.rgb {
		la := labOf(m.rgb[a])
		if a == j || math.Abs(c.L-la.L) > bleedL {
			continue
		}
		for b := range m.rgb {
			if b == j || b == a {
				continue
			}
			lb := labOf(m.rgb[b])
			t, r := blend([3]float64{c.A, c.B, 0}, [3]float64{la.A, la.B, 0}, [3]float64{lb.A, lb.B, 0})
			if r <= bleedAB && t > 0.1 && t < 0.9 {
				return true
			}
		}
	}
	return false
}

// The bounds of a chroma bleed (CIELAB units).
const (
	bleedL  = 10.0
	bleedAB = 8.0
)
