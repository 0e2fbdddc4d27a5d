package photoshoot

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"sort"
	"testing"

	"github.com/disintegration/imaging"
	"github.com/stretchr/testify/require"
)

// laidMask is the product's own pixels in the shot (alpha over half).
func laidMask(r shotResult) func(x, y int) bool {
	return func(x, y int) bool {
		if !(image.Point{x, y}.In(r.box)) {
			return false
		}
		return r.item.Pix[(y-r.box.Min.Y)*r.item.Stride+(x-r.box.Min.X)*4+3] > holeAlpha
	}
}

// shadowZone is where the contact shadow may darken the floor: the
// product's width and shadowSide either side, from the penumbra's depth
// above the floor line to shadowBelow under it.
func shadowZone(r shotResult) image.Rectangle {
	bw := float64(r.box.Dx())
	padX := int(math.Ceil(math.Max(2, shadowSide*bw)))
	up := int(3 * math.Max(2, penumbraDepth*bw))
	down := int(math.Ceil(math.Max(2, shadowBelow*bw)))
	return image.Rect(r.box.Min.X-padX, r.floor-up, r.box.Max.X+padX, r.floor+down)
}

// jpegBlock is the JPEG encoder's block of 4:2:0 chroma: the ringing of an
// edge stays within the block it is in.
const jpegBlock = 16

// decodeShot is the shot as a marketplace receives it: encoded as the
// task does and decoded.
func decodeShot(t *testing.T, img *image.NRGBA) image.Image {
	data, err := encodeJPEG(img)
	require.NoError(t, err)
	out, err := jpeg.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	return out
}

// TestMarketplacePresetsMeetTheirRules measures the shots of each preset
// for a tall box, a bag with a handle and a wide sneaker: the size is the
// marketplace's, the product's fill is the preset's (Amazon: at least
// 85 %), and, decoded from the JPEG delivered, every backdrop pixel away
// from the product and its contact shadow is exactly #FFFFFF on the
// presets that ask for pure white.
func TestMarketplacePresetsMeetTheirRules(t *testing.T) {
	products := map[string]*image.NRGBA{
		"box": redBox(t), "bag": cutProduct(t, bagPhoto()), "sneaker": cutProduct(t, sneakerCut()),
	}
	for _, m := range marketplaces {
		for name, prod := range products {
			t.Run(m.value+"/"+name, func(t *testing.T) {
				bg := studioOf("#FFFFFF")
				r := shot{bg: bg, pose: poseFor(genderWoman, angleFront), w: m.w, h: m.h, market: &m}.draw(prod)
				keep(t, "market_"+m.value+"_"+name, r.img)
				require.Equal(t, image.Rect(0, 0, m.w, m.h), r.img.Rect)
				fill := math.Max(float64(r.box.Dx())/float64(m.w), float64(r.box.Dy())/float64(m.h))
				require.InDelta(t, m.fill, fill, 0.005)
				if m.value == "amazon" {
					require.GreaterOrEqual(t, fill, 0.85)
				}
				// Centred: the same framing for every shot of a set.
				require.InDelta(t, m.w/2, (r.box.Min.X+r.box.Max.X)/2, 2)
				require.InDelta(t, m.h/2, (r.box.Min.Y+r.box.Max.Y)/2, 2)
				if !m.white {
					return
				}
				got := decodeShot(t, r.img)
				zone, box := shadowZone(r).Inset(-jpegBlock), r.box.Inset(-jpegBlock)
				off, total := 0, 0
				for y := 0; y < m.h; y += 2 {
					for x := 0; x < m.w; x += 2 {
						if (image.Point{x, y}.In(zone)) || (image.Point{x, y}.In(box)) {
							continue
						}
						total++
						if c := color.NRGBAModel.Convert(got.At(x, y)).(color.NRGBA); c != (color.NRGBA{255, 255, 255, 255}) {
							if off < 5 {
								t.Logf("off %d,%d %v (box %v zone %v)", x, y, c, r.box, zone)
							}
							off++
						}
					}
				}
				require.Greater(t, total, 1000)
				require.Zero(t, off, "backdrop pixels that are not #FFFFFF")
				// Measured as a checker does — the box of every pixel that is
				// not white, shadow included — the product still fits the
				// frame with a margin and fills it within 6 %.
				seen := image.Rectangle{}
				for y := 0; y < m.h; y++ {
					for x := 0; x < m.w; x++ {
						if c := color.NRGBAModel.Convert(got.At(x, y)).(color.NRGBA); c.R < 250 || c.G < 250 || c.B < 250 {
							seen = seen.Union(image.Rect(x, y, x+1, y+1))
						}
					}
				}
				require.True(t, seen.In(image.Rect(0, 0, m.w, m.h).Inset(m.w/50)), "%v within the frame", seen)
				seenFill := math.Max(float64(seen.Dx())/float64(m.w), float64(seen.Dy())/float64(m.h))
				require.InDelta(t, fill, seenFill, 0.06)
			})
		}
	}
}

