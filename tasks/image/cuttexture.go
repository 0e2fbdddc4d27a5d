package image

import (
	"image"
	"slices"

	"github.com/taskplatform/taskplatform/tasks/resample"
)

// Texture: a product whose colour is the backdrop's (a cream mug on beige
// linen, a grey speaker on grey concrete) still departs from it where the
// backdrop has a texture the product has not. The backdrop's texture is
// learnt from the border, as its colour is (cutbackdrop.go): each pixel's
// texture energy is the mean gradient magnitude over a window, relative
// to the window's mean level (so a shadow, which darkens the texture with
// the backdrop, keeps it), the local-energy feature of texture
// segmentation (Laws' texture energy measures; Malik, Belongie, Leung and
// Shi, "Contour and texture analysis for image segmentation", 2001). A
// region the cut took for backdrop whose energy is well under the
// border's (smoothTextures) is product: a smooth body on a textured
// backdrop. The test answers nothing on a plain backdrop: there the
// border's energy is the camera's noise, which the product has too.

// textureRadius is the half-width of the window texture energy is
// measured over: a few threads of linen or grains of concrete.
const textureRadius = 4

// smoothShare is how much smoother than the border's median a pixel must
// be to depart from the backdrop's texture, smoothSeed how much smoother
// a region's seeds must be (hysteresis, as Canny's: a region grows from
// clearly smooth pixels through fairly smooth ones), and smoothCore how
// much smoother the region's mean must be to be a product.
const smoothShare, smoothSeed, smoothCore = 0.65, 0.45, 0.5

// textureLeast is the least median relative energy of the border that
// is a texture and not the noise of a plain backdrop: a gradient of 2 %
// of the level per pixel.
const textureLeast = 0.02

// textureGrain is the least ratio of the border's gradient to its noise
// (textureEnergy) that is a texture: noise alone gives about 1.3, JPEG's
// and the lens's blotches on a plain sweep up to about 3.
const textureGrain = 4

// textureDark is the least mean level of the backdrop (at the centre)
// whose texture is read: on a dark backdrop (felt, charcoal) the sensor's
// read noise is a large share of the level, and a lighter body looks
// smoother than the backdrop only because it is lighter.
const textureDark = 96

// minTextureArea is the least share of the image a smooth region must
// cover to be a product.
const minTextureArea = 0.004

// textureEnergy is each pixel's mean gradient magnitude over a window of
// radius r, divided by the window's mean level (at least 16). The
// gradient is taken on the luminance smoothed by a 1-2-1 kernel
// (smoothLum), by differences four pixels apart: the camera's noise,
// independent from pixel to pixel, is mostly smoothed away; a texture a
// few pixels across is not. It also returns the ratio, on the border,
// of the median gradient to the median noise (a pixel's distance from
// its smoothed level): about 1.3 for noise alone, more for a texture.
func textureEnergy(px *image.NRGBA, W, H, r int) ([]float32, float32) {
	lum := smoothLum(px)
	grad := make([]float32, W*H)
	resample.Rows(H, W, func(y int) {
		u, d := max(0, y-2)*W, min(H-1, y+2)*W
		for x := range W {
			l, rr := y*W+max(0, x-2), y*W+min(W-1, x+2)
			grad[y*W+x] = abs32(lum[rr]-lum[l]) + abs32(lum[d+x]-lum[u+x])
		}
	})
	var gs, ns []float32
	for y := 2; y < H-2; y++ {
		for x := 2; x < W-2; x++ {
			if x >= 3*r && y >= 3*r && x < W-3*r && y < H-3*r {
				continue
			}
			i := y*W + x
			p := px.Pix[4*i:]
			ns = append(ns, abs32((float32(p[0])+float32(p[1])+float32(p[2]))/3-lum[i]))
			gs = append(gs, grad[i])
		}
	}
	g, m := boxMean(grad, W, H, r), boxMean(lum, W, H, r)
	for i := range g {
		g[i] /= max(m[i], 16)
	}
	return g, medianOf(gs) / max(medianOf(ns), 0.25)
}

