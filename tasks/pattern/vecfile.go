package pattern

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
)

// The vector files of a tile: an SVG of plain <rect>, <circle> and <path>
// elements, and a one-page PDF of the same shapes as path operators, both
// size × size (pixels in the SVG, points in the PDF) and cut by the
// tile's edge. No <pattern> element and no pattern colour space: every
// shape is an object of its own.

// num writes v with at most 3 decimals, trailing zeros dropped.
func num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" || s == "" {
		return "0"
	}
	return s
}

// visible says colour c is drawn: a transparent ground is left out.
func visible(c color.Color) bool {
	_, _, _, a := c.RGBA()
	return a != 0
}

func hexOf(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}

// encodeSVG writes the tile's shapes as an SVG document.
func encodeSVG(s *spec, shapes []shape) []byte {
	var b bytes.Buffer
	n := strconv.Itoa(s.size)
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s">`+"\n",
		n, n, n, n)
	fmt.Fprintf(&b, "<title>%s tile, seed %d, %d repeats: seamless</title>\n", s.kind, s.seed, s.repeats)
	fmt.Fprintf(&b, `<defs><clipPath id="tile"><rect width="%s" height="%s"/></clipPath></defs>`+"\n", n, n)
	b.WriteString(`<g clip-path="url(#tile)">` + "\n")
	for _, sh := range shapes {
		c := s.palette[sh.col]
		if !visible(c) {
			continue
		}
		fill := hexOf(c)
		switch {
		case sh.rect != nil:
			fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`+"\n",
				num(sh.rect[0]), num(sh.rect[1]), num(sh.rect[2]), num(sh.rect[3]), fill)
		case sh.circle != nil:
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="%s" fill="%s"/>`+"\n",
				num(sh.circle[0]), num(sh.circle[1]), num(sh.circle[2]), fill)
		default:
			b.WriteString(`<path d="M` + num(sh.start.x) + " " + num(sh.start.y))
			for _, p := range sh.path {
				if p.curve {
					b.WriteString("C" + num(p.c1.x) + " " + num(p.c1.y) + " " + num(p.c2.x) + " " + num(p.c2.y) + " ")
				} else {
					b.WriteString("L")
				}
				b.WriteString(num(p.to.x) + " " + num(p.to.y))
			}
			fmt.Fprintf(&b, `Z" fill="%s"/>`+"\n", fill)
		}
	}
	b.WriteString("</g>\n</svg>\n")
	return b.Bytes()
}

// kappa places a cubic Bézier's control points for a quarter circle.
const kappa = 0.5522847498

// pdfContent is the page's content stream: the coordinate system flipped
// to the SVG's (y down), the tile's clip, then each shape filled.
func pdfContent(s *spec, shapes []shape) []byte {
	var b bytes.Buffer
	n := num(float64(s.size))
	fmt.Fprintf(&b, "q\n1 0 0 -1 0 %s cm\n0 0 %s %s re W n\n", n, n, n)
	for _, sh := range shapes {
		c := s.palette[sh.col]
		if !visible(c) {
			continue
		}
		r, g, bl, _ := c.RGBA()
		fmt.Fprintf(&b, "%s %s %s rg\n", num(float64(r>>8)/255), num(float64(g>>8)/255), num(float64(bl>>8)/255))
		switch {
		case sh.rect != nil:
			fmt.Fprintf(&b, "%s %s %s %s re f\n", num(sh.rect[0]), num(sh.rect[1]), num(sh.rect[2]), num(sh.rect[3]))
		case sh.circle != nil:
			x, y, rr := sh.circle[0], sh.circle[1], sh.circle[2]
			k := kappa * rr
			fmt.Fprintf(&b, "%s %s m\n", num(x+rr), num(y))
			arcs := [4][6]float64{
				{x + rr, y + k, x + k, y + rr, x, y + rr},
				{x - k, y + rr, x - rr, y + k, x - rr, y},
				{x - rr, y - k, x - k, y - rr, x, y - rr},
				{x + k, y - rr, x + rr, y - k, x + rr, y},
			}
			for _, a := range arcs {
				fmt.Fprintf(&b, "%s %s %s %s %s %s c\n", num(a[0]), num(a[1]), num(a[2]), num(a[3]), num(a[4]), num(a[5]))
			}
			b.WriteString("h f\n")
		default:
			fmt.Fprintf(&b, "%s %s m\n", num(sh.start.x), num(sh.start.y))
			for _, p := range sh.path {
				if p.curve {
					fmt.Fprintf(&b, "%s %s %s %s %s %s c\n",
						num(p.c1.x), num(p.c1.y), num(p.c2.x), num(p.c2.y), num(p.to.x), num(p.to.y))
				} else {
					fmt.Fprintf(&b, "%s %s l\n", num(p.to.x), num(p.to.y))
				}
			}
			b.WriteString("h f\n")
		}
	}
	b.WriteString("Q\n")
	return b.Bytes()
}

// encodePDF writes a one-page PDF 1.4 of the tile's shapes: the page is the
// tile, size points square, its content stream Flate-compressed. No
// library here draws filled Bézier paths under a clip (gopdf draws lines,
// rectangles, polygons and stroked ovals), so the few objects of a
// one-page document are written here.
func encodePDF(s *spec, shapes []shape) ([]byte, error) {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	if _, err := zw.Write(pdfContent(s, shapes)); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	n := strconv.Itoa(s.size)
	title := fmt.Sprintf("%s tile, seed %d, %d repeats", s.kind, s.seed, s.repeats)
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " + n + " " + n + "] /Contents 4 0 R /Resources << >> >>",
		fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", z.Len(), z.Bytes()),
		"<< /Title (" + title + ") /Producer (taskplatform pattern.generate) >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n%\xE2\xE3\xCF\xD3\n")
	xref := pdfsheet.WriteObjects(&b, objects)
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /Info 5 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return b.Bytes(), nil
}

// fileFormat is one value of pattern.generate's format: how a tile is
// delivered.
type fileFormat struct{ value, mediaType, ext, text, when string }

var fileFormats = []fileFormat{
	{"png", "image/png", "png", "a raster tile at resolution, anti-aliased.", "the tile goes on screen or to a printer " +
		"as an image"},
	{"svg", "image/svg+xml", "svg", "the same tile as vector shapes: one <rect>, <circle> or <path> per band, check, " +
		"dot, diamond, weft stripe or float, cut by the tile's edge; no <pattern> element.",
		"you edit or recolour the tile in Illustrator, Inkscape or Figma, or scale it without loss"},
	{"pdf", "application/pdf", "pdf", "the same vector shapes on one page, resolution points square.",
		"a print shop or a layout program takes PDF"},
}

// formatOptions are the format field's values.
func formatOptions() []tasks.VocabValue {
	out := make([]tasks.VocabValue, len(fileFormats))
	for i, f := range fileFormats {
		out[i] = tasks.VocabValue{Value: f.value, Description: f.text, ChooseWhen: f.when, Default: i == 0}
	}
	return out
}

// formatOf is the format named v, png for "" (pattern.stripes).
func formatOf(v string) fileFormat {
	for _, f := range fileFormats {
		if f.value == v {
			return f
		}
	}
	return fileFormats[0]
}

// file draws the tile in format: a PNG, or its shapes as SVG or PDF.
func (s *spec) file(ctx context.Context, format string) ([]byte, error) {
	switch format {
	case "svg":
		return encodeSVG(s, s.shapes()), nil
	case "pdf":
		return encodePDF(s, s.shapes())
	}
	img, err := s.renderSmooth(ctx)
	if err != nil {
		return nil, err
	}
	return encodePNG(img)
}
