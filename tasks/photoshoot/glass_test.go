package photoshoot

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// glassPhoto is a green glass bottle (opacity 0.55 over a lit sweep, a
// gold cap) photographed 480 × 480: the backdrop's gradient is seen through
// its body.
func glassPhoto() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 480, 480))
	for y := range 480 {
		for x := range 480 {
			b := 250 - 80*float64(y)/480
			c := [3]float64{b, b, b + 2}
			fx, fy := float64(x), float64(y)
			body := (math.Abs(fx-240) < 64 && fy > 200 && fy < 420) || (math.Abs(fx-240) < 20 && fy > 80 && fy <= 200) ||
				math.Hypot((fx-240)/64, (fy-200)/32) < 1
			switch {
			case math.Abs(fx-240) < 24 && fy > 64 && fy <= 80:
				c = [3]float64{200, 170, 60}
			case body:
				f := [3]float64{20, 110, 45}
				for ch := range 3 {
					c[ch] = 0.55*f[ch] + 0.45*c[ch]
				}
			}
			img.SetNRGBA(x, y, color.NRGBA{uint8(c[0]), uint8(c[1]), uint8(c[2]), 255})
		}
	}
	return img
}

// TestAGlassPackshotIsOpaqueAsPhotographed: a glass bottle's marketplace
// packshot lays the body opaque inside its silhouette, its colour the one
// photographed (the backdrop seen through it baked in), not the glass's
// un-mixed tint.
func TestAGlassPackshotIsOpaqueAsPhotographed(t *testing.T) {
	photo := glassPhoto()
	prod := cutProduct(t, photo)
	for _, m := range marketplaces {
		r := shot{bg: studioOf("#FFFFFF"), pose: poseFor(genderWoman, angleFront), w: m.w, h: m.h, market: &m}.draw(prod)
		keep(t, "glass_"+m.value, r.img)
		W, H := r.item.Rect.Dx(), r.item.Rect.Dy()
		for y := H / 3; y < 2*H/3; y++ {
			for x := W/2 - W/8; x < W/2+W/8; x++ {
				require.Equal(t, uint8(255), r.item.Pix[y*r.item.Stride+x*4+3], "%s: body pixel (%d, %d)", m.value, x, y)
			}
		}
		// The body's middle has the photo's colour: a mid green, not the dark tint.
		c := r.img.NRGBAAt((r.box.Min.X+r.box.Max.X)/2+r.box.Dx()/4, (r.box.Min.Y+r.box.Max.Y)/2+r.box.Dy()/8)
		p := photo.NRGBAAt(240+32, 340)
		require.InDelta(t, int(p.G), int(c.G), 12, "%s: %v against the photo's %v", m.value, c, p)
		require.InDelta(t, int(p.R), int(c.R), 12, "%s: %v against the photo's %v", m.value, c, p)
	}
}