// TestOneSoftContactShadow: the floor darkened around a product is one
// connected shadow, darkest at the contact line and lighter with every
// row away from it, no darker than the studio's shadow strength, and
// nothing is darkened above the product's contact line beside it: no
// second, offset shadow.
func TestOneSoftContactShadow(t *testing.T) {
	for name, prod := range map[string]*image.NRGBA{
		"box": redBox(t), "bag": cutProduct(t, bagPhoto()), "sneaker": cutProduct(t, sneakerCut()),
	} {
		t.Run(name, func(t *testing.T) {
			r := shot{bg: studioOf("#FFFFFF"), pose: poseFor(genderWoman, angleFront), w: 800, h: 800}.draw(prod)
			keep(t, "shadow_"+name, r.img)
			in := laidMask(r)
			dark := map[image.Point]bool{}
			minLuma := 255.0
			for y := range 800 {
				for x := range 800 {
					if in(x, y) || (image.Point{x, y}.In(r.box) && r.item.Pix[(y-r.box.Min.Y)*r.item.Stride+
						(x-r.box.Min.X)*4+3] > 0) {
						continue
					}
					if l := lumaAt(r.img, x, y); l < 254.5 {
						dark[image.Pt(x, y)] = true
						minLuma = math.Min(minLuma, l)
						require.GreaterOrEqual(t, y, shadowZone(r).Min.Y,
							"darkened at %d,%d above the contact line", x, y)
					}
				}
			}
			require.NotEmpty(t, dark)
			require.Equal(t, 1, components(dark), "one shadow")
			require.GreaterOrEqual(t, minLuma, 255*(1-shadowStudio)-1)
			require.Less(t, minLuma, 200.0, "the shadow shows")
			// Below the contact line the shadow only lightens, row by row (to
			// within half a level: the luma of 8-bit RGB steps unevenly).
			cx := (r.box.Min.X + r.box.Max.X) / 2
			prev := 0.0
			for y := r.floor; y < r.floor+60; y++ {
				l := lumaAt(r.img, cx, y)
				require.GreaterOrEqual(t, l, prev-0.5, "row %d", y)
				prev = l
			}
		})
	}
}

// components counts the 8-connected regions of a set of pixels.
func components(set map[image.Point]bool) int {
	seen := map[image.Point]bool{}
	n := 0
	for p := range set {
		if seen[p] {
			continue
		}
		n++
		stack := []image.Point{p}
		seen[p] = true
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nb := image.Pt(q.X+dx, q.Y+dy)
					if set[nb] && !seen[nb] {
						seen[nb] = true
						stack = append(stack, nb)
					}
				}
			}
		}
	}
	return n
}

// TestTheProductIsNeverSeeThrough stands the sneaker, white sole and all,
// (a transparent PNG) and the bag (cut out of its photo) on the beach:
// inside the outline every pixel is the product's own (alpha 255), so the
// sole is white, not sand; the bag's handle hole shows the scene.
func TestTheProductIsNeverSeeThrough(t *testing.T) {
	beach, _ := backgroundByHandle("background:bg_scene_beach")
	for _, tc := range []struct {
		name  string
		photo *image.NRGBA
		cm    float64
	}{{"sneaker", sneakerCut(), 11}, {"bag", bagPhoto(), 38}} {
		t.Run(tc.name, func(t *testing.T) {
			prod := cutProduct(t, tc.photo)
			sh := shot{bg: beach, pose: poseFor(genderWoman, angleFront), w: 900, h: 900, heightCM: tc.cm}
			r := sh.draw(prod)
			keep(t, "beach_"+tc.name, r.img)
			W, H := r.item.Rect.Dx(), r.item.Rect.Dy()
			partial := 0
			for y := edgeBand + 1; y < H-edgeBand-1; y++ {
				for x := edgeBand + 1; x < W-edgeBand-1; x++ {
					a := r.item.Pix[y*r.item.Stride+x*4+3]
					// Interior: no backdrop within edgeBand+1 px either way.
					interior := true
					for dy := -edgeBand - 1; dy <= edgeBand+1 && interior; dy++ {
						for dx := -edgeBand - 1; dx <= edgeBand+1 && interior; dx++ {
							interior = r.item.Pix[(y+dy)*r.item.Stride+(x+dx)*4+3] > holeAlpha
						}
					}
					if interior && a < 255 {
						partial++
					}
				}
			}
			require.Zero(t, partial, "see-through pixels inside the product")
			if tc.name == "sneaker" {
				// The sole, a band above the floor line, is white.
				sy := r.box.Max.Y - r.box.Dy()/8
				c := r.img.NRGBAAt((r.box.Min.X+r.box.Max.X)/2, sy)
				require.Greater(t, int(c.R)+int(c.G)+int(c.B), 3*235, "the sole is %v", c)
			} else {
				// The handle's hole shows the scene behind.
				_, cam := sh.frame(prod)
				x, y := (r.box.Min.X+r.box.Max.X)/2, r.box.Min.Y+r.box.Dy()/6
				require.Equal(t, sh.backdrop(cam).NRGBAAt(x, y), r.img.NRGBAAt(x, y))
			}
		})
	}
}

