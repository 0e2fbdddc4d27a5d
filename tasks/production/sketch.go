package production

import (
	"context"
	"image"
	"slices"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/tasks/colour"
	imagetask "github.com/taskplatform/taskplatform/tasks/image"
)

// sketchSide is the longest side, in pixels, a flat sketch is traced at.
const sketchSide = 720

// flat is a flat sketch traced from a style image: the garment's
// silhouette (the pixels that are not backdrop), each garment pixel's
// colour area, whether the backdrop could be removed, and the areas'
// outlines as vector curves.
type flat struct {
	mask    []bool
	area    []int8
	w, h    int
	removed bool
	details [][]bezier
}

func (f flat) in(x, y int) bool { return x >= 0 && y >= 0 && x < f.w && y < f.h && f.mask[y*f.w+x] }

// Colour areas: at most flatAreas colours, merged while nearer than
// areaMergeDE (a garment's shading stays one area), an area drawn when it
// holds minAreaShare of the garment.
const (
	flatAreas    = 4
	areaMergeDE  = 14
	minAreaShare = 0.004
)

// traceFlat cuts the style image's plain backdrop away (image.remove_
// background's cut-out) and reads the garment as a flat: its silhouette,
// cropped to the garment, and the outlines of its colour areas (panels,
// stripes, trims) as Bézier curves. A busy backdrop cannot be removed: the
// whole image is traced.
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
	f.area = colourAreas(small, f.mask)
	f = f.crop()
	total := 0
	for _, m := range f.mask {
		if m {
			total++
		}
	}
	for k := range int8(flatAreas) {
		f.details = append(f.details, rings(f.w, f.h, func(x, y int) bool {
			return f.mask[y*f.w+x] && f.area[y*f.w+x] == k
		}, int(minAreaShare*float64(total)))...)
	}
	return f
}

// colourAreas clusters the garment's colours (CIELAB k-means, shading
// merged) and answers each pixel's cluster, −1 off the garment.
func colourAreas(img *image.NRGBA, mask []bool) []int8 {
	b := img.Bounds()
	w := b.Dx()
	hist := map[[3]uint8]float64{}
	for i, m := range mask {
		if m {
			c := img.NRGBAAt(b.Min.X+i%w, b.Min.Y+i/w)
			hist[[3]uint8{c.R &^ 7, c.G &^ 7, c.B &^ 7}]++
		}
	}
	keys := make([][3]uint8, 0, len(hist))
	for k := range hist {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [3]uint8) int {
		return int(a[0])<<16 | int(a[1])<<8 | int(a[2]) - (int(b[0])<<16 | int(b[1])<<8 | int(b[2]))
	})
	pts := make([]colour.Weighted, len(keys))
	for i, k := range keys {
		pts[i] = colour.Weighted{C: colour.LabOf8(k[0]+4, k[1]+4, k[2]+4), W: hist[k]}
	}
	swatches := colour.Cluster(pts, flatAreas, areaMergeDE, 0.02)
	centres := make([]colour.Lab, len(swatches))
	for i, s := range swatches {
		centres[i] = s.C
	}
	area := make([]int8, len(mask))
	for i, m := range mask {
		area[i] = -1
		if m && len(centres) > 0 {
			c := img.NRGBAAt(b.Min.X+i%w, b.Min.Y+i/w)
			area[i] = int8(colour.Nearest(centres, colour.LabOf8(c.R, c.G, c.B)))
		}
	}
	return area
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
	out := flat{w: r.Dx(), h: r.Dy(), removed: f.removed, mask: make([]bool, r.Dx()*r.Dy()),
		area: make([]int8, r.Dx()*r.Dy())}
	for y := range out.h {
		for x := range out.w {
			out.mask[y*out.w+x] = f.mask[(y+r.Min.Y)*f.w+x+r.Min.X]
			out.area[y*out.w+x] = f.area[(y+r.Min.Y)*f.w+x+r.Min.X]
		}
	}
	return out
}
