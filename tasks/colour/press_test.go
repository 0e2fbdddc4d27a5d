package colour

import (
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPressUsesTheProfile: with Ghostscript's profile (Debian's
// libgs-common), teal #3E8E94 is C79 M30 Y41 K4 as Little CMS converts it
// (transicc -t1: 78.7 29.9 41.4 3.7), not the formula's C58 M4 Y0 K42, and
// the label says which.
func TestPressUsesTheProfile(t *testing.T) {
	p, err := loadPress("ghostscript")
	require.NoError(t, err, "install Debian's libgs-common for this test")
	teal := color.NRGBA{0x3E, 0x8E, 0x94, 255}
	require.Equal(t, [4]int{79, 30, 41, 4}, p.CMYK(teal))
	require.Equal(t, "C79 M30 Y41 K4", p.Label(teal))
	require.Equal(t, "ICC Artifex CMYK SWOP Profile (relative colorimetric)", p.Method())
	require.NotEmpty(t, p.ICC())

	f, err := loadPress("formula")
	require.NoError(t, err)
	require.Equal(t, [4]int{58, 4, 0, 42}, f.CMYK(teal))
	require.Equal(t, "C58 M4 Y0 K42 (formula)", f.Label(teal))
	require.Nil(t, f.ICC())

	_, err = loadPress("/nonexistent/profile.icc")
	require.Error(t, err)
	_, err = loadPress("/usr/share/color/icc/ghostscript/srgb.icc")
	require.Error(t, err, "an RGB profile is refused")
}

// TestPixelTableFollowsTheProfile: the print file's 65-point table is
// on average within 0.5/255 of the profile's own conversion on a sweep
// of colours, and at worst 4.5/255 (measured 3.9, where the profile bends
// at the gamut's edge).
func TestPixelTableFollowsTheProfile(t *testing.T) {
	p, err := loadPress("ghostscript")
	require.NoError(t, err, "install Debian's libgs-common for this test")
	worst, sum, n := 0.0, 0.0, 0
	for r := 0; r < 256; r += 15 {
		for g := 0; g < 256; g += 17 {
			for b := 0; b < 256; b += 13 {
				exact := p.profile.CMYK(color.NRGBA{uint8(r), uint8(g), uint8(b), 255})
				c, m, y, k := p.Pixel(uint8(r), uint8(g), uint8(b))
				for i, v := range []uint8{c, m, y, k} {
					d := math.Abs(float64(v) - exact[i]*2.55)
					worst, sum, n = math.Max(worst, d), sum+d, n+1
				}
			}
		}
	}
	t.Logf("difference: mean %.3f, worst %.2f of 255", sum/float64(n), worst)
	require.Less(t, sum/float64(n), 0.5)
	require.Less(t, worst, 4.5)
}
