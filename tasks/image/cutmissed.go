package image

import "image"

// The cut quality's second evidence: strong edges the cut leaves in the
// backdrop. A cut whose outline follows a real edge to the wrong place (a
// wine glass cut to a piece of its bowl, a body dropped, a pile cut to one
// of its things) leaves the rest of the product's edges outside it; a good
// cut leaves a flat backdrop, its shadows' soft edges and the noise.

// missedBand is how far from the cut (px, chessboard) an edge is the
// cut's own: a soft or defocused outline and JPEG's ringing beside it.
const missedBand = 8

// missedRun is the fewest 8-connected edge pixels that count as an edge
// the image shows, not noise or a JPEG block's corner.
const missedRun = 12

// missedSide is the long side (px) the backdrop is read at: a larger
// image is read on a grid of every s-th pixel.
const missedSide = 1024

// missedEdges is the length of the strong edges left in cut's backdrop
// (alpha 0, farther than missedBand from the cut), in runs of at least
// missedRun pixels, less the backdrop's own (at the density the border
// band shows), over the length of the cut's outline: 0 for a cut
// that leaves a flat backdrop. An edge is a local maximum, across x or y,
// of the step of colour over 4 px (each side the mean of 3 pixels along
// the edge), read relative to the local level (levelScale), of at least
// need.
func missedEdges(cut *image.NRGBA, at func(x, y int) [3]int, need int) float64 {
	W0, H0 := cut.Rect.Dx(), cut.Rect.Dy()
	s := max(1, (max(W0, H0)+missedSide-1)/missedSide)
	W, H := W0/s, H0/s
	if W < 8 || H < 8 {
		return 0
	}
	px := func(x, y int) [3]int { return at(x*s, y*s) }
	opaque := make([]bool, W*H)
	outline := 0
	for y := range H {
		for x := range W {
			opaque[y*W+x] = cut.Pix[y*s*cut.Stride+4*x*s+3] != 0
		}
	}
	alphaAt := func(x, y int) uint8 { return cut.Pix[y*s*cut.Stride+4*x*s+3] }
	for y := 1; y < H-1; y++ {
		for x := 1; x < W-1; x++ {
			if alphaAt(x, y) >= 13 && (alphaAt(x-1, y) < 13 || alphaAt(x+1, y) < 13 || alphaAt(x, y-1) < 13 ||
				alphaAt(x, y+1) < 13) {
				outline++
			}
		}
	}
	if outline == 0 {
		return 0
	}
	near := dilate(opaque, W, H, max(2, missedBand/s))
	defer boolPool.put(near)
	rgb := make([]int32, 3*W*H) // the image read once
	for y := range H {
		for x := range W {
			c := px(x, y)
			rgb[3*(y*W+x)], rgb[3*(y*W+x)+1], rgb[3*(y*W+x)+2] = int32(c[0]), int32(c[1]), int32(c[2])
		}
	}
	edge := make([]bool, W*H)
	st := make([]int32, W*H)
	ref := backdropLevel(rgb, near, W, H)
	for _, d := range [2]int{1, W} { // across x, then across y
		across := W + 1 - d // the step between the 3 pixels a side is averaged over: along the edge
		for y := 3; y < H-3; y++ {
			for x := 3; x < W-3; x++ {
				i := y*W + x
				sum, level := int32(0), int32(0)
				for c := range 3 {
					v := int32(0)
					for _, k := range [3]int{-across, 0, across} {
						v += rgb[3*(i+2*d+k)+c] - rgb[3*(i-2*d+k)+c]
						level += rgb[3*(i+2*d+k)+c] + rgb[3*(i-2*d+k)+c]
					}
					sum += max(v, -v)
				}
				st[i] = int32(float64(sum) / 3 * levelScale(ref, float64(level)/18))
			}
		}
		for y := 4; y < H-4; y++ {
			for x := 4; x < W-4; x++ {
				i := y*W + x
				if v := st[i]; !near[i] && v >= int32(need) && v >= st[i-d] && v > st[i+d] {
					edge[i] = true
				}
			}
		}
	}
	missed := edgeRuns(edge, near, W, H, max(4, missedRun/s))
	return float64(missed) / float64(outline)
}

// levelLeast, levelMost bound the scale a step is read at
// (levelScale): a vignette's or a fall-off's darkening, a few tenths, is
// undone; a dark backdrop's steps beside a white part are not shrunk to
// nothing, nor a black part's on white blown up.
const levelLeast, levelMost = 2.0 / 3, 1.5

// levelScale is the factor a step at mean level l is read at, relative to
// the backdrop's mean level ref: a texture's steps scale with the light on
// it (a vignette darkens the border band, and its grain's steps with it),
// so the grain left far from the cut and the border band's are compared
// as if equally lit.
func levelScale(ref, l float64) float64 {
	return min(levelMost, max(levelLeast, ref/max(l, 16)))
}

// backdropLevel is the mean level of the pixels away from the cut (not
// near), read from the image's rgb: 128 when there are none.
func backdropLevel(rgb []int32, near []bool, W, H int) float64 {
	var sum float64
	k := 0
	for i := range W * H {
		if !near[i] {
			sum += float64(rgb[3*i] + rgb[3*i+1] + rgb[3*i+2])
			k++
		}
	}
	if k == 0 {
		return 128
	}
	return sum / 3 / float64(k)
}

// edgeRuns is the number of edge pixels in 8-connected runs of at least
// run pixels, less the backdrop's own: a textured backdrop (wood,
// concrete, a knit) shows strong edges everywhere, and as many per pixel
// as its border band shows (away from the cut: near) are its grain, not a
// part the cut left. It clears edge.
func edgeRuns(edge, near []bool, W, H, run int) int {
	band := max(4, min(W, H)/20)
	inBand := func(i int) bool {
		x, y := i%W, i/W
		return x < band || y < band || x >= W-band || y >= H-band
	}
	bandPix, allPix, bandEdges := 0, 0, 0
	for y := 4; y < H-4; y++ {
		for x := 4; x < W-4; x++ {
			if i := y*W + x; !near[i] {
				allPix++
				if inBand(i) {
					bandPix++
				}
			}
		}
	}
	missed := 0
	var comp []int
	for i := range edge {
		if !edge[i] {
			continue
		}
		comp = append(comp[:0], i)
		edge[i] = false
		for h := 0; h < len(comp); h++ {
			x, y := comp[h]%W, comp[h]/W
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if xx, yy := x+dx, y+dy; xx >= 0 && yy >= 0 && xx < W && yy < H && edge[yy*W+xx] {
						edge[yy*W+xx] = false
						comp = append(comp, yy*W+xx)
					}
				}
			}
		}
		if len(comp) >= run {
			missed += len(comp)
			for _, j := range comp {
				if inBand(j) {
					bandEdges++
				}
			}
		}
	}
	if bandPix > 0 {
		missed = max(0, missed-bandEdges*allPix/bandPix)
	}
	return missed
}
