package image

import "math"

// heavySlack is how much less salience than the heaviest window a window
// may hold and still be chosen for cutting through less of the subject's
// detail.
const heavySlack = 0.15

// heaviest is the window's position in [lo, hi) for a subject too large
// for it: of the positions holding at least 1 − heavySlack of the most
// salience, the one whose two edges cross the least detail (an eye, a
// label, a face's features: where salience changes), nearest the heaviest
// on a tie. A crop then passes through fur or a plain panel, not an eye.
func (s saliency) heaviest(alongX bool, lo, hi, window int) (int, int, bool) {
	n := s.w
	if !alongX {
		n = s.h
	}
	profile := make([]float64, n+1)
	detail := make([]float64, n+2)
	for i, v := range s.v {
		x, y := i%s.w, i/s.w
		k := x
		if !alongX {
			k = y
		}
		if k >= lo && k < hi {
			profile[k+1] += v
		}
		if x > 0 {
			detail[k] += math.Abs(v - s.v[i-1])
		}
		if y > 0 {
			detail[k] += math.Abs(v - s.v[i-s.w])
		}
	}
	for k := 1; k <= n; k++ {
		profile[k] += profile[k-1]
	}
	sum := func(p int) float64 { return profile[p+window] - profile[p] }
	best := lo
	for p := lo; p+window <= hi; p++ {
		if sum(p) > sum(best) {
			best = p
		}
	}
	// An edge's cost: the detail within 2 lines of it.
	edge := func(k int) float64 {
		var c float64
		for d := -2; d <= 2; d++ {
			if k+d >= 0 && k+d < n {
				c += detail[k+d]
			}
		}
		return c
	}
	at, cost := best, math.Inf(1)
	for p := lo; p+window <= hi; p++ {
		if sum(p) < (1-heavySlack)*sum(best) {
			continue
		}
		c := edge(p) + edge(p+window-1)
		if c < cost || c == cost && math.Abs(float64(p-best)) < math.Abs(float64(at-best)) {
			at, cost = p, c
		}
	}
	return at, at + window, true
}
