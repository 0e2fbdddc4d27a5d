package pattern

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/pngenc"
	"github.com/taskplatform/taskplatform/tasks/resample"
)

// repeatLayouts places the motif copies of one tile: each returns the motif
// centres in cells of the tile (a tile is 2 × 2 cells) and whether a copy
// is mirrored.
type placement struct {
	x, y   float64 // centre, in cells
	mirror bool
}

var repeatLayouts = map[string][]placement{
	"grid":      {{0.5, 0.5, false}, {1.5, 0.5, false}, {0.5, 1.5, false}, {1.5, 1.5, false}},
	"half_drop": {{0.5, 0.5, false}, {1.5, 1.0, false}, {0.5, 1.5, false}, {1.5, 2.0, false}},
	"brick":     {{0.5, 0.5, false}, {1.5, 0.5, false}, {1.0, 1.5, false}, {2.0, 1.5, false}},
	"mirror":    {{0.5, 0.5, false}, {1.5, 0.5, true}, {0.5, 1.5, true}, {1.5, 1.5, false}},
}

// motifSides bounds the sides of a motif.
var motifSides = tasks.ImageSides{Min: 8, Max: 8192}

// renderRepeat lays the motif out as a seamless size × size tile: every copy
// is also drawn shifted by the tile size so what leaves one edge enters the
// opposite one.
func renderRepeat(
	ctx context.Context,
	motif image.Image,
	layout string,
	size int,
	scale float64,
	bg color.Color,
	angles [4]float64,
) ([]byte, image.Point, error) {
	places, ok := repeatLayouts[layout]
	if !ok {
		return nil, image.Point{}, fmt.Errorf("repeat: unknown layout %q", layout)
	}
	cell := float64(size) / 2
	mb := motif.Bounds()
	longest := max(mb.Dx(), mb.Dy())
	w := max(1, int(float64(mb.Dx())*cell*scale/float64(longest)))
	h := max(1, int(float64(mb.Dy())*cell*scale/float64(longest)))
	gap := image.Pt(size/2-w, size/2-h)
	// Catmull-Rom, alpha-weighted (tasks/resample: a motif's flat ground
	// and shapes are copied, only its edges filtered), premultiplied for
	// the tile.
	scaled := image.NewRGBA(image.Rect(0, 0, w, h))
	straight := resample.Resize(motif, w, h, imaging.CatmullRom)
	draw.Draw(scaled, scaled.Rect, straight, image.Point{}, draw.Src)
	resample.Release(straight)
	// The mirrored copy, only for layouts that mirror: each row's pixels
	// in reverse order.
	var mirrored *image.RGBA
	for _, p := range places {
		if p.mirror && mirrored == nil {
			mirrored = image.NewRGBA(scaled.Bounds())
			for y := range h {
				src, dst := scaled.Pix[y*scaled.Stride:][:4*w], mirrored.Pix[y*mirrored.Stride:][:4*w]
				for x := range w {
					copy(dst[4*(w-1-x):4*(w-x)], src[4*x:4*x+4])
				}
			}
		}
	}
	tile := image.NewRGBA(image.Rect(0, 0, size, size))
	draw.Draw(tile, tile.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	for k, p := range places {
		if err := ctx.Err(); err != nil {
			return nil, gap, err
		}
		src := scaled
		if p.mirror {
			src = mirrored
		}
		if a := math.Mod(angles[k], 360); a != 0 {
			src = turned(src, a)
		}
		w, h := src.Rect.Dx(), src.Rect.Dy()
		cx, cy := int(p.x*cell)-w/2, int(p.y*cell)-h/2
		for _, dy := range []int{-size, 0, size} {
			for _, dx := range []int{-size, 0, size} {
				over(tile, image.Rect(cx+dx, cy+dy, cx+dx+w, cy+dy+h), src)
			}
		}
	}
	var buf bytes.Buffer
	// BestSpeed, deliberately: an RGBA tile's encode is most of the step,
	// and DefaultCompression saves only 6–10 % of the bytes for up to
	// twice the encode time (make bench, tasks table).
	if err := pngenc.Encoder(png.BestSpeed).Encode(&buf, tile); err != nil {
		return nil, gap, err
	}
	return buf.Bytes(), gap, nil
}

// turned is img turned clockwise by deg degrees (Catmull-Rom) on a
// transparent ground, as large as the turned motif needs.
func turned(img *image.RGBA, deg float64) *image.RGBA {
	t := imaging.Rotate(img, -deg, color.Transparent)
	out := image.NewRGBA(t.Rect)
	draw.Draw(out, out.Rect, t, t.Rect.Min, draw.Src)
	return out
}

// over is draw.Draw(dst, r, src, image.Point{}, draw.Over) with the same
// bytes: a transparent source pixel leaves dst as it is and an opaque one
// is copied, which is what Over's arithmetic gives them; each run of other
// pixels is left to draw.Draw. A motif is mostly transparent ground and
// opaque shape, which draw.Draw blends pixel by pixel.
func over(dst *image.RGBA, r image.Rectangle, src *image.RGBA) {
	orig := r.Min
	r = r.Intersect(dst.Bounds()).Intersect(src.Bounds().Add(orig))
	if r.Empty() {
		return
	}
	sp := r.Min.Sub(orig)
	w := r.Dx()
	for y := range r.Dy() {
		d := dst.Pix[dst.PixOffset(r.Min.X, r.Min.Y+y):][:4*w]
		s := src.Pix[src.PixOffset(sp.X, sp.Y+y):][:4*w]
		for x := 0; x < w; {
			k, e := alphaKind(s[4*x+3]), x+1
			for e < w && alphaKind(s[4*e+3]) == k {
				e++
			}
			switch k {
			case opaque:
				copy(d[4*x:4*e], s[4*x:4*e])
			case translucent:
				draw.Draw(
					dst,
					image.Rect(r.Min.X+x, r.Min.Y+y, r.Min.X+e, r.Min.Y+y+1),
					src,
					image.Pt(sp.X+x, sp.Y+y),
					draw.Over,
				)
			}
			x = e
		}
	}
}

// The kinds of a source pixel over treats alike in runs.
const (
	transparent = iota
	translucent
	opaque
)

func alphaKind(alpha uint8) int {
	switch alpha {
	case 0:
		return transparent
	case 0xFF:
		return opaque
	}
	return translucent
}
