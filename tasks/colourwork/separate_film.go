package colourwork

import (
	"fmt"
	"image"
	"math"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// filmMarginMM is the clear band around the design on every film, where
// the registration marks sit; the label's labelLines lines go below it.
const (
	filmMarginMM = 12
	labelLines   = 5
)

// filmSheet is the layout of a job's films: all films of a job are the same
// size with the design at the same place, so their marks line up.
type filmSheet struct {
	w, h    int // the design in pixels
	margin  int // pixels of clear band on each side
	size    int // the label's font size in pixels
	dpi     int
	job     string
	lineGap int
}

// newSheet lays out the films of a w × h design at dpi.
func newSheet(w, h, dpi int, job string) filmSheet {
	m := max(48, mmToPx(filmMarginMM, dpi))
	size := max(22, m/5)
	return filmSheet{w: w, h: h, margin: m, size: size, dpi: dpi, job: job, lineGap: size * 13 / 10}
}

// mmToPx is millimetres at dpi, in whole pixels.
func mmToPx(mm float64, dpi int) int { return int(math.Round(mm * float64(dpi) / 25.4)) }

// film draws one film: white, black where on says the ink prints (less any
// patch under minSpeck pixels when clean), with registration marks in the
// margin at the middle of each side and the label lines below the design.
func (s filmSheet) film(on func(p int) bool, clean bool, lines []string) *image.Gray {
	wrapped := s.wrap(lines)
	W, H := s.bounds()
	out := image.NewGray(image.Rect(0, 0, W, H))
	for i := range out.Pix {
		out.Pix[i] = 255
	}
	for y := range s.h {
		row := out.Pix[(y+s.margin)*out.Stride+s.margin:]
		for x := range s.w {
			if on(y*s.w + x) {
				row[x] = 0
			}
		}
	}
	if clean {
		for _, c := range blackSpecks(out, image.Rect(s.margin, s.margin, s.margin+s.w, s.margin+s.h)) {
			for _, p := range c {
				out.Pix[p] = 255 // the film's stride is its width
			}
		}
	}
	r := s.margin * 3 / 10
	for _, c := range []image.Point{
		{W / 2, s.margin / 2}, {W / 2, s.margin + s.h + s.margin/2},
		{s.margin / 2, s.margin + s.h/2}, {W - s.margin/2, s.margin + s.h/2},
	} {
		registration(out, c, r, max(2, s.dpi/150))
	}
	y := 2*s.margin + s.h + s.size
	for _, l := range wrapped {
		drawText(out, s.margin, y, l, s.size)
		y += s.lineGap
	}
	// A glyph's dot smaller than a screen holds is grown by a pixel all
	// round, so the label has no specks either.
	label := image.Rect(0, 2*s.margin+s.h, W, H)
	for _, c := range blackSpecks(out, label) {
		for _, p := range c {
			x, y := p%W, p/W
			for v := max(label.Min.Y, y-1); v <= min(H-1, y+1); v++ {
				for u := max(0, x-1); u <= min(W-1, x+1); u++ {
					out.Pix[v*out.Stride+u] = 0
				}
			}
		}
	}
	return out
}

// blackSpecks lists the 8-connected patches of black under minSpeck pixels
// inside r of img, each as its pixels' offsets.
func blackSpecks(img *image.Gray, r image.Rectangle) [][]int {
	W := img.Rect.Dx()
	seen := make([]bool, W*img.Rect.Dy())
	var out [][]int
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			s := y*W + x
			if seen[s] || img.Pix[y*img.Stride+x] != 0 {
				continue
			}
			seen[s] = true
			stack, patch := []int{s}, []int{}
			for len(stack) > 0 {
				p := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				patch = append(patch, p)
				px, py := p%W, p/W
				for _, d := range touching {
					u, v := px+d[0], py+d[1]
					q := v*W + u
					if (image.Point{u, v}).In(r) && !seen[q] && img.Pix[v*img.Stride+u] == 0 {
						seen[q] = true
						stack = append(stack, q)
					}
				}
			}
			if len(patch) < minSpeck {
				out = append(out, patch)
			}
		}
	}
	return out
}

// bounds is the size of every film of the sheet.
func (s filmSheet) bounds() (W, H int) {
	return s.w + 2*s.margin, s.h + 2*s.margin + labelLines*s.lineGap + s.size/2
}

// wrap sets the label's parts (joined by " | ") in at most labelLines
// lines that fit the film's width.
func (s filmSheet) wrap(parts []string) []string {
	width := s.w + s.margin
	var lines []string
	cur := ""
	for _, p := range parts {
		next := p
		if cur != "" {
			next = cur + "  |  " + p
		}
		if cur != "" && textWidth(next, s.size) > width {
			lines = append(lines, cur)
			next = p
		}
		cur = next
	}
	lines = append(lines, cur)
	return lines[:min(len(lines), labelLines)]
}

