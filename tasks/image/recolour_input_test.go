package image

import (
	"image/color"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// TestRecolourTakesAMapping: an explicit mapping recolours the colours it
// names and keeps the others; the output says the area and the pairs.
func TestRecolourTakesAMapping(t *testing.T) {
	img := solid(120, 60, color.NRGBA{0x1B, 0x2A, 0x4A, 255})
	for y := range 60 {
		for x := 60; x < 120; x++ {
			img.Set(x, y, color.NRGBA{0xF3, 0xEB, 0xDD, 255})
		}
	}
	out, errs := run(t, "image.recolour", `{"image":"file:a","mapping":[{"from":"#1B2A4A","to":"#C8102E"}]}`,
		files{"file:a": pngBytes(img)})
	require.Empty(t, errs)
	got := decode(t, out[0])
	require.Less(t, DeltaE(got.At(10, 30), tasks.ParseColour("#C8102E")), 1.0, "navy became red")
	require.Less(t, DeltaE(got.At(110, 30), tasks.ParseColour("#F3EBDD")), 0.5, "cream, not named, stays")
	require.Equal(t, AreaWhole, out[0].Meta["area"])
}

// TestRecolourWantsPaletteOrMapping: one of them, not both, not neither.
func TestRecolourWantsPaletteOrMapping(t *testing.T) {
	d := task(t, "image.recolour")
	for body, field := range map[string]string{
		`{"image":"file:a"}`: "palette",
		`{"image":"file:a","palette":["#112233"],"mapping":[{"from":"#000000","to":"#FFFFFF"}]}`: "mapping",
	} {
		_, err := d.Validate([]byte(body))
		e := apierr.As(err)
		require.Equal(t, apierr.RequestRefused, e.Code, body)
		require.Equal(t, field, *e.Field)
	}
	_, err := d.Validate([]byte(`{"image":"file:a","palette":["#112233"],"area":"product"}`))
	require.NoError(t, err)
}
