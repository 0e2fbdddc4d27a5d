package colourwork

// despeckle gives every 8-connected patch of one ink under minSpeck pixels
// to the ink most of its neighbours print, until none is left (a few
// rounds: a patch joined to a speck may be a speck itself).
func (m *inkMap) despeckle() {
	W, H := m.w, m.h
	seen := make([]uint8, W*H) // the round that saw a pixel
	stack := make([]int32, 0, 64)
	patch := make([]int32, 0, minSpeck)
	for round := uint8(1); round <= 4; round++ {
		changed := false
		for start := range m.label {
			if seen[start] == round || m.label[start] == noInk {
				continue
			}
			j := m.label[start]
			stack, patch = append(stack[:0], int32(start)), patch[:0]
			seen[start] = round
			size := 0
			votes := [256]int{}
			for len(stack) > 0 {
				p := int(stack[len(stack)-1])
				stack = stack[:len(stack)-1]
				size++
				if size < minSpeck {
					patch = append(patch, int32(p))
				}
				x, y := p%W, p/W
				for _, d := range touching {
					u, v := x+d[0], y+d[1]
					if u < 0 || v < 0 || u >= W || v >= H {
						continue
					}
					q := v*W + u
					if m.label[q] != j {
						votes[m.label[q]]++
						continue
					}
					if seen[q] != round {
						seen[q] = round
						stack = append(stack, int32(q))
					}
				}
			}
			if size >= minSpeck {
				continue
			}
			to, best := -1, 0
			for k, n := range votes {
				if n > best {
					to, best = k, n
				}
			}
			if to < 0 {
				continue // a patch alone in the image
			}
			for _, p := range patch {
				m.label[p], m.other[p], m.share[p] = uint8(to), uint8(to), 255
			}
			changed = true
		}
		if !changed {
			return
		}
	}
}

// coverage is each ink's share of the opaque pixels.
func (m *inkMap) coverage() []float64 {
	counts := make([]float64, len(m.rgb))
	total := 0.0
	for _, j := range m.label {
		if j != noInk {
			counts[j]++
			total++
		}
	}
	for j := range counts {
		counts[j] /= max(total, 1)
	}
	return counts
}

// The smallest and largest dots a halftone prints: a lighter tint prints
// nothing, a darker one solid, as a screen holds neither and noise in a
// flat area must not turn into dots.
const minDot, maxDot = 0.1, 0.9

// density is the part of ink j at pixel p, 0–1: what a halftone prints.
func (m *inkMap) density(p int, j uint8) float64 {
	d := 0.0
	switch {
	case m.label[p] == j:
		d = float64(m.share[p]) / 255
	case m.other[p] == j:
		d = 1 - float64(m.share[p])/255
	}
	switch {
	case d < minDot:
		return 0
	case d > maxDot:
		return 1
	}
	return d
}