// registration draws a registration mark centred at c: a circle of radius
// r and a cross through it, lines w px wide.
func registration(img *image.Gray, c image.Point, r, w int) {
	ext := r * 14 / 10
	b := img.Bounds()
	for y := c.Y - ext; y <= c.Y+ext; y++ {
		for x := c.X - ext; x <= c.X+ext; x++ {
			if !(image.Point{x, y}).In(b) {
				continue
			}
			dx, dy := float64(x-c.X), float64(y-c.Y)
			d := math.Hypot(dx, dy)
			onRing := math.Abs(d-float64(r)) <= float64(w)/2
			onCross := (abs(x-c.X) <= w/2 || abs(y-c.Y) <= w/2)
			if onRing || onCross {
				img.Pix[(y-b.Min.Y)*img.Stride+x-b.Min.X] = 0
			}
		}
	}
}

var (
	fontOnce sync.Once
	goFont   *opentype.Font
)

// face is the Go regular font at size px.
func face(size int) font.Face {
	fontOnce.Do(func() { goFont, _ = opentype.Parse(goregular.TTF) })
	f, err := opentype.NewFace(goFont, &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(fmt.Sprintf("colourwork: the Go font does not load: %v", err))
	}
	return f
}

func textWidth(s string, size int) int {
	return (&font.Drawer{Face: face(size)}).MeasureString(s).Ceil()
}

// drawText writes s in black with its baseline at (x, y), solid: the
// glyphs' anti-aliasing is cut at half, as a film has no greys.
func drawText(img *image.Gray, x, y int, s string, size int) {
	mask := image.NewAlpha(img.Bounds())
	d := &font.Drawer{Dst: mask, Src: image.Opaque, Face: face(size), Dot: fixed.P(x, y)}
	d.DrawString(s)
	for i, a := range mask.Pix {
		if a >= 128 {
			img.Pix[i] = 0
		}
	}
}

// asciiLabel keeps a label to what prints cleanly on a film: no full
// stops or other marks smaller than a screen holds.
func asciiLabel(s string) string {
	return strings.NewReplacer(".", ",", "·", "-", "×", "x").Replace(s)
}

// distanceFrom is, per pixel, the distance in thirds of a pixel (chamfer
// 3-4, within 6 % of Euclidean; saturating at 65535) to the nearest pixel
// where in is true; 65535 where there is none.
func distanceFrom(in func(p int) bool, W, H int) []uint16 {
	const inf = math.MaxUint16
	d := make([]uint16, W*H)
	for p := range d {
		if !in(p) {
			d[p] = inf
		}
	}
	step := func(p, q int, w uint16) {
		if v := d[q]; v < inf-w && v+w < d[p] {
			d[p] = v + w
		}
	}
	const a, b = 3, 4
	for y := range H {
		for x := range W {
			p := y*W + x
			if x > 0 {
				step(p, p-1, a)
			}
			if y > 0 {
				step(p, p-W, a)
				if x > 0 {
					step(p, p-W-1, b)
				}
				if x < W-1 {
					step(p, p-W+1, b)
				}
			}
		}
	}
	for y := H - 1; y >= 0; y-- {
		for x := W - 1; x >= 0; x-- {
			p := y*W + x
			if x < W-1 {
				step(p, p+1, a)
			}
			if y < H-1 {
				step(p, p+W, a)
				if x < W-1 {
					step(p, p+W+1, b)
				}
				if x > 0 {
					step(p, p+W-1, b)
				}
			}
		}
	}
	return d
}

// screen is an amplitude-modulated halftone screen: round dots at lpi lines
// per inch and angle degrees, on a film at dpi.
type screen struct {
	cos, sin, cell float64 // the rotation and the cell's size in pixels
}

func newScreen(lpi, angle float64, dpi int) screen {
	a := angle * math.Pi / 180
	return screen{cos: math.Cos(a), sin: math.Sin(a), cell: float64(dpi) / lpi}
}

// prints says whether a pixel at (x, y) of density d (0–1) is black: the
// dot of its cell grows from the centre, and the threshold at a point is
// the share of the cell a round dot reaching it covers, so the share
// printed is the density (no dot-gain compensation).
func (s screen) prints(x, y int, d float64) bool {
	if d <= 0 {
		return false
	}
	if d >= 1 {
		return true
	}
	fx, fy := (float64(x)+0.5)/s.cell, (float64(y)+0.5)/s.cell
	u, v := fx*s.cos+fy*s.sin, -fx*s.sin+fy*s.cos
	u, v = u-math.Floor(u)-0.5, v-math.Floor(v)-0.5
	r := math.Hypot(u, v)
	return d > discInCell(r)
}

// discInCell is the area of a disc of radius r centred in a unit square,
// within the square.
func discInCell(r float64) float64 {
	if r <= 0.5 {
		return math.Pi * r * r
	}
	if r >= math.Sqrt2/2 {
		return 1
	}
	return math.Pi*r*r - 4*(r*r*math.Acos(0.5/r)-0.5*math.Sqrt(r*r-0.25))
}
