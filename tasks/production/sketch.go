package production

import (
	"context"
	"image"
	"image/color"
	"math"

	"github.com/disintegration/imaging"

	imagetask "github.com/taskplatform/taskplatform/tasks/image"
)

// sketchSide is the longest side, in pixels, a flat sketch is traced at.
const sketchSide = 720

// flat is a flat sketch traced from a style image: line art on white, the
// garment's silhouette (the pixels that are not backdrop) and whether the
// backdrop could be removed.
type flat struct {
	img     *image.RGBA
	mask    []bool
	w, h    int
	removed bool
}

func (f flat) in(x, y int) bool { return x >= 0 && y >= 0 && x < f.w && y < f.h && f.mask[y*f.w+x] }

// traceFlat cuts the style image's plain backdrop away (image.remove_
// background's cut-out) and draws the garment as a flat: its outline in
// black, its seams and inner edges in grey, on white, cropped to the
// garment. A busy backdrop cannot be removed: the whole image is traced.
func traceFlat(ctx context.Context, src image.Image) flat {
	small := imaging.Fit(src, sketchSide, sketchSide, imaging.Linear)
	b := small.Bounds()
	w, h := b.Dx(), b.Dy()
	f := flat{w: w, h: h, mask: make([]bool, w*h)}
	cut, _, err := imagetask.CutOut(ctx, small, 12, 0)
	f.removed = err == nil
	if f.removed {
		f.mask = garmentMask(cut)
	} else {
		for i := range f.mask {
			f.mask[i] = true
		}
	}
	light := make([]float64, w*h)
	for y := range h {
		for x := range w {
			r, g, bl, _ := small.At(b.Min.X+x, b.Min.Y+y).RGBA()
			light[y*w+x] = (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(bl)) / 65535
		}
	}
	f.img = image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range f.img.Pix {
		f.img.Pix[i] = 0xff
	}
	seam := color.RGBA{0x70, 0x70, 0x70, 0xff}
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			if !f.in(x, y) {
				continue
			}
			if !f.in(x-1, y) || !f.in(x+1, y) || !f.in(x, y-1) || !f.in(x, y+1) {
				dot(f.img, x, y, color.RGBA{0x1A, 0x1A, 0x1A, 0xff})
				continue
			}
			// Sobel on lightness: a seam, a stripe's edge, a placket.
			at := func(dx, dy int) float64 { return light[(y+dy)*w+x+dx] }
			gx := at(1, -1) + 2*at(1, 0) + at(1, 1) - at(-1, -1) - 2*at(-1, 0) - at(-1, 1)
			gy := at(-1, 1) + 2*at(0, 1) + at(1, 1) - at(-1, -1) - 2*at(0, -1) - at(1, -1)
			if math.Hypot(gx, gy) > 0.9 {
				f.img.SetRGBA(x, y, seam)
			}
		}
	}
	return f.crop()
}

// garmentMask is the garment of a cut-out: every pixel the backdrop
// cannot reach from the image's edge without crossing the garment, so a
// white body inside an inked outline, or a white logo on a shirt, stays
// garment even though its colour is the backdrop's.
func garmentMask(cut *image.NRGBA) []bool {
	b := cut.Bounds()
	w, h := b.Dx(), b.Dy()
	clear := func(x, y int) bool { return cut.NRGBAAt(b.Min.X+x, b.Min.Y+y).A < 128 }
	reached := make([]bool, w*h)
	var stack []int
	push := func(x, y int) {
		if x >= 0 && y >= 0 && x < w && y < h && !reached[y*w+x] && clear(x, y) {
			reached[y*w+x] = true
			stack = append(stack, y*w+x)
		}
	}
	for x := range w {
		push(x, 0)
		push(x, h-1)
	}
	for y := range h {
		push(0, y)
		push(w-1, y)
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := i%w, i/w
		push(x-1, y)
		push(x+1, y)
		push(x, y-1)
		push(x, y+1)
	}
	mask := make([]bool, w*h)
	for i := range mask {
		mask[i] = !reached[i]
	}
	return mask
}

// dot paints a 2 × 2 px point: the outline reads at print size.
func dot(img *image.RGBA, x, y int, c color.RGBA) {
	for dy := range 2 {
		for dx := range 2 {
			if image.Pt(x+dx, y+dy).In(img.Bounds()) {
				img.SetRGBA(x+dx, y+dy, c)
			}
		}
	}
}

// crop cuts the flat to its garment with a small border.
func (f flat) crop() flat {
	minX, minY, maxX, maxY := f.w, f.h, -1, -1
	for y := range f.h {
		for x := range f.w {
			if f.mask[y*f.w+x] {
				minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
			}
		}
	}
	if maxX < 0 {
		return f
	}
	pad := 8
	r := image.Rect(max(0, minX-pad), max(0, minY-pad), min(f.w, maxX+pad+1), min(f.h, maxY+pad+1))
	out := flat{w: r.Dx(), h: r.Dy(), removed: f.removed, mask: make([]bool, r.Dx()*r.Dy())}
	out.img = image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	for y := range out.h {
		for x := range out.w {
			out.mask[y*out.w+x] = f.mask[(y+r.Min.Y)*f.w+x+r.Min.X]
			out.img.SetRGBA(x, y, f.img.RGBAAt(x+r.Min.X, y+r.Min.Y))
		}
	}
	return out
}
