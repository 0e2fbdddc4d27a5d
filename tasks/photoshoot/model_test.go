package photoshoot

import (
	"context"
	"image"
	"image/color"
	"testing"

	"github.com/stretchr/testify/require"

	imgfam "github.com/taskplatform/taskplatform/tasks/image"
)

// TestStyleTakesTheTonesOfThePhotos reads the example portrait: the style's
// skin and hair are the portrait's (within a small ΔE), its proportions
// the base's plus the adjustments asked.
func TestStyleTakesTheTonesOfThePhotos(t *testing.T) {
	d := modelCreate()
	out, err := d.ExampleOutputs(context.Background(), 0)
	require.NoError(t, err)
	require.Len(t, out, 1)
	m := out[0].Meta
	require.Equal(t, "photos", m["skin_source"])
	require.Equal(t, "photos", m["hair_source"])
	require.Less(t, imgfam.DeltaE(hexColour(m["skin"].(string)), hexColour("#C98E6B")), 6.0, m["skin"])
	require.Less(t, imgfam.DeltaE(hexColour(m["hair"].(string)), hexColour("#4A3020")), 6.0, m["hair"])
	ava, _ := baseByHandle("model:md_ava")
	require.InDelta(t, ava.Body.Heads+0.2, m["heads"], 1e-9)
	require.InDelta(t, ava.Body.Hips+0.05, m["hips"], 1e-9)
	require.InDelta(t, ava.Body.Shoulders, m["shoulders"], 1e-9)
	img, _, err := image.Decode(bytesReader(out[0].Data))
	require.NoError(t, err)
	require.Equal(t, 720, img.Bounds().Dx())
}

// TestTonesFallBackToTheBase: photos with no face (a flat blue wall, dark
// hair with no face under it) read no tone: the style keeps the base's.
func TestTonesFallBackToTheBase(t *testing.T) {
	for _, tc := range []struct {
		name  string
		photo image.Image
	}{
		{"blue wall", newCanvas(200, 200, color.NRGBA{60, 90, 200, 255})},
		{"dark hair only", func() image.Image {
			img := newCanvas(200, 200, color.NRGBA{240, 240, 240, 255})
			ellipse(img, 100, 40, 60, 30, color.NRGBA{40, 30, 25, 255})
			return img
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := readTones([]image.Image{tc.photo})
			require.Empty(t, got.skin)
			require.Empty(t, got.hair)
		})
	}
}
