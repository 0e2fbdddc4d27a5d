package image

// The family's fast paths give what the plain definitions give.

import (
	"context"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"github.com/disintegration/imaging"
	"github.com/stretchr/testify/require"
)

// The cache gives what the computation gives, whichever colours share a
// slot and in whatever order they come.
func TestColourCacheAgreesWithTheComputation(t *testing.T) {
	rgbs := new(rgbCache)
	pack := func(r, g, b uint8) uint32 { return uint32(r)<<16 | uint32(g)<<8 | uint32(b) ^ 0xA5A5A5 }
	for pass := range 2 {
		for r := 0; r < 256; r += 5 {
			for g := 255 - pass; g >= 0; g -= 7 {
				for b := 0; b < 256; b += 3 {
					require.Equal(t, pack(uint8(r), uint8(g), uint8(b)), rgbs.get(uint8(r), uint8(g), uint8(b), pack))
				}
			}
		}
	}
}

// flood finds the same pixels as a plain breadth-first search through
// 4-neighbours, on random maps from sparse to dense.
func TestFloodIsTheConnectedNearPixels(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, density := range []float64{0.3, 0.55, 0.7, 0.9} {
		W, H := 37, 23
		near := make([]bool, W*H)
		for i := range near {
			near[i] = rng.Float64() < density
		}
		seeds := []int{0, W - 1, (H - 1) * W, W*H - 1, W * (H / 2), W*(H/2) + W - 1}
		want := make([]bool, W*H)
		var queue []int
		for _, i := range seeds {
			if near[i] && !want[i] {
				want[i] = true
				queue = append(queue, i)
			}
		}
		for len(queue) > 0 {
			i := queue[0]
			queue = queue[1:]
			x, y := i%W, i/W
			for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				nx, ny := x+d[0], y+d[1]
				if nx >= 0 && nx < W && ny >= 0 && ny < H && near[ny*W+nx] && !want[ny*W+nx] {
					want[ny*W+nx] = true
					queue = append(queue, ny*W+nx)
				}
			}
		}
		require.Equal(t, want, flood(near, W, H, seeds), "density %g", density)
	}
}

// readOnly's pixels are imaging.Clone's, whether it shares img's or copies.
func TestReadOnlyIsClone(t *testing.T) {
	nrgba := solid(20, 10, color.NRGBA{10, 200, 30, 128})
	opaque := image.NewRGBA(image.Rect(0, 0, 20, 10))
	half := image.NewRGBA(image.Rect(0, 0, 20, 10))
	for i := range opaque.Pix {
		opaque.Pix[i] = uint8(i*37%200) | 0x01
		half.Pix[i] = uint8(i * 37 % 100)
		if i%4 == 3 {
			opaque.Pix[i], half.Pix[i] = 0xff, 0x80
		}
	}
	for _, img := range []image.Image{nrgba, opaque, half, nrgba.SubImage(image.Rect(3, 2, 15, 9)), image.NewGray(
		image.Rect(0, 0, 5, 5))} {
		want, got := imaging.Clone(img), readOnly(img)
		require.Equal(t, want.Rect, got.Rect)
		for y := range want.Rect.Dy() {
			require.Equal(t, want.Pix[y*want.Stride:][:4*want.Rect.Dx()], got.Pix[y*got.Stride:][:4*got.Rect.Dx()])
		}
	}
	require.Same(t, nrgba, readOnly(nrgba), "an NRGBA image is read in place")
}

// featherAlpha gives the alpha of the plain 3-4 chamfer transform: every
// pixel relaxed from each neighbour in two raster passes.
func TestFeatherAlphaIsTheChamferRamp(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, feather := range []int{1, 2, 5, 20} {
		W, H := 41, 29
		isBg := make([]bool, W*H)
		for i := range isBg {
			isBg[i] = rng.IntN(9) == 0 || i%W < 3
		}
		limit := 3 * (feather + 1)
		d := make([]int, W*H)
		for i, b := range isBg {
			if !b {
				d[i] = limit
			}
		}
		relax := func(x, y, nx, ny, w int) {
			if nx >= 0 && nx < W && ny >= 0 && ny < H {
				d[y*W+x] = min(d[y*W+x], d[ny*W+nx]+w)
			}
		}
		for y := range H {
			for x := range W {
				relax(x, y, x-1, y, 3)
				relax(x, y, x, y-1, 3)
				relax(x, y, x-1, y-1, 4)
				relax(x, y, x+1, y-1, 4)
			}
		}
		for y := H - 1; y >= 0; y-- {
			for x := W - 1; x >= 0; x-- {
				relax(x, y, x+1, y, 3)
				relax(x, y, x, y+1, 3)
				relax(x, y, x+1, y+1, 4)
				relax(x, y, x-1, y+1, 4)
			}
		}
		want := make([]uint8, W*H)
		for i, v := range d {
			want[i] = uint8(min(255, v*255/limit))
		}
		require.Equal(t, want, featherAlpha(isBg, W, H, feather), "feather %d", feather)
	}
}

