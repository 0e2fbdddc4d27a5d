package colourwork

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/pngenc"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

var (
	navyInk   = color.NRGBA{0x1B, 0x2A, 0x4A, 255}
	yellowInk = color.NRGBA{0xF2, 0xC9, 0x1E, 255}
	creamInk  = color.NRGBA{0xF4, 0xEC, 0xD6, 255}
	coralInk  = color.NRGBA{0xF2, 0x73, 0x5E, 255}
)

// discDesign is a yellow disc of radius 60 on navy, 240 × 200 px,
// anti-aliased.
func discDesign() *image.NRGBA {
	d := truthDesign{name: "disc", w: 240, h: 200, inks: []color.NRGBA{navyInk, yellowInk},
		layers: []layer{{1, disc(120, 100, 60)}}}
	img, _ := d.render()
	return img
}

// black counts a film's black pixels in r.
func black(film image.Image, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if color.GrayModel.Convert(film.At(x, y)).(color.Gray).Y == 0 {
				n++
			}
		}
	}
	return n
}

// TestFilmsCarryMarksAndLabel: every film of a job is the same size, the
// design sits margin_px in, four registration marks sit at the middle of
// the margins (their centres black), the label band below the design has
// text, and the PNG records the dpi.
func TestFilmsCarryMarksAndLabel(t *testing.T) {
	f := files{"file:d": pngOf(t, discDesign())}
	body := `{"image":"file:d","max_colours":4,"job_name":"Sun tee","dpi":200}`
	imgs, data, _ := run(t, "colour.separate", body, f)
	require.Len(t, imgs, 3)
	m := int(data[1]["margin_px"].(float64))
	require.Equal(t, mmToPx(filmMarginMM, 200), m)
	for i, film := range imgs[1:] {
		b := film.Bounds()
		require.Equal(t, imgs[1].Bounds(), b, "films line up")
		require.Equal(t, "Sun tee", data[i+1]["job_name"])
		require.InDelta(t, 240/200.0*25.4, data[i+1]["width_mm"], 0.1)
		for _, c := range []image.Point{{b.Dx() / 2, m / 2}, {m / 2, m + 100}, {b.Dx() - m/2, m + 100},
			{b.Dx() / 2, m + 200 + m/2}} {
			require.Zero(t, black(film, image.Rect(c.X-1, c.Y-1, c.X+2, c.Y+2))-9, "a mark at %v", c)
		}
		require.Greater(t, black(film, image.Rect(0, 2*m+200, b.Dx(), b.Dy())), 200, "the label")
	}
	require.Equal(t, "Yellow", data[1]["ink_name"], "lightest first")
	out, err := task(t, "colour.separate").Runner.Step(tasks.WithLoader(context.Background(), f),
		validated(t, body), 1)
	require.NoError(t, err)
	var phys [4]byte
	i := bytes.Index(out.Data, []byte("pHYs"))
	require.Positive(t, i)
	copy(phys[:], out.Data[i+4:])
	require.Equal(t, pngenc.PixelsPerMetre(200), uint32(phys[0])<<24|uint32(phys[1])<<16|uint32(phys[2])<<8|
		uint32(phys[3]))
}

func validated(t *testing.T, body string) tasks.Input {
	d := task(t, "colour.separate")
	in, err := d.Validate([]byte(body))
	require.NoError(t, err)
	raw, _ := json.Marshal(in)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	return taskstest.Input(t, d, m)
}

// TestTrapSpreadsLightUnderDark: with trap the yellow film grows by about
// trap px all round (under the darker navy); the navy film does not grow.
func TestTrapSpreadsLightUnderDark(t *testing.T) {
	f := files{"file:d": pngOf(t, discDesign())}
	plain, _, _ := run(t, "colour.separate", `{"image":"file:d","max_colours":2}`, f)
	trapped, data, _ := run(t, "colour.separate", `{"image":"file:d","max_colours":2,"trap_mm":0.254,"dpi":300}`, f)
	require.Equal(t, float64(3), data[1]["trap_px"])
	m := int(data[1]["margin_px"].(float64))
	all := image.Rect(m, m, m+240, m+200)
	grown := black(trapped[1], all) - black(plain[1], all)
	ring := math.Pi * (63*63 - 60*60)
	require.InDelta(t, ring, float64(grown), ring*0.1, "yellow spreads 3 px under navy")
	require.Equal(t, black(plain[2], all), black(trapped[2], all), "navy does not spread under yellow")
}

// TestUnderbaseIsChokedUnderTheInks: on a navy garment the navy ground
// gets no film; the underbase prints first, inside the yellow disc,
// choked 4 px.
func TestUnderbaseIsChokedUnderTheInks(t *testing.T) {
	f := files{"file:d": pngOf(t, discDesign())}
	body := `{"image":"file:d","max_colours":4,"garment":"#1B2A4A","underbase":true,"underbase_choke_px":4}`
	imgs, data, errs := run(t, "colour.separate", body, f)
	require.Len(t, imgs, 3, "composite, underbase, yellow")
	require.Len(t, errs, 3)
	require.Equal(t, "underbase", data[1]["kind"])
	require.Len(t, data[0]["colours"], 1, "the garment is not an ink")
	m := int(data[1]["margin_px"].(float64))
	all := image.Rect(m, m, m+240, m+200)
	under, ink := black(imgs[1], all), black(imgs[2], all)
	require.InDelta(t, math.Pi*56*56, float64(under), math.Pi*56*56*0.03, "choked by 4 px")
	require.Less(t, under, ink)
	require.Zero(t, black(imgs[1], image.Rect(m+120+57, m+99, m+120+61, m+101)), "clear of the disc's edge")
}

