package records

import (
	"fmt"
	"image"
	"math"
)

// collage lays the images out in rows under the board's name: the last row
// shares its width among fewer images.
func collage(name, description string, imgs []image.Image) image.Image {
	aspects := make([]float64, len(imgs))
	for i, img := range imgs {
		aspects[i] = float64(img.Bounds().Dx()) / float64(img.Bounds().Dy())
	}
	out, cells := collageCanvas(name, description, aspects)
	for j, img := range imgs {
		cover(out, cells[j], img)
	}
	return out
}

// collageCanvas is a collage of images whose proportions (width / height)
// are aspects, with its heading drawn, and the cell of each image, in
// order: a justified layout, every row filling the width except a short
// last row, which keeps the rows' height and is centred, never stretched.
func collageCanvas(name, description string, aspects []float64) (*image.RGBA, []image.Rectangle) {
	// The rows sit a gutter in from the sheet's edge on every side, so a
	// JPEG's blocks never carry an image's colour into the margin.
	cells, h := justify(aspects, collageWidth-2*collageGutter, collageGutter, collageRow)
	out := canvas(collageWidth, collageHeader+h+2*collageGutter, paper)
	text(out, collageGutter*2, 64, name, 48, true, ink, collageWidth-4*collageGutter)
	sub := fmt.Sprintf("%d images", len(aspects))
	if description != "" {
		sub += " · " + description
	}
	text(out, collageGutter*2, 104, sub, 22, false, muted, collageWidth-4*collageGutter)
	for i := range cells {
		cells[i] = cells[i].Add(image.Pt(collageGutter, collageHeader))
	}
	return out, cells
}

// clampAspect bounds a proportion to 1/maxAspect … maxAspect.
func clampAspect(a float64) float64 { return min(maxAspect, max(1/maxAspect, a)) }

// justify lays images of the given proportions out in rows width px wide
// with gutters, each row about target px tall: it answers each image's
// cell and the height of all the rows.
func justify(aspects []float64, width, gutter, target int) ([]image.Rectangle, int) {
	cells := make([]image.Rectangle, 0, len(aspects))
	y := gutter
	for start := 0; start < len(aspects); {
		sum, end := 0.0, start
		h := float64(target)
		for end < len(aspects) {
			sum += clampAspect(aspects[end])
			end++
			h = float64(width-gutter*(end-start+1)) / sum
			if h <= float64(target) {
				break
			}
		}
		last := h > float64(target)
		if last {
			h = float64(target)
		}
		rowH := int(math.Round(h))
		x := gutter
		if last {
			used := float64(gutter * (end - start - 1))
			for i := start; i < end; i++ {
				used += clampAspect(aspects[i]) * h
			}
			x = (width - int(math.Round(used))) / 2
		}
		for i := start; i < end; i++ {
			w := int(math.Round(clampAspect(aspects[i]) * h))
			if !last && i == end-1 {
				w = width - gutter - x
			}
			cells = append(cells, image.Rect(x, y, x+w, y+rowH))
			x += w + gutter
		}
		y += rowH + gutter
		start = end
	}
	return cells, y - gutter
}
