package colour

import (
	"image/color"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLabOfKnownColours(t *testing.T) {
	// Reference values: CIELAB (D65, 2°) of the sRGB primaries and greys
	// as Bruce Lindbloom's calculator gives them.
	for _, c := range []struct {
		rgb  color.NRGBA
		want Lab
	}{
		{color.NRGBA{255, 255, 255, 255}, Lab{100, 0, 0}},
		{color.NRGBA{0, 0, 0, 255}, Lab{0, 0, 0}},
		{color.NRGBA{255, 0, 0, 255}, Lab{53.2408, 80.0925, 67.2032}},
		{color.NRGBA{0, 255, 0, 255}, Lab{87.7347, -86.1827, 83.1793}},
		{color.NRGBA{0, 0, 255, 255}, Lab{32.2970, 79.1875, -107.8602}},
		{color.NRGBA{128, 128, 128, 255}, Lab{53.5850, 0, 0}},
	} {
		got := LabOf(c.rgb)
		require.InDelta(t, c.want.L, got.L, 2e-3, Hex(c.rgb))
		require.InDelta(t, c.want.A, got.A, 2e-3, Hex(c.rgb))
		require.InDelta(t, c.want.B, got.B, 2e-3, Hex(c.rgb))
	}
}

func TestLabRoundTripsEvery8BitColour(t *testing.T) {
	for r := 0; r < 256; r += 5 {
		for g := 0; g < 256; g += 5 {
			for b := 0; b < 256; b += 5 {
				c := color.NRGBA{uint8(r), uint8(g), uint8(b), 255}
				require.Equal(t, c, LabOf8(c.R, c.G, c.B).NRGBA())
				require.Equal(t, c, OKLChOf(c).NRGBA())
			}
		}
	}
}

func TestOKLabOfKnownColours(t *testing.T) {
	// Reference values from Ottosson's OKLab definition (sRGB, D65).
	for _, c := range []struct {
		rgb  color.NRGBA
		want OKLab
	}{
		{color.NRGBA{255, 255, 255, 255}, OKLab{1, 0, 0}},
		{color.NRGBA{255, 0, 0, 255}, OKLab{0.62796, 0.22486, 0.12585}},
		{color.NRGBA{0, 255, 0, 255}, OKLab{0.86644, -0.23389, 0.17950}},
		{color.NRGBA{0, 0, 255, 255}, OKLab{0.45201, -0.03246, -0.31153}},
	} {
		got := OKLabOf(c.rgb)
		require.InDelta(t, c.want.L, got.L, 1e-4, Hex(c.rgb))
		require.InDelta(t, c.want.A, got.A, 1e-4, Hex(c.rgb))
		require.InDelta(t, c.want.B, got.B, 1e-4, Hex(c.rgb))
	}
}

func TestGamutKeepsLightnessAndHue(t *testing.T) {
	for _, c := range []OKLCh{{0.7, 0.4, 150}, {0.3, 0.3, 264}, {0.9, 0.2, 30}, {0.5, 0.05, 90}} {
		g := c.Gamut()
		require.True(t, g.InGamut())
		require.InDelta(t, c.L, g.L, 1e-9)
		require.InDelta(t, c.H, g.H, 1e-9)
		require.LessOrEqual(t, g.C, c.C)
		if c.InGamut() {
			require.Equal(t, c, g)
		} else {
			require.False(t, (OKLCh{g.L, g.C + 1e-3, g.H}).InGamut(), "the most chroma sRGB shows")
		}
	}
	for _, c := range []Lab{{60, 120, 20}, {30, -10, -140}, {50, 10, 10}} {
		g := c.Gamut()
		require.True(t, g.InGamut())
		require.InDelta(t, c.L, g.L, 1e-9)
		require.InDelta(t, c.Hue(), g.Hue(), 1e-6)
	}
}

func TestClusterFindsTheColoursOfAFlatPicture(t *testing.T) {
	red, blue := LabOf8(255, 0, 0), LabOf8(0, 0, 255)
	for _, c := range []struct {
		name  string
		pts   []Weighted
		k     int
		want  []Lab
		share []float64
	}{
		{"two colours, k 2", []Weighted{{red, 70}, {blue, 30}}, 2, []Lab{red, blue}, []float64{0.7, 0.3}},
		{"two colours, k 8", []Weighted{{red, 70}, {blue, 30}}, 8, []Lab{red, blue}, []float64{0.7, 0.3}},
		{"an edge pixel folds in", []Weighted{{red, 70}, {blue, 29.5}, {red.Mix(blue, 0.5), 0.5}}, 3,
			[]Lab{red, blue}, []float64{0.7, 0.3}},
		{"near colours merge", []Weighted{{red, 50}, {LabOf8(250, 4, 2), 50}}, 2,
			[]Lab{red.Mix(LabOf8(250, 4, 2), 0.5)}, []float64{1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Cluster(c.pts, c.k, 3, 0.02)
			require.Len(t, got, len(c.want))
			for i, s := range got {
				require.Less(t, DeltaE(s.C, c.want[i]), 1.0, s.C.Hex())
				require.InDelta(t, c.share[i], s.Share, 0.01)
			}
		})
	}
}

func TestKMeansIsDeterministic(t *testing.T) {
	var pts []Weighted
	for i := range 300 {
		pts = append(pts, Weighted{LabOf8(uint8(i*37), uint8(i*91), uint8(i*13)), float64(1 + i%7)})
	}
	a := KMeans(pts, 6)
	require.Len(t, a, 6)
	require.Equal(t, a, KMeans(pts, 6))
}
