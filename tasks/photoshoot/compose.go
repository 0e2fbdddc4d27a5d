package photoshoot

import (
	"context"
	"image"
	"image/color"
	"math"
	"sync"

	"github.com/disintegration/imaging"

	imgfam "github.com/taskplatform/taskplatform/tasks/image"
)

// The compositor: a product laid on a backdrop with one contact shadow on
// the floor. Everything is measured from the pixels; no
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
	// why is the cut-out's public reason when cut is false.
	why string
	// walking is img tilted for a walking pose, made once when first
	// asked: a job's walking shots share it.
	walking func() *image.NRGBA
}

// newProduct is the product of img, a cut-out trimmed (cut) or the photo
// whole.
func newProduct(img *image.NRGBA, cut bool) product {
	return product{img: img, cut: cut, walking: sync.OnceValue(func() *image.NRGBA { return tilted(img) })}
}

// item is the product as a pose of angle lays it; only to be read.
func (p product) item(angle string) *image.NRGBA {
	if angle == angleWalking {
		return p.walking()
	}
	return p.img
}

// prepareProduct cuts the product out of a plain background as
// image.remove_background does; an image whose background is not plain is
// laid down whole, as a framed print.
func prepareProduct(ctx context.Context, src image.Image) (product, error) {
	if b := src.Bounds(); max(b.Dx(), b.Dy()) > maxProductSide {
		src = imaging.Fit(src, maxProductSide, maxProductSide, imaging.Lanczos)
	}
	if own := ownCutOut(src); own != nil {
		fillUnsureHoles(own)
		return newProduct(trim(own), true), nil
	}
	out, _, err := imgfam.CutOut(ctx, src, cutTolerance, cutFeather)
	if err != nil {
		if ctx.Err() != nil {
			return product{}, ctx.Err()
		}
		p := newProduct(imaging.Clone(src), false)
		p.why = err.Error() // the cut-out's reasons are public
		return p, nil
	}
	fillUnsureHoles(out)
	return newProduct(trim(out), true), nil
}

// ownCutOut is src's pixels when src is already a cut-out (a transparent
// PNG: most of its border is transparent), or nil.
func ownCutOut(src image.Image) *image.NRGBA {
	if !imgfam.TransparentBorder(src) {
		return nil
	}
	return imaging.Clone(src)
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
