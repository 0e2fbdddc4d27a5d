package image

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The fifth set's camera: the scene renderer (cutout_scene_test.go) with
// what a lens and a sensor add to a studio photograph, in the order they
// happen — a slight defocus of every edge, the lens's vignette, sensor
// noise whose luma grows with the light and whose chroma comes in blotches
// a few pixels wide, then JPEG (Go's encoder writes 4:2:0 chroma
// subsampling, as cameras do). The truth alpha is blurred with the same
// kernel; light, enclosed-backdrop and shadow pixels are only those the
// blur left whole.

// camera is what a shot's lens and sensor add.
type camera struct {
	defocus  float64 // Gaussian σ of the lens blur, in pixels (0: none)
	vignette float64 // the light lost at the frame's corners, 0..1
	luma     float64 // luma noise σ (0..255) at full white; it falls with the square root of the light
	chroma   float64 // chroma noise σ (0..255), per channel, in blotches
	read     float64 // read noise σ (0..255), luma and chroma, the same at every light: it shows in the shadows
	quality  int     // JPEG quality (0: a PNG)
}

// shot is a scene photographed by a camera; glass says its body is
// see-through, measured as glass too.
type shot struct {
	scene
	cam   camera
	glass bool
}

// photograph renders the shot: the scene, noise-free and not compressed,
// through the camera.
func (s shot) photograph() truth {
	sc := s.scene
	sc.noise, sc.jpeg = 0, false
	t := sc.render()
	px := t.img.(*image.NRGBA)
	W, H := px.Rect.Dx(), px.Rect.Dy()
	ch := [3][]float64{}
	for c := range 3 {
		ch[c] = make([]float64, W*H)
		for i := range W * H {
			ch[c][i] = float64(px.Pix[i*4+c])
		}
	}
	if s.cam.defocus > 0 {
		for c := range 3 {
			blurPlane(ch[c], W, H, s.cam.defocus)
		}
		blurPlane(t.alpha, W, H, s.cam.defocus)
		blurPlane(t.cover, W, H, s.cam.defocus)
	}
	rng := rand.New(rand.NewPCG(uint64(len(s.name))*31, 11))
	blot := [3]func(x, y float64) float64{valueNoise(21, 2.5), valueNoise(22, 2.5), valueNoise(23, 2.5)}
	for y := range H {
		for x := range W {
			i := y*W + x
			dx, dy := (float64(x)-float64(W)/2)/(float64(W)/2), (float64(y)-float64(H)/2)/(float64(H)/2)
			v := 1 - s.cam.vignette*(dx*dx+dy*dy)/2
			lum := (ch[0][i] + ch[1][i] + ch[2][i]) / 3 * v
			n := rng.NormFloat64() * s.cam.luma * math.Sqrt(math.Max(lum, 1)/255)
			dark := 1.6 - lum/255 // read noise weighs most where the signal is least
			if s.cam.read > 0 {
				n += rng.NormFloat64() * s.cam.read * dark
			}
			for c := range 3 {
				e := s.cam.chroma * (0.6*blot[c](float64(x), float64(y)) + 0.5*rng.NormFloat64())
				if s.cam.read > 0 {
					e += 0.6 * s.cam.read * dark * rng.NormFloat64()
				}
				px.Pix[i*4+c] = uint8(math.Round(math.Max(0, math.Min(255, ch[c][i]*v+n+e))))
			}
			if s.cam.defocus > 0 { // the masks keep only the pixels the blur left whole
				t.light[i] = t.light[i] && t.alpha[i] > 0.98
				t.hole[i] = t.hole[i] && t.cover[i] < 0.02
				t.shadow[i] = t.shadow[i] && t.cover[i] < 0.02
			}
		}
	}
	if s.cam.quality > 0 {
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, px, &jpeg.Options{Quality: s.cam.quality}); err != nil {
			panic(err)
		}
		m, err := jpeg.Decode(&buf)
		if err != nil {
			panic(err)
		}
		t.img = m
	}
	return t
}

// blurPlane blurs p (w × h) in place with a Gaussian of σ s, its edges
// clamped.
func blurPlane(p []float64, w, h int, s float64) {
	r := int(math.Ceil(3 * s))
	k := make([]float64, 2*r+1)
	var sum float64
	for j := range k {
		d := float64(j - r)
		k[j] = math.Exp(-d * d / (2 * s * s))
		sum += k[j]
	}
	for j := range k {
		k[j] /= sum
	}
	tmp := make([]float64, len(p))
	for y := range h {
		for x := range w {
			var a float64
			for j, kv := range k {
				a += kv * p[y*w+min(w-1, max(0, x+j-r))]
			}
			tmp[y*w+x] = a
		}
	}
	for y := range h {
		for x := range w {
			var a float64
			for j, kv := range k {
				a += kv * tmp[min(h-1, max(0, y+j-r))*w+x]
			}
			p[y*w+x] = a
		}
	}
}

