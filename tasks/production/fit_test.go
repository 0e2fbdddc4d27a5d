package production

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// markers are the flat colours of the edge-marker artwork: a square in
// each corner and a text-like bar along each edge.
var markers = map[string]color.NRGBA{
	"top_left square": {0xE0, 0x10, 0x10, 0xff}, "top_right square": {0x10, 0xB0, 0x10, 0xff},
	"bottom_left square": {0x10, 0x10, 0xE0, 0xff}, "bottom_right square": {0xE0, 0x10, 0xE0, 0xff},
	"top bar": {0x10, 0xD0, 0xD0, 0xff}, "bottom bar": {0xE0, 0xD0, 0x10, 0xff},
	"left bar": {0xF0, 0x80, 0x10, 0xff}, "right bar": {0x60, 0x10, 0x90, 0xff},
}

// markerArt is a w × h artwork on a pale ground with markers touching its
// four edges: 24 px corner squares and 6 px bars in the middle of each edge.
func markerArt(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	fill := func(r image.Rectangle, c color.NRGBA) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				img.SetNRGBA(x, y, c)
			}
		}
	}
	fill(img.Bounds(), color.NRGBA{0xF4, 0xF0, 0xE8, 0xff})
	const sq, bar = 24, 6
	fill(image.Rect(0, 0, sq, sq), markers["top_left square"])
	fill(image.Rect(w-sq, 0, w, sq), markers["top_right square"])
	fill(image.Rect(0, h-sq, sq, h), markers["bottom_left square"])
	fill(image.Rect(w-sq, h-sq, w, h), markers["bottom_right square"])
	fill(image.Rect(w/3, 0, 2*w/3, bar), markers["top bar"])
	fill(image.Rect(w/3, h-bar, 2*w/3, h), markers["bottom bar"])
	fill(image.Rect(0, h/3, bar, 2*h/3), markers["left bar"])
	fill(image.Rect(w-bar, h/3, w, 2*h/3), markers["right bar"])
	return img
}

// markersInTrim counts, per marker, the pixels inside the trim within a
// small distance of its colour.
func markersInTrim(t *testing.T, data []byte, bleed int, trimW, trimH int) map[string]int {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	found := map[string]int{}
	for y := bleed; y < bleed+trimH; y++ {
		for x := bleed; x < bleed+trimW; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			for name, c := range markers {
				d := absDiff(int(r>>8), int(c.R)) + absDiff(int(g>>8), int(c.G)) + absDiff(int(b>>8), int(c.B))
				if d <= 24 {
					found[name]++
				}
			}
		}
	}
	return found
}

func absDiff(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}

// prepare runs print.prepare's PNG step on art with the body's fields.
func prepare(t *testing.T, art image.Image, body string) tasks.Output {
	t.Helper()
	d := lookup(t, "print.prepare")
	in, err := d.Validate([]byte(body))
	require.NoError(t, err, body)
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, art))
	file := tasks.ExampleFile{Ref: "file:markers", Data: func() []byte { return buf.Bytes() }}
	o, err := d.Runner.Step(tasks.WithLoader(context.Background(), loaderOf{file}), in, 0)
	require.NoError(t, err)
	return o
}

// TestDefaultPrintKeepsEveryEdgeOfTheArtwork prepares artworks with
// markers at all four edges at aspects other than their own: by default
// every marker survives inside the trim, and nothing warns of a cut.
func TestDefaultPrintKeepsEveryEdgeOfTheArtwork(t *testing.T) {
	tests := []struct {
		name          string
		artW, artH    int
		size, extra   string
		trimW, trimH  int
		bleed         int
		wantLowRes    bool
		wantBackgrnd  color.NRGBA
		backgroundArg string
	}{
		{
			"landscape art on A4 portrait",
			1200,
			800,
			`"width_mm":210,"height_mm":297,"dpi":100`,
			`"bleed_mm":3`,
			827,
			1169,
			12,
			false,
			color.NRGBA{0xff, 0xff, 0xff, 0xff},
			"",
		},
		{
			"portrait art on a wide banner",
			300,
			450,
			`"width_mm":300,"height_mm":100,"dpi":150`,
			`"bleed_mm":0`,
			1772,
			591,
			0,
			true,
			color.NRGBA{0x20, 0x30, 0x40, 0xff},
			`,"background":"#203040"`,
		},
		{
			"square art on a narrow label",
			800,
			800,
			`"width_mm":50,"height_mm":150,"dpi":300`,
			`"bleed_mm":2`,
			591,
			1772,
			24,
			false,
			color.NRGBA{0xff, 0xff, 0xff, 0xff},
			"",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := `{"image":"file:markers",` + tc.size + `,` + tc.extra + tc.backgroundArg + `}`
			o := prepare(t, markerArt(tc.artW, tc.artH), body)
			found := markersInTrim(t, o.Data, tc.bleed, tc.trimW, tc.trimH)
			for name := range markers {
				require.Greater(t, found[name], 20, "the %s survives in the print (%v)", name, found)
			}
			require.Equal(t, "contain", o.Meta["fit"])
			require.Equal(t, 0.0, o.Meta["cut_width_percent"])
			require.Equal(t, 0.0, o.Meta["cut_height_percent"])
			var codes []string
			for _, w := range o.Warnings {
				codes = append(codes, w.Code)
			}
			require.NotContains(t, codes, string(apierr.ArtworkCropped))
			if tc.wantLowRes {
				require.Contains(t, codes, string(apierr.LowResolution))
			} else {
				require.NotContains(t, codes, string(apierr.LowResolution))
			}
			img, err := png.Decode(bytes.NewReader(o.Data))
			require.NoError(t, err)
			// The padding is the background colour: the trim's centre of the
			// short side's band (the top-left trim corner is always padding or art).
			var pad image.Point
			if float64(tc.artW)/float64(tc.artH) > float64(tc.trimW)/float64(tc.trimH) {
				pad = image.Pt(tc.bleed+tc.trimW/2, tc.bleed+2)
			} else {
				pad = image.Pt(tc.bleed+2, tc.bleed+tc.trimH/2)
			}
			require.Equal(t, tc.wantBackgrnd, color.NRGBAModel.Convert(img.At(pad.X, pad.Y)))
		})
	}
}

