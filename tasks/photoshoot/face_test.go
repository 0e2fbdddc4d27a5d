package photoshoot

import (
	"context"
	"errors"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
	imgfam "github.com/taskplatform/taskplatform/tasks/image"
)

// withHeadwear draws a cap (a dome and a brim over the forehead) or a
// wide-brimmed hat of colour c on a portrait drawn by portrait.
func withHeadwear(img *image.NRGBA, kind string, c color.NRGBA) *image.NRGBA {
	switch kind {
	case "cap":
		ellipse(img, 200, 120, 100, 45, c)
		polygon(img, [][2]float64{{100, 120}, {300, 120}, {300, 148}, {100, 148}}, c)
		capsule(img, 110, 152, 330, 152, 6, darker(c, 0.2))
	case "hat":
		ellipse(img, 200, 110, 82, 60, c)
		capsule(img, 60, 145, 340, 145, 9, darker(c, 0.15))
	}
	return img
}

// TestPortraitsWithHeadwearReadHairNotTheHat: portraits of several skin
// tones under a cap or a hat read as faces; the skin is the face's and
// the hair the hair showing beside the face, not the cap or the hat
// (within ΔE 5 of each).
func TestPortraitsWithHeadwearReadHairNotTheHat(t *testing.T) {
	for _, tc := range []struct {
		name                     string
		bg, skin, hair, top, hat string
		kind                     string
	}{
		{"white hair under a navy cap", "#8A8F96", "#E8C1A5", "#E9E7E2", "#2F3E4F", "#1F2A4A", "cap"},
		{"brown hair under a green hat", "#F2F2F0", "#C68642", "#5A3A22", "#EDEDED", "#2F5A36", "hat"},
		{"black hair under a red cap", "#CFE0EE", "#5B3A26", "#17120F", "#C9A227", "#C81E2C", "cap"},
		{"grey hair under a blue hat", "#D9CBB6", "#F1D3B5", "#9A9A98", "#333333", "#2A5BC8", "hat"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			photo := withHeadwear(portrait(hexColour(tc.bg), hexColour(tc.skin), hexColour(tc.hair), hexColour(tc.top),
				"long"), tc.kind, hexColour(tc.hat))
			keep(t, "headwear_"+tc.name, photo)
			r := readPhoto(photo)
			require.True(t, r.found, "a face")
			data, err := encodeJPEG(photo)
			require.NoError(t, err)
			jpg, _, err := image.Decode(bytesReader(data))
			require.NoError(t, err)
			require.True(t, readPhoto(jpg).found, "a face, as a JPEG")
			got := tonesOf([]toneRead{r})
			require.Less(t, imgfam.DeltaE(hexColour(got.skin), hexColour(tc.skin)), 5.0, "skin %s", got.skin)
			require.Less(t, imgfam.DeltaE(hexColour(got.hair), hexColour(tc.hair)), 5.0, "hair %s", got.hair)
		})
	}
}

// coffeeCup is a tan cup of coffee on its saucer on white: a skin-like
// colour with a dark round top.
func coffeeCup() *image.NRGBA {
	img := sweep(400, 400, hexColour("#F4F3F0"))
	ellipse(img, 200, 330, 150, 30, hexColour("#E6E2DA"))
	capsule(img, 300, 200, 300, 250, 28, hexColour("#C8A27C"))
	capsule(img, 300, 200, 300, 250, 14, hexColour("#F4F3F0"))
	polygon(img, [][2]float64{{110, 130}, {290, 130}, {270, 320}, {130, 320}}, hexColour("#C8A27C"))
	ellipse(img, 200, 130, 90, 22, hexColour("#4A2C1A"))
	ellipse(img, 200, 130, 40, 10, hexColour("#D9B48F"))
	return img
}

// catFace is a ginger cat's head: ears, green eyes with slit pupils, a pink
// nose and a mouth, on a grey wall.
func catFace() *image.NRGBA {
	img := sweep(400, 400, hexColour("#9A9590"))
	ginger := hexColour("#C8823C")
	polygon(img, [][2]float64{{95, 150}, {120, 40}, {180, 110}}, ginger)
	polygon(img, [][2]float64{{220, 110}, {280, 40}, {305, 150}}, ginger)
	ellipse(img, 200, 210, 120, 110, ginger)
	for _, dx := range []float64{-48, 48} {
		ellipse(img, 200+dx, 190, 24, 16, hexColour("#96B428"))
		ellipse(img, 200+dx, 190, 4, 14, hexColour("#0A0A0A"))
	}
	polygon(img, [][2]float64{{188, 235}, {212, 235}, {200, 250}}, hexColour("#D26E78"))
	capsule(img, 200, 250, 185, 265, 2, hexColour("#5A3A22"))
	capsule(img, 200, 250, 215, 265, 2, hexColour("#5A3A22"))
	return img
}

