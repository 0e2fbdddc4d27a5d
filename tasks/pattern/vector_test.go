package pattern

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
)

// vectorBodies are tiles of every vector kind, at angles, layouts and
// colour counts that exercise each shape.
var vectorBodies = []string{
	`{"kind":"stripes","colors":["#F4F1EA","#1C2E5A"],"stripe_widths":[6,1,1,1],"resolution":"512","seed":3}`,
	`{"kind":"stripes","colors":["#1B2A4A","#F4F1EA","#C8102E"],"stripe_angle":45,"seed":7,"resolution":"512"}`,
	`{"kind":"stripes","colors":["#1B2A4A","#E8C547"],"stripe_angle":135,"seed":2,"resolution":"512"}`,
	`{"kind":"stripes","colors":["#2A9D8F","#264653"],"stripe_angle":90,"seed":5,"resolution":"512"}`,
	`{"kind":"checks","colors":["#FFFFFF","#111111","#C8102E"],"repeats":6,"seed":4,"resolution":"512"}`,
	`{"kind":"dots","colors":["#FFF8E7","#E4572E","#17BEBB"],"dot_size":0.6,"repeats":6,"seed":9,"resolution":"512"}`,
	`{"kind":"dots","colors":["#1C2E5A","#F4F1EA"],"dot_layout":"grid","repeats":5,"seed":1,"resolution":"512"}`,
	`{"kind":"chevron","colors":["#0B3D2E","#E8C547","#B22222"],"repeats":4,"seed":6,"resolution":"512"}`,
	`{"kind":"waves","colors":["#1C2E5A","#F4F1EA"],"repeats":3,"amplitude":0.7,"seed":8,"resolution":"512"}`,
	`{"kind":"diamonds","colors":["#F4F1EA","#1C2E5A","#C8102E"],"repeats":4,"seed":2,"resolution":"512"}`,
	`{"kind":"gingham","colors":["#FFFFFF","#C8102E"],"seed":3,"resolution":"512"}`,
	`{"kind":"buffalo_check","colors":["#111111","#B22222"],"seed":1,"resolution":"512"}`,
	`{"kind":"windowpane","colors":["#EDE6D6","#1C2E5A","#B22222"],"line_width":0.06,"seed":5,"resolution":"512"}`,
	`{"kind":"houndstooth","colors":["#F5F1E6","#111111"],"repeats":6,"seed":3,"resolution":"512"}`,
	`{"kind":"plaid","colors":["#111111","#C8102E","#E8C547"],"sett":"K4 R24 K24 Y4","seed":2,"resolution":"512"}`,
	`{"kind":"stripes","colors":["#C8102E"],"stripe_angle":45,"seed":4,"resolution":"512"}`,
}

// withFormat is body with "format" set.
func withFormat(body, format string) string {
	return strings.TrimSuffix(body, "}") + fmt.Sprintf(`,"format":%q}`, format)
}

// file is output 0 of body as delivered, kept under PATTERN_DIR when set.
func file(t testing.TB, body string) ([]byte, string, string) {
	t.Helper()
	o, err := mustLookup(t, "pattern.generate").Runner.Step(context.Background(), patternInput(t, body), 0)
	require.NoError(t, err)
	if dir := os.Getenv("PATTERN_DIR"); dir != "" {
		name := fmt.Sprintf("%s_%d_%x.%s", o.Meta["kind"], o.Meta["seed"], len(body), o.Ext)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), o.Data, 0o644))
	}
	return o.Data, o.MediaType, o.Ext
}

// svgCounts parses an SVG with encoding/xml: its root's width, height and
// viewBox and how many of each element it holds.
func svgCounts(t *testing.T, data []byte) (map[string]string, map[string]int) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	root, counts := map[string]string{}, map[string]int{}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if se, ok := tok.(xml.StartElement); ok {
			counts[se.Name.Local]++
			if se.Name.Local == "svg" {
				require.Equal(t, "http://www.w3.org/2000/svg", se.Name.Space)
				for _, a := range se.Attr {
					root[a.Name.Local] = a.Value
				}
			}
		}
	}
	return root, counts
}

// The SVG of each vector kind is well-formed XML, as large as the PNG,
// made of plain shapes (no <pattern>, no <image>), one per cell or band.
func TestVectorTileIsPlainSVG(t *testing.T) {
	for _, body := range vectorBodies {
		data, media, ext := file(t, withFormat(body, "svg"))
		require.Equal(t, "image/svg+xml", media)
		require.Equal(t, "svg", ext)
		root, counts := svgCounts(t, data)
		require.Equal(t, "512", root["width"], body)
		require.Equal(t, "512", root["height"], body)
		require.Equal(t, "0 0 512 512", root["viewBox"], body)
		require.Zero(t, counts["pattern"], body)
		require.Zero(t, counts["image"], body)
		require.Greater(t, counts["rect"]+counts["circle"]+counts["path"], 3, body)
	}
	// A grid of 5 × 5 dots: 25 circles in the tile, plus the parts of those
	// cut by an edge (at most a row and a column more, and a corner).
	data, _, _ := file(t, withFormat(vectorBodies[6], "svg"))
	_, counts := svgCounts(t, data)
	require.GreaterOrEqual(t, counts["circle"], 25)
	require.LessOrEqual(t, counts["circle"], 36)
	// 6 × 6 checks: 36 squares, at most 13 more cut by the edges, the
	// ground and the clip's rectangle.
	data, _, _ = file(t, withFormat(vectorBodies[4], "svg"))
	_, counts = svgCounts(t, data)
	require.GreaterOrEqual(t, counts["rect"], 36+2)
	require.LessOrEqual(t, counts["rect"], 49+2)
}

