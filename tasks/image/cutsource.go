package image

import (
	"context"
	"encoding/binary"
	"image"
	"image/color"
)

// cutSource is the image cutOut reads. A JPEG's YCbCr planes are read as
// they are and converted only where the object keeps a pixel (the colour
// test keys its cache on Y, Cb and Cr, which give one sRGB colour each);
// any other image is read from its NRGBA copy, which becomes the cut-out.
type cutSource struct {
	w, h  int
	ycc   *image.YCbCr
	halfX bool // chroma at half the width (4:2:2, 4:2:0)
	halfY bool // chroma at half the height (4:2:0, 4:4:0)
	px    *image.NRGBA
}

func newCutSource(img image.Image) cutSource {
	b := img.Bounds()
	s := cutSource{w: b.Dx(), h: b.Dy()}
	if m, ok := img.(*image.YCbCr); ok && b.Min == (image.Point{}) {
		s.ycc = m
		switch m.SubsampleRatio {
		case image.YCbCrSubsampleRatio444:
			return s
		case image.YCbCrSubsampleRatio422:
			s.halfX = true
			return s
		case image.YCbCrSubsampleRatio420:
			s.halfX, s.halfY = true, true
			return s
		case image.YCbCrSubsampleRatio440:
			s.halfY = true
			return s
		}
		s.ycc = nil
	}
	s.px = cloneNRGBA(img)
	return s
}

// yccAt is pixel (x, y) as Y, Cb and Cr.
func (s cutSource) yccAt(x, y int) (uint8, uint8, uint8) {
	m := s.ycc
	cx, cy := x, y
	if s.halfX {
		cx /= 2
	}
	if s.halfY {
		cy /= 2
	}
	return m.Y[y*m.YStride+x], m.Cb[cy*m.CStride+cx], m.Cr[cy*m.CStride+cx]
}

// at is pixel (x, y) as non-premultiplied RGBA.
func (s cutSource) at(x, y int) (r, g, b, a uint8) {
	if s.ycc != nil {
		r, g, b = color.YCbCrToRGB(s.yccAt(x, y))
		return r, g, b, 0xFF
	}
	p := s.px.Pix[y*s.px.Stride+4*x:]
	return p[0], p[1], p[2], p[3]
}

// near sets out[i] for every pixel: transparent (under half opacity) or
// within. Each colour is tested once while it stays in the cache; a run of
// one colour is looked up once.
func (s cutSource) near(ctx context.Context, out []bool, within func(r, g, b uint8) bool) error {
	cache := newRGBCache()
	defer cache.release()
	test := func(r, g, b uint8) uint32 {
		if within(r, g, b) {
			return 1
		}
		return 0
	}
	if s.ycc != nil {
		test = func(y, cb, cr uint8) uint32 {
			if within(color.YCbCrToRGB(y, cb, cr)) {
				return 1
			}
			return 0
		}
	}
	for y := range s.h {
		if y%64 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		row := out[y*s.w : (y+1)*s.w]
		last, v := uint64(1<<32), false // the last pixel read, alpha included
		if s.ycc != nil {
			m := s.ycc
			cy := y
			if s.halfY {
				cy /= 2
			}
			ys, cbs, crs := m.Y[y*m.YStride:][:s.w], m.Cb[cy*m.CStride:], m.Cr[cy*m.CStride:]
			for x, yy := range ys {
				cx := x
				if s.halfX {
					cx /= 2
				}
				cb, cr := cbs[cx], crs[cx]
				if w := uint64(yy)<<16 | uint64(cb)<<8 | uint64(cr); w != last {
					last, v = w, cache.get(yy, cb, cr, test) == 1
				}
				row[x] = v
			}
			continue
		}
		pix := s.px.Pix[y*s.px.Stride:][:4*s.w]
		for x := range row {
			p := pix[x*4 : x*4+4 : x*4+4]
			if w := uint64(binary.LittleEndian.Uint32(p)); w != last {
				last, v = w, p[3] < 128 || cache.get(p[0], p[1], p[2], test) == 1
			}
			row[x] = v
		}
	}
	return nil
}

// cut is the cut-out with alpha applied, and how many pixels keep some:
// a pixel at alpha 0 is transparent black, any other keeps its colour at
// its opacity times alpha.
func (s cutSource) cut(alpha []uint8) (*image.NRGBA, int) {
	object := 0
	if s.ycc != nil {
		out := &image.NRGBA{Pix: bytePool.get(4 * s.w * s.h), Stride: 4 * s.w, Rect: image.Rect(0, 0, s.w, s.h)}
		for y := range s.h {
			row, as := out.Pix[y*out.Stride:][:4*s.w], alpha[y*s.w:(y+1)*s.w]
			for x, a := range as {
				p := row[x*4 : x*4+4 : x*4+4]
				if a == 0 {
					p[0], p[1], p[2], p[3] = 0, 0, 0, 0
					continue
				}
				r, g, b := color.YCbCrToRGB(s.yccAt(x, y))
				p[0], p[1], p[2], p[3] = r, g, b, a
				object++
			}
		}
		return out, object
	}
	px := s.px
	for y := range s.h {
		row, as := px.Pix[y*px.Stride:y*px.Stride+4*s.w], alpha[y*s.w:(y+1)*s.w]
		for x, a := range as {
			p := row[x*4 : x*4+4 : x*4+4]
			switch {
			case a == 0:
				p[0], p[1], p[2], p[3] = 0, 0, 0, 0
				continue
			case p[3] == 0xFF:
				p[3] = a
			default:
				if p[3] = uint8(int(p[3]) * int(a) / 255); p[3] == 0 {
					p[0], p[1], p[2] = 0, 0, 0
				}
			}
			object++
		}
	}
	return px, object
}