// productShot is a green bottle with a cream label on a pale sweep.
func productShot() *image.NRGBA {
	img := sweep(400, 500, hexColour("#ECECE8"))
	capsule(img, 200, 160, 200, 420, 70, hexColour("#3A7A4A"))
	polygon(img, [][2]float64{{180, 60}, {220, 60}, {225, 130}, {175, 130}}, hexColour("#3A7A4A"))
	polygon(img, [][2]float64{{132, 240}, {268, 240}, {268, 340}, {132, 340}}, hexColour("#F3E9D2"))
	return img
}

// smiley is a drawn yellow face: eyes and a smile, no person.
func smiley() *image.NRGBA {
	img := sweep(400, 400, hexColour("#FFFFFF"))
	ellipse(img, 200, 200, 150, 150, hexColour("#FFD21E"))
	for _, dx := range []float64{-50, 50} {
		ellipse(img, 200+dx, 160, 14, 24, hexColour("#3A2A10"))
	}
	for a := 0.2; a < math.Pi-0.2; a += 0.05 {
		ellipse(img, 200+90*math.Cos(a), 210+70*math.Sin(a), 6, 6, hexColour("#3A2A10"))
	}
	return img
}

// skinWall is a flat skin-coloured wall with a dark knot: skin colour and
// nothing of a face.
func skinWall() *image.NRGBA {
	img := sweep(400, 400, hexColour("#FFFFFF"))
	polygon(img, [][2]float64{{40, 40}, {360, 40}, {360, 360}, {40, 360}}, hexColour("#D7A07A"))
	ellipse(img, 150, 150, 12, 9, hexColour("#3A2A20"))
	return img
}

// TestNonPeopleShowNoFace: a coffee cup, a cat, a product shot, a smiley
// and a skin-coloured wall are not faces.
func TestNonPeopleShowNoFace(t *testing.T) {
	for name, img := range map[string]*image.NRGBA{
		"coffee cup": coffeeCup(), "cat": catFace(), "bottle": productShot(), "smiley": smiley(),
		"skin-coloured wall": skinWall(),
	} {
		keep(t, "not_a_face_"+name, img)
		require.False(t, readPhoto(img).found, name)
	}
}

// TestModelCreateRefusesAPhotoWithNoFace: model.create of a coffee cup
// fails its only output with the reason, naming the photo; no output is
// made, so nothing is charged.
func TestModelCreateRefusesAPhotoWithNoFace(t *testing.T) {
	in := validated[modelInput](t, "model.create", map[string]any{"name": "Cup", "base": "model:md_ava",
		"images": []string{"file:cup"}})
	data, err := encodeJPEG(coffeeCup())
	require.NoError(t, err)
	_, err = modelRunner{}.Step(tasks.WithLoader(context.Background(), photoLoader(data)), in, 0)
	var se *tasks.StepError
	require.True(t, errors.As(err, &se), "%v", err)
	require.Equal(t, contract.ErrTypeProcessing, se.Code)
	require.Contains(t, se.Message, "images[0] (file:cup) shows no face")
}

// TestPortraitsAreFacesAsJPEG: bare-headed portraits of six skin tones
// and hair colours, each sent as a JPEG, read as faces.
func TestPortraitsAreFacesAsJPEG(t *testing.T) {
	for _, c := range [][5]string{
		{"#CFE0EE", "#5B3A26", "#17120F", "#C9A227", "short"},
		{"#F5F5F3", "#3B2519", "#0F0C0B", "#7A1F2B", "bob"},
		{"#F7F7F5", "#C68642", "#7B3F20", "#1F3A5F", "long"},
		{"#2E4A3A", "#F2D4C2", "#D8B36A", "#EDEDED", "long"},
		{"#B5653F", "#C69C76", "#4A2E1C", "#F0EAD6", "short"},
		{"#8A8F96", "#E8C1A5", "#E9E7E2", "#2F3E4F", "short"},
	} {
		data, err := encodeJPEG(portrait(hexColour(c[0]), hexColour(c[1]), hexColour(c[2]), hexColour(c[3]), c[4]))
		require.NoError(t, err)
		jpg, _, err := image.Decode(bytesReader(data))
		require.NoError(t, err)
		require.True(t, readPhoto(jpg).found, "skin %s, hair %s", c[1], c[2])
	}
}

// TestHairOnAVignettedBackdropIsNotTheBackdrop: brown hair on a light
// grey backdrop darkened towards the corners (a vignette, so the border's
// grey is not the grey beside the head) reads brown, not the backdrop's
// grey, within ΔE 6 of the drawn hair (the vignette shades it a little).
func TestHairOnAVignettedBackdropIsNotTheBackdrop(t *testing.T) {
	hair := hexColour("#5A3A22")
	photo := portrait(hexColour("#DAD6D2"), hexColour("#E0B896"), hair, hexColour("#2F3E4F"), "short")
	b := photo.Rect
	for y := range b.Dy() {
		for x := range b.Dx() {
			dx, dy := float64(x)/float64(b.Dx())-0.5, float64(y)/float64(b.Dy())-0.45
			f := 1 - 0.55*(dx*dx+dy*dy)
			o := photo.PixOffset(x, y)
			for k := range 3 {
				photo.Pix[o+k] = uint8(float64(photo.Pix[o+k]) * f)
			}
		}
	}
	keep(t, "vignette", photo)
	r := readPhoto(photo)
	require.True(t, r.found)
	got := tonesOf([]toneRead{r})
	require.Less(t, imgfam.DeltaE(hexColour(got.hair), hair), 6.0, "hair %s", got.hair)
}

