// Package resample is imaging.Resize and imaging.Fill with imaging's
// weights and bytes, made for large outputs: both passes walk the output
// row by row, where imaging's vertical pass walks it column by column and
// misses the cache on every pixel of a print-sized image.
package resample

import (
	"encoding/binary"
	"image"
	"math"
	"runtime"
	"sync"

	"github.com/disintegration/imaging"
)

// Resize is imaging.Resize(img, width, height, filter): a width or height
// of 0 keeps the aspect ratio.
func Resize(img image.Image, width, height int, filter imaging.ResampleFilter) *image.NRGBA {
	srcW, srcH := img.Bounds().Dx(), img.Bounds().Dy()
	if filter.Support <= 0 || width < 0 || height < 0 || width == 0 && height == 0 || srcW <= 0 || srcH <= 0 {
		return imaging.Resize(img, width, height, filter)
	}
	if width == 0 {
		width = int(math.Max(1, math.Floor(float64(height)*float64(srcW)/float64(srcH)+0.5)))
	}
	if height == 0 {
		height = int(math.Max(1, math.Floor(float64(width)*float64(srcH)/float64(srcW)+0.5)))
	}
	if srcW == width && srcH == height {
		return imaging.Clone(img)
	}
	src, opaque := pixels(img)
	if srcW != width {
		src, opaque = horizontal(src, width, filter, opaque)
	}
	if srcH != height {
		scaled := vertical(src, height, filter, opaque)
		if srcW != width {
			Release(src) // the horizontal pass's, read no more
		}
		src = scaled
	}
	return src
}

// Fill is imaging.Fill(img, width, height, anchor, filter): the image
// scaled to cover width × height and the overflow cut at anchor.
func Fill(img image.Image, width, height int, anchor imaging.Anchor, filter imaging.ResampleFilter) *image.NRGBA {
	srcW, srcH := img.Bounds().Dx(), img.Bounds().Dy()
	if width <= 0 || height <= 0 || srcW <= 0 || srcH <= 0 || srcW == width && srcH == height {
		return imaging.Fill(img, width, height, anchor, filter)
	}
	srcRatio, dstRatio := float64(srcW)/float64(srcH), float64(width)/float64(height)
	if srcW >= 100 && srcH >= 100 { // imaging crops first, then scales
		var tmp *image.NRGBA
		if srcRatio < dstRatio {
			tmp = imaging.CropAnchor(
				img,
				srcW,
				int(math.Max(1, float64(srcW)*float64(height)/float64(width))+0.5),
				anchor,
			)
		} else {
			tmp = imaging.CropAnchor(img, int(math.Max(1, float64(srcH)*float64(width)/float64(height))+0.5), srcH, anchor)
		}
		return Resize(tmp, width, height, filter)
	}
	var tmp *image.NRGBA
	if srcRatio < dstRatio {
		tmp = Resize(img, width, 0, filter)
	} else {
		tmp = Resize(img, 0, height, filter)
	}
	defer Release(tmp) // cropped below into a copy
	return imaging.CropAnchor(tmp, width, height, anchor)
}

// pixels is img as non-premultiplied RGBA at the origin, and whether it
// is opaque: img itself when it is one, or an opaque RGBA image (the same
// bytes), else imaging's copy.
func pixels(img image.Image) (*image.NRGBA, bool) {
	switch m := img.(type) {
	case *image.NRGBA:
		if m.Rect.Min == (image.Point{}) {
			return m, m.Opaque()
		}
	case *image.RGBA:
		if m.Rect.Min == (image.Point{}) && m.Opaque() {
			return &image.NRGBA{Pix: m.Pix, Stride: m.Stride, Rect: m.Rect}, true
		}
	}
	c := imaging.Clone(img)
	return c, c.Opaque()
}

// tap is one source pixel (row or column) and its weight.
type tap struct {
	index  int
	weight float64
	// opaque is the weight times an opaque pixel's alpha, 255: what
	// imaging multiplies each channel by, the same for every such pixel.
	opaque float64
}

// kernel is, for every output position, the source positions under the
// filter and their normalised weights (imaging's), with what an opaque
// source's pixels share: the inverse of the alpha sum and its byte.
type kernel struct {
	taps  [][]tap
	inv   []float64
	alpha []uint8
}

