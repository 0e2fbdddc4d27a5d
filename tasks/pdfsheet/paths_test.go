package pdfsheet_test

import (
	"bytes"
	"compress/zlib"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
)

// circle is a circle of radius r round (cx, cy) as four cubic segments.
func circle(cx, cy, r float64) []pdfsheet.Cubic {
	const k = 0.5523
	p := func(x, y float64) [2]float64 { return [2]float64{cx + x*r, cy + y*r} }
	return []pdfsheet.Cubic{
		{p(1, 0), p(1, k), p(k, 1), p(0, 1)},
		{p(0, 1), p(-k, 1), p(-1, k), p(-1, 0)},
		{p(-1, 0), p(-1, -k), p(-k, -1), p(0, -1)},
		{p(0, -1), p(k, -1), p(1, -k), p(1, 0)},
	}
}

// inflated is every Flate stream of a PDF, decompressed and joined.
func inflated(pdf []byte) []byte {
	var out []byte
	for rest := pdf; ; {
		i := bytes.Index(rest, []byte("stream\n"))
		if i < 0 {
			return out
		}
		rest = rest[i+len("stream\n"):]
		j := bytes.Index(rest, []byte("endstream"))
		if j < 0 {
			return out
		}
		if r, err := zlib.NewReader(bytes.NewReader(rest[:j])); err == nil {
			if b, err := io.ReadAll(r); err == nil {
				out = append(out, b...)
			}
		}
		rest = rest[j+len("endstream"):]
	}
}

// TestPathsAreOneClosedVectorPathEach draws two circles as one Path: the
// PDF holds each as one path (one moveto, its four curvetos, closepath
// and one stroke), and poppler draws the stroke on the circle and nothing
// inside it.
func TestPathsAreOneClosedVectorPathEach(t *testing.T) {
	s := pdfsheet.A4("paths", true)
	s.Paths(100, 100, 300, 200, []pdfsheet.Path{{
		Rings:  [][]pdfsheet.Cubic{circle(200, 200, 80), circle(330, 200, 50)},
		Width:  2,
		Colour: color.RGBA{0, 0, 0, 255},
	}})
	data, err := s.Bytes()
	require.NoError(t, err)
	ops := inflated(data)
	require.Equal(t, 2, bytes.Count(ops, []byte(" m\n")), "one moveto a ring")
	require.Equal(t, 8, bytes.Count(ops, []byte(" c\n")), "its curves as curvetos")
	require.Equal(t, 2, bytes.Count(ops, []byte("h S\n")), "closed and stroked once")

	dir := t.TempDir()
	path := filepath.Join(dir, "p.pdf")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	out, err := exec.Command("pdftoppm", "-r", "72", "-gray", "-png", "-singlefile", path, filepath.Join(dir, "p")).
		CombinedOutput()
	require.NoError(t, err, string(out))
	f, err := os.Open(filepath.Join(dir, "p.png"))
	require.NoError(t, err)
	defer func() { _ = f.Close() }()
	img, err := png.Decode(f)
	require.NoError(t, err)
	dark := func(x, y float64) bool {
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if v, _, _, _ := img.At(int(math.Round(x))+dx, int(math.Round(y))+dy).RGBA(); v < 0x8000 {
					return true
				}
			}
		}
		return false
	}
	for a := 0.0; a < 2*math.Pi; a += math.Pi / 8 {
		require.True(t, dark(200+80*math.Cos(a), 200+80*math.Sin(a)), "the stroke at %.2f rad", a)
	}
	require.False(t, dark(200, 200), "nothing inside")
	require.False(t, dark(260, 130), "nothing outside")
}