// TestUnsureHolesAreFilledRealHolesKept: an enclosed patch of partial
// alpha becomes opaque; an enclosed hole cut to zero stays a hole.
func TestUnsureHolesAreFilledRealHolesKept(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 60, 30))
	for y := 5; y < 25; y++ {
		for x := 5; x < 55; x++ {
			img.SetNRGBA(x, y, color.NRGBA{10, 20, 30, 255})
		}
	}
	for y := 10; y < 20; y++ {
		for x := 10; x < 20; x++ {
			img.Pix[img.PixOffset(x, y)+3] = 60 // unsure
			img.Pix[img.PixOffset(x+30, y)+3] = 0
		}
	}
	fillUnsureHoles(img)
	require.EqualValues(t, 255, img.NRGBAAt(15, 15).A)
	require.EqualValues(t, 0, img.NRGBAAt(45, 15).A)
	require.EqualValues(t, 0, img.NRGBAAt(2, 2).A)
}

// TestReflectionFadesUnderTheProduct: with reflection the floor under the
// product shows it mirrored, faint at the contact line and gone lower.
func TestReflectionFadesUnderTheProduct(t *testing.T) {
	prod := redBox(t)
	base := shot{bg: studioOf("#FFFFFF"), pose: poseFor(genderWoman, angleFront), w: 600, h: 600}
	plain := base.draw(prod)
	base.reflection = true
	r := base.draw(prod)
	keep(t, "reflection", r.img)
	cx := (r.box.Min.X+r.box.Max.X)/2 + 10
	near, far := r.img.NRGBAAt(cx, r.floor+12), r.img.NRGBAAt(cx, r.floor+int(0.35*float64(r.box.Dy())))
	require.Greater(t, int(near.R)-int(near.G), 15, "the red shows in the floor: %v", near)
	require.Equal(t, plain.img.NRGBAAt(cx, r.floor+int(0.35*float64(r.box.Dy()))), far)
}

// TestASetIsFramedTheSame: the front and the back of one product, sent at
// different resolutions, lie in the same box on every shot of a
// marketplace set and of a studio set.
func TestASetIsFramedTheSame(t *testing.T) {
	front := redBox(t)
	back := imaging.Resize(imaging.FlipH(front), front.Rect.Dx()*2, front.Rect.Dy()*2, imaging.Lanczos)
	amazon, _ := marketplaceOf("amazon")
	for _, s := range []shot{
		{bg: studioOf("#FFFFFF"), w: amazon.w, h: amazon.h, market: &amazon},
		{bg: studioOf("#E6E6E3"), w: 819, h: 1024},
	} {
		a := s
		a.pose = poseFor(genderWoman, angleFront)
		b := s
		b.pose = poseFor(genderWoman, angleBack)
		ra, rb := a.draw(front), b.draw(back)
		require.InDelta(t, ra.box.Min.X, rb.box.Min.X, 1)
		require.InDelta(t, ra.box.Min.Y, rb.box.Min.Y, 1)
		require.InDelta(t, ra.box.Dx(), rb.box.Dx(), 2)
		require.InDelta(t, ra.box.Dy(), rb.box.Dy(), 2)
		require.Equal(t, ra.floor, rb.floor)
	}
}

// TestRealSizeSetsTheScale: in the loft a 12 cm product stands smaller
// than a 60 cm one, each as tall as its height seen by the shot's camera
// (d·h/c px at d px below the horizon), and the floor's planks are drawn
// for that camera: half the camera height, twice as few seams across.
func TestRealSizeSetsTheScale(t *testing.T) {
	loft, _ := backgroundByHandle("background:bg_scene_loft")
	prod := redBox(t)
	const W, H = 800, 800
	heights := map[float64]int{}
	for _, cm := range []float64{12, 60} {
		s := shot{bg: loft, pose: poseFor(genderWoman, angleFront), w: W, h: H, heightCM: cm}
		r := s.draw(prod)
		_, cam := s.frame(prod)
		require.GreaterOrEqual(t, cam, float64(minCameraCM))
		want := (float64(r.floor) - loft.Horizon*H) * cm / cam
		require.InDelta(t, want, float64(r.box.Dy()), 2, "%v cm", cm)
		heights[cm] = r.box.Dy()
	}
	require.Less(t, float64(heights[12]), 0.5*float64(heights[60]))
	seams := func(cam float64) int {
		img := drawLoft(W, H, cam)
		row := make([]float64, W)
		for x := range W {
			row[x] = lumaAt(img, x, H-1)
		}
		ref := append([]float64(nil), row...)
		sort.Float64s(ref)
		n, dark := 0, false
		for x := range W {
			d := row[x] < ref[W/2]-10
			if d && !dark {
				n++
			}
			dark = d
		}
		return n
	}
	near, far := seams(40), seams(80)
	require.InDelta(t, 2.0, float64(far)/float64(near), 0.4, "%d seams at 40 cm, %d at 80 cm", near, far)
}
