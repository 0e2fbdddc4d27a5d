package photoshoot

import (
	"image"
	"image/color"
	"math"
	"testing"

	imgfam "github.com/taskplatform/taskplatform/tasks/image"
)

// BenchmarkMarketplacePacks shoots the box, the bag and the sneaker by each
// marketplace preset and reports what a marketplace checks, measured on
// the JPEG delivered: the product's fill, the backdrop pixels away from
// the product and its shadow that are not #FFFFFF (on white presets), and
// the number of separate shadows.
//
//	go test ./tasks/photoshoot/ -run '^$' -bench MarketplacePacks -benchtime 1x
func BenchmarkMarketplacePacks(b *testing.B) {
	t := &testing.T{}
	products := map[string]*image.NRGBA{
		"box": redBox(t), "bag": cutProduct(t, bagPhoto()), "sneaker": cutProduct(t, sneakerCut()),
	}
	for _, m := range marketplaces {
		for name, prod := range products {
			b.Run(m.value+"/"+name, func(b *testing.B) {
				var r shotResult
				for b.Loop() {
					r = shot{bg: studioOf("#FFFFFF"), pose: poseFor(genderWoman, angleFront), w: m.w, h: m.h,
						market: &m}.draw(prod)
				}
				fill := math.Max(float64(r.box.Dx())/float64(m.w), float64(r.box.Dy())/float64(m.h))
				got := decodeShot(t, r.img)
				zone, box := shadowZone(r).Inset(-jpegBlock), r.box.Inset(-jpegBlock)
				off := 0
				for y := range m.h {
					for x := range m.w {
						p := image.Pt(x, y)
						if p.In(zone) || p.In(box) {
							continue
						}
						if color.NRGBAModel.Convert(got.At(x, y)).(color.NRGBA) != (color.NRGBA{255, 255, 255, 255}) {
							off++
						}
					}
				}
				in := laidMask(r)
				dark := map[image.Point]bool{}
				for y := r.box.Min.Y; y < min(m.h, r.floor+200); y++ {
					for x := max(0, r.box.Min.X-200); x < min(m.w, r.box.Max.X+200); x++ {
						if !in(x, y) && !(image.Point{x, y}.In(r.box) && r.item.NRGBAAt(x-r.box.Min.X,
							y-r.box.Min.Y).A > 0) && lumaAt(r.img, x, y) < 254.5 {
							dark[image.Pt(x, y)] = true
						}
					}
				}
				b.ReportMetric(fill, "fill")
				b.ReportMetric(float64(off), "off-white-px")
				b.ReportMetric(float64(components(dark)), "shadows")
			})
		}
	}
}

// BenchmarkTonesFromPortraits reads the synthesised portraits of
// TestTonesReadFromPortraits and reports the worst ΔE of skin and hair.
func BenchmarkTonesFromPortraits(b *testing.B) {
	cases := [][5]string{
		{"#8A8F96", "#E8C1A5", "#E9E7E2", "#2F3E4F", "short"}, {"#CFE0EE", "#5B3A26", "#17120F", "#C9A227", "short"},
		{"#F5F5F3", "#3B2519", "#0F0C0B", "#7A1F2B", "bob"}, {"#F7F7F5", "#C68642", "#7B3F20", "#1F3A5F", "long"},
		{"#D9CBB6", "#F1D3B5", "#141212", "#333333", "bob"}, {"#2E4A3A", "#F2D4C2", "#D8B36A", "#EDEDED", "long"},
		{"#B5653F", "#C69C76", "#4A2E1C", "#F0EAD6", "short"},
	}
	var photos []image.Image
	for _, c := range cases {
		photos = append(photos, portrait(hexColour(c[0]), hexColour(c[1]), hexColour(c[2]), hexColour(c[3]), c[4]))
	}
	worstSkin, worstHair := 0.0, 0.0
	for b.Loop() {
		for i, p := range photos {
			got := readTones([]image.Image{p})
			worstSkin = math.Max(worstSkin, imgfam.DeltaE(hexColour(got.skin), hexColour(cases[i][1])))
			worstHair = math.Max(worstHair, imgfam.DeltaE(hexColour(got.hair), hexColour(cases[i][2])))
		}
	}
	b.ReportMetric(worstSkin, "worst-skin-dE")
	b.ReportMetric(worstHair, "worst-hair-dE")
}
