package colourwork

import (
	"fmt"
	"math"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
)

// minLineMM is the finest line a screen is taken to hold: about 0.15 mm
// on a fine mesh (a 0.5 pt rule is 0.18 mm). Finer lines stay on the film
// as drawn, with a fine_lines warning.
const minLineMM = 0.15

// fineLines is, for every ink (by label), the number of its pixels on
// lines narrower than minLineMM at dpi, and that width in pixels (L): the
// pixels no L × L square of their ink covers (what a morphological
// opening removes). A 1-px line in any direction is fine all along; a
// broad shape's edge, stair-stepped or not, is covered.
func (m *inkMap) fineLines(dpi int) ([]int, int) {
	L := int(math.Ceil(minLineMM * float64(dpi) / 25.4))
	W, H := m.w, m.h
	n := make([]int, len(m.rgb))
	if L <= 1 {
		return n, L
	}
	// right is the run of the same label from each pixel rightward, capped at L.
	right := make([]uint8, W*H)
	for y := range H {
		for x := W - 1; x >= 0; x-- {
			p := y*W + x
			right[p] = 1
			if x+1 < W && m.label[p+1] == m.label[p] {
				right[p] = uint8(min(L, int(right[p+1])+1))
			}
		}
	}
	covered := make([]bool, W*H)
	for y := 0; y+L <= H; y++ {
		for x := 0; x+L <= W; x++ {
			p := y*W + x
			if m.label[p] == noInk || int(right[p]) < L {
				continue
			}
			square := true
			for v := 1; v < L && square; v++ {
				q := p + v*W
				square = m.label[q] == m.label[p] && int(right[q]) >= L
			}
			if !square {
				continue
			}
			for v := range L {
				for u := range L {
					covered[p+v*W+u] = true
				}
			}
		}
	}
	// Fine pixels count in runs of at least lineRun × L touching pixels:
	// a line, not an edge's odd pixel.
	seen := make([]bool, W*H)
	var stack, patch []int
	for s, j := range m.label {
		if j == noInk || covered[s] || seen[s] {
			continue
		}
		seen[s] = true
		stack, patch = append(stack[:0], s), patch[:0]
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			patch = append(patch, p)
			x, y := p%W, p/W
			for _, d := range touching {
				u, v := x+d[0], y+d[1]
				if q := v*W + u; u >= 0 && v >= 0 && u < W && v < H && !seen[q] && !covered[q] && m.label[q] == j {
					seen[q] = true
					stack = append(stack, q)
				}
			}
		}
		if len(patch) >= lineRun*L {
			n[j] += len(patch)
		}
	}
	return n, L
}

// lineRun is how many times its width a run of fine pixels is long, at
// least, to count as a line.
const lineRun = 8

// fineLineWarning is the fine_lines warning of ink j's film, if it has a
// line finer than minLineMM.
func (s *separation) fineLineWarning(j int) []contract.Warning {
	fine, limit := s.fine, s.fineLimit
	if fine[j] == 0 {
		return nil
	}
	field := "dpi"
	px := limit - 1
	return []contract.Warning{{Code: string(apierr.FineLines), Field: &field, Message: fmt.Sprintf(
		"%s %s: %d px of its film lie on lines %d px (%.2f mm at %d dpi) wide or less, finer than the %.2f mm a screen "+
			"holds; they are kept as drawn. Thicken them, or print larger with width_mm.",
		s.names[j], s.inks[j].Hex(), fine[j], px, float64(px)*25.4/float64(s.in.DPI), s.in.DPI, minLineMM)}}
}
