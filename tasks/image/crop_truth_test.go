package image

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// cropScene is a rendered photo whose main subject's box is known, with
// the aspect ratios to crop it to.
type cropScene struct {
	name    string
	img     *image.NRGBA
	subject image.Rectangle
	ratios  [][2]int
}

// paint sets every pixel of a W × H image to f(x, y).
func paint(W, H int, f func(x, y int) color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, W, H))
	for y := range H {
		for x := range W {
			img.SetNRGBA(x, y, f(x, y))
		}
	}
	return img
}

func rgb(r, g, b, n float64) color.NRGBA {
	return color.NRGBA{clamp8(r + n), clamp8(g + n), clamp8(b + n), 255}
}

// rocketScene is a night launch pad: a white rocket left of the middle,
// and right of it a taller lattice gantry hung with bright lamps and
// floodlights — the most detailed and brightest thing in the photo, not
// the subject. 1600 × 900.
func rocketScene() cropScene {
	const W, H = 1600, 900
	rx, rw, top, pad := 430.0, 90.0, 260.0, 760.0
	img := paint(W, H, func(x, y int) color.NRGBA {
		fx, fy := float64(x), float64(y)
		n := 3 * grain(x, y)
		c := rgb(14+10*fy/H, 18+14*fy/H, 38+20*fy/H, n) // night sky
		if fy >= pad {
			c = rgb(70, 68, 64, n+6*grain(x/7, y/5)) // concrete pad
		}
		// The gantry: two legs and cross bracing from 1050 to 1250, 120 to the pad.
		if fx >= 1050 && fx < 1250 && fy >= 120 && fy < pad {
			lx, ly := math.Mod(fx-1050, 50), math.Mod(fy-120, 50)
			if fx < 1062 || fx >= 1238 || ly < 5 || math.Abs(lx-ly) < 3 || math.Abs(lx-(50-ly)) < 3 {
				c = rgb(120, 110, 90, n)
			}
			if math.Mod(fx-1050, 50) < 10 && math.Mod(fy-120, 50) < 10 {
				c = rgb(255, 240, 190, n) // lamps
			}
		}
		// Floodlight glare on the gantry's top.
		if d := math.Hypot(fx-1150, fy-110); d < 60 {
			g := 1 - d/60
			c = rgb(float64(c.R)+230*g, float64(c.G)+220*g, float64(c.B)+160*g, 0)
		}
		// The rocket: a white body with a grey band and a cone.
		dx := math.Abs(fx - rx)
		switch {
		case fy >= top+120 && fy < pad && dx < rw/2:
			shade := 1 - 0.35*dx/(rw/2)
			c = rgb(235*shade, 235*shade, 230*shade, n)
			if fy > 500 && fy < 530 {
				c = rgb(60, 60, 66, n)
			}
		case fy >= top && fy < top+120 && dx < (rw/2)*(fy-top)/120:
			c = rgb(220, 220, 215, n)
		}
		return c
	})
	return cropScene{"rocket beside a lit gantry", img, image.Rect(int(rx-rw/2), int(top), int(rx+rw/2), int(pad)),
		[][2]int{{9, 16}, {4, 5}, {1, 1}}}
}

