package image

import (
	"image"
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
