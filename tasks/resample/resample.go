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
	src := pixels(img)
	if srcW != width {
		src = horizontal(src, width, filter)
	}
	if srcH != height {
		src = vertical(src, height, filter)
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
			tmp = imaging.CropAnchor(img, srcW, int(math.Max(1, float64(srcW)*float64(height)/float64(width))+0.5), anchor)
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
	return imaging.CropAnchor(tmp, width, height, anchor)
}

// pixels is img as non-premultiplied RGBA at the origin: img itself when
// it is one, or an opaque RGBA image (the same bytes), else imaging's copy.
func pixels(img image.Image) *image.NRGBA {
	switch m := img.(type) {
	case *image.NRGBA:
		if m.Rect.Min == (image.Point{}) {
			return m
		}
	case *image.RGBA:
		if m.Rect.Min == (image.Point{}) && m.Opaque() {
			return &image.NRGBA{Pix: m.Pix, Stride: m.Stride, Rect: m.Rect}
		}
	}
	return imaging.Clone(img)
}

// tap is one source pixel (row or column) and its weight.
type tap struct {
	index  int
	weight float64
}

// weights are imaging's: for every output position, the source positions
// under the filter and their normalised weights.
func weights(dstSize, srcSize int, filter imaging.ResampleFilter) [][]tap {
	du := float64(srcSize) / float64(dstSize)
	scale := max(du, 1)
	ru := math.Ceil(scale * filter.Support)
	out := make([][]tap, dstSize)
	tmp := make([]tap, 0, dstSize*int(ru+2)*2)
	for v := range dstSize {
		fu := (float64(v)+0.5)*du - 0.5
		begin, end := max(int(math.Ceil(fu-ru)), 0), min(int(math.Floor(fu+ru)), srcSize-1)
		var sum float64
		for u := begin; u <= end; u++ {
			if w := filter.Kernel((float64(u) - fu) / scale); w != 0 {
				sum += w
				tmp = append(tmp, tap{u, w})
			}
		}
		if sum != 0 {
			for i := range tmp {
				tmp[i].weight /= sum
			}
		}
		out[v] = tmp
		tmp = tmp[len(tmp):]
	}
	return out
}

// horizontal scales src's rows to width.
func horizontal(src *image.NRGBA, width int, filter imaging.ResampleFilter) *image.NRGBA {
	H := src.Rect.Dy()
	dst := image.NewNRGBA(image.Rect(0, 0, width, H))
	ws := weights(width, src.Rect.Dx(), filter)
	rows(H, func(y int) {
		line := src.Pix[y*src.Stride:][:4*src.Rect.Dx()]
		out := dst.Pix[y*dst.Stride:][:4*width]
		runs := runsAcross(line, make([]uint16, src.Rect.Dx()))
		for x, taps := range ws {
			if len(taps) > 0 {
				if first := taps[0].index; int(runs[first]) > taps[len(taps)-1].index-first && line[4*first+3] != 0 {
					binary.LittleEndian.PutUint32(out[4*x:], pixel(line, first))
					continue
				}
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
			put(out[4*x:4*x+4:4*x+4], r, g, b, a)
		}
	})
	return dst
}

// vertical scales src's columns to height, an output row at a time: each
// reads the few source rows under the filter from left to right.
func vertical(src *image.NRGBA, height int, filter imaging.ResampleFilter) *image.NRGBA {
	W := src.Rect.Dx()
	dst := image.NewNRGBA(image.Rect(0, 0, W, height))
	ws := weights(height, src.Rect.Dy(), filter)
	down := runsDown(src)
	rows(height, func(y int) {
		taps := ws[y]
		out := dst.Pix[y*dst.Stride:][:4*W]
		if len(taps) == 0 {
			return
		}
		lines := make([][]uint8, len(taps))
		for i, t := range taps {
			lines[i] = src.Pix[t.index*src.Stride:][:4*W]
		}
		top, runs, span := lines[0], down[taps[0].index*W:][:W], uint16(min(taps[len(taps)-1].index-taps[0].index, 0xFFFF))
		for x := 0; x < W; x++ {
			if runs[x] > span && top[4*x+3] != 0 {
				e := x + 1
				for e < W && runs[e] > span && top[4*e+3] != 0 {
					e++
				}
				copy(out[4*x:4*e], top[4*x:4*e])
				x = e - 1
				continue
			}
			o := 4 * x
			var r, g, b, a float64
			for i, t := range taps {
				s := lines[i][o : o+4 : o+4]
				aw := float64(s[3]) * t.weight
				r += float64(s[0]) * aw
				g += float64(s[1]) * aw
				b += float64(s[2]) * aw
				a += aw
			}
			put(out[o:o+4:o+4], r, g, b, a)
		}
	})
	return dst
}

// A pixel whose taps all read one colour is that colour: the weights add
// up to 1, so imaging's sums give it back, the rounding far under the half
// a level that would change a byte. Flat artwork scaled up is mostly such
// pixels, and runs of equal pixels find them with one comparison each
// (imaging leaves a fully transparent one zero, so it is not taken).

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

func clamp(x float64) uint8 {
	v := int64(x + 0.5)
	if v > 255 {
		return 255
	}
	if v > 0 {
		return uint8(v)
	}
	return 0
}

// rows runs fn for every row below n, in bands across the processors.
func rows(n int, fn func(y int)) {
	procs := min(runtime.GOMAXPROCS(0), n/16+1)
	if procs <= 1 {
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
