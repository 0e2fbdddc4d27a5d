package colourwork

import (
	"context"
	"errors"
	"image"
	"math"
	"slices"

	"github.com/disintegration/imaging"

	imagetasks "github.com/taskplatform/taskplatform/tasks/image"
)

// noInk marks a pixel of an inkMap that prints no ink (under half opacity).
const noInk = imagetasks.Transparent

// touching are the offsets of the 8 pixels touching a pixel at a side or
// a corner: a 1-px diagonal line is one patch, as it prints.
var touching = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

// minSpeck is the smallest patch of one ink a film keeps, in pixels
// (8-connected: touching at a side or a corner): a screen does not hold a
// smaller one, and on a flat
// design it is noise or a stray edge.
const minSpeck = 6

// The assignment's thresholds, in sRGB units (0–255 a channel, Euclidean):
// a pixel is flat (confident) when it and its 8 neighbours are nearest the
// same ink and it lies within flatDist of it; an ink seen only on unsure
// pixels nearby is trusted less by ownPenalty, one of flat pixels up to
// farRadius away by farPenalty; and a pixel whose best local
// explanation is farther than globalSlack beyond the nearest ink of all
// takes that ink (a colour the neighbourhood does not explain).
const (
	flatDist    = 48.0
	farPenalty  = 8.0
	ownPenalty  = 20.0
	globalSlack = 12.0
	nearRadius  = 3
	farRadius   = 8
	modeRadius  = 40
)

// inkMap is a design given to its inks: every opaque pixel prints exactly
// one ink (label). A pixel on an anti-aliased edge is also a blend of two
// inks: other is the second ink and share the label's part of the blend,
// 0–255 (255 for a pixel of one ink), which halftoned films print.
type inkMap struct {
	w, h         int
	label, other []uint8
	share        []uint8
	rgb          [][3]float64 // each ink's colour, the mean of its flat pixels
	flat         []int        // each ink's flat pixels: it and its 8 neighbours nearest the ink
	nearShare    []float64    // each ink's share of the opaque pixels nearest it
}

// separateInks finds the design's inks (candidateInks: k-means in CIELAB
// at full resolution, close colours merged) and gives every pixel to the
// ink it was drawn with. A flat pixel takes its nearest ink. A pixel on an
// edge is explained by the inks around it — one of them, or a blend of two
// — so an anti-aliased edge between two inks goes to the nearer of those
// two, never to a third ink whose colour happens to match the blend; a
// candidate left with almost no pixels (a cluster of edge blends) is
// dropped. Patches under minSpeck pixels join the ink around them. When
// more than k inks are left, the closest pair a printer would print as one
// ink (mixable) is merged until k are left; a design whose inks are all
// distinct answers a *tooManyInks.
func separateInks(ctx context.Context, img image.Image, k int) (*inkMap, error) {
	px := readable(img)
	W, H := px.Rect.Dx(), px.Rect.Dy()
	rgb, err := candidateInks(ctx, px)
	if err != nil {
		return nil, err
	}
	if len(rgb) == 0 {
		return nil, errors.New("the image is fully transparent")
	}
	m := &inkMap{w: W, h: H, label: make([]uint8, W*H), other: make([]uint8, W*H), share: make([]uint8, W*H), rgb: rgb}
	// The candidates are pruned on their nearest and flat pixels alone, then
	// every pixel is labelled; a candidate labelling left with almost no
	// pixels is dropped and the labelling made again.
	full := false
	for {
		if err := m.assign(ctx, px, full); err != nil {
			return nil, err
		}
		cov := m.nearShare
		if full {
			m.despeckle()
			cov = m.coverage()
		}
		kept := m.rgb[:0:0]
		for j, c := range m.rgb {
			if cov[j] >= candidateShare && !m.edgeBlend(j) && !m.variant(j, cov) && !m.chromaBleed(j) {
				kept = append(kept, c)
			}
		}
		if len(kept) == len(m.rgb) || len(kept) == 0 {
			if len(m.rgb) <= k {
				if full {
					break
				}
				full = true
				continue
			}
			drop, ok := m.overLimit(cov)
			if !ok {
				return nil, &tooManyInks{inks: m.rgb, share: cov, limit: k}
			}
			kept = slices.Delete(slices.Clone(m.rgb), drop, drop+1)
		}
		m.rgb = kept
	}
	return m, nil
}