// TestCoverSaysHowMuchWasCut asks for fit cover: the print is filled, the
// cut markers are gone, and the warning names the percent cut.
func TestCoverSaysHowMuchWasCut(t *testing.T) {
	// 1200 × 800 art on a 100 × 100 mm square at 200 dpi (787 px): scaled to
	// 787 px high, 1180.5 px wide, a third of its width cut.
	o := prepare(
		t,
		markerArt(1200, 800),
		`{"image":"file:markers","width_mm":100,"height_mm":100,"dpi":200,"fit":"cover","anchor":"left"}`,
	)
	found := markersInTrim(t, o.Data, 0, 787, 787)
	require.Greater(t, found["top_left square"], 20)
	require.Greater(t, found["left bar"], 20)
	require.Zero(t, found["top_right square"], "anchored left, the right edge is cut")
	require.Zero(t, found["right bar"])
	var cropped *string
	for _, w := range o.Warnings {
		if w.Code == string(apierr.ArtworkCropped) {
			cropped = &w.Message
		}
	}
	require.NotNil(t, cropped, "fit cover warns of the cut")
	require.Contains(t, *cropped, "33.3 % of the artwork's width and 0.0 % of its height")
	require.InDelta(t, 33.3, o.Meta["cut_width_percent"], 0.05)
}

// TestEnlargementWarnsThenRefuses checks the effective dpi is reported on
// every enlargement and an enlargement past a third of the dpi is refused,
// at submit when the image's size is known and when the step runs.
func TestEnlargementWarnsThenRefuses(t *testing.T) {
	// 400 px across 100 mm (3.94 in) is 102 dpi effective.
	o := prepare(t, markerArt(400, 400), `{"image":"file:markers","width_mm":100,"height_mm":100,"dpi":300}`)
	require.Len(t, o.Warnings, 1)
	require.Equal(t, string(apierr.LowResolution), o.Warnings[0].Code)
	require.Contains(t, o.Warnings[0].Message, "102 dpi effective")
	require.Equal(t, 102.0, o.Meta["effective_dpi"])
	// At 72 dpi the same image is shrunk: no warning.
	o = prepare(t, markerArt(400, 400), `{"image":"file:markers","width_mm":100,"height_mm":100,"dpi":72}`)
	require.Empty(t, o.Warnings)

	d := lookup(t, "print.prepare")
	body := `{"image":"file:markers","width_mm":300,"height_mm":300,"dpi":300}` // 400 px over 11.8 in: 34 dpi
	in, err := d.Validate([]byte(body))
	require.NoError(t, err)
	e := d.Refuse(in, map[string]tasks.ImageSize{"image": {Width: 400, Height: 400}})
	require.NotNil(t, e)
	require.Equal(t, apierr.RequestRefused, e.Code)
	require.Equal(t, "image", *e.Field)
	require.Contains(t, e.Message, "34 dpi effective")
	require.Nil(
		t,
		d.Refuse(in, map[string]tasks.ImageSize{"image": {Width: 1200, Height: 1200}}),
		"102 dpi effective is a warning, not a refusal",
	)
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, markerArt(400, 400)))
	file := tasks.ExampleFile{Ref: "file:markers", Data: func() []byte { return buf.Bytes() }}
	_, err = d.Runner.Step(tasks.WithLoader(context.Background(), loaderOf{file}), in, 0)
	var se *tasks.StepError
	require.ErrorAs(t, err, &se)
	require.Contains(t, se.Message, "34 dpi effective")
}
