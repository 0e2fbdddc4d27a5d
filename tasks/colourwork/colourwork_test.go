package colourwork

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
	imagetasks "github.com/taskplatform/taskplatform/tasks/image"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

func registry(t testing.TB) *tasks.Registry {
	r := tasks.NewRegistry()
	require.NoError(t, r.Add(imagetasks.Family())) // the recolour_area vocabulary
	require.NoError(t, r.Add(Family()))
	return r
}

func task(t testing.TB, name string) *tasks.Definition {
	d, err := registry(t).Lookup(name)
	require.NoError(t, err)
	return d
}

func TestFamilyKeepsTheCorePromises(t *testing.T) {
	taskstest.Check(t, registry(t))
}

// files is a loader of test images by reference.
type files = taskstest.Files

// run validates body and runs every step after a JSON round trip of the
// input (as through Temporal): the decoded outputs with their data, and
// the step errors by index.
func run(t testing.TB, name, body string, f files) ([]image.Image, []map[string]any, map[int]error) {
	t.Helper()
	d := task(t, name)
	in, err := d.Validate([]byte(body))
	require.NoError(t, err, body)
	raw, _ := json.Marshal(in)
	var fields map[string]any
	require.NoError(t, json.Unmarshal(raw, &fields))
	in, err = d.Input(fields)
	require.NoError(t, err)
	ctx := tasks.WithLoader(context.Background(), f)
	var imgs []image.Image
	var data []map[string]any
	errs := map[int]error{}
	for i := range d.Runner.Plan(in).Steps {
		out, err := d.Runner.Step(ctx, in, i)
		if err != nil {
			errs[i] = err
			continue
		}
		require.Equal(t, "image/png", out.MediaType)
		img := decodePNG(t, out.Data)
		imgs = append(imgs, img)
		meta, _ := json.Marshal(out.Meta)
		var m map[string]any
		require.NoError(t, json.Unmarshal(meta, &m))
		data = append(data, m)
	}
	return imgs, data, errs
}

func decodePNG(t testing.TB, data []byte) image.Image {
	img, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	return img
}

func pngOf(t testing.TB, img image.Image) []byte {
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

func nrgbaAt(img image.Image, x, y int) color.NRGBA {
	return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
}

// bands is a w × h image of vertical bands in the colours given, each
// band as wide as its weight says, with a little noise like a scan when
// noisy.
func bands(w, h int, colours []color.NRGBA, weights []int, noisy bool) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	total := 0
	for _, wt := range weights {
		total += wt
	}
	for y := range h {
		for x := range w {
			t, b := x*total/w, 0
			for acc := weights[0]; t >= acc; acc += weights[b] {
				b++
			}
			c := colours[b]
			n := uint8(0)
			if noisy {
				n = uint8((x*7 + y*13) % 3)
			}
			img.SetNRGBA(x, y, color.NRGBA{c.R - min(c.R, n), c.G - min(c.G, n), c.B - min(c.B, n), 255})
		}
	}
	return img
}

// TestDistinctInksAreNeverMerged: four distinct inks (cream, yellow, red,
// navy) asked into two are not mixed into two colours the design does not
// have: every output fails naming the four inks and the max_colours that
// holds them. Two navies a shade apart beside cream are one ink to a
// printer: asked into two, they print as one navy.
func TestDistinctInksAreNeverMerged(t *testing.T) {
	four := bands(400, 120, []color.NRGBA{{0xF4, 0xEC, 0xD6, 255}, {0xF2, 0xC9, 0x1E, 255}, {0xC8, 0x10, 0x2E, 255},
		{0x1B, 0x2A, 0x4A, 255}}, []int{4, 3, 2, 1}, true)
	imgs, _, errs := run(t, "colour.separate", `{"image":"file:design","max_colours":2}`,
		files{"file:design": pngOf(t, four)})
	require.Empty(t, imgs)
	require.Len(t, errs, 3)
	for _, err := range errs {
		require.ErrorContains(t, err, "the design has 4 distinct inks")
		require.ErrorContains(t, err, "send max_colours 4")
	}

	navies := bands(400, 120, []color.NRGBA{{0xF4, 0xEC, 0xD6, 255}, {0x1B, 0x2A, 0x4A, 255}, {0x2C, 0x3F, 0x66, 255}},
		[]int{2, 1, 1}, true)
	imgs, data, errs := run(t, "colour.separate", `{"image":"file:design","max_colours":2}`,
		files{"file:design": pngOf(t, navies)})
	require.Empty(t, errs)
	require.Len(t, imgs, 3)
	inks := data[0]["colours"].([]any)
	require.Len(t, inks, 2)
	require.InDelta(t, 50, inks[1].(map[string]any)["coverage"], 0.5, "both navies print on the navy film")
}