// catScene is a cat's head — ears, two eyes, nose — right of the middle
// of a sofa with a busy, saturated striped cushion on the left: a centre
// 4:5 crop cuts through the right eye. 1600 × 1000.
func catScene() cropScene {
	const W, H = 1600, 1000
	cx, cy, hw, hh := 1010.0, 560.0, 300.0, 250.0
	img := paint(W, H, func(x, y int) color.NRGBA {
		fx, fy := float64(x), float64(y)
		n := 3 * grain(x, y)
		c := rgb(150, 140, 128, n+5*grain(x/3, y/3))     // sofa fabric
		if fx > 60 && fx < 420 && fy > 300 && fy < 780 { // cushion stripes
			if int(fx+fy)/18%2 == 0 {
				c = rgb(200, 30, 60, n)
			} else {
				c = rgb(30, 150, 200, n)
			}
		}
		dx, dy := (fx-cx)/hw, (fy-cy)/hh
		ear := func(ex float64) bool { // a triangle above the head
			t := (fy - (cy - hh - 90)) / 180
			return t >= 0 && t <= 1 && math.Abs(fx-ex) < 70*t
		}
		if dx*dx+dy*dy < 1 || ear(cx-170) || ear(cx+170) {
			c = rgb(200, 130, 60, n+8*grain(x/2, y)) // ginger fur
			if int(fx/6+fy/40)%5 == 0 {
				c = rgb(170, 100, 45, n)
			}
		}
		for _, ex := range []float64{cx - 130, cx + 130} { // eyes
			if e := math.Hypot((fx-ex)/45, (fy-cy+40)/30); e < 1 {
				c = rgb(150, 180, 40, n)
				if math.Abs(fx-ex) < 8 {
					c = rgb(10, 10, 10, n)
				}
			}
		}
		if math.Hypot(fx-cx, (fy-cy-60)*1.5) < 25 { // nose
			c = rgb(210, 110, 120, n)
		}
		return c
	})
	return cropScene{"cat with eyes near the crop edge", img,
		image.Rect(int(cx-hw), int(cy-hh-90), int(cx+hw), int(cy+hh)), [][2]int{{4, 5}, {1, 1}, {3, 4}}}
}

// smallSubjectScene is a wide meadow under a sky with a small red kite,
// high and off to the right, 1600 × 900.
func smallSubjectScene() cropScene {
	const W, H = 1600, 900
	kx, ky, s := 1330.0, 200.0, 40.0
	img := paint(W, H, func(x, y int) color.NRGBA {
		fx, fy := float64(x), float64(y)
		n := 3 * grain(x, y)
		c := rgb(110+60*fy/H, 160+40*fy/H, 225, n) // sky
		if fy > 620+20*math.Sin(fx/130) {
			c = rgb(70, 120+10*grain(x/4, y/4), 50, n+10*grain(x, y/2)) // grass
		}
		if math.Abs(fx-kx)/s+math.Abs(fy-ky)/(1.4*s) < 1 { // kite
			c = rgb(220, 30, 40, n)
		}
		return c
	})
	return cropScene{"small kite far off-centre", img,
		image.Rect(int(kx-s), int(ky-1.4*s), int(kx+s), int(ky+1.4*s)), [][2]int{{9, 16}, {1, 1}, {4, 5}}}
}

// offCentreScene is a tall portrait-format photo of a pale room with a
// person-like figure low in the frame, to crop wide, 900 × 1600.
func offCentreScene() cropScene {
	const W, H = 900, 1600
	cx, top, bottom := 450.0, 1070.0, 1550.0
	img := paint(W, H, func(x, y int) color.NRGBA {
		fx, fy := float64(x), float64(y)
		n := 3 * grain(x, y)
		c := rgb(225-20*fy/H, 220-20*fy/H, 210-20*fy/H, n) // wall
		if fx > 120 && fx < 420 && fy > 120 && fy < 520 {  // a framed pale print high on the wall
			c = rgb(205, 200, 190, n)
			if fx < 130 || fx > 410 || fy < 130 || fy > 510 {
				c = rgb(90, 80, 70, n)
			}
		}
		if math.Hypot(fx-cx, fy-top-60) < 60 { // head
			c = rgb(190, 140, 110, n)
		}
		if fy >= top+120 && fy < bottom && math.Abs(fx-cx) < 80+0.25*(fy-top-120) { // coat
			c = rgb(40, 70, 120, n)
		}
		return c
	})
	return cropScene{"figure low in a tall frame", img,
		image.Rect(int(cx-80-0.25*(bottom-top-120)), int(top), int(cx+80+0.25*(bottom-top-120)), int(bottom)),
		[][2]int{{16, 9}, {1, 1}}}
}