// assign sets each ink's colour to where its flat pixels are densest,
// counts each ink's flat and nearest pixels and, when label, gives every
// pixel of px to one of m.rgb (see separateInks).
func (m *inkMap) assign(ctx context.Context, px *image.NRGBA, label bool) error {
	W, H, n := m.w, m.h, len(m.rgb)
	at := func(p int) [3]float64 {
		o := 4 * p
		return [3]float64{float64(px.Pix[o]), float64(px.Pix[o+1]), float64(px.Pix[o+2])}
	}
	near := make([]uint8, W*H) // the nearest ink, or noInk
	flat := make([]uint8, W*H) // the ink of a flat pixel, or noInk
	classify := func() {
		cache := make([]uint8, 1<<24) // the nearest ink of each sRGB colour seen, plus one
		for p := range near {
			o := 4 * p
			if px.Pix[o+3] < 128 {
				near[p] = noInk
				continue
			}
			key := uint32(px.Pix[o])<<16 | uint32(px.Pix[o+1])<<8 | uint32(px.Pix[o+2])
			j := cache[key] - 1
			if cache[key] == 0 {
				c, bd := at(p), math.Inf(1)
				for i, r := range m.rgb {
					if d := dist(c, r); d < bd {
						j, bd = uint8(i), d
					}
				}
				cache[key] = j + 1
			}
			near[p] = j
		}
		for y := range H {
			for x := range W {
				p := y*W + x
				flat[p] = noInk
				if j := near[p]; j != noInk && dist(at(p), m.rgb[j]) <= flatDist && sameAround(near, W, H, x, y) {
					flat[p] = j
				}
			}
		}
	}
	classify()
	// Each ink's colour is where its flat pixels are densest (mean shift,
	// the window narrowed from modeRadius each time it settles): the colour
	// it was drawn in, not pulled toward its edges' blends or a gradient's
	// middle.
	// The flat pixels are counted once by ink and colour (runs of one
	// colour first): the rounds read the counts, not every pixel again.
	type inkColour struct {
		j uint8
		c [3]float64
		n float64
	}
	var seen []inkColour
	{
		at := make(map[uint64]int, 1024)
		last, run := uint64(1<<40), 0.0
		flush := func() {
			if run == 0 {
				return
			}
			i, ok := at[last]
			if !ok {
				i = len(seen)
				at[last] = i
				rgb := uint32(last)
				seen = append(seen, inkColour{j: uint8(last >> 32),
					c: [3]float64{float64(rgb >> 16), float64(rgb >> 8 & 0xFF), float64(rgb & 0xFF)}})
			}
			seen[i].n += run
		}
		for p, j := range flat {
			if j == noInk {
				continue
			}
			o := 4 * p
			key := uint64(j)<<32 | uint64(px.Pix[o])<<16 | uint64(px.Pix[o+1])<<8 | uint64(px.Pix[o+2])
			if key != last {
				flush()
				last, run = key, 0
			}
			run++
		}
		flush()
	}
	radius := float64(modeRadius)
	for range 32 {
		moved := 0.0
		sums, counts := make([][3]float64, n), make([]float64, n)
		for _, s := range seen {
			if dist(s.c, m.rgb[s.j]) <= radius {
				for i := range 3 {
					sums[s.j][i] += s.n * s.c[i]
				}
				counts[s.j] += s.n
			}
		}
		for j := range n {
			if counts[j] > 0 {
				c := [3]float64{sums[j][0] / counts[j], sums[j][1] / counts[j], sums[j][2] / counts[j]}
				moved = max(moved, dist(c, m.rgb[j]))
				m.rgb[j] = c
			}
		}
		if moved < 0.5 {
			if radius <= modeRadius/8 {
				break
			}
			radius /= 2
		}
	}
	classify() // with the inks' settled colours
	m.flat = make([]int, n)
	for _, j := range flat {
		if j != noInk {
			m.flat[j]++
		}
	}
	m.nearShare = make([]float64, n)
	opaque := 0.0
	for _, j := range near {
		if j != noInk {
			m.nearShare[j]++
			opaque++
		}
	}
	for j := range m.nearShare {
		m.nearShare[j] /= max(opaque, 1)
	}
	if !label {
		return nil
	}
	far := orAround(flat, W, H, farRadius)
	for y := range H {
		if y%128 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		for x := range W {
			p := y*W + x
			switch {
			case near[p] == noInk:
				m.label[p], m.other[p] = noInk, noInk
			case flat[p] != noInk:
				m.label[p] = flat[p]
				m.other[p], m.share[p] = m.tint(at(p), flat[p])
			default:
				m.label[p], m.other[p], m.share[p] = m.explain(at(p), near, flat, far[p], x, y)
			}
		}
	}
	return nil
}

// readable is img's pixels as non-premultiplied RGBA at the origin, read
// in place (assign never writes them) when img is NRGBA, or opaque RGBA
// whose bytes are the same, rows packed; else a copy.
func readable(img image.Image) *image.NRGBA {
	switch m := img.(type) {
	case *image.NRGBA:
		if m.Rect.Min == (image.Point{}) && m.Stride == 4*m.Rect.Dx() {
			return m
		}
	case *image.RGBA:
		if m.Rect.Min == (image.Point{}) && m.Stride == 4*m.Rect.Dx() && m.Opaque() {
			return &image.NRGBA{Pix: m.Pix, Stride: m.Stride, Rect: m.Rect}
		}
	}
	return imaging.Clone(img)
}

// sameAround says whether the pixel at (x, y) and its 8 neighbours inside
// the image are nearest the same ink.
func sameAround(near []uint8, W, H, x, y int) bool {
	j := near[y*W+x]
	for v := max(0, y-1); v <= min(H-1, y+1); v++ {
		for u := max(0, x-1); u <= min(W-1, x+1); u++ {
			if near[v*W+u] != j {
				return false
			}
		}
	}
	return true
}

