package pdfsheet

import (
	"bytes"
	"compress/zlib"
	"crypto/md5"
	"fmt"
	"image"
	"io"
	"strings"
	"sync"

	"github.com/taskplatform/taskplatform/tasks/colour"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// The print file's marks, in millimetres: crop marks start markOffsetMM
// outside the bleed and run markLengthMM; the slug beyond the bleed holds
// them and a line of text.
const (
	markOffsetMM = 2
	markLengthMM = 5
	slugMM       = markOffsetMM + markLengthMM + 3
	slugTextPt   = 6
)

// Print is one page of a print file: the art covers the bleed box at its
// own resolution, the trim and bleed boxes are set, crop marks sit in the
// slug outside the bleed, and one line of text (set in the embedded Go
// font) says what the file is.
type Print struct {
	Title   string
	TrimWMM float64 // the trim size
	TrimHMM float64
	BleedMM float64 // on each side
	Art     *image.NRGBA
	CMYK    bool // the art in DeviceCMYK through Press, else DeviceRGB
	// Press converts the art to CMYK; with an ICC profile, the profile is
	// embedded as the PDF's output intent.
	Press    colour.Press
	Slug     string // the slug line, ASCII
	Compress int    // zlib level of the image
}

// Boxes are a print page's boxes in points, from the media box's
// lower-left corner: [llx lly urx ury].
type Boxes struct {
	Media, Bleed, Trim [4]float64
}

// Boxes computes the page's boxes.
func (p Print) Boxes() Boxes {
	k := PointsPerMM
	s, b := slugMM+p.BleedMM, p.BleedMM
	w, h := (p.TrimWMM+2*s)*k, (p.TrimHMM+2*s)*k
	return Boxes{
		Media: [4]float64{0, 0, w, h},
		Bleed: [4]float64{(s - b) * k, (s - b) * k, w - (s-b)*k, h - (s-b)*k},
		Trim:  [4]float64{s * k, s * k, w - s*k, h - s*k},
	}
}

// Bytes writes the page as a PDF 1.6 file.
func (p Print) Bytes() ([]byte, error) {
	bx := p.Boxes()
	img, err := p.imageStream()
	if err != nil {
		return nil, err
	}
	ff, err := deflate(goregular.TTF, zlib.BestCompression)
	if err != nil {
		return nil, err
	}
	metrics, err := fontMetrics()
	if err != nil {
		return nil, err
	}
	content := p.content(bx, metrics)
	space := "/DeviceRGB"
	if p.CMYK {
		space = "/DeviceCMYK"
	}
	b := p.Art.Rect
	box := func(v [4]float64) string { return fmt.Sprintf("[%.3f %.3f %.3f %.3f]", v[0], v[1], v[2], v[3]) }
	catalog := "<< /Type /Catalog /Pages 2 0 R >>"
	var extra []string
	if profile := p.Press.ICC(); p.CMYK && profile != nil {
		// The output intent: the profile the CMYK values were made for, as
		// a preflight and a RIP read it (object 9).
		data, err := deflate(profile, zlib.BestCompression)
		if err != nil {
			return nil, err
		}
		name := escape(ascii(p.Press.ProfileName()))
		catalog = fmt.Sprintf("<< /Type /Catalog /Pages 2 0 R /OutputIntents [<< /Type /OutputIntent /S /GTS_PDFX "+
			"/OutputConditionIdentifier (Custom) /OutputCondition (%s) /Info (%s) /DestOutputProfile 9 0 R >>] >>",
			name, name)
		extra = append(extra, stream("/N 4 /Alternate /DeviceCMYK /Filter /FlateDecode", data))
	}
	objs := []string{
		catalog,
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox %s /CropBox %s /BleedBox %s /TrimBox %s "+
			"/Resources << /XObject << /Art 5 0 R >> /Font << /F1 6 0 R >> >> /Contents 4 0 R >>",
			box(bx.Media), box(bx.Media), box(bx.Bleed), box(bx.Trim)),
		stream("", []byte(content)),
		stream(fmt.Sprintf("/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace %s "+
			"/BitsPerComponent 8 /Filter /FlateDecode", b.Dx(), b.Dy(), space), img),
		fmt.Sprintf("<< /Type /Font /Subtype /TrueType /BaseFont /GoRegular /FirstChar 32 /LastChar 126 "+
			"/Widths [%s] /Encoding /WinAnsiEncoding /FontDescriptor 7 0 R >>", metrics.widths()),
		fmt.Sprintf("<< /Type /FontDescriptor /FontName /GoRegular /Flags 32 /FontBBox [%d %d %d %d] "+
			"/ItalicAngle 0 /Ascent %d /Descent %d /CapHeight %d /StemV 80 /FontFile2 8 0 R >>",
			metrics.bbox[0], metrics.bbox[1], metrics.bbox[2], metrics.bbox[3],
			metrics.ascent, metrics.descent, metrics.capHeight),
		stream(fmt.Sprintf("/Length1 %d /Filter /FlateDecode", len(goregular.TTF)), ff),
	}
	objs = append(objs, extra...)
	objs = append(objs,
		fmt.Sprintf("<< /Title (%s) /Creator (taskplatform print.prepare) /Producer (taskplatform pdfsheet) "+
			"/Trapped /False >>", escape(ascii(p.Title))))
	var out bytes.Buffer
	out.WriteString("%PDF-1.6\n%\xe2\xe3\xcf\xd3\n")
	xref := WriteObjects(&out, objs)
	id := md5.Sum(out.Bytes())
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R /ID [<%x> <%x>] >>\nstartxref\n%d\n%%%%EOF\n",
		len(objs)+1, len(objs), id, id, xref)
	return out.Bytes(), nil
}