// packshotScene is a bottle on a plain white sweep, well left of the
// middle, with a bright white window reflection on the right, 1600 × 1000.
func packshotScene() cropScene {
	const W, H = 1600, 1000
	bx, top, bottom := 380.0, 220.0, 880.0
	img := paint(W, H, func(x, y int) color.NRGBA {
		fx, fy := float64(x), float64(y)
		n := 1.5 * grain(x, y)
		c := rgb(244-8*fy/H, 244-8*fy/H, 242-8*fy/H, n)
		dx := math.Abs(fx - bx)
		switch {
		case fy >= top+90 && fy < bottom && dx < 90:
			c = rgb(40+40*(1-dx/90), 100+40*(1-dx/90), 60, n)
			if fy > 480 && fy < 700 && dx < 84 {
				c = rgb(240, 230, 205, n)
			}
		case fy >= top && fy < top+90 && dx < 30:
			c = rgb(30, 30, 34, n)
		}
		return c
	})
	return cropScene{"bottle left on a white sweep", img, image.Rect(int(bx-90), int(top), int(bx+90), int(bottom)),
		[][2]int{{9, 16}, {1, 1}, {4, 5}}}
}

// streetScene is a row of facades of five colours with a grid of dark
// windows — a border of many colours and much detail — and a small person
// in a navy coat on the pavement, right of the middle, 1600 × 900.
func streetScene() cropScene {
	const W, H = 1600, 900
	px, top, feet := 1180.0, 540.0, 820.0
	facades := [][3]float64{{230, 220, 195}, {170, 195, 215}, {205, 160, 70}, {150, 150, 150}, {156, 74, 58}}
	img := paint(W, H, func(x, y int) color.NRGBA {
		fx, fy := float64(x), float64(y)
		n := 3 * grain(x, y)
		f := facades[x/320]
		c := rgb(f[0], f[1], f[2], n)
		if mx, my := x%320%100, y%130; y > 60 && y < 600 && x%320 > 30 && mx > 30 && mx < 90 && my > 40 && my < 110 {
			c = rgb(48, 53, 64, n) // windows
		}
		if fy >= 650 {
			c = rgb(120, 118, 112, n+6*grain(x/9, y/9)) // pavement
		}
		if math.Hypot(fx-px, fy-top-30) < 28 { // head
			c = rgb(200, 150, 120, n)
		}
		if fy >= top+58 && fy < feet && math.Abs(fx-px) < 30+0.1*(fy-top) { // coat
			c = rgb(42, 58, 90, n)
		}
		return c
	})
	half := 30 + 0.1*(feet-top)
	return cropScene{"person on a street of coloured facades", img,
		image.Rect(int(px-half), int(top), int(px+half), int(feet)), [][2]int{{9, 16}, {4, 5}, {1, 1}}}
}

// cutOutScene is a cut-out: a transparent frame with an opaque white
// sneaker-like shape near its right edge, 1200 × 800.
func cutOutScene() cropScene {
	const W, H = 1200, 800
	img := paint(W, H, func(x, y int) color.NRGBA {
		if fx, fy := float64(x), float64(y); math.Hypot((fx-930)/180, (fy-500)/90) < 1 || (fx > 800 && fx < 960 &&
			fy > 380 && fy < 500) {
			return rgb(248, 248, 246, grain(x, y))
		}
		return color.NRGBA{}
	})
	return cropScene{"white cut-out on transparency", img, image.Rect(750, 380, 1110, 590), [][2]int{{1, 1}, {4, 5}}}
}

func cropScenes() []cropScene {
	return []cropScene{rocketScene(), catScene(), smallSubjectScene(), offCentreScene(), packshotScene(), streetScene(),
		cutOutScene(), catCloseUpScene()}
}

// keptShare is the share of the subject's box inside the crop.
func keptShare(subject, crop image.Rectangle) float64 {
	in := subject.Intersect(crop)
	return float64(in.Dx()*in.Dy()) / float64(subject.Dx()*subject.Dy())
}