// TestSeparationsCoverTheDesignOnce separates a four-colour design: the
// separations' measured ink coverage adds up to 100 %, each matches the
// data, and the composite matches the input within ΔE 3 on average.
func TestSeparationsCoverTheDesignOnce(t *testing.T) {
	colours := []color.NRGBA{
		{0xF4, 0xEC, 0xD6, 255},
		{0xF2, 0xC9, 0x1E, 255},
		{0xC8, 0x10, 0x2E, 255},
		{0x1B, 0x2A, 0x4A, 255},
	}
	design := bands(400, 120, colours, []int{4, 3, 2, 1}, true)
	for _, tc := range []struct {
		name, order string
		max         int
		want        int
	}{
		{"light to dark, room to spare", "light_to_dark", 6, 4},
		{"by coverage", "coverage", 4, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := `{"image":"file:design","max_colours":` + string(rune('0'+tc.max)) + `,"order":"` + tc.order + `"}`
			imgs, data, errs := run(t, "colour.separate", body, files{"file:design": pngOf(t, design)})
			require.Len(t, imgs, 1+tc.want)
			require.Len(t, errs, tc.max-tc.want, "separations without ink are not produced")
			comp := imgs[0]
			require.Equal(t, "composite", data[0]["kind"])
			require.Len(t, data[0]["colours"], tc.want)

			total, sumDE := 0.0, 0.0
			prev := math.Inf(1)
			for i, film := range imgs[1:] {
				m := int(data[i+1]["margin_px"].(float64))
				require.Equal(t, float64(film.Bounds().Dx()), data[i+1]["film_width"])
				require.Equal(t, float64(film.Bounds().Dy()), data[i+1]["film_height"])
				_, grey := film.(*image.Gray)
				require.True(t, grey, "a separation is greyscale")
				ink := 0
				for y := range 120 {
					for x := range 400 {
						if v := color.GrayModel.Convert(film.At(x+m, y+m)).(color.Gray).Y; v == 0 {
							ink++
						} else {
							require.Equal(t, uint8(255), v)
						}
					}
				}
				cov := 100 * float64(ink) / (400 * 120)
				require.InDelta(t, data[i+1]["coverage"].(float64), cov, 0.01)
				total += cov
				key := imagetasks.Lightness(tasks.ParseColour(data[i+1]["hex"].(string)))
				if tc.order == "coverage" {
					key = cov
				}
				require.LessOrEqual(t, key, prev, "separations are in %s order", tc.order)
				prev = key
			}
			require.InDelta(t, 100, total, 0.01, "every pixel prints exactly one ink")
			for y := range 120 {
				for x := range 400 {
					sumDE += imagetasks.DeltaE(comp.At(x, y), design.At(x, y))
				}
			}
			require.Less(t, sumDE/(400*120), 3.0, "the composite is the design")
		})
	}
}

