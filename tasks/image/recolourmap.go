package image

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// The recolouring image.recolour and colourway.generate run:
//
//  1. The area: with a plain backdrop and one object on it (found as
//     image.remove_background finds it) only the object is recoloured;
//     backdrop and shadows are kept byte for byte, and the object's soft
//     edge is recomposited over them with its matte.
//  2. The object's (or image's) colours: colour.Cluster in CIELAB on its
//     inner pixels, as many as the palette has colours at most.
//  3. Pairing: by lightness rank (the lightest colour takes the lightest
//     palette colour; a brand kit's later colourways turn this), or as
//     the caller paired them.
//  4. Every pixel moves with its colour: its L* offset from its colour's
//     mean is kept (scaled only where the target leaves no room), its
//     chroma scales with the target's, its hue is the target's.
//  5. Anti-aliased edges between two colours are unmixed: a pixel on the
//     line between its neighbours of two colours becomes the same blend of
//     their two new colours, never a third colour.

// Recolour areas: the values of the recolour_area vocabulary.
const (
	AreaAuto    = "auto"
	AreaProduct = "product"
	AreaWhole   = "whole"
)

// Pair is one explicit pairing: the image's colour nearest From becomes To.
type Pair struct{ From, To color.Color }

// RecolourOptions say what Recolour does.
type RecolourOptions struct {
	// Palette is the colours to recolour into, paired by lightness rank.
	// Unused with Pairs.
	Palette []color.Color
	// Rotate turns the lightness pairing: the image's colour of lightness
	// rank r takes the palette colour of rank r+Rotate (modulo their
	// number). 0 keeps lights light and darks dark.
	Rotate int
	// Pairs pair colours explicitly; an image colour farther than
	// pairDE from every From keeps its colour.
	Pairs []Pair
	// Area is AreaAuto (the default), AreaProduct or AreaWhole.
	Area string
}

// Recoloured is Recolour's result.
type Recoloured struct {
	Image *image.NRGBA
	// Mapping lists each colour found (from), what it became (to) and its
	// share of the recoloured pixels, largest share first.
	Mapping []map[string]any
	// Area is the area recoloured: AreaProduct or AreaWhole.
	Area string
}

const (
	// pairDE is how near (CIEDE2000) an explicit From must be to a colour
	// of the image to pair it.
	pairDE = 20
	// recolourMergeDE and recolourMinShare simplify the clusters: nearer
	// colours are one, smaller ones (edges, noise) join their neighbour.
	recolourMergeDE, recolourMinShare = 5, 0.01
	// objectShare is the least share of the cut-out's pixels the largest
	// object must hold for AreaAuto to read the image as a product shot.
	objectShare = 0.85
)

// errNoBackdrop is the public reason area product cannot be honoured.
var errNoBackdrop = fmt.Errorf("area product needs a plain or evenly graded backdrop around the product")

