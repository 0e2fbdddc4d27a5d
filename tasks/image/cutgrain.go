package image

import (
	"math"
	"slices"
)

// Grain specks: on a textured backdrop (concrete, terrazzo) the flood stops
// at the grain's own steps, and a dark grain or a chip past the backdrop's
// tolerance, walled off by them, stays as a small island of product apart
// from the body. Such an island is the backdrop's: small, away from the
// product, and no farther from the backdrop model than the border's own
// grain goes (dropGrainSpecks). A product's small part (a button, an
// earbud's tip) is near the body or has its own colour.

// chippedShare is the share of the border near the backdrop model under
// which the backdrop is taken for one with chips (terrazzo, a speckled
// stone): its grain is not a texture energy finds (the chips are sparse)
// but stays as specks all the same.
const chippedShare = 0.97

// grainSpeckArea is the most pixels an island of grain may cover.
const grainSpeckArea = 162

// grainApart is how far (px, chessboard) an island of grain lies from
// every larger island.
const grainApart = 8

// grainReach is how far past the border's 99.9th percentile distance from
// the backdrop model an island's mean colour may lie and still be grain.
const grainReach = 1.25

// dropGrainSpecks gives back to isBg the islands of product of at most
// grainSpeckArea pixels that lie grainApart or more from every larger
// island and whose mean colour is within grainReach times the border's
// 99.9th percentile distance of the backdrop model. It runs only on a
// textured or chipped backdrop (st.textured): on a plain one the flood's own speck
// removal (dropSpecks) suffices and a small part of its own tone is kept.
func (st *cutState) dropGrainSpecks(isBg []bool) {
	if !st.textured {
		return
	}
	W, H, n := st.W, st.H, st.n
	label := make([]int32, n) // 0 background, else the island's number + 1
	var islands [][]int32
	var queue []int32
	for s := range n {
		if isBg[s] || label[s] != 0 {
			continue
		}
		id := int32(len(islands) + 1)
		queue = append(queue[:0], int32(s))
		label[s] = id
		for k := 0; k < len(queue); k++ {
			eachAround(int(queue[k]), W, H, func(j int) {
				if !isBg[j] && label[j] == 0 {
					label[j] = id
					queue = append(queue, int32(j))
				}
			})
		}
		islands = append(islands, slices.Clone(queue))
	}
	if len(islands) < 2 {
		return
	}
	large := make([]bool, n)
	for _, c := range islands {
		if len(c) > grainSpeckArea {
			for _, j := range c {
				large[j] = true
			}
		}
	}
	nearLarge := dilate(large, W, H, grainApart)
	defer boolPool.put(nearLarge)
	reach := grainReach * st.borderReach()
	for _, c := range islands {
		if len(c) > grainSpeckArea || anySet(c, nearLarge) || st.islandDistance(c) > reach {
			continue
		}
		for _, j := range c {
			isBg[j] = true
		}
	}
}

// eachAround calls f with each 8-neighbour of pixel i in a W × H image.
func eachAround(i, W, H int, f func(j int)) {
	x, y := i%W, i/W
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if xx, yy := x+dx, y+dy; (dx != 0 || dy != 0) && xx >= 0 && yy >= 0 && xx < W && yy < H {
				f(yy*W + xx)
			}
		}
	}
}

// anySet tells whether any pixel of c is set in mask.
func anySet(c []int32, mask []bool) bool {
	for _, j := range c {
		if mask[j] {
			return true
		}
	}
	return false
}

// islandDistance is the distance of island c's mean colour from the
// backdrop model's mean over it.
func (st *cutState) islandDistance(c []int32) float64 {
	var p, b [3]float64
	for _, j := range c {
		q, m := st.col(int(j)), st.bd.at(int(j)%st.W, int(j)/st.W)
		for ch := range 3 {
			p[ch] += q[ch]
			b[ch] += m[ch]
		}
	}
	return dist3(p, b) / float64(len(c))
}

// borderReach is the 99.9th percentile of the border band's distances
// from the backdrop model: how far the backdrop's own grain goes.
func (st *cutState) borderReach() float64 {
	s := sampleBorder(st)
	d := make([]float64, 0, len(s.cols))
	for k, c := range s.cols {
		d = append(d, dist3(c, st.bd.at(s.xs[k], s.ys[k])))
	}
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[min(len(d)-1, int(math.Ceil(0.999*float64(len(d))))-1)]
}