// TestSeparationsFoldEdgesIntoInks: an anti-aliased two-colour print gives
// two inks, not a separation per blend of the edges.
func TestSeparationsFoldEdgesIntoInks(t *testing.T) {
	_, data, errs := run(
		t,
		"colour.separate",
		`{"image":"file:example_lemon_print","max_colours":12}`,
		files{"file:example_lemon_print": printFile.Data()},
	)
	require.Len(t, data[0]["colours"], 3)
	require.Len(t, errs, 9)
	var hexes []string
	for _, c := range data[0]["colours"].([]any) {
		hexes = append(hexes, c.(map[string]any)["hex"].(string))
	}
	require.Equal(t, []string{"#F4ECD6", "#F2C91E", "#2F6B3A"}, hexes, "light to dark: cream, lemon, leaf")
}

func TestTooManyColoursIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		code       apierr.Code
	}{
		{"separate over 12", `{"image":"file:a","max_colours":13}`, apierr.TooManyColours},
		{"separate under 2", `{"image":"file:a","max_colours":1}`, apierr.InvalidRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := task(t, "colour.separate").Validate([]byte(tc.body))
			e := apierr.As(err)
			require.Equal(t, tc.code, e.Code)
			require.Equal(t, "max_colours", *e.Field)
		})
	}
}

// dominantTwo is the two colours covering most of img, measured.
func dominantTwo(t *testing.T, img image.Image) [2]color.NRGBA {
	counts := map[color.NRGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			counts[nrgbaAt(img, x, y)]++
		}
	}
	var top [2]color.NRGBA
	var n [2]int
	for c, k := range counts {
		switch {
		case k > n[0]:
			top[1], n[1], top[0], n[0] = top[0], n[0], c, k
		case k > n[1]:
			top[1], n[1] = c, k
		}
	}
	require.Greater(t, n[0]+n[1], b.Dx()*b.Dy()*9/10, "two colours cover the design")
	return top
}

// TestColourwaysTakeEachPalette recolours a two-colour design into three
// palettes: each output's two dominant colours are its palette's, the
// light ground stays the lighter, and the outputs come in the order sent.
func TestColourwaysTakeEachPalette(t *testing.T) {
	design := bands(300, 100, []color.NRGBA{{0xF4, 0xF1, 0xEA, 255}, {0x1B, 0x2A, 0x4A, 255}}, []int{2, 1}, false)
	palettes := [][2]string{{"#F3EBDD", "#7D9471"}, {"#5A2446", "#E8B4B0"}, {"#FFFFFF", "#C8102E"}}
	body, _ := json.Marshal(map[string]any{"image": "file:design", "palettes": palettes})
	imgs, data, errs := run(t, "colourway.generate", string(body), files{"file:design": pngOf(t, design)})
	require.Empty(t, errs)
	require.Len(t, imgs, len(palettes))
	for i, img := range imgs {
		require.Equal(t, float64(i), data[i]["index"])
		top := dominantTwo(t, img)
		want := []color.Color{tasks.ParseColour(palettes[i][0]), tasks.ParseColour(palettes[i][1])}
		for _, c := range top {
			near := math.Min(imagetasks.DeltaE(c, want[0]), imagetasks.DeltaE(c, want[1]))
			require.Less(t, near, 2.5, "colourway %d: %v is a palette colour", i, c)
		}
		require.Greater(t, imagetasks.DeltaE(top[0], top[1]), 10.0, "both palette colours show")
		light, dark := nrgbaAt(img, 10, 50), nrgbaAt(img, 290, 50)
		require.Greater(
			t,
			imagetasks.Lightness(light),
			imagetasks.Lightness(dark),
			"colourway %d keeps the light ground light",
			i,
		)
	}
}

