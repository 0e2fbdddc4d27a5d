package icc

import (
	"image/color"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// debianCMYK is Ghostscript's CMYK output profile (Debian's libgs-common).
const debianCMYK = "/usr/share/color/icc/ghostscript/default_cmyk.icc"

// TestCMYKMatchesLittleCMS converts colours through Ghostscript's CMYK
// profile and checks each ink against Little CMS 2.14's transicc
// (-t1 -c0, relative colorimetric, no black point compensation, no
// precalculation), to 0.1 % (a sweep of 294 colours was within 0.055 %).
func TestCMYKMatchesLittleCMS(t *testing.T) {
	data, err := os.ReadFile(debianCMYK)
	require.NoError(t, err, "install Debian's libgs-common for this test (make test-deps)")
	p, err := Parse(data)
	require.NoError(t, err)
	require.Equal(t, "Artifex CMYK SWOP Profile", p.Name)
	require.Equal(t, "B2A1", p.Intent)
	for _, tc := range []struct {
		rgb  color.RGBA
		want [4]float64
	}{
		// printf "62 142 148\n" | transicc -t1 -c0 -n -o default_cmyk.icc
		{color.RGBA{62, 142, 148, 255}, [4]float64{78.7076, 29.8665, 41.4206, 3.7201}},
		{color.RGBA{27, 42, 74, 255}, [4]float64{94.9874, 80.9964, 39.5438, 65.7801}},
		{color.RGBA{255, 255, 255, 255}, [4]float64{0, 0, 0, 0}},
		{color.RGBA{0, 0, 0, 255}, [4]float64{74.6059, 67.9896, 65.3422, 90.0481}},
		{color.RGBA{255, 0, 0, 255}, [4]float64{0, 100, 100, 0}},
		{color.RGBA{128, 128, 128, 255}, [4]float64{52.5261, 45.1942, 45.2064, 9.6147}},
	} {
		got := p.CMYK(tc.rgb)
		for i := range got {
			require.InDelta(t, tc.want[i], got[i], 0.1, "%v ink %d: got %v want %v", tc.rgb, i, got, tc.want)
		}
	}
}

// TestLutBToAMatchesLittleCMS reads a v4 profile whose table is a
// lutBToA (built by v4Profile) and checks its inks against transicc's.
func TestLutBToAMatchesLittleCMS(t *testing.T) {
	p, err := Parse(v4Profile())
	require.NoError(t, err)
	require.Equal(t, "Test lutBToA", p.Name)
	for _, tc := range []struct {
		rgb  color.RGBA
		want [4]float64
	}{
		// printf "62 142 148\n" | transicc -t1 -c0 -n -o v4.icc
		{color.RGBA{62, 142, 148, 255}, [4]float64{7.8696, 4.8599, 5.7971, 1.5890}},
		{color.RGBA{27, 42, 74, 255}, [4]float64{16.2777, 21.3378, 15.1639, 37.4049}},
		{color.RGBA{0, 0, 0, 255}, [4]float64{23.5889, 28.9204, 26.3376, 100}},
		{color.RGBA{200, 180, 40, 255}, [4]float64{2.2745, 2.5671, 5.0135, 0.0916}},
		{color.RGBA{255, 255, 255, 255}, [4]float64{0, 0, 0, 0}},
		{color.RGBA{230, 30, 90, 255}, [4]float64{1.3913, 18.1893, 9.2609, 2.1999}},
	} {
		got := p.CMYK(tc.rgb)
		for i := range got {
			require.InDelta(t, tc.want[i], got[i], 0.1, "%v ink %d: got %v want %v", tc.rgb, i, got, tc.want)
		}
	}
}

// TestXYZProfileMatchesLittleCMS reads Ghostscript's ps_cmyk.icc: a v4
// lut16 on XYZ, with its matrix and tetrahedral interpolation.
func TestXYZProfileMatchesLittleCMS(t *testing.T) {
	data, err := os.ReadFile("/usr/share/color/icc/ghostscript/ps_cmyk.icc")
	require.NoError(t, err, "install Debian's libgs-common for this test (make test-deps)")
	p, err := Parse(data)
	require.NoError(t, err)
	for _, tc := range []struct {
		rgb  color.RGBA
		want [4]float64
	}{
		{color.RGBA{62, 142, 148, 255}, [4]float64{83.7201, 72.9473, 70.4906, 0}},
		{color.RGBA{27, 42, 74, 255}, [4]float64{97.4914, 97.5769, 93.3379, 0}},
		{color.RGBA{200, 180, 40, 255}, [4]float64{45.6947, 54.3557, 92.7428, 0}},
	} {
		got := p.CMYK(tc.rgb)
		for i := range got {
			require.InDelta(t, tc.want[i], got[i], 0.1, "%v ink %d: got %v want %v", tc.rgb, i, got, tc.want)
		}
	}
}

// TestParseRefusesWhatItCannotUse checks the errors an operator sees for
// a profile that is not a CMYK output profile.
func TestParseRefusesWhatItCannotUse(t *testing.T) {
	rgb, err := os.ReadFile("/usr/share/color/icc/ghostscript/srgb.icc")
	require.NoError(t, err)
	for _, data := range [][]byte{nil, []byte("not a profile at all, just words and more words"), rgb,
		v4Profile()[:200]} {
		_, err := Parse(data)
		require.ErrorIs(t, err, ErrProfile)
	}
}