// recolourWith maps img as o says.
func recolourWith(ctx context.Context, img image.Image, o RecolourOptions) (*Recoloured, error) {
	src := cloneNRGBA(img)
	W, H := src.Rect.Dx(), src.Rect.Dy()
	n := W * H
	// fg is each pixel's own colour (decontaminated at a product's edge)
	// and cover its share of the recoloured area, 0..255.
	fg, cover := src.Pix, make([]uint8, n)
	area := AreaWhole
	if o.Area != AreaWhole {
		cut, err := cutOut(ctx, src, 12, 2)
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, ctx.Err()
		case err == nil && (o.Area == AreaProduct || oneObject(cut.img)):
			area, fg = AreaProduct, cut.img.Pix
			for i := range n {
				cover[i] = fg[4*i+3]
			}
			solidInside(src.Pix, fg, cover, W, H)
			defer releaseImage(cut.img)
		case o.Area == AreaProduct:
			if err == nil {
				err = errNoBackdrop
			}
			return nil, err
		case err == nil:
			releaseImage(cut.img)
		}
	}
	if area == AreaWhole {
		for i := range n {
			cover[i] = 255 * (src.Pix[4*i+3] >> 7) // at least half opaque
		}
	}
	samples := innerColours(fg, cover, W, H)
	if len(samples) == 0 {
		return nil, fmt.Errorf("the image is fully transparent")
	}
	k := len(o.Palette)
	if len(o.Pairs) > 0 {
		k = maxPaletteColours
	}
	clusters := colour.Cluster(samples, k, recolourMergeDE, recolourMinShare)
	targets := pairColours(clusters, o)
	m := newMapper(clusters, targets, samples)

	// Labels: each recoloured pixel's colour; 255 outside the area.
	label := make([]uint8, n)
	single := func(r, g, b uint8) uint32 {
		c := colour.LabOf8(r, g, b)
		j := colour.Nearest(m.means, c)
		o := m.move(j, c)
		return uint32(j)<<24 | uint32(o.R)<<16 | uint32(o.G)<<8 | uint32(o.B)
	}
	impure := func(r, g, b uint8) uint32 {
		c := colour.LabOf8(r, g, b)
		return math.Float32bits(float32(c.Dist2(m.means[colour.Nearest(m.means, c)])))
	}
	cache, pure := newRGBCache(), newRGBCache()
	defer cache.release()
	defer pure.release()
	moved, impurity := make([]uint32, n), make([]uint32, n)
	for i := range n {
		if cover[i] == 0 {
			label[i] = 255
			continue
		}
		p := fg[4*i : 4*i+3 : 4*i+3]
		v := cache.get(p[0], p[1], p[2], single)
		label[i], moved[i] = uint8(v>>24), v&0xFFFFFF
		impurity[i] = pure.get(p[0], p[1], p[2], impure)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	out := image.NewNRGBA(src.Rect)
	copy(out.Pix, src.Pix)
	edges := nearEdge(label, W, H)
	for y := range H {
		if y%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		for x := range W {
			i := y*W + x
			if cover[i] == 0 {
				continue
			}
			if cover[i] < 255 {
				if q, ok := unmixBackdrop(src.Pix, cover, moved, impurity, W, H, x, y); ok {
					copy(out.Pix[4*i:4*i+3], q[:])
					continue
				}
			}
			v := moved[i]
			if edges[i] {
				if e, ok := unmixEdge(fg, label, moved, impurity, W, H, x, y); ok {
					v = e
				}
			}
			a := float64(cover[i]) / 255
			q, f := out.Pix[4*i:4*i+3:4*i+3], fg[4*i:4*i+3:4*i+3]
			for ch := range 3 {
				nv := float64(v >> (16 - 8*ch) & 0xFF)
				q[ch] = clamp8(float64(q[ch]) + a*(nv-float64(f[ch])))
			}
		}
	}
	return &Recoloured{Image: out, Mapping: m.mapping(), Area: area}, nil
}

// oneObject reports whether a cut-out holds one object: its largest
// connected region (alpha at least half) has objectShare of its pixels and
// reaches at most one side of the image (a product cropped at the foot);
// a band or motif running off several sides is part of a design.
func oneObject(cut *image.NRGBA) bool {
	W, H := cut.Rect.Dx(), cut.Rect.Dy()
	in := make([]bool, W*H)
	total := 0
	for i := range in {
		if in[i] = cut.Pix[4*i+3] >= 128; in[i] {
			total++
		}
	}
	largest, largestSides := 0, 0
	seen := make([]bool, W*H)
	var queue []int
	for start := range in {
		if !in[start] || seen[start] {
			continue
		}
		size, sides := 0, [4]bool{}
		seen[start] = true
		queue = append(queue[:0], start)
		for len(queue) > 0 {
			i := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			size++
			x, y := i%W, i/W
			sides[0], sides[1] = sides[0] || x == 0, sides[1] || x == W-1
			sides[2], sides[3] = sides[2] || y == 0, sides[3] || y == H-1
			visit := func(ok bool, j int) {
				if ok && in[j] && !seen[j] {
					seen[j] = true
					queue = append(queue, j)
				}
			}
			visit(x > 0, i-1)
			visit(x < W-1, i+1)
			visit(y > 0, i-W)
			visit(y < H-1, i+W)
		}
		if size > largest {
			largest, largestSides = size, 0
			for _, s := range sides {
				if s {
					largestSides++
				}
			}
		}
	}
	return total > 0 && float64(largest) >= objectShare*float64(total) && largestSides <= 1
}

