package photoshoot

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	imgfam "github.com/taskplatform/taskplatform/tasks/image"
)

// studioPortrait is a portrait as a studio shoots it, where the drawn
// portraits are kind: the face high in a square frame (its middle at a
// third of the height), light-brown hair of a skin-like hue, and a
// mottled grey-beige backdrop (low-frequency blotches of ±12 levels) a
// flood from the border does not take whole, some of it as light as the
// hair and of the same hue; below the head an orange suit fills the
// frame. 512 × 512.
func studioPortrait(skin, hair color.NRGBA) *image.NRGBA {
	const bgKey = 0x7B // a backdrop colour no portrait part has
	head := portrait(color.NRGBA{bgKey, bgKey, bgKey + 1, 255}, skin, hair, hexColour("#E0642A"), "short")
	img := sweep(512, 512, hexColour("#E0642A"))
	for y := range 512 {
		for x := range 512 {
			sx, sy := x-56, y+40 // the portrait shifted up: its face's middle at y 175
			m := 12*math.Sin(float64(x)/37+2*math.Sin(float64(y)/53)) + 8*math.Cos(float64(y)/29)
			c := color.NRGBA{clamp8(150 + m + 20), clamp8(140 + m + 16), clamp8(132 + m + 10), 255}
			if sx >= 0 && sx < 400 && sy < 500 {
				p := head.NRGBAAt(sx, sy)
				near := func(v, w uint8) bool { return int(v)-int(w) <= 2 && int(w)-int(v) <= 2 }
				if !near(p.R, bgKey) || !near(p.G, bgKey) || !near(p.B, bgKey+1) {
					c = p
				}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

func clamp8(v float64) uint8 { return uint8(math.Max(0, math.Min(255, math.Round(v)))) }

// TestStudioPortraitsReadTheFaceNotTheBackdrop: studio portraits with the
// face high in the frame, hair of a skin-like hue and a mottled backdrop
// near the hair's colour read as faces; the skin is the face's (ΔE < 6,
// the lit and shaded sides averaged) and the hair brown, not the
// backdrop's grey (ΔE < 6 of the drawn hair), for three skin tones.
func TestStudioPortraitsReadTheFaceNotTheBackdrop(t *testing.T) {
	for _, tc := range []struct{ name, skin, hair string }{
		{"light skin, light-brown hair", "#D7B49A", "#8A7250"},
		{"medium skin, dark-brown hair", "#B07A55", "#4A3020"},
		{"dark skin, black hair", "#6B4430", "#1A1512"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			photo := studioPortrait(hexColour(tc.skin), hexColour(tc.hair))
			keep(t, "studio_"+tc.name, photo)
			r := readPhoto(photo)
			require.True(t, r.found, "a face")
			got := tonesOf([]toneRead{r})
			ds := imgfam.DeltaE(hexColour(got.skin), hexColour(tc.skin))
			dh := imgfam.DeltaE(hexColour(got.hair), hexColour(tc.hair))
			t.Logf("skin %s (ΔE %.1f), hair %s (ΔE %.1f)", got.skin, ds, got.hair, dh)
			require.Less(t, ds, 6.0, "skin %s", got.skin)
			require.Less(t, dh, 6.0, "hair %s", got.hair)
		})
	}
}
