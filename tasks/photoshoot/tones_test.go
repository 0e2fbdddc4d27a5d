package photoshoot

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	imgfam "github.com/taskplatform/taskplatform/tasks/image"
)

// portrait synthesises a head-and-shoulders photo: a backdrop, a top, a
// neck (in front of long hair) and a face in skin lit from the left (lighter on that side, darker
// on the other, the skin tone itself in the middle), eyes, brows and lips,
// and hair of a style over the head.
func portrait(bg, skin, hair, top color.NRGBA, style string) *image.NRGBA {
	img := sweep(400, 500, bg)
	polygon(img, [][2]float64{{60, 420}, {340, 420}, {370, 500}, {30, 500}}, top)
	if style == "long" { // falling behind the neck and shoulders
		polygon(img, [][2]float64{{95, 140}, {305, 140}, {320, 400}, {80, 400}}, hair)
	}
	capsule(img, 200, 300, 200, 420, 42, darker(skin, 0.08))
	if style == "scarf" { // hair is the scarf's colour: wrapped round the head and under the chin
		ellipse(img, 200, 230, 122, 150, hair)
	}
	// The face, shaded across: a lit left, the tone, a shadowed right.
	cx, cy, rx, ry := 200.0, 215.0, 88.0, 112.0
	fillShape(img, cx-rx, cy-ry, cx+rx, cy+ry, skin, func(x, y float64) float64 {
		return (math.Hypot((x-cx)/rx, (y-cy)/ry) - 1) * rx
	})
	for y := int(cy - ry); y < int(cy+ry); y++ {
		for x := int(cx - rx); x < int(cx+rx); x++ {
			if math.Hypot((float64(x)-cx)/rx, (float64(y)-cy)/ry) > 0.98 {
				continue
			}
			t := (float64(x) - cx) / rx // −1 lit … 1 shadowed
			c := skin
			if t < 0 {
				c = mix(skin, color.NRGBA{255, 255, 255, 255}, -t*0.18)
			} else {
				c = darker(skin, t*0.22)
			}
			blend(img, x, y, c, 1)
		}
	}
	for _, dx := range []float64{-34, 34} {
		ellipse(img, cx+dx, 200, 13, 7, color.NRGBA{250, 250, 250, 255})
		ellipse(img, cx+dx, 200, 6, 6, color.NRGBA{40, 30, 25, 255})
		capsule(img, cx+dx-14, 180, cx+dx+14, 178, 3, darker(hair, 0.1))
	}
	ellipse(img, cx, 275, 24, 8, mix(skin, color.NRGBA{150, 40, 50, 255}, 0.45))
	switch style {
	case "short":
		ellipse(img, cx, 120, 96, 42, hair)
	case "long", "bob":
		ellipse(img, cx, 125, 104, 52, hair)
	}
	return img
}

// TestTonesReadFromPortraits reads synthesised portraits of people of
// different skin and hair tones on different backdrops: the skin read is
// within ΔE 5 of the face's tone and the hair within ΔE 5 of the hair's;
// a white-haired, light-skinned man reads light skin and white hair.
func TestTonesReadFromPortraits(t *testing.T) {
	for _, tc := range []struct {
		name                string
		bg, skin, hair, top string
		style               string
	}{
		{"white-haired light-skinned man on grey", "#8A8F96", "#E8C1A5", "#E9E7E2", "#2F3E4F", "short"},
		{"dark skin, black hair on pale blue", "#CFE0EE", "#5B3A26", "#17120F", "#C9A227", "short"},
		{"very dark skin on white", "#F5F5F3", "#3B2519", "#0F0C0B", "#7A1F2B", "bob"},
		{"medium skin, auburn hair on white", "#F7F7F5", "#C68642", "#7B3F20", "#1F3A5F", "long"},
		{"light skin, black hair on beige", "#D9CBB6", "#F1D3B5", "#141212", "#333333", "bob"},
		{"fair skin, blond hair on dark green", "#2E4A3A", "#F2D4C2", "#D8B36A", "#EDEDED", "long"},
		{"olive skin, brown hair on terracotta", "#B5653F", "#C69C76", "#4A2E1C", "#F0EAD6", "short"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			photo := portrait(hexColour(tc.bg), hexColour(tc.skin), hexColour(tc.hair), hexColour(tc.top), tc.style)
			keep(t, "portrait_"+tc.name, photo)
			got := readTones([]image.Image{photo})
			require.NotEmpty(t, got.skin)
			require.NotEmpty(t, got.hair)
			require.Less(t, imgfam.DeltaE(hexColour(got.skin), hexColour(tc.skin)), 5.0, "skin %s", got.skin)
			require.Less(t, imgfam.DeltaE(hexColour(got.hair), hexColour(tc.hair)), 5.0, "hair %s", got.hair)
		})
	}
}