func TestColourwayInputRules(t *testing.T) {
	nine := make([]string, 9)
	for i := range nine {
		nine[i] = "#112233"
	}
	for _, tc := range []struct {
		name  string
		body  map[string]any
		code  apierr.Code
		field string
	}{
		{"too many colours in a palette", map[string]any{"image": "file:a", "palettes": []any{nine}}, apierr.TooManyColours,
			"palettes[0]"},
		{"a colour not #RRGGBB", map[string]any{"image": "file:a", "palettes": []any{[]any{"#12345"}}}, apierr.InvalidColour,
			"palettes[0][0]"},
		{"not a brand kit", map[string]any{"image": "file:a", "palettes": "moodboard:abc"}, apierr.InvalidRequest,
			"palettes"},
		{"count with palettes", map[string]any{"image": "file:a", "palettes": []any{[]any{"#112233"}}, "count": 2},
			apierr.RequestRefused, "count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := json.Marshal(tc.body)
			_, err := task(t, "colourway.generate").Validate(b)
			e := apierr.As(err)
			require.Equal(t, tc.code, e.Code, e.Message)
			require.Equal(t, tc.field, *e.Field)
		})
	}
	in, err := task(
		t,
		"colourway.generate",
	).Validate([]byte(`{"image":"file:a","palettes":"brand_kit:bk_1","count":5}`))
	require.NoError(t, err)
	require.Equal(t, 5, task(t, "colourway.generate").Runner.Plan(in).Steps)
}

// TestKitPaletteDrawsDistinctColourways: colourway i of a kit larger than
// the design starts at its colour i; a kit no larger than the design keeps
// its colours and turns the pairing, so it still gives one colourway per
// colour; past that there is none.
func TestKitPaletteDrawsDistinctColourways(t *testing.T) {
	design := bands(120, 60, []color.NRGBA{{0xF4, 0xF1, 0xEA, 255}, {0x1B, 0x2A, 0x4A, 255}}, []int{1, 1}, false)
	kit := []color.Color{tasks.ParseColour("#111111"), tasks.ParseColour("#EEEEEE"), tasks.ParseColour("#C8102E")}
	for i, want := range [][]color.Color{{kit[0], kit[1]}, {kit[1], kit[2]}, {kit[2], kit[0]}} {
		got, rotate, err := kitPalette(design, kit, i)
		require.NoError(t, err)
		require.Equal(t, want, got)
		require.Zero(t, rotate)
	}
	for i := range 2 {
		got, rotate, err := kitPalette(design, kit[:2], i)
		require.NoError(t, err)
		require.Equal(t, kit[:2], got)
		require.Equal(t, i, rotate)
	}
	_, _, err := kitPalette(design, kit[:2], 2)
	var se *tasks.StepError
	require.ErrorAs(t, err, &se)
	require.Equal(t, "processing_failed", se.Code)
}

// TestABrandKitGivesAColourwayPerColour: a kit of three colours on a
// design of three gives three different colourways, the first keeping the
// design's lights light.
func TestABrandKitGivesAColourwayPerColour(t *testing.T) {
	design := bands(300, 60, []color.NRGBA{{0xF4, 0xF1, 0xEA, 255}, {0xC0, 0x39, 0x2B, 255}, {0x1B, 0x2A, 0x4A, 255}},
		[]int{1, 1, 1}, false)
	kit := []color.Color{tasks.ParseColour("#111111"), tasks.ParseColour("#EEEEEE"), tasks.ParseColour("#2A9D8F")}
	seen := map[[3]color.NRGBA]bool{}
	for i := range kit {
		pal, rotate, err := kitPalette(design, kit, i)
		require.NoError(t, err)
		res, err := imagetasks.Recolour(context.Background(), design,
			imagetasks.RecolourOptions{Palette: pal, Rotate: rotate})
		require.NoError(t, err)
		got := [3]color.NRGBA{nrgbaAt(res.Image, 50, 30), nrgbaAt(res.Image, 150, 30), nrgbaAt(res.Image, 250, 30)}
		require.False(t, seen[got], "colourway %d repeats an earlier one: %v", i, got)
		seen[got] = true
		if i == 0 {
			require.Greater(t, imagetasks.Lightness(got[0]), imagetasks.Lightness(got[1]))
			require.Greater(t, imagetasks.Lightness(got[1]), imagetasks.Lightness(got[2]))
		}
	}
	require.Len(t, seen, 3)
}