// glossy is a backdrop bg that mirrors parts below the line base, as a
// glossy sweep does: the reflection's strength falls off over depth.
func glossy(bg func(x, y float64) rgbf, parts []part, base, strength, depth float64) func(x, y float64) rgbf {
	return func(x, y float64) rgbf {
		b := bg(x, y)
		if y <= base {
			return b
		}
		my := 2*base - y
		for k := len(parts) - 1; k >= 0; k-- {
			if parts[k].in(x, my) {
				c, w := parts[k].col(x, my), strength*math.Exp(-(y-base)/depth)
				return rgbf{b[0] + w*(c[0]-b[0]), b[1] + w*(c[1]-b[1]), b[2] + w*(c[2]-b[2])}
			}
		}
		return b
	}
}

// fifthScore is one shot of the fifth set measured: the cut-out's scores
// and, for glass, its see-through scores.
type fifthScore struct {
	cutScore
	glass    bool
	g        glassScore
	err      string
	mainIoU  float64 // the IoU the set's figures use: the silhouette's for glass
	objShare float64 // the share of the frame the product covers
	inferred bool    // delivered with the cutout_uncertain warning: part of the outline drawn
}

// fifthFigures are the fifth set's figures.
type fifthFigures struct {
	meanIoU, minIoU, light, hole, glassMAE float64
	scores                                 map[string]fifthScore
}

// measureFifth cuts out every shot as image.remove_background does with its
// defaults (cutOutGlass, tolerance 12, feather 2); dir, when not empty,
// receives each input, the cut-out over magenta beside it and the cut-out.
func measureFifth(tb testing.TB, shots []shot, dir string) fifthFigures {
	f := fifthFigures{minIoU: 1, scores: map[string]fifthScore{}}
	var nli, nho, ngl int
	for _, s := range shots {
		t := s.photograph()
		var share float64
		for _, a := range t.alpha {
			share += a / float64(len(t.alpha))
		}
		start := time.Now()
		res, err := cutOutGlass(context.Background(), t.img, 12, 2, false)
		rememberCut(s, t, res, err, time.Since(start))
		if dir != "" {
			writePNG(tb, filepath.Join(dir, s.name+"_in.png"), t.img)
		}
		if err != nil {
			f.scores[s.name] = fifthScore{err: err.Error(), glass: s.glass, objShare: share}
			f.minIoU = 0
			continue
		}
		fs := fifthScore{cutScore: score(t, res.img), glass: s.glass, objShare: share, inferred: res.inferred}
		fs.mainIoU = fs.iou
		if s.glass {
			fs.g = scoreGlass(t, res)
			fs.mainIoU = fs.g.iou
			f.glassMAE += fs.g.mae
			ngl++
		}
		if dir != "" {
			writePNG(tb, filepath.Join(dir, s.name+"_side.png"), sideBySide(t.img, res.img))
			writePNG(tb, filepath.Join(dir, s.name+"_out.png"), res.img)
		}
		f.scores[s.name] = fs
		f.meanIoU += fs.mainIoU / float64(len(shots))
		f.minIoU = min(f.minIoU, fs.mainIoU)
		if fs.hasLight {
			f.light += fs.light
			nli++
		}
		if fs.hasHole {
			f.hole += fs.hole
			nho++
		}
	}
	f.light /= float64(max(nli, 1))
	f.hole /= float64(max(nho, 1))
	f.glassMAE /= float64(max(ngl, 1))
	return f
}

// TestCameraBlursTheTruthWithTheImage: the defocused truth is still the
// image's: a shot's blurred alpha sums to its sharp alpha's (the blur moves
// coverage, it neither adds nor removes it), and light pixels stay opaque.
func TestCameraBlursTheTruthWithTheImage(t *testing.T) {
	s := fifthShots()[0]
	sharp := s
	sharp.cam = camera{}
	a, b := s.photograph(), sharp.photograph()
	var sa, sb float64
	for i := range a.alpha {
		sa, sb = sa+a.alpha[i], sb+b.alpha[i]
		if a.light[i] {
			require.Greater(t, a.alpha[i], 0.98)
		}
	}
	require.InDelta(t, sb, sa, sb*0.002, "the blur keeps the product's coverage")
}
