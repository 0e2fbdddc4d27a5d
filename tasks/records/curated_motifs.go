package records

import (
	"image"
	"image/color"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/recordread"
)

// motif draws one image of a curated board.
type motif func(side int) image.Image

func hexC(s string) color.RGBA { return tasks.ParseColour(s) }

func solid(c string) motif {
	return func(side int) image.Image { return canvas(side, side, hexC(c)) }
}

func stripes(a, b string, w int) motif {
	return func(side int) image.Image {
		img := canvas(side, side, hexC(a))
		for y := 0; y < side; y += 2 * w {
			fill(img, image.Rect(0, y+w, side, y+2*w), hexC(b))
		}
		return img
	}
}

func check(a, b string, w int) motif {
	return func(side int) image.Image {
		img := canvas(side, side, hexC(a))
		for y := range side {
			for x := range side {
				if (x/w+y/w)%2 == 1 {
					img.SetRGBA(x, y, hexC(b))
				}
			}
		}
		return img
	}
}

func dots(bg, fg string, gap int) motif {
	return func(side int) image.Image {
		img := canvas(side, side, hexC(bg))
		r := gap / 4
		for y := range side {
			for x := range side {
				dx, dy := x%gap-gap/2, y%gap-gap/2
				if dx*dx+dy*dy <= r*r {
					img.SetRGBA(x, y, hexC(fg))
				}
			}
		}
		return img
	}
}

func gradient(a, b string) motif {
	return func(side int) image.Image {
		img := canvas(side, side, hexC(a))
		la, lb := labOfHex(a), labOfHex(b)
		for y := range side {
			t := float64(y) / float64(side-1)
			c := la.Mix(lb, t).NRGBA()
			fill(img, image.Rect(0, y, side, y+1), color.RGBA{c.R, c.G, c.B, 255})
		}
		return img
	}
}

func cloth(construction, c string) motif {
	return func(side int) image.Image { return recordread.Texture(construction, hexC(c), side) }
}
