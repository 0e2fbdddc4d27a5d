package video

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/gif"
	"slices"
)

// GIF frames hold at most 256 colours. Each frame gets its own palette by
// median cut over a 5-bit-per-channel histogram of its pixels (the colours
// are the means of the real pixels in each box, so flat colours stay
// exact), and is Floyd–Steinberg dithered onto it through a lookup table
// of the nearest palette colour per histogram cell.

const cells = 1 << 15 // 32 levels per channel

func cellOf(r, g, b int32) int { return int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3) }

// histogram is the pixel count and colour sums of each cell.
type histogram struct {
	n       [cells]uint32
	r, g, b [cells]uint64
	used    []int
}

func histogramOf(img *image.NRGBA) *histogram {
	h := &histogram{}
	W, H := img.Rect.Dx(), img.Rect.Dy()
	for y := range H {
		row := img.Pix[y*img.Stride:]
		for x := range W {
			r, g, b := row[x*4], row[x*4+1], row[x*4+2]
			c := cellOf(int32(r), int32(g), int32(b))
			h.n[c]++
			h.r[c] += uint64(r)
			h.g[c] += uint64(g)
			h.b[c] += uint64(b)
		}
	}
	for c := range cells {
		if h.n[c] > 0 {
			h.used = append(h.used, c)
		}
	}
	return h
}

// box is a set of histogram cells.
type box struct {
	cells []int
	count uint64
}

func (h *histogram) channel(c, ch int) uint64 {
	switch ch {
	case 0:
		return h.r[c] / uint64(h.n[c])
	case 1:
		return h.g[c] / uint64(h.n[c])
	}
	return h.b[c] / uint64(h.n[c])
}

// span is the widest channel of a box and its range.
func (h *histogram) span(b box) (int, uint64) {
	best, width := 0, uint64(0)
	for ch := range 3 {
		lo, hi := uint64(255), uint64(0)
		for _, c := range b.cells {
			v := h.channel(c, ch)
			lo, hi = min(lo, v), max(hi, v)
		}
		if hi >= lo && hi-lo > width {
			best, width = ch, hi-lo
		}
	}
	return best, width
}

// medianCut splits the used cells into at most n boxes, each time cutting
// the box of the largest count × range at its weighted median along its
// widest channel; the palette is the mean colour of each box.
func (h *histogram) medianCut(n int) color.Palette {
	var total uint64
	for _, c := range h.used {
		total += uint64(h.n[c])
	}
	boxes := []box{{cells: h.used, count: total}}
	for len(boxes) < n {
		pick, score := -1, uint64(0)
		for i, b := range boxes {
			if len(b.cells) < 2 {
				continue
			}
			_, w := h.span(b)
			if s := b.count * (w + 1); s > score {
				pick, score = i, s
			}
		}
		if pick < 0 {
			break
		}
		b := boxes[pick]
		ch, _ := h.span(b)
		cs := slices.Clone(b.cells)
		slices.SortStableFunc(cs, func(x, y int) int { return int(h.channel(x, ch)) - int(h.channel(y, ch)) })
		var acc uint64
		cut := 1
		for i, c := range cs {
			acc += uint64(h.n[c])
			if acc*2 >= b.count {
				cut = min(max(i+1, 1), len(cs)-1)
				break
			}
		}
		var left uint64
		for _, c := range cs[:cut] {
			left += uint64(h.n[c])
		}
		boxes[pick] = box{cells: cs[:cut], count: left}
		boxes = append(boxes, box{cells: cs[cut:], count: b.count - left})
	}
	pal := make(color.Palette, 0, len(boxes))
	for _, b := range boxes {
		var r, g, bl, cnt uint64
		top := b.cells[0]
		for _, c := range b.cells {
			r, g, bl, cnt = r+h.r[c], g+h.g[c], bl+h.b[c], cnt+uint64(h.n[c])
			if h.n[c] > h.n[top] {
				top = c
			}
		}
		if 2*uint64(h.n[top]) > cnt {
			// One colour holds most of the box (a flat area): use it, so
			// the area maps exactly and is not dithered.
			r, g, bl, cnt = h.r[top], h.g[top], h.b[top], uint64(h.n[top])
		}
		pal = append(
			pal,
			color.RGBA{uint8((r + cnt/2) / cnt), uint8((g + cnt/2) / cnt), uint8((bl + cnt/2) / cnt), 255},
		)
	}
	return pal
}

