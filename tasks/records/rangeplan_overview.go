package records

import (
	"image"
	"strings"
)

// The overview's geometry, in pixels.
const (
	ovWidth  = 1800
	ovPad    = 48
	ovCols   = 6
	ovGap    = 24
	ovImageH = 300
	ovTextH  = 176
)

// planOverview draws the plan as a PNG line sheet: a header with its
// figures, then the styles as cards, image first, by drop or by type.
func planOverview(name string, plan RangePlanFields, fabrics map[string]*Fabric, kit *BrandKit,
	imgs map[string]image.Image) image.Image {
	l := lineSheet{name: name, plan: plan, fabrics: fabrics, kit: kit, imgs: imgs}
	secs := sections(plan.Items)
	h := 150
	for _, sec := range secs {
		h += 70 + ((len(sec)+ovCols-1)/ovCols)*(ovImageH+ovTextH+ovGap)
	}
	out := canvas(ovWidth, h+ovPad, paper)
	chips := 0
	if kit != nil {
		chips = len(kit.Colours) * 44
		for j, c := range kit.Colours {
			x := ovWidth - ovPad - (len(kit.Colours)-j)*44 + 4
			swatchRect(out, image.Rect(x, 40, x+40, 80), c.Hex)
		}
	}
	text(out, ovPad, 86, name, 52, true, ink, ovWidth-2*ovPad-chips-24)
	parts := []string{plan.Season, plural(len(plan.Items), "style"), formatUnits(plan.Quantity) + " units"}
	if v := plan.Sum.Value; v != nil {
		parts = append(parts, formatMoney(plan.Currency, *v))
	}
	if m := plan.Sum.Margin; m != nil {
		parts = append(parts, "margin "+percent(*m))
	}
	if kit != nil {
		parts = append(parts, kit.Name)
	}
	text(out, ovPad, 128, strings.Join(parts, " · "), 26, false, muted, ovWidth-2*ovPad)
	y := 150
	cardW := (ovWidth - 2*ovPad - (ovCols-1)*ovGap) / ovCols
	byDrop := hasDrops(plan.Items)
	for _, sec := range secs {
		label := cmpOr(sec[0].Drop, "No drop")
		if !byDrop {
			g, _ := garmentLimit(sec[0].Type)
			label = g.label
		}
		w := text(out, ovPad, y+44, label, 32, true, ink, 0)
		sub := plural(len(sec), "style") + " · " + formatUnits(units(sec)) + " units"
		if m := moneyOf(sec); m.Value != nil {
			sub += " · " + formatMoney(plan.Currency, *m.Value)
		}
		text(out, ovPad+w+20, y+44, sub, 22, false, muted, ovWidth-2*ovPad-w-20)
		fill(out, image.Rect(ovPad, y+58, ovWidth-ovPad, y+60), rule)
		y += 70
		for j, it := range sec {
			x := ovPad + (j%ovCols)*(cardW+ovGap)
			cy := y + (j/ovCols)*(ovImageH+ovTextH+ovGap)
			l.cardPNG(out, image.Rect(x, cy, x+cardW, cy+ovImageH), it)
		}
		y += ((len(sec) + ovCols - 1) / ovCols) * (ovImageH + ovTextH + ovGap)
	}
	return out
}

// cardPNG draws one style's card with its image box r.
func (l lineSheet) cardPNG(out *image.RGBA, r image.Rectangle, it PlanItem) {
	w := r.Dx()
	var first image.Image
	for _, ref := range it.Images {
		if img := l.imgs[ref]; img != nil {
			first = img
			break
		}
	}
	switch f := l.fabric(it); {
	case first != nil:
		fill(out, r, cardGround)
		fx, fy, fw, fh := contain(first.Bounds(), float64(r.Min.X), float64(r.Min.Y), float64(w), float64(r.Dy()))
		dst := image.Rect(int(fx), int(fy), int(fx+fw), int(fy+fh))
		cover(out, dst, first)
	case f != nil:
		cover(out, r, f.Swatch(w))
	case len(it.Colours) > 0:
		swatchRect(out, r, it.Colours[0].Hex)
	default:
		outline(out, r, rule)
	}
	x, y := r.Min.X, r.Max.Y
	text(out, x, y+30, it.Name, 22, true, ink, w)
	g, _ := garmentLimit(it.Type)
	line := g.label
	if f := l.fabric(it); f != nil {
		line += " · " + f.Name
	}
	text(out, x, y+56, line, 16, false, muted, w)
	cx := x
	for _, c := range it.Colours {
		swatchRect(out, image.Rect(cx, y+70, cx+28, y+92), c.Hex)
		cx += 34
	}
	if it.Colourway != "" && x+w-cx > 40 {
		text(out, cx+4, y+88, it.Colourway, 16, false, ink, x+w-cx-4)
	}
	if len(it.Sizes) > 0 {
		text(out, x, y+120, strings.Join(it.Sizes, " "), 16, false, ink, w)
	}
	money := formatUnits(it.Quantity) + " units"
	if it.Price != nil {
		money = formatMoney(l.plan.Currency, *it.Price) + " · " + money
	}
	text(out, x, y+148, money, 18, true, ink, w)
}