// explain gives an unsure pixel of colour c at (x, y) to an ink: the best
// of the inks of flat pixels within nearRadius, farRadius (far, at
// farPenalty) and (at ownPenalty) the nearest inks of it and its
// neighbours, alone or as a blend of two; or, when none of them comes
// within globalSlack of the nearest ink of all, that ink.
func (m *inkMap) explain(c [3]float64, near, flat []uint8, far uint16, x, y int) (label, other, share uint8) {
	W, H := m.w, m.h
	var trusted, seen uint16
	for v := max(0, y-nearRadius); v <= min(H-1, y+nearRadius); v++ {
		for u := max(0, x-nearRadius); u <= min(W-1, x+nearRadius); u++ {
			if j := flat[v*W+u]; j != noInk {
				trusted |= 1 << j
			}
		}
	}
	for v := max(0, y-1); v <= min(H-1, y+1); v++ {
		for u := max(0, x-1); u <= min(W-1, x+1); u++ {
			if j := near[v*W+u]; j != noInk {
				seen |= 1 << j
			}
		}
	}
	g := near[y*W+x]
	gd := dist(c, m.rgb[g])
	cands := trusted | far | seen
	best := math.Inf(1)
	label, other, share = g, g, 255
	penalty := func(j int) float64 {
		switch {
		case trusted&(1<<j) != 0:
			return 0
		case far&(1<<j) != 0:
			return farPenalty
		}
		return ownPenalty
	}
	for a := range len(m.rgb) {
		if cands&(1<<a) == 0 {
			continue
		}
		if r := dist(c, m.rgb[a]) + penalty(a); r < best {
			best, label, other, share = r, uint8(a), uint8(a), 255
		}
		for b := a + 1; b < len(m.rgb); b++ {
			if cands&(1<<b) == 0 {
				continue
			}
			t, r := blend(c, m.rgb[a], m.rgb[b])
			r += max(penalty(a), penalty(b))
			if r >= best {
				continue
			}
			best = r
			if t < 0.5 {
				label, other, share = uint8(a), uint8(b), uint8(math.Round(255*(1-t)))
			} else {
				label, other, share = uint8(b), uint8(a), uint8(math.Round(255*t))
			}
		}
	}
	if best > gd+globalSlack {
		label, other = g, g
	}
	if other == label {
		other, share = m.tint(c, label)
	}
	return label, other, share
}

// tint is the blend a flat pixel of colour c and ink j is part of, for
// halftones (a soft ink's tint or gradient): the ink that with j explains c
// better than j alone, and j's share of the blend; or j and 255.
func (m *inkMap) tint(c [3]float64, j uint8) (other, share uint8) {
	best, other, share := dist(c, m.rgb[j])-1, j, uint8(255)
	for o := range m.rgb {
		if o == int(j) {
			continue
		}
		if t, r := blend(c, m.rgb[j], m.rgb[o]); r < best && t < 0.5 {
			best, other, share = r, uint8(o), uint8(math.Round(255*(1-t)))
		}
	}
	return other, share
}

// orAround is, for every pixel, the inks of the flat pixels (as bits) in
// the square of radius r around it: a running pass on each axis.
func orAround(flat []uint8, W, H, r int) []uint16 {
	bit := func(j uint8) uint16 {
		if j == noInk {
			return 0
		}
		return 1 << j
	}
	tmp := make([]uint16, len(flat))
	for y := range H {
		row := flat[y*W : (y+1)*W]
		for x := range W {
			var v uint16
			for u := max(0, x-r); u <= min(W-1, x+r); u++ {
				v |= bit(row[u])
			}
			tmp[y*W+x] = v
		}
	}
	out := make([]uint16, len(flat))
	for y := range H {
		for x := range W {
			var v uint16
			for w := max(0, y-r); w <= min(H-1, y+r); w++ {
				v |= tmp[w*W+x]
			}
			out[y*W+x] = v
		}
	}
	return out
}

// blend projects c on the segment from a to b: t, the part of b in the
// blend (0–1), and the distance from c to the blend.
func blend(c, a, b [3]float64) (t, r float64) {
	var ab, ac [3]float64
	den := 0.0
	for i := range 3 {
		ab[i], ac[i] = b[i]-a[i], c[i]-a[i]
		den += ab[i] * ab[i]
	}
	if den > 0 {
		t = (ac[0]*ab[0] + ac[1]*ab[1] + ac[2]*ab[2]) / den
	}
	t = min(1, max(0, t))
	return t, dist(c, [3]float64{a[0] + t*ab[0], a[1] + t*ab[1], a[2] + t*ab[2]})
}

func dist(a, b [3]float64) float64 {
	d0, d1, d2 := a[0]-b[0], a[1]-b[1], a[2]-b[2]
	return math.Sqrt(d0*d0 + d1*d1 + d2*d2)
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
