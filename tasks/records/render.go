package records

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"strings"
	"sync"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
	"github.com/taskplatform/taskplatform/tasks/pngenc"
)

// imageSides bounds the sides of an image a record task reads; the pixel
// budget (tasks.ImageBudget) bounds its area and the memory it takes to
// decode.
var imageSides = tasks.ImageSides{Min: 1, Max: 8192}

// loadImage loads and decodes one image reference at full size; an image
// that cannot be read fails the step for good.
func loadImage(ctx context.Context, r tasks.Ref) (image.Image, error) {
	return tasks.LoadImage(ctx, r, imageSides)
}

// fit scales img so its longer side is at most side (never up), onto an
// opaque white ground.
func fit(img image.Image, side int) *image.RGBA {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if m := max(w, h); m > side {
		w, h = max(1, w*side/m), max(1, h*side/m)
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(out, out.Bounds(), image.White, image.Point{}, draw.Src)
	xdraw.ApproxBiLinear.Scale(out, out.Bounds(), img, b, xdraw.Over, nil)
	return out
}

// sampleImage scales img so its longer side is at most side, taking the nearest
// pixel: no blended colours at the edges of a print, for the analysis.
func sampleImage(img image.Image, side int) *image.RGBA {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if m := max(w, h); m > side {
		w, h = max(1, w*side/m), max(1, h*side/m)
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(out, out.Bounds(), image.White, image.Point{}, draw.Src)
	xdraw.NearestNeighbor.Scale(out, out.Bounds(), img, b, xdraw.Over, nil)
	return out
}

// cover scales and crops img to fill r of dst.
func cover(dst draw.Image, r image.Rectangle, img image.Image) { pdfsheet.Cover(dst, r, img) }

// fill paints r of dst with c.
func fill(dst draw.Image, r image.Rectangle, c color.Color) {
	draw.Draw(dst, r, image.NewUniform(c), image.Point{}, draw.Src)
}

// canvas is an opaque image of w × h filled with bg.
func canvas(w, h int, bg color.Color) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fill(img, img.Bounds(), bg)
	return img
}

var (
	fontsOnce           sync.Once
	regularTTF, boldTTF *opentype.Font
)

// face is the Go font (regular or bold) at size px. A face keeps a glyph
// buffer and is not safe for concurrent use, so every caller gets its own
// (the parsed fonts are shared).
func face(size int, bold bool) font.Face {
	fontsOnce.Do(func() {
		regularTTF, _ = opentype.Parse(goregular.TTF)
		boldTTF, _ = opentype.Parse(gobold.TTF)
	})
	f := regularTTF
	if bold {
		f = boldTTF
	}
	fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(fmt.Sprintf("records: the Go font does not load: %v", err))
	}
	return fc
}

// text draws s with its baseline at (x, y), cut with … to at most width px
// (0: no limit), and returns the width drawn.
func text(dst draw.Image, x, y int, s string, size int, bold bool, c color.Color, width int) int {
	f := face(size, bold)
	d := &font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: f}
	if width > 0 && d.MeasureString(s).Ceil() > width {
		r := []rune(s)
		for len(r) > 0 && d.MeasureString(string(r)+"…").Ceil() > width {
			r = r[:len(r)-1]
		}
		s = string(r) + "…"
	}
	d.Dot = fixed.P(x, y)
	d.DrawString(s)
	return d.MeasureString(s).Ceil()
}

// encodePNG writes img as PNG.
func encodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	enc := pngenc.Encoder(png.BestSpeed)
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encode png: %w", err)
	}
	return buf.Bytes(), nil
}

// encodeJPEG writes img as JPEG.
func encodeJPEG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 88}); err != nil {
		return nil, fmt.Errorf("encode jpeg: %w", err)
	}
	return buf.Bytes(), nil
}

var (
	ink   = color.RGBA{0x1A, 0x1A, 0x1A, 0xff}
	muted = color.RGBA{0x6B, 0x6B, 0x6B, 0xff}
	paper = color.RGBA{0xFA, 0xF8, 0xF4, 0xff}
	rule  = color.RGBA{0xDD, 0xD8, 0xCF, 0xff}
)

// wrap breaks s into lines of at most width px at size, on spaces.
func wrap(s string, size, width int) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	d := &font.Drawer{Face: face(size, false)}
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			try := strings.TrimSpace(line + " " + w)
			if line != "" && d.MeasureString(try).Ceil() > width {
				lines = append(lines, line)
				try = w
			}
			line = try
		}
		lines = append(lines, line)
	}
	return lines
}

// light says whether a colour is light enough to vanish on the paper: it
// is drawn with an outline.
func light(hex string) bool { return labOfHex(hex).L > 88 }

// outline strokes r of dst one pixel wide, inside its edge.
func outline(dst draw.Image, r image.Rectangle, c color.Color) {
	fill(dst, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+2), c)
	fill(dst, image.Rect(r.Min.X, r.Max.Y-2, r.Max.X, r.Max.Y), c)
	fill(dst, image.Rect(r.Min.X, r.Min.Y, r.Min.X+2, r.Max.Y), c)
	fill(dst, image.Rect(r.Max.X-2, r.Min.Y, r.Max.X, r.Max.Y), c)
}

// swatchRect fills r of dst with the colour hex, outlined when it is light.
func swatchRect(dst draw.Image, r image.Rectangle, hex string) {
	fill(dst, r, tasks.ParseColour(hex))
	if light(hex) {
		outline(dst, r, rule)
	}
}
