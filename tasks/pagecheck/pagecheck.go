// Package pagecheck opens the pages tasks deliver the way a reader does and
// tells the tests what is on them: a PDF through poppler (pdfinfo,
// pdftotext -bbox-layout, pdftoppm) — its page sizes, its words with their
// boxes, how far down each page the ink reaches — and a PNG sheet by its
// pixels (its margins). Tests of the sheets that records and production
// tasks make assert with it that text is present and never overlaps,
// pages are the size they say and not mostly empty, and nothing is drawn
// outside a PNG's margins.
package pagecheck

import (
	"bytes"
	"fmt"
	"html"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks/imagefile"

	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
)

// Word is one word of a PDF page as poppler reads it, in points from the
// page's top-left corner.
type Word struct {
	Text                   string
	XMin, YMin, XMax, YMax float64
}

// Page is one page of a PDF as poppler reads it.
type Page struct {
	// W and H are the page size in points.
	W, H float64
	// Words are the page's words in reading order.
	Words []Word
	// Ink is how far down the page (0 to 1) anything is drawn above its
	// running foot (the bottom 7%, where page numbers go), and InkArea the
	// share of the page's area inside the box round all it draws there.
	Ink, InkArea float64
}

// Text is the page's words joined by spaces.
func (p Page) Text() string {
	var parts []string
	for _, w := range p.Words {
		parts = append(parts, w.Text)
	}
	return strings.Join(parts, " ")
}

var (
	pageRE = regexp.MustCompile(`<page width="([\d.]+)" height="([\d.]+)">`)
	wordRE = regexp.MustCompile(`<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>`)
)

// need finds a poppler-utils program or fails the test saying what to
// install.
func need(t testing.TB, prog string) string {
	t.Helper()
	p, err := exec.LookPath(prog)
	require.NoError(t, err, "%s (Debian poppler-utils) is required; make test installs it", prog)
	return p
}

// PDF opens every page of a PDF with poppler.
func PDF(t testing.TB, data []byte) []Page {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "doc.pdf")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	out, err := exec.Command(need(t, "pdftotext"), "-bbox-layout", path, "-").Output()
	require.NoError(t, err, "pdftotext reads the PDF")
	var pages []Page
	for _, chunk := range strings.Split(string(out), "<page ")[1:] {
		m := pageRE.FindStringSubmatch("<page " + chunk)
		require.NotNil(t, m)
		p := Page{W: num(m[1]), H: num(m[2])}
		for _, w := range wordRE.FindAllStringSubmatch(chunk, -1) {
			p.Words = append(p.Words, Word{Text: html.UnescapeString(w[5]),
				XMin: num(w[1]), YMin: num(w[2]), XMax: num(w[3]), YMax: num(w[4])})
		}
		pages = append(pages, p)
	}
	require.NotEmpty(t, pages, "the PDF has pages")
	// The ink of each page, from a small greyscale render.
	_, err = exec.Command(need(t, "pdftoppm"), "-r", "24", "-gray", "-png", path, filepath.Join(dir, "p")).Output()
	require.NoError(t, err, "pdftoppm renders the PDF")
	for i := range pages {
		img := readPNG(t, renderName(dir, i+1, len(pages)))
		pages[i].Ink, pages[i].InkArea = ink(img)
	}
	return pages
}

// renderName is the file pdftoppm writes for page p of n: its number is
// zero-padded to the digits of n.
func renderName(dir string, p, n int) string {
	return filepath.Join(dir, fmt.Sprintf("p-%0*d.png", len(strconv.Itoa(n)), p))
}

func readPNG(t testing.TB, path string) image.Image {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	img, err := imagefile.Decode(b)
	require.NoError(t, err)
	return img
}

// ink answers how far down an image something darker than near-white is
// drawn above its running foot (0 to 1), and the share of its area inside
// the box round it all.
func ink(img image.Image) (float64, float64) {
	b := img.Bounds()
	minX, minY, maxX, maxY := b.Max.X, b.Max.Y, b.Min.X-1, b.Min.Y-1
	for y := b.Min.Y; y < b.Min.Y+b.Dy()*93/100; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if (r+g+bl)/3 < 0xF000 {
				minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
			}
		}
	}
	if maxY < minY {
		return 0, 0
	}
	area := float64((maxX-minX+1)*(maxY-minY+1)) / float64(b.Dx()*b.Dy())
	return float64(maxY+1-b.Min.Y) / float64(b.Dy()), area
}

