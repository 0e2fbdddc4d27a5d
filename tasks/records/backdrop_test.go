package records

import (
	"image"
	"testing"

	"github.com/disintegration/imaging"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// productBoard is a board of product shots whose colours are known: navy,
// burgundy and olive garments on white and light grey sweeps.
func productBoard() []image.Image {
	return []image.Image{
		ProductShot("t_shirt", "#1B2A4A", "#FFFFFF", 480),
		ProductShot("dress", "#6D1A2C", "#E9E9E7", 480),
		ProductShot("trousers", "#6D6B2E", "#FAFAFA", 480),
	}
}

// TestPaletteIgnoresBackdrops analyses a board of product shots: with
// backdrops ignored, no light neutral weighs in the palette and the three
// garments' colours lead it; without, the white sweep is the board's
// heaviest colour. Each look names the backdrop it left out.
func TestPaletteIgnoresBackdrops(t *testing.T) {
	px := make([]pixels, 0, 3)
	for _, img := range productBoard() {
		px = append(px, readPixels(img))
	}
	refs := []string{"a", "b", "c"}
	with := analysePixels(px, refs, nil, true)
	without := analysePixels(px, refs, nil, false)
	backdropWeight := func(a Analysis) float64 {
		w := 0.0
		for _, c := range a.Palette {
			if l := labOfHex(c.Hex); l.L > 85 && l.Chroma() < 8 {
				w += c.Weight
			}
		}
		return w
	}
	t.Logf("backdrop share of the palette: %.3f ignored, %.3f kept", backdropWeight(with), backdropWeight(without))
	require.Zero(t, backdropWeight(with))
	require.Greater(t, backdropWeight(without), 0.4)
	for _, want := range []string{"#1B2A4A", "#6D1A2C", "#6D6B2E"} {
		best := 100.0
		for _, c := range with.Palette {
			best = min(best, colour.DeltaE(labOfHex(c.Hex), labOfHex(want)))
		}
		require.Less(t, best, 6.0, "%s is in the palette %v", want, with.Palette)
	}
	for _, l := range with.Looks {
		require.NotNil(t, l.Backdrop, "look %d", l.Index)
	}
	solidSwatch := analysePixels([]pixels{readPixels(solid("#FAFAF7")(128))}, []string{"x"}, nil, true)
	require.Nil(t, solidSwatch.Looks[0].Backdrop, "an image all of one light colour is its own subject")
	require.Equal(t, "white", solidSwatch.Palette[0].Name)
}

// TestSurfaceReadsPlainAndPrinted reads a small labelled set — plain
// colours, cloths, product shots of plain garments and blurred photos
// (solid); stripes, checks, dots and product shots on a printed ground
// (print) — and reports the accuracy of the print/solid flag.
func TestSurfaceReadsPlainAndPrinted(t *testing.T) {
	blur := func(img image.Image, sigma float64) image.Image { return imaging.Blur(img, sigma) }
	set := []struct {
		name, want string
		img        image.Image
	}{
		{"sky solid", "solid", solid("#8EC6EA")(256)},
		{"navy jersey", "solid", cloth("jersey", "#1B2A4A")(256)},
		{"sand plain weave", "solid", cloth("plain_weave", "#D6C3A1")(256)},
		{"burgundy crepe", "solid", cloth("crepe", "#6D1A2C")(256)},
		{"navy tee on white", "solid", ProductShot("t_shirt", "#1B2A4A", "#FFFFFF", 480)},
		{"olive trousers on grey", "solid", ProductShot("trousers", "#6D6B2E", "#E9E9E7", 480)},
		{"blurred gradient", "solid", blur(gradient("#E3CBA8", "#A4471F")(256), 4)},
		{"blurred tee photo", "solid", blur(ProductShot("dress", "#6D1A2C", "#FFFFFF", 480), 3)},
		{"breton stripes", "print", stripes("#1B2A4A", "#FAFAF7", 10)(256)},
		{"wide stripes", "print", stripes("#6D6B2E", "#F1E6D2", 24)(256)},
		{"gingham", "print", check("#E0261B", "#FAFAF7", 16)(256)},
		{"polka dots", "print", dots("#F1E6D2", "#C3643F", 24)(256)},
		{"soft-focus stripes", "print", blur(stripes("#1B2A4A", "#FAFAF7", 12)(256), 1.5)},
		{"check photo", "print", blur(check("#1B2A4A", "#8EC6EA", 20)(256), 1)},
	}
	right := 0
	for _, s := range set {
		p := readPixels(s.img)
		got := readLook(p, p, histogram{}).Surface
		if got == s.want {
			right++
		} else {
			t.Logf("%s read as %s (edge density %.3f)", s.name, got, edgeDensity(p))
		}
	}
	acc := float64(right) / float64(len(set))
	t.Logf("print/solid accuracy: %d of %d (%.0f%%)", right, len(set), acc*100)
	require.GreaterOrEqual(t, acc, 0.85)
}