// innerColours are the colours of the area's fully covered pixels, each
// once with its count, from a grid of at most about 65536 pixels; an area
// with none fully covered gives its partly covered ones.
func innerColours(fg, cover []uint8, W, H int) []colour.Weighted {
	step := max(1, int(math.Ceil(math.Sqrt(float64(W*H)/65536))))
	for _, least := range []uint8{255, 1} {
		at := map[uint32]int{}
		var out []colour.Weighted
		for y := 0; y < H; y += step {
			for x := 0; x < W; x += step {
				i := y*W + x
				if cover[i] < least {
					continue
				}
				p := fg[4*i : 4*i+3 : 4*i+3]
				key := uint32(p[0])<<16 | uint32(p[1])<<8 | uint32(p[2])
				if j, ok := at[key]; ok {
					out[j].W++
					continue
				}
				at[key] = len(out)
				out = append(out, colour.Weighted{C: colour.LabOf8(p[0], p[1], p[2]), W: 1})
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// pairColours is each cluster's target colour, as o pairs them.
func pairColours(cl []colour.Swatch, o RecolourOptions) []colour.Lab {
	t := make([]colour.Lab, len(cl))
	switch {
	case len(o.Pairs) > 0:
		for j, c := range cl {
			t[j] = c.C
			best := float64(pairDE)
			for _, p := range o.Pairs {
				if d := colour.DeltaE(c.C, colour.LabOf(p.From)); d < best {
					best, t[j] = d, colour.LabOf(p.To)
				}
			}
		}
	default:
		pal := make([]colour.Lab, len(o.Palette))
		for i, c := range o.Palette {
			pal[i] = colour.LabOf(c)
		}
		byL := func(ls []colour.Lab) []int {
			idx := make([]int, len(ls))
			for i := range idx {
				idx[i] = i
			}
			slices.SortStableFunc(idx, func(a, b int) int { return cmpFloat(ls[a].L, ls[b].L) })
			return idx
		}
		means := make([]colour.Lab, len(cl))
		for j, c := range cl {
			means[j] = c.C
		}
		order, palOrder := byL(means), byL(pal)
		pick := bestSubset(means, pal, order, palOrder)
		for r, j := range order {
			t[j] = pal[pick[(r+o.Rotate)%len(pick)]]
		}
	}
	return t
}

// bestSubset chooses, for the image's colours in lightness order, as many
// palette colours (also taken in lightness order) as there are image
// colours, with the least total L* difference: a palette of more colours
// than the image has gives those that keep its lights and darks.
func bestSubset(means, pal []colour.Lab, order, palOrder []int) []int {
	k := len(order)
	best, bestCost := []int(nil), math.Inf(1)
	cur := make([]int, 0, k)
	var walk func(from int, cost float64)
	walk = func(from int, cost float64) {
		if cost >= bestCost {
			return
		}
		if len(cur) == k {
			best, bestCost = slices.Clone(cur), cost
			return
		}
		for p := from; p <= len(palOrder)-(k-len(cur)); p++ {
			d := math.Abs(means[order[len(cur)]].L - pal[palOrder[p]].L)
			cur = append(cur, palOrder[p])
			walk(p+1, cost+d)
			cur = cur[:len(cur)-1]
		}
	}
	walk(0, 0)
	return best
}

// solidInside undoes the cut-out's partial cover of a pixel with no
// backdrop pixel within mixRadius: no anti-aliased edge is that wide, so
// it is the product's own pixel, with its own colour.
func solidInside(src, fg, cover []uint8, W, H int) {
	var inside []int
	for i, c := range cover {
		if c == 0 || c == 255 {
			continue
		}
		x, y := i%W, i/W
		near := false
		for yy := max(0, y-mixRadius); yy <= min(H-1, y+mixRadius) && !near; yy++ {
			for xx := max(0, x-mixRadius); xx <= min(W-1, x+mixRadius); xx++ {
				if cover[yy*W+xx] == 0 {
					near = true
					break
				}
			}
		}
		if !near {
			inside = append(inside, i)
		}
	}
	for _, i := range inside {
		cover[i] = 255
		copy(fg[4*i:4*i+3], src[4*i:4*i+3])
	}
}

// nearEdge marks the pixels within mixRadius of a change of colour label:
// the only ones unmixEdge can change.
func nearEdge(label []uint8, W, H int) []bool {
	mark := make([]bool, W*H)
	for y := range H {
		for x := range W {
			i := y*W + x
			if x+1 < W && label[i] != label[i+1] {
				mark[i], mark[i+1] = true, true
			}
			if y+1 < H && label[i] != label[i+W] {
				mark[i], mark[i+W] = true, true
			}
		}
	}
	// Widen by mixRadius: across the rows, then down the columns.
	wide := make([]bool, W*H)
	for y := range H {
		last := -W
		for x := range W {
			if mark[y*W+x] {
				last = x
			}
			wide[y*W+x] = x-last <= mixRadius
		}
		last = 2 * W
		for x := W - 1; x >= 0; x-- {
			if mark[y*W+x] {
				last = x
			}
			wide[y*W+x] = wide[y*W+x] || last-x <= mixRadius
		}
	}
	out := make([]bool, W*H)
	for x := range W {
		last := -H
		for y := range H {
			if wide[y*W+x] {
				last = y
			}
			out[y*W+x] = y-last <= mixRadius
		}
		last = 2 * H
		for y := H - 1; y >= 0; y-- {
			if wide[y*W+x] {
				last = y
			}
			out[y*W+x] = out[y*W+x] || last-y <= mixRadius
		}
	}
	return out
}