func num(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// Overlap is two words of one page whose boxes cross.
type Overlap struct {
	Page int
	A, B Word
}

// String names the two words and where they are.
func (o Overlap) String() string {
	return fmt.Sprintf("page %d: %q (%.1f,%.1f) and %q (%.1f,%.1f)", o.Page, o.A.Text, o.A.XMin, o.A.YMin,
		o.B.Text, o.B.XMin, o.B.YMin)
}

// Overlaps lists the pairs of words whose boxes cross by more than tol
// points each way: text printed over other text.
func Overlaps(pages []Page, tol float64) []Overlap {
	var out []Overlap
	for p, pg := range pages {
		for i, a := range pg.Words {
			for _, b := range pg.Words[i+1:] {
				dx := min(a.XMax, b.XMax) - max(a.XMin, b.XMin)
				dy := min(a.YMax, b.YMax) - max(a.YMin, b.YMin)
				if dx > tol && dy > tol {
					out = append(out, Overlap{Page: p + 1, A: a, B: b})
				}
			}
		}
	}
	return out
}

// Sheet is what a test asserts of every page of a PDF: its size, and how
// far down the page the ink must reach for it not to count as mostly
// empty.
type Sheet struct {
	W, H float64
	// MinInk is the least share of the page's height the ink must reach
	// (0 skips the check).
	MinInk float64
}

// Check opens every page of a PDF and asserts that each is the size
// stated, has text, has no two words overlapping and is not mostly empty;
// it answers the pages.
func Check(t testing.TB, data []byte, want Sheet) []Page {
	t.Helper()
	pages := PDF(t, data)
	for i, p := range pages {
		require.InDelta(t, want.W, p.W, 1, "page %d width", i+1)
		require.InDelta(t, want.H, p.H, 1, "page %d height", i+1)
		require.NotEmpty(t, p.Words, "page %d has searchable text", i+1)
		if want.MinInk > 0 {
			require.GreaterOrEqual(t, p.Ink, want.MinInk, "page %d is mostly empty: its ink stops at %.0f%% of "+
				"its height", i+1, p.Ink*100)
		}
	}
	require.Empty(t, Overlaps(pages, 0.6), "text printed over text")
	return pages
}

// Margins asserts that nothing is drawn in the band of m pixels round a
// PNG or JPEG sheet: every pixel there is the paper's colour (its corner's,
// within 3 a channel; 6 for a JPEG's noise) — no card, image or text runs
// off the page.
func Margins(t testing.TB, data []byte, m int) image.Image {
	t.Helper()
	img, err := imagefile.Decode(data)
	require.NoError(t, err)
	tol := uint32(3 * 257)
	if bytes.HasPrefix(data, []byte{0xFF, 0xD8}) { // a JPEG
		tol = 6 * 257
	}
	b := img.Bounds()
	paper := img.At(b.Min.X, b.Min.Y)
	pr, pg, pb, _ := paper.RGBA()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if x >= b.Min.X+m && x < b.Max.X-m && y >= b.Min.Y+m && y < b.Max.Y-m {
				continue
			}
			r, g, bl, _ := img.At(x, y).RGBA()
			if diff(r, pr) > tol || diff(g, pg) > tol || diff(bl, pb) > tol {
				require.Failf(t, "drawn in the margin", "pixel (%d, %d) of a %d × %d sheet is not the paper",
					x, y, b.Dx(), b.Dy())
			}
		}
	}
	return img
}

func diff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// Collisions lists the boxes a sheet drew where text crosses other text,
// a swatch or an image by more than tol points each way: a figure printed
// over a swatch, a label run into a picture. A callout may sit on an
// image (that is what it is for) but not on text or another callout.
func Collisions(boxes []pdfsheet.Box, tol float64) []string {
	var out []string
	textual := func(b pdfsheet.Box) bool {
		return (b.Kind == pdfsheet.BoxText || b.Kind == pdfsheet.BoxCallout) && strings.TrimSpace(b.Text) != ""
	}
	for i, a := range boxes {
		if !textual(a) {
			continue
		}
		for j, b := range boxes {
			if j == i || (textual(b) && j < i) || (b.Kind == pdfsheet.BoxText && b.Text == "") {
				continue
			}
			if a.Kind == pdfsheet.BoxCallout && b.Kind == pdfsheet.BoxImage ||
				b.Kind == pdfsheet.BoxCallout && a.Kind == pdfsheet.BoxImage {
				continue
			}
			if a.Overlaps(b, tol) {
				out = append(out, fmt.Sprintf("page %d: text %q at (%.1f, %.1f) crosses %s %q at (%.1f, %.1f)",
					a.Page, a.Text, a.X, a.Y, b.Kind, b.Text, b.X, b.Y))
			}
		}
	}
	return out
}