// The attention crop keeps each scene's subject whole (at least 0.98 of
// its box) in every ratio, where the subject is small, off-centre, beside
// brighter and busier clutter, or a face wider than half the crop. With
// TP_CROP_LOOK set to a folder, the crops are written there to look at.
func TestCropKeepsTheSubject(t *testing.T) {
	look := os.Getenv("TP_CROP_LOOK")
	for _, s := range cropScenes() {
		for _, r := range s.ratios {
			b := s.img.Bounds()
			cw, ch := cropSize(b.Dx(), b.Dy(), r[0], r[1])
			rect, err := cropRect(s.img, cw, ch, "attention")
			require.NoError(t, err)
			require.Equal(t, image.Pt(cw, ch), rect.Size())
			share := keptShare(s.subject, rect)
			t.Logf("%-34s %2d:%-2d crop %v keeps %.3f of the subject", s.name, r[0], r[1], rect, share)
			if look != "" {
				name := filepath.Join(look, fmt.Sprintf("%s-%dx%d.png", s.name, r[0], r[1]))
				require.NoError(t, os.WriteFile(name, pngBytes(s.img.SubImage(rect)), 0o644))
			}
			require.GreaterOrEqual(t, share, 0.98, "%s %d:%d: crop %v, subject %v", s.name, r[0], r[1], rect, s.subject)
		}
	}
}

// BenchmarkCropSubjectShare reports, per scene and ratio, the share of
// the subject's box the attention crop keeps (subject/op, 1 is whole).
func BenchmarkCropSubjectShare(b *testing.B) {
	for _, s := range cropScenes() {
		for _, r := range s.ratios {
			name := fmt.Sprintf("%s %d:%d", s.name, r[0], r[1])
			b.Run(name, func(b *testing.B) {
				bd := s.img.Bounds()
				cw, ch := cropSize(bd.Dx(), bd.Dy(), r[0], r[1])
				var rect image.Rectangle
				for b.Loop() {
					rect, _ = cropRect(s.img, cw, ch, "attention")
				}
				b.ReportMetric(keptShare(s.subject, rect), "subject/op")
			})
		}
	}
}

// catCloseUpScene is a tabby's face filling a 3:2 frame, as a close-up
// photo shows it: fur (the frame's border) all round, the lit eye a large
// yellow-green iris with its pupil, the far eye smaller and in shadow
// (its iris darker and duller, so it stands out far less), a pink nose
// low between them; 1350 × 900. The subject is both eyes and the nose: a
// 4:5 crop must not cut through the eye in shadow.
func catCloseUpScene() cropScene {
	const W, H = 1350, 900
	type eye struct{ cx, cy, rx, ry, pr float64 }
	eyes := []eye{{480, 330, 95, 80, 30}, {905, 345, 62, 56, 18}}
	irises := []color.NRGBA{rgb(185, 190, 95, 0), rgb(120, 122, 78, 0)}
	img := paint(W, H, func(x, y int) color.NRGBA {
		fx, fy := float64(x), float64(y)
		n := 6*grain(x, y) + 10*math.Sin(fx/23+3*math.Sin(fy/90)) // fur and its stripes
		c := rgb(150, 122, 92, n)
		if fx > 1150 {
			c = rgb(205, 196, 186, 3*grain(x, y)) // a pale room beyond the ear
		}
		for i, e := range eyes {
			d := math.Hypot((fx-e.cx)/e.rx, (fy-e.cy)/e.ry)
			switch {
			case math.Hypot(fx-e.cx, (fy-e.cy)*e.rx/e.ry) < e.pr:
				c = rgb(15, 14, 12, grain(x, y))
			case d < 1:
				ic := irises[i]
				c = rgb(float64(ic.R), float64(ic.G), float64(ic.B), 4*grain(x, y))
			case d < 1.12:
				c = rgb(60, 45, 35, grain(x, y)) // the lid's dark rim
			}
		}
		if math.Hypot((fx-720)/55, (fy-700)/32) < 1 {
			c = rgb(200, 110, 100, grain(x, y)) // the nose
		}
		return c
	})
	return cropScene{"cat close-up, far eye in shadow", img, image.Rect(374, 240, 976, 732), [][2]int{{4, 5}, {1, 1}}}
}
