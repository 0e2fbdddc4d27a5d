package video

import (
	"bytes"
	"compress/lzw"
	"context"
	"image"
	"image/color"
	"image/gif"
)

// A scrolling loop's frames share one palette, so the GIF carries it once
// (a global colour table) and each frame after the first stores only what
// changed on screen: the rectangle of changed pixels, the pixels inside it
// that already show the right colour left transparent. Runs of
// transparent pixels compress to almost nothing; a frame is stored whole
// where that is smaller.

// loopPalette is the palette of a loop of at most 255 colours, with a
// transparent entry added last for the frames' unchanged pixels.
func loopPalette(pal color.Palette) color.Palette {
	out := make(color.Palette, len(pal), len(pal)+1)
	copy(out, pal)
	return append(out, color.RGBA{})
}

// frameDiff writes frame over what the screen shows (shown, updated in
// place) and returns the frame to store: the bounding rectangle of the
// pixels that differ from the screen, every other pixel inside it clear
// (the transparent index).
func frameDiff(shown, frame *image.Paletted, clear uint8) *image.Paletted {
	W, H := frame.Rect.Dx(), frame.Rect.Dy()
	box := image.Rectangle{}
	for y := range H {
		s, f := shown.Pix[y*shown.Stride:][:W], frame.Pix[y*frame.Stride:][:W]
		lo, hi := -1, -1
		for x := range W {
			if s[x] != f[x] {
				if lo < 0 {
					lo = x
				}
				hi = x
			}
		}
		if lo >= 0 {
			box = box.Union(image.Rect(lo, y, hi+1, y+1))
		}
	}
	if box.Empty() {
		box = image.Rect(0, 0, 1, 1) // a frame must hold a pixel: one unchanged, transparent
	}
	out := image.NewPaletted(box, frame.Palette)
	for y := box.Min.Y; y < box.Max.Y; y++ {
		s, f := shown.Pix[y*shown.Stride:], frame.Pix[y*frame.Stride:]
		o := out.Pix[(y-box.Min.Y)*out.Stride:]
		for x := box.Min.X; x < box.Max.X; x++ {
			if s[x] == f[x] {
				o[x-box.Min.X] = clear
				continue
			}
			o[x-box.Min.X] = f[x]
			s[x] = f[x]
		}
	}
	return out
}

// lzwSize is the size of a frame's pixels once compressed, as the GIF
// encoder compresses them.
func lzwSize(p *image.Paletted) int {
	var n counter
	w := lzw.NewWriter(&n, lzw.LSB, 8)
	W := p.Rect.Dx()
	for y := range p.Rect.Dy() {
		if _, err := w.Write(p.Pix[y*p.Stride:][:W]); err != nil {
			return 0
		}
	}
	if err := w.Close(); err != nil {
		return 0
	}
	return int(n)
}

type counter int

func (c *counter) Write(p []byte) (int, error) { *c += counter(len(p)); return len(p), nil }

// encodeLoopGIF writes the frames of a loop, all on pal (whose last entry
// is transparent), each shown for delay hundredths of a second, looping
// forever: the first frame whole, each next one as its change over the
// screen (frameDiff) or whole where that compresses better.
func encodeLoopGIF(ctx context.Context, frames []*image.Paletted, pal color.Palette, delay int) ([]byte, error) {
	if len(frames) == 0 {
		return nil, nil
	}
	clearIdx := uint8(len(pal) - 1)
	rect := frames[0].Rect
	shown := image.NewPaletted(rect, pal)
	copy(shown.Pix, frames[0].Pix)
	out := &gif.GIF{
		Image: []*image.Paletted{frames[0]}, Delay: []int{delay}, Disposal: []byte{gif.DisposalNone},
		Config: image.Config{ColorModel: pal, Width: rect.Dx(), Height: rect.Dy()},
	}
	for _, f := range frames[1:] {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d := frameDiff(shown, f, clearIdx)
		if d.Rect.Eq(rect) && lzwSize(f) <= lzwSize(d) {
			d = f // the whole frame compresses better than its change
			copy(shown.Pix, f.Pix)
		}
		out.Image = append(out.Image, d)
		out.Delay = append(out.Delay, delay)
		out.Disposal = append(out.Disposal, gif.DisposalNone)
	}
	var buf bytes.Buffer
	err := gif.EncodeAll(&buf, out)
	return buf.Bytes(), err
}

// bayer is the 8 × 8 ordered-dither threshold matrix.
var bayer = func() [8][8]int32 {
	var m [8][8]int32
	for y := range 8 {
		for x := range 8 {
			v, xs, ys := int32(0), x, x^y
			for bit := 2; bit >= 0; bit-- {
				v = v<<2 | int32(ys>>bit&1)<<1 | int32(xs>>bit&1)
			}
			m[y][x] = v
		}
	}
	return m
}()

// ditherOrdered draws img onto pal with an 8 × 8 ordered dither of the
// given spread (per channel, 0–255): a fixed pattern, which repeats where
// the colour does and so compresses far better than error diffusion.
func ditherOrdered(img *image.NRGBA, pal color.Palette, lut *table, spread int32) *image.Paletted {
	W, H := img.Rect.Dx(), img.Rect.Dy()
	out := image.NewPaletted(image.Rect(0, 0, W, H), pal)
	for y := range H {
		row := img.Pix[y*img.Stride:]
		for x := range W {
			t := (2*bayer[y&7][x&7] - 63) * spread / 128
			var v [3]int32
			for ch := range 3 {
				v[ch] = min(255, max(0, int32(row[x*4+ch])+t))
			}
			out.Pix[y*out.Stride+x] = lut.at(cellOf(v[0], v[1], v[2]))
		}
	}
	return out
}