// hatOver draws a head whose hair frames the face down to the ears, under
// a cap (a dome and a peak) or a hat (a crown and a wide brim) of colour
// hat, each covering the top of the head only.
func hatOver(bg, skin, hair, hat color.NRGBA, kind string) *image.NRGBA {
	img := sweep(480, 600, bg)
	ellipse(img, 240, 640, 230, 150, hexColour("#3C5A82"))
	ellipse(img, 240, 250, 125, 150, hair)
	fill := func(in func(x, y float64) bool, c color.NRGBA) {
		for y := range 600 {
			for x := range 480 {
				if in(float64(x)+0.5, float64(y)+0.5) {
					img.SetNRGBA(x, y, c)
				}
			}
		}
	}
	fill(func(x, y float64) bool { return y > 330 && math.Hypot((x-240)/125, (y-250)/150) <= 1 }, bg)
	capsule(img, 240, 350, 240, 460, 42, darker(skin, 0.1))
	ellipse(img, 240, 270, 95, 125, skin)
	ellipse(img, 145, 275, 14, 24, darker(skin, 0.08))
	ellipse(img, 335, 275, 14, 24, darker(skin, 0.08))
	for _, dx := range []float64{-38, 38} {
		ellipse(img, 240+dx, 255, 18, 9, hexColour("#F5F5F0"))
		ellipse(img, 240+dx, 255, 7, 7, hexColour("#3C281E"))
		capsule(img, 240+dx-20, 232, 240+dx+20, 232, 4, darker(hair, 0.3))
	}
	ellipse(img, 240, 292, 10, 16, darker(skin, 0.15))
	ellipse(img, 240, 332, 26, 8, hexColour("#A03C3C"))
	dome := func(rx, ry float64) func(x, y float64) bool {
		return func(x, y float64) bool { return y < 201 && math.Hypot((x-240)/rx, (y-201)/ry) <= 1 }
	}
	if kind == "cap" {
		fill(dome(117, 77), hat)
		fill(func(x, y float64) bool { return x > 119 && x < 385 && y > 195 && y < 207 }, darker(hat, 0.2))
	} else {
		fill(dome(105, 94), hat)
		ellipse(img, 240, 197, 175, 16, darker(hat, 0.15))
	}
	return img
}

// TestHeadwearOfAHairColourIsNotTheHair: a black hat over grey hair and a
// brown hat over blond hair, the hair showing at the temples, read the
// hair (within ΔE 5), not the hat; a black or grey headscarf wrapped
// under the chin is not read as hair: the hair is covered, the base's is
// kept and the card's data says so.
func TestHeadwearOfAHairColourIsNotTheHair(t *testing.T) {
	for _, tc := range []struct {
		name, bg, skin, hair, hat string
	}{
		{"grey hair under a black hat", "#CFE0EE", "#C69C76", "#9A9A98", "#1A1A1A"},
		{"blond hair under a brown hat", "#C8D2DC", "#F6DECE", "#DEBE78", "#6E4B2D"},
		{"black hair under a dark red cap", "#D9D9D6", "#E8C1A5", "#17120F", "#8C2A22"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kind := "hat"
			if strings.Contains(tc.name, "cap") {
				kind = "cap"
			}
			photo := hatOver(hexColour(tc.bg), hexColour(tc.skin), hexColour(tc.hair), hexColour(tc.hat), kind)
			keep(t, "hair_coloured_headwear_"+tc.name, photo)
			got := tonesOf([]toneRead{readPhoto(photo)})
			require.NotEmpty(t, got.hair)
			require.Less(t, imgfam.DeltaE(hexColour(got.hair), hexColour(tc.hair)), 5.0, "hair %s", got.hair)
		})
	}
	for _, scarf := range []string{"#161414", "#8A8A88"} {
		photo := portrait(hexColour("#E6E2DA"), hexColour("#8D5A3B"), hexColour(scarf), hexColour("#2F3E4F"), "scarf")
		keep(t, "headscarf_"+scarf, photo)
		r := readPhoto(photo)
		require.True(t, r.found, "a face in a headscarf")
		require.True(t, r.hairCovered, "%s: the hair is covered", scarf)
		require.Empty(t, tonesOf([]toneRead{r}).hair, "%s: no hair read from the scarf", scarf)
	}
}