// medianOf is v's median (v is sorted), 0 when empty.
func medianOf(v []float32) float32 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	return v[len(v)/2]
}

// boxMean is v's mean over a (2r+1)² window clamped to the frame, by
// running sums along rows then columns.
func boxMean(v []float32, W, H, r int) []float32 {
	tmp := make([]float32, W*H)
	resample.Rows(H, W, func(y int) {
		row := v[y*W : y*W+W]
		var s float64
		for x := 0; x < min(r, W); x++ {
			s += float64(row[x])
		}
		for x := range W {
			if x+r < W {
				s += float64(row[x+r])
			}
			if x-r-1 >= 0 {
				s -= float64(row[x-r-1])
			}
			tmp[y*W+x] = float32(s / float64(min(W-1, x+r)-max(0, x-r)+1))
		}
	})
	out := make([]float32, W*H)
	resample.Rows(W, H, func(x int) {
		var s float64
		for y := 0; y < min(r, H); y++ {
			s += float64(tmp[y*W+x])
		}
		for y := range H {
			if y+r < H {
				s += float64(tmp[(y+r)*W+x])
			}
			if y-r-1 >= 0 {
				s -= float64(tmp[(y-r-1)*W+x])
			}
			out[y*W+x] = float32(s / float64(min(H-1, y+r)-max(0, y-r)+1))
		}
	})
	return out
}

// borderEnergy is the median texture energy of the pixels whose window
// lies inside the frame, within a band as wide as the window of its edge.
func borderEnergy(e []float32, W, H, r int) float32 {
	var s []float32
	in := func(x, y int) bool { return x >= r && y >= r && x < W-r && y < H-r }
	for y := range H {
		for x := range W {
			if !in(x, y) || (x >= 3*r && y >= 3*r && x < W-3*r && y < H-3*r) {
				continue
			}
			s = append(s, e[y*W+x])
		}
	}
	if len(s) == 0 {
		return 0
	}
	slices.Sort(s)
	return s[len(s)/2]
}

// smoothTextures gives the product the regions isBg holds whose texture
// energy is well under the border's: a smooth body on a textured
// backdrop. Each region must be large (minTextureArea), clear of the
// frame and, on the whole, smoothCore of the border's energy or less.
// The holes left in them that are not the backdrop's texture are filled
// (fillSmoothHoles).
func (st *cutState) smoothTextures(isBg []bool) {
	W, H, r := st.W, st.H, textureRadius
	if W < 8*r || H < 8*r || st.bd.lum(st.n/2+W/2, W) < textureDark {
		return
	}
	e, grain := textureEnergy(st.px, W, H, r)
	ref := borderEnergy(e, W, H, r)
	if ref < textureLeast || grain < textureGrain {
		return
	}
	st.textured = true
	smooth := make([]bool, st.n)
	for i := range st.n {
		smooth[i] = isBg[i] && st.opaque(i) && e[i] < smoothShare*ref
	}
	seen, added := make([]bool, st.n), make([]bool, st.n)
	var queue []int32
	any := false
	for s := range st.n {
		if !smooth[s] || seen[s] || e[s] >= smoothSeed*ref {
			continue
		}
		queue = append(queue[:0], int32(s))
		seen[s] = true
		frame, seeds := false, 0
		var sum float64
		for k := 0; k < len(queue); k++ {
			i := int(queue[k])
			x, y := i%W, i/W
			frame = frame || x < r || y < r || x >= W-r || y >= H-r
			sum += float64(e[i])
			if e[i] < smoothSeed*ref {
				seeds++
			}
			forNeighbours(i, W, H, func(j int) {
				if smooth[j] && !seen[j] {
					seen[j] = true
					queue = append(queue, int32(j))
				}
			})
		}
		if frame || float64(seeds) < minTextureArea*float64(st.n) ||
			sum/float64(len(queue)) > smoothCore*float64(ref) {
			continue
		}
		for _, i := range queue {
			isBg[i], added[i] = false, true
		}
		any = true
	}
	if any {
		st.settleSmoothEdges(isBg, added)
		st.fillSmoothHoles(isBg, added, e, ref)
	}
}

