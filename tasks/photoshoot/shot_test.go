package photoshoot

import (
	"context"
	"image"
	"image/color"
	"math"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// redBox is a product: a red box, taller than wide, with a darker stripe
// on its left edge (so a mirrored copy can be told apart), on a light
// grey sweep.
func redBox(t *testing.T) *image.NRGBA {
	src := newCanvas(240, 320, color.NRGBA{236, 236, 233, 255})
	rect(src, image.Rect(50, 40, 190, 290), color.NRGBA{200, 30, 40, 255})
	rect(src, image.Rect(50, 40, 70, 290), color.NRGBA{90, 10, 20, 255})
	p, err := prepareProduct(context.Background(), src)
	require.NoError(t, err)
	require.True(t, p.cut)
	return p.img
}

func lumaAt(img *image.NRGBA, x, y int) float64 {
	o := img.PixOffset(x, y)
	return 0.299*float64(img.Pix[o]) + 0.587*float64(img.Pix[o+1]) + 0.114*float64(img.Pix[o+2])
}

// TestStudioShotsFillTheCornersAndShadeTheFloor: on every studio backdrop
// the corners are its colour and the floor under the product is darker.
func TestStudioShotsFillTheCornersAndShadeTheFloor(t *testing.T) {
	prod := redBox(t)
	for _, bg := range append(backgrounds[:5:5], studioOf("#3366AA")) {
		t.Run(bg.Colour, func(t *testing.T) {
			r := shot{bg: bg, pose: poseFor(genderWoman, angleFront), w: 400, h: 500}.draw(prod)
			want := hexColour(bg.Colour)
			for _, p := range []image.Point{{0, 0}, {399, 0}, {0, 499}, {399, 499}} {
				require.Equal(t, want, r.img.NRGBAAt(p.X, p.Y), "corner %v", p)
			}
			cx := (r.box.Min.X + r.box.Max.X) / 2
			require.Less(t, lumaAt(r.img, cx, r.floor+2), lumaAt(r.img, 0, 0)-1, "shadow under the product")
			require.Equal(t, color.NRGBA{200, 30, 40, 255}, r.img.NRGBAAt(cx+10, (r.box.Min.Y+r.box.Max.Y)/2))
		})
	}
}

// TestScenesScaleWithDepth: in every scene a placement nearer the camera
// (lower floor line) is larger, and the product's height over the floor
// line's distance below the horizon is the same at every depth.
func TestScenesScaleWithDepth(t *testing.T) {
	prod := redBox(t)
	for _, bg := range backgrounds[5:] {
		t.Run(bg.ID, func(t *testing.T) {
			const H = 800
			hy := bg.Horizon * H
			var ratios []float64
			var heights []int
			for v := range 3 {
				r := shot{bg: bg, pose: poseFor(genderWoman, angleFront), variant: v, w: 640, h: H, heightCM: 40}.draw(prod)
				heights = append(heights, r.box.Dy())
				ratios = append(ratios, float64(r.box.Dy())/(float64(r.floor)-hy))
			}
			require.Greater(t, heights[1], heights[0])
			require.Less(t, heights[2], heights[0])
			for _, q := range ratios[1:] {
				require.InDelta(t, ratios[0], q, 0.02*ratios[0])
			}
		})
	}
}

// TestScenesHaveAWallOrSkyAboveTheFloor: a scene's colour changes across its
// horizon and the floor darkens towards the camera or changes texture.
func TestScenesHaveAWallOrSkyAboveTheFloor(t *testing.T) {
	for _, bg := range backgrounds[5:] {
		img := bg.draw(400, 400, previewCameraCM)
		hy := int(bg.Horizon * 400)
		above, below := img.NRGBAAt(200, hy-30), img.NRGBAAt(200, hy+30)
		d := math.Abs(
			float64(above.R)-float64(below.R),
		) + math.Abs(
			float64(above.G)-float64(below.G),
		) + math.Abs(
			float64(above.B)-float64(below.B),
		)
		require.Greater(t, d, 20.0, bg.ID)
	}
}

// TestPresetsResolveToTheModelsGender: a preset stands for its angles in
// the model's gender (a woman's without a model); nothing sent is one
// front pose.
func TestPresetsResolveToTheModelsGender(t *testing.T) {
	for _, tc := range []struct {
		refs   []string
		gender string
		want   []string
	}{
		{nil, "", []string{"pose:ps_woman_front"}},
		{[]string{"pose_preset:pp_catalogue"}, genderBoy, []string{"pose:ps_boy_front", "pose:ps_boy_back",
			"pose:ps_boy_side"}},
		{[]string{"pose:ps_man_walking", "pose_preset:pp_hero"}, genderMan, []string{"pose:ps_man_walking",
			"pose:ps_man_front"}},
	} {
		var got []string
		for _, p := range resolvePoses(tc.refs, tc.gender) {
			got = append(got, p.Handle())
		}
		require.Equal(t, tc.want, got)
	}
}

// TestFigureTorsoIsFilled: every base model's figure, in every pose, has
// its base layer at the waist and skin at the neck, and the torso is as
// wide as the shoulders ask.
func TestFigureTorsoIsFilled(t *testing.T) {
	for _, m := range baseModels {
		for _, a := range angles {
			t.Run(m.ID+"/"+a, func(t *testing.T) {
				img := newCanvas(300, 600, color.NRGBA{250, 250, 250, 255})
				f := drawFigure(img, m.Body, a, image.Pt(150, 590), 580, nil)
				sk := skeletonOf(m.Body)
				s := 580 / m.Body.Heads
				top := 590 - 580.0
				cx := float64(f.Torso.Min.X+f.Torso.Max.X) / 2
				require.Equal(t, baseLayer, img.NRGBAAt(int(cx), int(top+sk.waistY*s)), "base layer at the waist")
				require.InDelta(t, 2*m.Body.Shoulders*poseLimbs[a].turn*s, float64(f.Torso.Dx()), 2)
				w := m.Body.Shoulders * poseLimbs[a].turn * s
				for _, x := range []float64{cx - 0.8*w, cx + 0.8*w} {
					require.NotEqual(
						t,
						color.NRGBA{250, 250, 250, 255},
						img.NRGBAAt(int(x), int(top+(sk.shoulderY+0.35)*s)),
						"the chest is drawn across",
					)
				}
				if a != angleBack {
					require.Equal(
						t,
						hexColour(m.Body.Skin),
						img.NRGBAAt(int(cx+poseLimbs[a].shift*0.55*s), int(top+0.95*s)),
						"skin at the neck",
					)
				}
			})
		}
	}
}

// TestBackdropsAreCachedAsCopies: a scene drawn twice is the same picture,
// and drawing on one copy leaves the next untouched.
func TestBackdropsAreCachedAsCopies(t *testing.T) {
	bg := backgrounds[6]
	a := sceneBackdrop(bg, 120, 90, 40)
	want := bg.draw(120, 90, 40)
	require.Equal(t, want.Pix, a.Pix)
	rect(a, a.Rect, color.NRGBA{255, 0, 0, 255})
	require.Equal(t, want.Pix, sceneBackdrop(bg, 120, 90, 40).Pix)
	for i := range cachedBackdrops + 2 {
		sceneBackdrop(bg, 10+i, 10, 40)
	}
	backdropCache.Lock()
	require.Len(t, backdropCache.imgs, cachedBackdrops)
	backdropCache.Unlock()
}

// TestAProductWithoutAPlainBackgroundIsLaidWhole: a photo whose border is
// busy (stripes) cannot be cut out; it is laid down whole, its aspect kept.
func TestAProductWithoutAPlainBackgroundIsLaidWhole(t *testing.T) {
	src := newCanvas(200, 100, color.NRGBA{30, 120, 60, 255})
	for x := 0; x < 200; x += 8 {
		rect(src, image.Rect(x, 0, x+4, 100), color.NRGBA{240, 200, 40, 255})
	}
	p, err := prepareProduct(context.Background(), src)
	require.NoError(t, err)
	require.False(t, p.cut)
	require.Equal(t, image.Rect(0, 0, 200, 100), p.img.Rect)
	r := shot{bg: studioOf("#FFFFFF"), pose: poseFor(genderWoman, angleFront), w: 600, h: 600}.draw(p.img)
	require.InDelta(t, 2.0, float64(r.box.Dx())/float64(r.box.Dy()), 0.05)
}

// TestShotsStartedTogetherShareOneBackdrop: 4 shots asking for a scene
// not yet drawn at once all get the same picture.
func TestShotsStartedTogetherShareOneBackdrop(t *testing.T) {
	bg := backgrounds[6]
	want := bg.draw(130, 90, 41)
	var wg sync.WaitGroup
	got := make([]*image.NRGBA, 4)
	for i := range got {
		wg.Go(func() { got[i] = sceneBackdrop(bg, 130, 90, 41) })
	}
	wg.Wait()
	for _, img := range got {
		require.Equal(t, want.Pix, img.Pix)
	}
	require.NotSame(t, got[0], got[1], "each shot draws on its own copy")
}