func weights(dstSize, srcSize int, filter imaging.ResampleFilter) kernel {
	du := float64(srcSize) / float64(dstSize)
	scale := max(du, 1)
	ru := math.Ceil(scale * filter.Support)
	k := kernel{taps: make([][]tap, dstSize), inv: make([]float64, dstSize), alpha: make([]uint8, dstSize)}
	tmp := make([]tap, 0, dstSize*int(ru+2)*2)
	for v := range dstSize {
		fu := (float64(v)+0.5)*du - 0.5
		begin, end := max(int(math.Ceil(fu-ru)), 0), min(int(math.Floor(fu+ru)), srcSize-1)
		var sum float64
		for u := begin; u <= end; u++ {
			if w := filter.Kernel((float64(u) - fu) / scale); w != 0 {
				sum += w
				tmp = append(tmp, tap{index: u, weight: w})
			}
		}
		var a float64
		for i := range tmp {
			if sum != 0 {
				tmp[i].weight /= sum
			}
			tmp[i].opaque = 255 * tmp[i].weight
			a += tmp[i].opaque
		}
		if a != 0 {
			k.inv[v], k.alpha[v] = 1/a, clamp(a)
		}
		k.taps[v] = tmp
		tmp = tmp[len(tmp):]
	}
	return k
}

// opaque is whether every output position of an opaque source is opaque.
func (k kernel) opaque() bool {
	for _, a := range k.alpha {
		if a != 0xFF {
			return false
		}
	}
	return true
}

// horizontal scales src's rows to width; the result is opaque when src
// is and every position's weights add up to full alpha.
func horizontal(src *image.NRGBA, width int, filter imaging.ResampleFilter, opaque bool) (*image.NRGBA, bool) {
	W, H := src.Rect.Dx(), src.Rect.Dy()
	dst := newImage(width, H)
	k := weights(width, W, filter)
	up := width > W // see flat pixels below
	Rows(H, width, func(y int) {
		line, out := src.Pix[y*src.Stride:][:4*W], dst.Pix[y*dst.Stride:][:4*width]
		var runs []uint16
		if up {
			runs = runsAcross(line, make([]uint16, W))
		}
		for x, taps := range k.taps {
			d := out[4*x : 4*x+4 : 4*x+4]
			if len(taps) == 0 {
				continue
			}
			if first := taps[0].index; up && int(runs[first]) > taps[len(taps)-1].index-first {
				if line[4*first+3] != 0 {
					copy(d, line[4*first:])
				}
				continue
			}
			if opaque {
				var r, g, b float64
				for _, t := range taps {
					s := line[4*t.index : 4*t.index+4 : 4*t.index+4]
					r += float64(s[0]) * t.opaque
					g += float64(s[1]) * t.opaque
					b += float64(s[2]) * t.opaque
				}
				if k.alpha[x] != 0 {
					d[0], d[1], d[2], d[3] = clamp(r*k.inv[x]), clamp(g*k.inv[x]), clamp(b*k.inv[x]), k.alpha[x]
				}
				continue
			}
			var r, g, b, a float64
			for _, t := range taps {
				s := line[4*t.index : 4*t.index+4 : 4*t.index+4]
				aw := float64(s[3]) * t.weight
				r += float64(s[0]) * aw
				g += float64(s[1]) * aw
				b += float64(s[2]) * aw
				a += aw
			}
			put(d, r, g, b, a)
		}
	})
	return dst, opaque && k.opaque()
}