// pdfPage renders a one-page PDF with pdftoppm at 72 dpi: one pixel a point.
func pdfPage(t *testing.T, pdf []byte) *image.NRGBA {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "tile.pdf")
	require.NoError(t, os.WriteFile(in, pdf, 0o600))
	info, err := exec.Command("pdfinfo", in).CombinedOutput()
	require.NoError(t, err, "%s (Debian poppler-utils) is required", info)
	require.Contains(t, string(info), "Pages:           1")
	require.Contains(t, string(info), "Page size:       512 x 512 pts")
	out, err := exec.Command("pdftoppm", "-png", "-r", "72", "-aa", "yes", "-aaVector", "yes", "-singlefile", in,
		filepath.Join(dir, "page")).CombinedOutput()
	require.NoError(t, err, string(out))
	return decodePNG(t, filepath.Join(dir, "page.png"))
}

func decodePNG(t *testing.T, path string) *image.NRGBA {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer func() { require.NoError(t, f.Close()) }()
	dec, err := png.Decode(f)
	require.NoError(t, err)
	img := image.NewNRGBA(dec.Bounds())
	draw.Draw(img, img.Rect, dec, dec.Bounds().Min, draw.Src)
	return img
}

// differs compares a render with the PNG tile: the share of the PNG's
// inner pixels (the pixel and its 8 neighbours one colour: no edge near)
// the render draws in another colour (more than 24 of 255 off on a
// channel), and the mean difference per channel over all pixels.
func differs(want, got *image.NRGBA) (share, mean float64) {
	var far, inner, sum int
	w, h := want.Rect.Dx(), want.Rect.Dy()
	for y := range h {
		for x := range w {
			i := want.PixOffset(x, y)
			worst := 0
			for c := range 3 {
				d := abs(int(want.Pix[i+c]) - int(got.Pix[i+c]))
				sum += d
				worst = max(worst, d)
			}
			if !flat(want, x, y) {
				continue
			}
			inner++
			if worst > 24 {
				far++
			}
		}
	}
	return float64(far) / float64(max(1, inner)), float64(sum) / float64(3*w*h)
}

// flat says pixel (x, y) and its neighbours in the tile (wrapping) are one colour.
func flat(img *image.NRGBA, x, y int) bool {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	c := img.NRGBAAt(x, y)
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if img.NRGBAAt((x+dx+w)%w, (y+dy+h)%h) != c {
				return false
			}
		}
	}
	return true
}

// The PDF of each opaque vector kind, rendered by poppler at one pixel a
// point, is the PNG tile: away from edges (where two anti-aliasers round
// differently) no pixel is another colour, and the mean difference is
// under 3 of 255.
func TestVectorPDFRendersAsThePNG(t *testing.T) {
	for _, body := range vectorBodies[:len(vectorBodies)-1] {
		raster, _, _ := file(t, body)
		want, err := png.Decode(bytes.NewReader(raster))
		require.NoError(t, err)
		wantN := image.NewNRGBA(want.Bounds())
		draw.Draw(wantN, wantN.Rect, want, image.Point{}, draw.Src)
		pdf, media, ext := file(t, withFormat(body, "pdf"))
		require.Equal(t, "application/pdf", media)
		require.Equal(t, "pdf", ext)
		got := pdfPage(t, pdf)
		require.Equal(t, wantN.Rect, got.Rect, body)
		share, mean := differs(wantN, got)
		t.Logf("%s: %.3f %% of inner pixels another colour, mean %.2f", body, 100*share, mean)
		require.Zero(t, share, body)
		require.Less(t, mean, 3.0, body)
	}
}

// A woven check with one colour has no ground for its mixed tones: as a
// vector it is refused, naming colors.
func TestOneColourWovenCheckRefusesVectors(t *testing.T) {
	d := mustLookup(t, "pattern.generate")
	for _, body := range []string{
		`{"kind":"gingham","colors":["#C8102E"],"format":"svg"}`,
		`{"kind":"windowpane","colors":["#1C2E5A"],"format":"pdf"}`,
	} {
		_, err := d.Validate([]byte(body))
		var e *apierr.Error
		require.ErrorAs(t, err, &e, body)
		require.Equal(t, apierr.RequestRefused, e.Code, body)
		require.Contains(t, e.Message, "Send 2 or 3 colours", body)
		require.Equal(t, "colors", *e.Field, body)
	}
}

// The Béziers of waves follow the cosine the PNG samples: at the middle
// of every piece, within 0.05 % of a cell of it.
func TestWaveBeziersFollowTheCosine(t *testing.T) {
	s := newSpec(generateIn(t, vectorBodies[8]), 0)
	v := newView(s)
	worst, curves := 0.0, 0
	for _, sh := range s.shapes() {
		from := sh.start
		for _, p := range sh.path {
			if p.curve {
				curves++
				mid := pt{(from.x + 3*p.c1.x + 3*p.c2.x + p.to.x) / 8, (from.y + 3*p.c1.y + 3*p.c2.y + p.to.y) / 8}
				X := mid.x/v.cell + v.x0
				// The curve through the piece's start: its band base, then
				// the cosine at X.
				f := func(X float64) float64 { return (1 - math.Cos(2*math.Pi*X)) / 2 }
				base := from.y/v.cell + v.y0 + s.amp*f(from.x/v.cell+v.x0)
				want := base - s.amp*f(X)
				worst = max(worst, math.Abs(mid.y/v.cell+v.y0-want))
			}
			from = p.to
		}
	}
	t.Logf("worst distance from the cosine: %.5f of a cell, %d pieces", worst, curves)
	require.Greater(t, curves, 8*3*2)
	require.Less(t, worst, 0.0005)
}