// A large photo's attention crop, scored on a picked-then-averaged copy,
// still holds its bright object, at the exact largest size of the ratio.
func TestAttentionCropOfALargeImage(t *testing.T) {
	img := imaging.Resize(spot(), 3000, 1000, imaging.NearestNeighbor)
	for _, ratio := range [][2]int{{1, 1}, {4, 5}, {9, 16}} {
		cw, ch := cropSize(3000, 1000, ratio[0], ratio[1])
		r, err := cropRect(img, cw, ch, "attention")
		require.NoError(t, err)
		require.Equal(t, image.Pt(cw, ch), r.Size())
		require.True(t, r.In(img.Bounds()), "%v", r)
		require.Equal(t, 400*400, brightPixels(img.SubImage(r)), "the whole object is in %v", r)
	}
}

// cloneNRGBA gives imaging.Clone's bytes, a JPEG's YCbCr in every
// subsampling and off the origin included.
func TestCloneNRGBAIsClone(t *testing.T) {
	var imgs []image.Image
	for _, ratio := range []image.YCbCrSubsampleRatio{image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio422,
		image.YCbCrSubsampleRatio420, image.YCbCrSubsampleRatio440, image.YCbCrSubsampleRatio411,
		image.YCbCrSubsampleRatio410} {
		m := image.NewYCbCr(image.Rect(0, 0, 37, 23), ratio)
		for i := range m.Y {
			m.Y[i] = uint8(i * 31)
		}
		for i := range m.Cb {
			m.Cb[i], m.Cr[i] = uint8(i*17), uint8(255-i*13)
		}
		imgs = append(imgs, m, m.SubImage(image.Rect(3, 5, 30, 20)))
	}
	imgs = append(imgs, solid(9, 7, color.NRGBA{1, 2, 3, 100}))
	for i, img := range imgs {
		want, got := imaging.Clone(img), cloneNRGBA(img)
		require.Equal(t, want.Rect, got.Rect, "image %d", i)
		require.Equal(t, want.Pix, got.Pix, "image %d", i)
	}
}

// A JPEG's cut-out, read from its YCbCr planes, is the cut-out of its
// NRGBA copy, in every subsampling.
func TestCutOutOfYCbCrIsOfItsCopy(t *testing.T) {
	for _, ratio := range []image.YCbCrSubsampleRatio{image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio422,
		image.YCbCrSubsampleRatio420, image.YCbCrSubsampleRatio440, image.YCbCrSubsampleRatio411} {
		m := image.NewYCbCr(image.Rect(0, 0, 61, 47), ratio)
		for y := range 47 {
			for x := range 61 {
				m.Y[y*m.YStride+x] = uint8(230 + (x*7+y*3)%5)
				if (x-30)*(x-30)+(y-23)*(y-23) < 200 {
					m.Y[y*m.YStride+x] = uint8(60 + x%9)
				}
			}
		}
		for i := range m.Cb {
			m.Cb[i], m.Cr[i] = uint8(126+i%3), uint8(129-i%4)
		}
		for _, feather := range []int{0, 2} {
			want, err := cutOut(context.Background(), imaging.Clone(m), 12, feather)
			require.NoError(t, err)
			got, err := cutOut(context.Background(), m, 12, feather)
			require.NoError(t, err)
			require.Equal(t, want.img.Pix, got.img.Pix, "%v feather %d", ratio, feather)
			require.Equal(t, want.background, got.background)
			require.Equal(t, want.objectShare, got.objectShare)
		}
	}
}