// TestHalftoneFollowsTheTone: a coral-to-cream gradient screened at 30 lpi
// prints, in each band across it, the share of coral the band holds
// (within 8 points).
func TestHalftoneFollowsTheTone(t *testing.T) {
	const W, H = 300, 120
	img := image.NewNRGBA(image.Rect(0, 0, W, H))
	for y := range H {
		for x := range W {
			k := min(1, max(0, float64(x-50)/200)) // cream to coral over x 50–250
			mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(a)*(1-k) + float64(b)*k)) }
			img.SetNRGBA(x, y, color.NRGBA{mix(creamInk.R, coralInk.R), mix(creamInk.G, coralInk.G),
				mix(creamInk.B, coralInk.B), 255})
		}
	}
	f := files{"file:d": pngOf(t, img)}
	body := `{"image":"file:d","max_colours":2,"halftone_lpi":30,"halftone_inks":["#F2735E"],"dpi":300}`
	imgs, data, _ := run(t, "colour.separate", body, f)
	require.Equal(t, "Coral", data[2]["ink_name"])
	require.Equal(t, true, data[2]["halftone"])
	require.Equal(t, false, data[1]["halftone"])
	m := int(data[2]["margin_px"].(float64))
	for x0 := 60; x0 < 240; x0 += 30 {
		r := image.Rect(m+x0, m, m+x0+30, m+H)
		want := (float64(x0+15) - 50) / 200
		got := float64(black(imgs[2], r)) / float64(r.Dx()*r.Dy())
		require.InDelta(t, want, got, 0.08, "band at x %d", x0)
	}
}

func TestSeparateOptionRules(t *testing.T) {
	for _, tc := range []struct {
		name, body, field string
		code              apierr.Code
	}{
		{"two traps", `{"image":"file:a","max_colours":3,"trap_px":2,"trap_mm":0.2}`, "trap_mm",
			apierr.RequestRefused},
		{"choke without underbase", `{"image":"file:a","max_colours":3,"underbase_choke_px":2}`, "underbase",
			apierr.RequestRefused},
		{"inks without lpi", `{"image":"file:a","max_colours":3,"halftone_inks":["#FF0000"]}`, "halftone_lpi",
			apierr.RequestRefused},
		{"garment not a colour", `{"image":"file:a","max_colours":3,"garment":"navy"}`, "garment",
			apierr.InvalidColour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := task(t, "colour.separate")
			in, err := d.Validate([]byte(tc.body))
			if err == nil {
				err = d.Refuse(in, nil)
			}
			e := apierr.As(err)
			require.Equal(t, tc.code, e.Code, e.Message)
			require.Equal(t, tc.field, *e.Field)
		})
	}
}

// TestWholeFilmsHaveNoSpecks: every film of a job — the design, the marks
// and the label — has no black patch under 6 px, at low and high dpi,
// with underbase and trap.
func TestWholeFilmsHaveNoSpecks(t *testing.T) {
	d := truthDesigns()[3]
	img, _ := d.render()
	f := files{"file:d": pngOf(t, jpegNoised(t, img))}
	for _, dpi := range []int{72, 150, 300} {
		body := `{"image":"file:d","max_colours":6,"job_name":"Five on navy: test.job (v2)","underbase":true,` +
			`"garment":"#1B2A4A","trap_px":2,"dpi":` + strconv.Itoa(dpi) + `}`
		imgs, data, _ := run(t, "colour.separate", body, f)
		require.Len(t, imgs, 6, "composite, underbase, four inks")
		for i, im := range imgs[1:] {
			g := im.(*image.Gray)
			ink := make([]uint8, len(g.Pix))
			for p, v := range g.Pix {
				if v == 0 {
					ink[p] = 1
				}
			}
			require.Zero(t, specks(ink, g.Rect.Dx(), g.Rect.Dy(), 1), "%d dpi, %s film", dpi, data[i+1]["ink_name"])
		}
	}
}

// TestWidthSetsThePrintedSize: width_mm resamples the design so its films
// print that wide at dpi, still with clean edges; a size past the budget
// is refused naming width_mm.
func TestWidthSetsThePrintedSize(t *testing.T) {
	f := files{"file:d": pngOf(t, discDesign())}
	imgs, data, _ := run(t, "colour.separate", `{"image":"file:d","max_colours":2,"width_mm":50.8,"dpi":300}`, f)
	require.Equal(t, float64(600), data[1]["width"], "50.8 mm at 300 dpi")
	require.Equal(t, float64(500), data[1]["height"], "in proportion")
	require.InDelta(t, 50.8, data[1]["width_mm"], 0.05)
	m := int(data[1]["margin_px"].(float64))
	disc := black(imgs[1], image.Rect(m, m, m+600, m+500))
	require.InDelta(t, math.Pi*150*150, float64(disc), math.Pi*150*150*0.02, "the disc scaled 2.5×")
	d := task(t, "colour.separate")
	in, err := d.Validate([]byte(`{"image":"file:d","max_colours":2,"width_mm":2000,"dpi":1200}`))
	require.NoError(t, err)
	e := d.Refuse(in, map[string]tasks.ImageSize{"image": {Width: 240, Height: 200}})
	require.NotNil(t, e)
	require.Equal(t, "width_mm", *e.Field)
}
