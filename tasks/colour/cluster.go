package colour

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// Weighted is a colour and its weight: a pixel count, or a share.
type Weighted struct {
	C Lab
	W float64
}

// Swatch is one cluster of colours: its mean and its share of the weight.
type Swatch struct {
	C     Lab
	Share float64
}

// Nearest is the index of the centre nearest c (Euclidean in CIELAB, the
// distance k-means assigns by); 0 when there are no centres.
func Nearest(centres []Lab, c Lab) int {
	best, bd := 0, math.Inf(1)
	for j, x := range centres {
		if d := x.Dist2(c); d < bd {
			best, bd = j, d
		}
	}
	return best
}

// sameColour is the squared CIELAB distance under which a point adds
// nothing new as a seed: ΔE76 2, a difference hardly seen.
const sameColour = 4

// KMeans clusters weighted colours into at most k: k-means++ seeding from
// a fixed seed (the heaviest colour first, then each next seed the best of
// a few drawn in proportion to weight × squared distance), then Lloyd
// iterations in CIELAB. It is deterministic for a given order of pts.
// Fewer distinct colours than k give as many centres: an image of pure red
// and pure blue gives exactly those two.
func KMeans(pts []Weighted, k int) []Lab {
	if len(pts) == 0 || k <= 0 {
		return nil
	}
	heaviest := 0
	for i, p := range pts {
		if p.W > pts[heaviest].W {
			heaviest = i
		}
	}
	centres := []Lab{pts[heaviest].C}
	near := make([]float64, len(pts))
	for i, p := range pts {
		near[i] = p.C.Dist2(centres[0])
	}
	rng := rand.New(rand.NewPCG(1, 2))
	tries := 2 + int(math.Log(float64(k)))
	for len(centres) < k {
		var sum float64
		for i, p := range pts {
			if near[i] >= sameColour {
				sum += p.W * near[i]
			}
		}
		if sum == 0 {
			break
		}
		best, bestCost := -1, math.Inf(1)
		for range tries {
			pick, cand := rng.Float64()*sum, -1
			for i, p := range pts {
				if near[i] < sameColour {
					continue
				}
				cand = i
				if pick -= p.W * near[i]; pick <= 0 {
					break
				}
			}
			var cost float64
			for i, p := range pts {
				cost += p.W * min(near[i], p.C.Dist2(pts[cand].C))
			}
			if cost < bestCost {
				best, bestCost = cand, cost
			}
		}
		centres = append(centres, pts[best].C)
		for i, p := range pts {
			near[i] = min(near[i], p.C.Dist2(pts[best].C))
		}
	}
	return lloyd(pts, centres)
}

// lloyd moves every centre to the mean of its colours until none moves
// (at most 30 rounds); a centre left with no colour stays where it is.
func lloyd(pts []Weighted, centres []Lab) []Lab {
	sums, weights := make([]Lab, len(centres)), make([]float64, len(centres))
	for range 30 {
		clear(sums)
		clear(weights)
		for _, p := range pts {
			j := Nearest(centres, p.C)
			sums[j] = sums[j].Add(p.C, p.W)
			weights[j] += p.W
		}
		moved := false
		for j := range centres {
			if weights[j] == 0 {
				continue
			}
			c := sums[j].Scale(1 / weights[j])
			if c.Dist2(centres[j]) > 1e-6 {
				moved = true
			}
			centres[j] = c
		}
		if !moved {
			break
		}
	}
	return centres
}

// Cluster groups weighted colours into at most k swatches: KMeans, then
// the smallest cluster is dropped while it holds under minShare of the
// weight (its colours join their nearest neighbour: anti-aliased edges,
// noise), then the closest pair is merged while it is nearer than mergeDE
// (CIEDE2000), the means recomputed from the colours each round. Swatches
// come heaviest first, shares summing to 1.
func Cluster(pts []Weighted, k int, mergeDE, minShare float64) []Swatch {
	centres := KMeans(pts, k)
	if len(centres) == 0 {
		return nil
	}
	var total float64
	for _, p := range pts {
		total += p.W
	}
	var weights []float64
	for {
		sums := make([]Lab, len(centres))
		weights = make([]float64, len(centres))
		for _, p := range pts {
			j := Nearest(centres, p.C)
			sums[j] = sums[j].Add(p.C, p.W)
			weights[j] += p.W
		}
		for j := range centres {
			if weights[j] > 0 {
				centres[j] = sums[j].Scale(1 / weights[j])
			}
		}
		if len(centres) == 1 {
			break
		}
		small, least := -1, minShare*total
		for j, w := range weights {
			if w < least {
				small, least = j, w
			}
		}
		if small >= 0 {
			centres = slices.Delete(centres, small, small+1)
			continue
		}
		a, b, bd := -1, -1, mergeDE
		for i := range centres {
			for j := i + 1; j < len(centres); j++ {
				if d := DeltaE(centres[i], centres[j]); d < bd {
					a, b, bd = i, j, d
				}
			}
		}
		if a < 0 {
			break
		}
		wa, wb := weights[a], weights[b]
		centres[a] = centres[a].Scale(wa).Add(centres[b], wb).Scale(1 / (wa + wb))
		centres = slices.Delete(centres, b, b+1)
	}
	out := make([]Swatch, 0, len(centres))
	for j, c := range centres {
		if weights[j] > 0 {
			out = append(out, Swatch{C: c, Share: weights[j] / total})
		}
	}
	slices.SortStableFunc(out, func(a, b Swatch) int {
		switch {
		case a.Share > b.Share:
			return -1
		case a.Share < b.Share:
			return 1
		}
		return strings.Compare(a.C.Hex(), b.C.Hex())
	})
	return out
}