// stream writes a stream object with the dictionary entries dict.
func stream(dict string, data []byte) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
}

// content draws the art over the bleed box, the crop marks and the slug
// line.
func (p Print) content(bx Boxes, m *metrics) string {
	var c strings.Builder
	bl := bx.Bleed
	fmt.Fprintf(&c, "q %.4f 0 0 %.4f %.4f %.4f cm /Art Do Q\n", bl[2]-bl[0], bl[3]-bl[1], bl[0], bl[1])
	ink := "0 0 0 rg 0 0 0 RG"
	if p.CMYK {
		ink = "1 1 1 1 k 1 1 1 1 K" // registration: on every plate
	}
	fmt.Fprintf(&c, "q %s 0.25 w\n", ink)
	k := PointsPerMM
	t := bx.Trim
	off, l := (p.BleedMM+markOffsetMM)*k, markLengthMM*k
	for _, x := range []float64{t[0], t[2]} {
		fmt.Fprintf(&c, "%.3f %.3f m %.3f %.3f l S\n", x, t[1]-off, x, t[1]-off-l)
		fmt.Fprintf(&c, "%.3f %.3f m %.3f %.3f l S\n", x, t[3]+off, x, t[3]+off+l)
	}
	for _, y := range []float64{t[1], t[3]} {
		fmt.Fprintf(&c, "%.3f %.3f m %.3f %.3f l S\n", t[0]-off, y, t[0]-off-l, y)
		fmt.Fprintf(&c, "%.3f %.3f m %.3f %.3f l S\n", t[2]+off, y, t[2]+off+l, y)
	}
	// The slug line sits below the bottom marks' ends, between the corners.
	room := t[2] - t[0] - 2*k
	line := m.fit(ascii(p.Slug), slugTextPt, room)
	fmt.Fprintf(&c, "BT /F1 %d Tf %.3f %.3f Td (%s) Tj ET\nQ\n", slugTextPt, t[0]+k, 1.2*k, escape(line))
	return c.String()
}

// imageStream is the art's samples, RGB or CMYK, deflated.
func (p Print) imageStream() ([]byte, error) {
	var buf bytes.Buffer
	zw, err := zlib.NewWriterLevel(&buf, p.Compress)
	if err != nil {
		return nil, err
	}
	a := p.Art
	W := a.Rect.Dx()
	n := 3
	if p.CMYK {
		n = 4
	}
	row := make([]byte, W*n)
	for y := range a.Rect.Dy() {
		src := a.Pix[y*a.Stride : y*a.Stride+4*W]
		for x := range W {
			r, g, b := src[4*x], src[4*x+1], src[4*x+2]
			if p.CMYK {
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = p.Press.Pixel(r, g, b)
			} else {
				row[3*x], row[3*x+1], row[3*x+2] = r, g, b
			}
		}
		if _, err := zw.Write(row); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func deflate(data []byte, level int) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := zlib.NewWriterLevel(&buf, level)
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(zw, bytes.NewReader(data)); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// metrics are the Go font's PDF metrics, in thousandths of the font size.
type metrics struct {
	advance                    [95]int // characters 32 to 126
	bbox                       [4]int
	ascent, descent, capHeight int
}

var fontMetrics = sync.OnceValues(func() (*metrics, error) {
	f, err := sfnt.Parse(goregular.TTF)
	if err != nil {
		return nil, fmt.Errorf("go font: %w", err)
	}
	var b sfnt.Buffer
	ppem := fixed.I(1000)
	m := &metrics{}
	for c := rune(32); c <= 126; c++ {
		g, err := f.GlyphIndex(&b, c)
		if err != nil {
			return nil, err
		}
		adv, err := f.GlyphAdvance(&b, g, ppem, font.HintingNone)
		if err != nil {
			return nil, err
		}
		m.advance[c-32] = adv.Round()
	}
	bounds, err := f.Bounds(&b, ppem, font.HintingNone)
	if err != nil {
		return nil, err
	}
	// sfnt's y axis points down; PDF's up.
	m.bbox = [4]int{bounds.Min.X.Round(), -bounds.Max.Y.Round(), bounds.Max.X.Round(), -bounds.Min.Y.Round()}
	fm, err := f.Metrics(&b, ppem, font.HintingNone)
	if err != nil {
		return nil, err
	}
	m.ascent, m.descent, m.capHeight = fm.Ascent.Round(), -fm.Descent.Round(), fm.CapHeight.Round()
	return m, nil
})

func (m *metrics) widths() string {
	parts := make([]string, len(m.advance))
	for i, a := range m.advance {
		parts[i] = fmt.Sprint(a)
	}
	return strings.Join(parts, " ")
}

// fit cuts s to at most width points at size.
func (m *metrics) fit(s string, size, width float64) string {
	w := 0.0
	for i, c := range s {
		w += float64(m.advance[c-32]) * size / 1000
		if w > width {
			return s[:i]
		}
	}
	return s
}

// ascii keeps the characters the slug's WinAnsi font sets: printable ASCII,
// with × and · spelt x and -.
func ascii(s string) string {
	s = strings.NewReplacer("×", "x", "·", "-", "—", "-", "–", "-").Replace(s)
	return strings.Map(func(r rune) rune {
		if r < 32 || r > 126 {
			return '?'
		}
		return r
	}, s)
}

// escape escapes a PDF literal string.
func escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(s)
}