// table maps histogram cells to their nearest palette index, found the
// first time a cell is asked for (dithering touches few of the 32768):
// for a cell holding pixels, nearest to their mean; for an empty cell, to
// its centre.
type table struct {
	h   *histogram
	rgb [][3]int32
	idx []int16 // -1: not looked up yet
}

func (h *histogram) lookup(pal color.Palette) *table {
	t := &table{h: h, rgb: make([][3]int32, len(pal)), idx: make([]int16, cells)}
	for i, c := range pal {
		r, g, b, _ := c.RGBA()
		t.rgb[i] = [3]int32{int32(r >> 8), int32(g >> 8), int32(b >> 8)}
	}
	for i := range t.idx {
		t.idx[i] = -1
	}
	return t
}

// at is the palette index of cell c.
func (t *table) at(c int) uint8 {
	if i := t.idx[c]; i >= 0 {
		return uint8(i)
	}
	h := t.h
	var r, g, b int32
	if h.n[c] > 0 {
		r, g, b = int32(h.channel(c, 0)), int32(h.channel(c, 1)), int32(h.channel(c, 2))
	} else {
		r, g, b = int32(c>>10&31)<<3|4, int32(c>>5&31)<<3|4, int32(c&31)<<3|4
	}
	best, bd := 0, int32(1<<30)
	for i, p := range t.rgb {
		dr, dg, db := r-p[0], g-p[1], b-p[2]
		if d := 2*dr*dr + 4*dg*dg + 3*db*db; d < bd {
			best, bd = i, d
		}
	}
	t.idx[c] = int16(best)
	return uint8(best)
}

// deadZone is the largest error (per channel) not diffused: flat areas
// close to a palette colour stay flat, which keeps GIFs small.
const deadZone = 2

// dither draws img onto pal with Floyd–Steinberg error diffusion.
func dither(img *image.NRGBA, pal color.Palette, lut *table) *image.Paletted {
	W, H := img.Rect.Dx(), img.Rect.Dy()
	out := image.NewPaletted(image.Rect(0, 0, W, H), pal)
	rgb := make([][3]int32, len(pal))
	for i, c := range pal {
		r, g, b, _ := c.RGBA()
		rgb[i] = [3]int32{int32(r >> 8), int32(g >> 8), int32(b >> 8)}
	}
	// Errors in 1/16 units for this row and the next, with a pixel of
	// margin each side.
	cur, next := make([][3]int32, W+2), make([][3]int32, W+2)
	for y := range H {
		row := img.Pix[y*img.Stride:]
		for x := range W {
			var v [3]int32
			for ch := range 3 {
				v[ch] = min(255, max(0, int32(row[x*4+ch])+(cur[x+1][ch]+8)>>4))
			}
			idx := lut.at(cellOf(v[0], v[1], v[2]))
			out.Pix[y*out.Stride+x] = idx
			for ch := range 3 {
				e := v[ch] - rgb[idx][ch]
				if e >= -deadZone && e <= deadZone {
					continue // too small to see: spreading it only adds noise
				}
				cur[x+2][ch] += e * 7
				next[x][ch] += e * 3
				next[x+1][ch] += e * 5
				next[x+2][ch] += e
			}
		}
		cur, next = next, cur
		clear(next)
	}
	return out
}

// quantize makes one GIF frame of img: its own palette, dithered.
func quantize(img *image.NRGBA) *image.Paletted {
	h := histogramOf(img)
	pal := h.medianCut(256)
	return dither(img, pal, h.lookup(pal))
}

// encodeGIF writes frames with their delays (hundredths of a second),
// looping forever.
func encodeGIF(ctx context.Context, frames []*image.Paletted, delays []int) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	disposal := make([]byte, len(frames))
	for i := range disposal {
		disposal[i] = gif.DisposalNone
	}
	err := gif.EncodeAll(&buf, &gif.GIF{Image: frames, Delay: delays, Disposal: disposal, LoopCount: 0})
	return buf.Bytes(), err
}
