package records

import (
	"slices"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// The bounds of a plain backdrop: a product shot's white or grey sweep.
const (
	backdropBorder = 0.6  // the least share of the border within backdropDE of its median
	backdropDE     = 8.0  // CIE76 ΔE from the border's median that is backdrop
	backdropL      = 60.0 // the least L* of a backdrop: white, light grey
	backdropC      = 12.0 // the most C*ab of a backdrop: near neutral
	backdropMin    = 0.05 // a backdrop covers at least this share…
	backdropMax    = 0.92 // …and at most this: an image all backdrop is its subject
	// A shadow on the sweep: within this much L* under the backdrop and
	// under this C*ab.
	backdropShadowL = 18.0
	backdropShadowC = 6.0
)

// backdropOf finds a plain backdrop in an image: a light, near-neutral
// colour that most of the border shares, and the pixels of it reached
// from the border. It answers the mask (true: backdrop) and the colour, or
// nil when the image has no plain backdrop.
func backdropOf(p pixels) ([]bool, *colour.Lab) {
	if p.w < 8 || p.h < 8 {
		return nil, nil
	}
	border := func(x, y int) bool { return x < 2 || y < 2 || x >= p.w-2 || y >= p.h-2 }
	var ls, as, bs []float64
	for y := range p.h {
		for x := range p.w {
			if border(x, y) {
				l := p.lab[y*p.w+x]
				ls, as, bs = append(ls, l.L), append(as, l.A), append(bs, l.B)
			}
		}
	}
	med := colour.Lab{L: median(ls), A: median(as), B: median(bs)}
	if med.L < backdropL || med.Chroma() > backdropC {
		return nil, nil
	}
	near := func(i int) bool { return p.lab[i].Dist2(med) <= backdropDE*backdropDE }
	n := 0
	for y := range p.h {
		for x := range p.w {
			if border(x, y) && near(y*p.w+x) {
				n++
			}
		}
	}
	if float64(n) < backdropBorder*float64(len(ls)) {
		return nil, nil
	}
	// The sweep's soft shadow is backdrop too: a neutral a little darker,
	// reached from the border through backdrop.
	shadow := func(i int) bool {
		l := p.lab[i]
		return l.Chroma() < backdropShadowC && l.L > med.L-backdropShadowL && l.L <= med.L+backdropDE
	}
	mask := make([]bool, p.w*p.h)
	var stack []int
	push := func(x, y int) {
		i := y*p.w + x
		if x >= 0 && y >= 0 && x < p.w && y < p.h && !mask[i] && (near(i) || shadow(i)) {
			mask[i] = true
			stack = append(stack, i)
		}
	}
	for x := range p.w {
		push(x, 0)
		push(x, p.h-1)
	}
	for y := range p.h {
		push(0, y)
		push(p.w-1, y)
	}
	count := 0
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		count++
		x, y := i%p.w, i/p.w
		push(x-1, y)
		push(x+1, y)
		push(x, y-1)
		push(x, y+1)
	}
	share := float64(count) / float64(len(mask))
	if share < backdropMin || share > backdropMax {
		return nil, nil
	}
	return mask, &med
}

// median is the middle of vs (which it sorts).
func median(vs []float64) float64 {
	slices.Sort(vs)
	return vs[len(vs)/2]
}

// subject is p without its backdrop's pixels (all of p when mask is nil).
func (p pixels) subject(mask []bool) pixels {
	if mask == nil {
		return p
	}
	out := pixels{w: p.w, h: p.h}
	for i := range p.rgb {
		if !mask[i] {
			out.rgb = append(out.rgb, p.rgb[i])
			out.lab = append(out.lab, p.lab[i])
		}
	}
	return out
}