// settleSmoothEdges mends the outline of the regions smoothTextures added.
// Their edge stops a window's radius short of the product's, where the
// window reaches the product's own outline (a step far stronger than the
// texture) or the backdrop's texture, and it wanders with the texture's
// patches. The band of backdrop within two radii of them is shared
// between them and the backdrop beyond by a watershed on the luminance's
// gradient (Meyer's flooding from markers): each side floods the band from
// its marker in order of rising gradient, so the two meet on the
// strongest step, the product's outline; a seam or a rim's band between
// two added parts, reached from both, stays the product's, and so does
// a hole narrower than the band.
func (st *cutState) settleSmoothEdges(isBg, added []bool) {
	W, H, n := st.W, st.H, st.n
	near := dilate(added, W, H, 2*textureRadius)
	defer boolPool.put(near)
	lum := smoothLum(st.px)
	grad := make([]uint8, n)
	for y := range H {
		for x := range W {
			i := y*W + x
			gx := lum[y*W+min(W-1, x+1)] - lum[y*W+max(0, x-1)]
			gy := lum[min(H-1, y+1)*W+x] - lum[max(0, y-1)*W+x]
			grad[i] = uint8(min(255, abs32(gx)+abs32(gy)))
		}
	}
	// label: 0 the band not reached yet, 1 the product's side, 2 the
	// backdrop's (the backdrop beyond the band is its marker); 4 marks a
	// pixel queued.
	label := make([]uint8, n)
	band := func(i int) bool { return near[i] && isBg[i] && st.opaque(i) && !added[i] }
	for i := range n {
		switch {
		case added[i] || !isBg[i]:
			label[i] = 1
		case !band(i):
			label[i] = 2
		}
	}
	var buckets [256][]int32
	push := func(i int, level uint8) {
		forNeighbours(i, W, H, func(j int) {
			if label[j] == 0 {
				label[j] = label[i] | 4 // queued, with the side that reached it
				g := max(level, grad[j])
				buckets[g] = append(buckets[g], int32(j))
			}
		})
	}
	for i := range n {
		if label[i] == 1 || label[i] == 2 {
			push(i, 0)
		}
	}
	for g := range 256 {
		for k := 0; k < len(buckets[g]); k++ {
			i := int(buckets[g][k])
			label[i] &^= 4
			push(i, uint8(g))
		}
	}
	for i := range n {
		if label[i] == 1 && isBg[i] {
			isBg[i], added[i] = false, true
		}
	}
}

// holeShare is how much smoother than the border's median an enclosed
// region must be, on the whole, to be product: a handle's hole shows the
// backdrop's texture; a patch of a smooth body JPEG roughened does not.
const holeShare = 0.85

// fillSmoothHoles gives the product the regions of isBg that the frame
// does not reach, that border a region smoothTextures added and whose
// mean texture energy is under holeShare of the border's (ref).
func (st *cutState) fillSmoothHoles(isBg, added []bool, e []float32, ref float32) {
	W, H := st.W, st.H
	seen := make([]bool, st.n)
	var queue []int32
	for s := range st.n {
		if !isBg[s] || seen[s] {
			continue
		}
		queue = append(queue[:0], int32(s))
		seen[s] = true
		frame, borders := false, false
		var sum float64
		for k := 0; k < len(queue); k++ {
			i := int(queue[k])
			x, y := i%W, i/W
			frame = frame || x == 0 || y == 0 || x == W-1 || y == H-1
			sum += float64(e[i])
			forNeighbours(i, W, H, func(j int) {
				borders = borders || added[j]
				if isBg[j] && !seen[j] {
					seen[j] = true
					queue = append(queue, int32(j))
				}
			})
		}
		if frame || !borders || sum/float64(len(queue)) >= holeShare*float64(ref) {
			continue
		}
		for _, i := range queue {
			isBg[i] = false
		}
	}
}
