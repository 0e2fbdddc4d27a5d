package photoshoot

import (
	"context"
	"image"
	"image/color"
	"math"

	"github.com/disintegration/imaging"

	imgfam "github.com/taskplatform/taskplatform/tasks/image"
)

// The compositor: a product (or a garment on a figure) laid on a backdrop
// with a shadow on the floor. Everything is measured from the pixels; no
// model sees or invents anything.

// cutTolerance and cutFeather are the cut-out's settings: those
// image.remove_background defaults to.
const (
	cutTolerance = 12
	cutFeather   = 2
	// maxProductSide bounds the product image before it is cut out.
	maxProductSide = 1600
)

// product is the product image ready to lay down: its pixels trimmed to
// what is opaque.
type product struct {
	img *image.NRGBA
	// cut says whether a plain background was removed; false when the
	// image is laid down whole (its background is not plain).
	cut bool
}

// prepareProduct cuts the product out of a plain background as
// image.remove_background does; an image whose background is not plain is
// laid down whole, as a framed print.
func prepareProduct(ctx context.Context, src image.Image) (product, error) {
	if b := src.Bounds(); max(b.Dx(), b.Dy()) > maxProductSide {
		src = imaging.Fit(src, maxProductSide, maxProductSide, imaging.Lanczos)
	}
	out, _, err := imgfam.CutOut(ctx, src, cutTolerance, cutFeather)
	if err != nil {
		if ctx.Err() != nil {
			return product{}, ctx.Err()
		}
		return product{img: imaging.Clone(src)}, nil
	}
	return product{img: trim(out), cut: true}, nil
}

// trim crops img to the box of its pixels with alpha above 8.
func trim(img *image.NRGBA) *image.NRGBA {
	b := img.Rect
	minX, minY, maxX, maxY := b.Max.X, b.Max.Y, b.Min.X, b.Min.Y
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if img.Pix[img.PixOffset(x, y)+3] > 8 {
				minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x+1), max(maxY, y+1)
			}
		}
	}
	if minX >= maxX || minY >= maxY {
		return img
	}
	return imaging.Crop(img, image.Rect(minX, minY, maxX, maxY))
}

// turned is the product as a camera at angle sees it. There is one image
// of the product, so the angles are drawn from it: turned and side views
// are foreshortened (narrower, the far edge shorter), the back is the
// image mirrored and lit from behind, walking tilts it as if in motion.
func turned(img *image.NRGBA, angle string) *image.NRGBA {
	switch angle {
	case angleThreeQuarter:
		return taper(squeeze(img, 0.8), 0.9)
	case angleSide:
		return taper(squeeze(img, 0.55), 0.94)
	case angleBack:
		out := imaging.FlipH(img)
		dim(out, 0.12)
		return out
	case angleWalking:
		return trim(imaging.Rotate(img, 6, color.NRGBA{}))
	}
	return img
}

// squeeze scales img's width by f.
func squeeze(img *image.NRGBA, f float64) *image.NRGBA {
	return imaging.Resize(img, max(1, int(float64(img.Rect.Dx())*f+0.5)), img.Rect.Dy(), imaging.Lanczos)
}

// taper shortens img's columns from 1 at the left to f at the right,
// keeping their bottom: the far edge of a turned object.
func taper(img *image.NRGBA, f float64) *image.NRGBA {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		s := 1 - (1-f)*float64(x)/math.Max(1, float64(w-1))
		for y := range h {
			// Destination row y shows source row (y − (1 − s)·h) / s.
			sy := (float64(y) - (1-s)*float64(h)) / s
			if sy < 0 || sy >= float64(h) {
				continue
			}
			so, do := img.PixOffset(x+img.Rect.Min.X, int(sy)+img.Rect.Min.Y), out.PixOffset(x, y)
			copy(out.Pix[do:do+4], img.Pix[so:so+4])
		}
	}
	return out
}

// dim darkens img's colours by f, keeping alpha.
func dim(img *image.NRGBA, f float64) {
	for i := 0; i < len(img.Pix); i += 4 {
		for k := range 3 {
			img.Pix[i+k] = uint8(float64(img.Pix[i+k])*(1-f) + 0.5)
		}
	}
}

// fitBox is the largest size of aspect w/h within maxW × maxH.
func fitBox(w, h int, maxW, maxH float64) (int, int) {
	s := math.Min(maxW/float64(w), maxH/float64(h))
	return max(1, int(float64(w)*s+0.5)), max(1, int(float64(h)*s+0.5))
}

// lay draws src (with alpha) resized to box onto the opaque canvas dst.
func lay(dst *image.NRGBA, src *image.NRGBA, box image.Rectangle) {
	if box.Dx() != src.Rect.Dx() || box.Dy() != src.Rect.Dy() {
		src = imaging.Resize(src, box.Dx(), box.Dy(), imaging.Lanczos)
	}
	r := box.Intersect(dst.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			so := src.PixOffset(x-box.Min.X+src.Rect.Min.X, y-box.Min.Y+src.Rect.Min.Y)
			a := float64(src.Pix[so+3]) / 255
			if a == 0 {
				continue
			}
			blend(dst, x, y, color.NRGBA{src.Pix[so], src.Pix[so+1], src.Pix[so+2], 255}, a)
		}
	}
}

// floorShadow darkens the floor around (cx, cy) by up to strength in a
// soft ellipse of radii rx, ry: the shadow an object standing there casts
// under diffuse light.
func floorShadow(img *image.NRGBA, cx, cy, rx, ry, strength float64) {
	r := image.Rect(int(cx-2*rx), int(cy-2*ry), int(cx+2*rx)+1, int(cy+2*ry)+1).Intersect(img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			dx, dy := (float64(x)+0.5-cx)/rx, (float64(y)+0.5-cy)/ry
			m := strength * math.Exp(-2*(dx*dx+dy*dy))
			if m < 0.004 {
				continue
			}
			o := img.PixOffset(x, y)
			for k := range 3 {
				img.Pix[o+k] = uint8(float64(img.Pix[o+k])*(1-m) + 0.5)
			}
		}
	}
}
