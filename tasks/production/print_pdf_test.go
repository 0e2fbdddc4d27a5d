package production

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
)

// printOutputs runs both steps of print.prepare on art.
func printOutputs(t *testing.T, art image.Image, body string) []tasks.Output {
	t.Helper()
	d := lookup(t, "print.prepare")
	in, err := d.Validate([]byte(body))
	require.NoError(t, err, body)
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, art))
	file := tasks.ExampleFile{Ref: "file:markers", Data: func() []byte { return buf.Bytes() }}
	var out []tasks.Output
	for i := range 2 {
		o, err := d.Runner.Step(tasks.WithLoader(context.Background(), loaderOf{file}), in, i)
		require.NoError(t, err)
		out = append(out, o)
	}
	return out
}

// boxes reads pdfinfo -box: each box as [llx lly urx ury] in points.
func boxes(t *testing.T, pdf []byte) map[string][4]float64 {
	info := poppler(t, "pdfinfo", pdf, "-box")
	out := map[string][4]float64{}
	for _, m := range regexp.MustCompile(`(?m)^(\w+Box):\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)`).
		FindAllStringSubmatch(info, -1) {
		var v [4]float64
		for i := range 4 {
			v[i], _ = strconv.ParseFloat(m[i+2], 64)
		}
		out[m[1]] = v
	}
	return out
}

// rasterise renders the PDF's page with pdftoppm at dpi.
func rasterise(t testing.TB, pdf []byte, dpi int) image.Image {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pdf")
	require.NoError(t, os.WriteFile(in, pdf, 0o600))
	out, err := exec.Command("pdftoppm", "-png", "-r", strconv.Itoa(dpi), "-singlefile", in,
		filepath.Join(dir, "page")).CombinedOutput()
	require.NoError(t, err, string(out))
	f, err := os.Open(filepath.Join(dir, "page.png"))
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	return img
}

// TestPrintPDFIsOneAPrintShopTakes reads the print PDF with poppler: the
// trim box is the size asked, the bleed box bleed_mm beyond it, the media
// box holds crop marks outside the bleed; the font is embedded; the image
// is at the file's dpi, in RGB or CMYK as asked; and every edge marker of
// the artwork shows inside the trim.
func TestPrintPDFIsOneAPrintShopTakes(t *testing.T) {
	for _, tc := range []struct {
		name, body          string
		trimW, trimH, bleed float64
		dpi                 int
		colour              string
	}{
		{"A4 poster in RGB", `"width_mm":210,"height_mm":297,"dpi":100,"bleed_mm":3`, 210, 297, 3, 100, "rgb"},
		{"banner in CMYK", `"width_mm":300,"height_mm":100,"dpi":150,"bleed_mm":5,"colour_space":"cmyk"`,
			300, 100, 5, 150, "cmyk"},
		{"label without bleed", `"width_mm":50,"height_mm":150,"dpi":300`, 50, 150, 0, 300, "rgb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := printOutputs(t, markerArt(900, 700), `{"image":"file:markers",`+tc.body+`}`)
			pdf := out[1].Data
			require.Equal(t, "application/pdf", out[1].MediaType)
			k := pdfsheet.PointsPerMM
			bx := boxes(t, pdf)
			trim, bleed, media := bx["TrimBox"], bx["BleedBox"], bx["MediaBox"]
			require.InDelta(t, tc.trimW*k, trim[2]-trim[0], 0.02)
			require.InDelta(t, tc.trimH*k, trim[3]-trim[1], 0.02)
			for i, sign := range []float64{-1, -1, 1, 1} {
				require.InDelta(t, trim[i]+sign*tc.bleed*k, bleed[i], 0.02, "bleed box side %d", i)
				require.LessOrEqual(t, sign*bleed[i]+7*k, sign*media[i]+0.01, "room for the marks outside the bleed")
			}

			fonts := poppler(t, "pdffonts", pdf)
			lines := strings.Split(strings.TrimSpace(fonts), "\n")
			require.Greater(t, len(lines), 2, "a font is used: %s", fonts)
			for _, l := range lines[2:] {
				f := strings.Fields(l)
				require.Equal(t, "yes", f[len(f)-5], "embedded: %s", l)
			}

			list := poppler(t, "pdfimages", pdf, "-list")
			rows := strings.Split(strings.TrimSpace(list), "\n")
			require.Len(t, rows, 3, "one image: %s", list)
			f := strings.Fields(rows[2])
			require.Equal(t, tc.colour, f[5])
			require.Equal(t, strconv.Itoa(tc.dpi), f[12], "x-ppi")
			require.Equal(t, strconv.Itoa(tc.dpi), f[13], "y-ppi")
			require.Equal(t, strconv.Itoa(out[0].Meta["width_px"].(int)), f[3], "the PNG's pixels, not fewer")

			// Crop marks: dark on the trim lines in the slug, nothing between
			// them and the bleed; at 72 dpi one pixel is one point.
			page := rasterise(t, pdf, 72)
			H := page.Bounds().Dy()
			dark := func(x, y float64) bool {
				for dx := -1; dx <= 1; dx++ {
					r, g, b, _ := page.At(int(x)+dx, H-1-int(y)).RGBA()
					if r+g+b < 3*0x8000 {
						return true
					}
				}
				return false
			}
			markMid := bleed[1] - (2+2.5)*k
			require.True(t, dark(trim[0], markMid), "a crop mark below the bleed at the left trim line")
			require.True(t, dark(trim[2], markMid), "and at the right")
			require.False(t, dark(trim[0], bleed[1]-1*k), "the mark stops short of the bleed")

			if tc.colour == "cmyk" {
				return // the markers' colours are converted; the RGB cases check the art
			}
			page = rasterise(t, pdf, tc.dpi)
			H = page.Bounds().Dy()
			scale := float64(tc.dpi) / 72
			found := map[string]int{}
			for y := H - int(trim[3]*scale) + 1; y < H-int(trim[1]*scale)-1; y++ {
				for x := int(trim[0]*scale) + 1; x < int(trim[2]*scale)-1; x++ {
					r, g, b, _ := page.At(x, y).RGBA()
					for name, c := range markers {
						d := absDiff(int(r>>8), int(c.R)) + absDiff(int(g>>8), int(c.G)) + absDiff(int(b>>8), int(c.B))
						if d <= 24 {
							found[name]++
						}
					}
				}
			}
			for name := range markers {
				require.Greater(t, found[name], 20, "the %s shows in the PDF's trim (%v)", name, found)
			}
		})
	}
}

// TestCMYKFormula: the documented conversion on the colours it is stated
// for.
func TestCMYKFormula(t *testing.T) {
	for _, tc := range []struct {
		in   color.NRGBA
		want [4]uint8
	}{
		{color.NRGBA{255, 255, 255, 255}, [4]uint8{0, 0, 0, 0}},
		{color.NRGBA{0, 0, 0, 255}, [4]uint8{0, 0, 0, 255}},
		{color.NRGBA{255, 0, 0, 255}, [4]uint8{0, 255, 255, 0}},
		{color.NRGBA{128, 128, 128, 255}, [4]uint8{0, 0, 0, 127}},
		{color.NRGBA{0, 128, 255, 255}, [4]uint8{255, 127, 0, 0}},
	} {
		c, m, y, k := colour.FormulaPixel(tc.in.R, tc.in.G, tc.in.B)
		require.Equal(t, tc.want, [4]uint8{c, m, y, k}, "%v", tc.in)
	}
}