// vertical scales src's columns to height, an output row at a time: each
// reads the few source rows under the filter from left to right.
func vertical(src *image.NRGBA, height int, filter imaging.ResampleFilter, opaque bool) *image.NRGBA {
	W, H := src.Rect.Dx(), src.Rect.Dy()
	dst := newImage(W, height)
	k := weights(height, H, filter)
	var down []uint16
	if height > H { // see flat pixels below
		down = runsDown(src)
	}
	Rows(height, W, func(y int) {
		taps, out := k.taps[y], dst.Pix[y*dst.Stride:][:4*W]
		if len(taps) == 0 {
			return
		}
		lines := make([][]uint8, len(taps))
		for i, t := range taps {
			lines[i] = src.Pix[t.index*src.Stride:][:4*W]
		}
		top, span := lines[0], uint16(min(taps[len(taps)-1].index-taps[0].index, 0xFFFF))
		var runs []uint16
		if down != nil {
			runs = down[taps[0].index*W:][:W]
		}
		inv, alpha := k.inv[y], k.alpha[y]
		for x := 0; x < W; x++ {
			if runs != nil && runs[x] > span {
				bare := top[4*x+3] == 0
				e := x + 1
				for e < W && runs[e] > span && (top[4*e+3] == 0) == bare {
					e++
				}
				if !bare {
					copy(out[4*x:4*e], top[4*x:4*e])
				}
				x = e - 1
				continue
			}
			o := 4 * x
			d := out[o : o+4 : o+4]
			if opaque {
				var r, g, b float64
				for i, t := range taps {
					s := lines[i][o : o+4 : o+4]
					r += float64(s[0]) * t.opaque
					g += float64(s[1]) * t.opaque
					b += float64(s[2]) * t.opaque
				}
				if alpha != 0 {
					d[0], d[1], d[2], d[3] = clamp(r*inv), clamp(g*inv), clamp(b*inv), alpha
				}
				continue
			}
			var r, g, b, a float64
			for i, t := range taps {
				s := lines[i][o : o+4 : o+4]
				aw := float64(s[3]) * t.weight
				r += float64(s[0]) * aw
				g += float64(s[1]) * aw
				b += float64(s[2]) * aw
				a += aw
			}
			put(d, r, g, b, a)
		}
	})
	return dst
}

// A pixel whose taps all read one colour is that colour: the weights add
// up to 1, so imaging's sums give it back, the rounding far under the half
// a level that would change a byte. Flat artwork scaled up is mostly such
// pixels, and runs of equal pixels find them with one comparison each
// (imaging leaves a fully transparent one zero, and so do they). The
// runs are found when scaling up only: scaling down, every source pixel
// would be compared for few output pixels.

// runsAcross is, for every pixel of line, how many pixels from it on are
// the same colour (at most 65535).
func runsAcross(line []uint8, out []uint16) []uint16 {
	n := len(line) / 4
	out = out[:n]
	for x := n - 1; x >= 0; x-- {
		out[x] = 1
		if x+1 < n && out[x+1] < 0xFFFF && pixel(line, x) == pixel(line, x+1) {
			out[x] = out[x+1] + 1
		}
	}
	return out
}

// runsDown is, for every pixel of img, how many rows from it down are the
// same colour there (at most 65535).
func runsDown(img *image.NRGBA) []uint16 {
	W, H := img.Rect.Dx(), img.Rect.Dy()
	out := make([]uint16, W*H)
	for y := H - 1; y >= 0; y-- {
		row, runs := img.Pix[y*img.Stride:][:4*W], out[y*W:][:W]
		if y == H-1 {
			for x := range runs {
				runs[x] = 1
			}
			continue
		}
		below, next := img.Pix[(y+1)*img.Stride:][:4*W], out[(y+1)*W:][:W]
		for x := range runs {
			runs[x] = 1
			if next[x] < 0xFFFF && pixel(row, x) == pixel(below, x) {
				runs[x] = next[x] + 1
			}
		}
	}
	return out
}

// pixel is pixel x of line as one word.
func pixel(line []uint8, x int) uint32 { return binary.LittleEndian.Uint32(line[4*x:]) }

// put writes a weighted sum of non-premultiplied pixels, as imaging does.
func put(d []uint8, r, g, b, a float64) {
	if a == 0 {
		return
	}
	inv := 1 / a
	d[0], d[1], d[2], d[3] = clamp(r*inv), clamp(g*inv), clamp(b*inv), clamp(a)
}

// clamp is imaging's rounding of a channel to a byte, without branches.
func clamp(x float64) uint8 { return uint8(min(max(int64(x+0.5), 0), 255)) }

// Rows runs fn for every row below n, each width pixels of work wide: in
// bands across the processors when there are a megapixel or more, where
// the wait is worth waking them; in order on this one otherwise, as waking
// them costs more than a small image's rows. fn must touch only its own
// row's output.
func Rows(n, width int, fn func(y int)) {
	procs := min(runtime.GOMAXPROCS(0), n/16+1)
	if procs <= 1 || n*width < 1<<20 {
		for y := range n {
			fn(y)
		}
		return
	}
	var wg sync.WaitGroup
	for p := range procs {
		wg.Go(func() {
			for y := p * n / procs; y < (p+1)*n/procs; y++ {
				fn(y)
			}
		})
	}
	wg.Wait()
}
