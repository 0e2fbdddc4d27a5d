package records

import (
	"fmt"
	"image"
	"image/color"
	"strings"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
)

// The line sheet's geometry, in points on A4 landscape.
const (
	lsMargin  = 30.0
	lsFooter  = 34.0 // room kept under the content for the page footer
	lsGap     = 10.0
	lsTextH   = 76.0 // a card's text under its image, its name on one line
	lsNameLH  = 11.5 // each further line of a wrapped name
	lsLineH   = 10.0 // each line of a card's facts
	lsNameMax = 3    // the most lines of a name
	lsRowGap  = 10.0
	lsTitleH  = 46.0 // the plan's name and figures
	lsHeadH   = 24.0 // a section heading
	lsTableRH = 11.0 // a totals row
)

// grid is the size of the cards: how many across a page and the height of
// their image box.
type grid struct {
	cols   int
	imageH float64
}

// grids are the card sizes a line sheet may take, in order of preference
// (large images first, then more cards a row): it takes the first of those
// that need the fewest pages, so a plan of two drops of a row each fits one
// page and no page is left half empty for want of a few points. Cards stay
// at least 103 pt wide, where a card's price line fits.
var grids = []grid{{6, 124}, {6, 104}, {7, 92}, {6, 86}, {7, 80}, {6, 70}, {7, 70}}

var cardGround = color.RGBA{0xF1, 0xEE, 0xE8, 0xff}

// block is one piece of the line sheet's flow: the title, the totals, a
// section heading or a row of cards.
type block struct {
	h    float64
	draw func(s *pdfsheet.Sheet, y float64)
	keep bool // kept on one page with the next block (a heading)
	page int
	y    float64
}

// lineSheet lays a range plan out the way a buyer's line sheet is: the
// totals first, then the styles as cards, image first, by drop (or by
// garment type when no item names a drop).
type lineSheet struct {
	g       grid
	name    string
	plan    RangePlanFields
	fabrics map[string]*Fabric
	kit     *BrandKit
	imgs    map[string]image.Image
}

// planPDF writes the plan as a line sheet on A4 landscape pages.
func planPDF(name string, plan RangePlanFields, fabrics map[string]*Fabric, kit *BrandKit,
	imgs map[string]image.Image) ([]byte, error) {
	l := lineSheet{name: name, plan: plan, fabrics: fabrics, kit: kit, imgs: imgs}
	s, _ := l.render()
	return s.Bytes()
}

// render draws the sheet and answers it with its blocks as placed.
func (l lineSheet) render() (*pdfsheet.Sheet, []block) {
	s := pdfsheet.A4(l.name+" line sheet", true)
	var blocks []block
	pages := 0
	for _, g := range grids {
		l.g = g
		b := l.blocks(s)
		if p := place(b, s.H); pages == 0 || p < pages {
			blocks, pages = b, p
		}
	}
	for i := range blocks {
		for s.Pages() < blocks[i].page {
			s.Page()
		}
		blocks[i].draw(s, blocks[i].y)
	}
	for p := 1; p <= pages; p++ {
		l.footer(s, p, pages)
	}
	return s, blocks
}

// place gives each block its page and top, starting a page when a block
// (with the block a heading keeps) does not fit; it answers the pages.
func place(blocks []block, pageH float64) int {
	page, y, bottom := 1, lsMargin, pageH-lsFooter
	for i := range blocks {
		need := blocks[i].h
		if blocks[i].keep && i+1 < len(blocks) {
			need += blocks[i+1].h
		}
		if y+need > bottom && y > lsMargin {
			page, y = page+1, lsMargin
		}
		blocks[i].page, blocks[i].y = page, y
		y += blocks[i].h
	}
	return page
}

// footer writes the plan's name and the page number at the foot of page p.
func (l lineSheet) footer(s *pdfsheet.Sheet, p, pages int) {
	// The footer is drawn after the pages exist: gopdf writes to the page
	// set last, so each footer goes on its page through SetPage.
	s.OnPage(p, func() {
		y := s.H - lsMargin + 6
		s.Line(lsMargin, y-6, s.W-lsMargin, y-6, 0.4, rule)
		s.Text(lsMargin, y, l.name+" · "+l.plan.Season+" · line sheet", 7, false, muted, 400)
		s.TextRight(s.W-lsMargin, y, fmt.Sprintf("Page %d of %d", p, pages), 7, false, muted)
	})
}

// blocks are the sheet's blocks in order.
func (l lineSheet) blocks(s *pdfsheet.Sheet) []block {
	out := []block{{h: lsTitleH, draw: l.title}}
	out = append(out, l.totalsBlock(s))
	hasDrop := hasDrops(l.plan.Items)
	for _, sec := range sections(l.plan.Items) {
		sec := sec
		out = append(out, block{h: lsHeadH, keep: true, draw: func(s *pdfsheet.Sheet, y float64) {
			l.sectionHead(s, y, sec, hasDrop)
		}})
		for i := 0; i < len(sec); i += l.g.cols {
			row := sec[i:min(i+l.g.cols, len(sec))]
			lines := 1
			for _, it := range row {
				lines = max(lines, len(nameLines(s, it.Name, l.cardWidth(s))))
			}
			h := l.g.imageH + lsTextH + float64(lines-1)*lsNameLH + lsRowGap
			out = append(out, block{h: h, draw: func(s *pdfsheet.Sheet, y float64) {
				w := l.cardWidth(s)
				for j, it := range row {
					l.card(s, lsMargin+float64(j)*(w+lsGap), y, w, it)
				}
			}})
		}
	}
	return out
}

// nameLines wraps a style's name to the card's width, on up to lsNameMax
// lines (a name of 80 characters fits; a longer word is cut with …).
func nameLines(s *pdfsheet.Sheet, name string, w float64) []string {
	lines := s.Wrap(name, 9, true, w)
	if len(lines) > lsNameMax {
		lines = lines[:lsNameMax]
		lines[lsNameMax-1] += " …"
	}
	return lines
}

func (l lineSheet) cardWidth(s *pdfsheet.Sheet) float64 {
	return (s.W - 2*lsMargin - float64(l.g.cols-1)*lsGap) / float64(l.g.cols)
}

// title writes the plan's name, its figures and the brand kit's colours.
func (l lineSheet) title(s *pdfsheet.Sheet, y float64) {
	inner := s.W - 2*lsMargin
	chips := 0.0
	if l.kit != nil {
		chips = float64(len(l.kit.Colours)) * 22
		for j, c := range l.kit.Colours {
			s.Swatch(s.W-lsMargin-float64(len(l.kit.Colours)-j)*22+4, y+2, 18, 18, tasks.ParseColour(c.Hex))
		}
	}
	s.Text(lsMargin, y, l.name, 22, true, ink, inner-chips-12)
	parts := []string{l.plan.Season, plural(len(l.plan.Items), "style"), formatUnits(l.plan.Quantity) + " units"}
	if v := l.plan.Sum.Value; v != nil {
		parts = append(parts, formatMoney(l.plan.Currency, *v))
	}
	if m := l.plan.Sum.Margin; m != nil {
		parts = append(parts, "margin "+percent(*m))
	}
	if l.kit != nil {
		parts = append(parts, "brand kit "+l.kit.Name)
	}
	s.Text(lsMargin, y+27, strings.Join(parts, " · "), 10, false, muted, inner)
}

// totalRow is one row of a totals table.
type totalRow struct {
	label        string
	items, units int
	money        Money
}

// totalsBlock is the totals per drop and per garment type, side by side.
func (l lineSheet) totalsBlock(s *pdfsheet.Sheet) block {
	var types, drops []totalRow
	for _, t := range l.plan.Totals {
		g, _ := garmentLimit(t.Type)
		types = append(types, totalRow{g.label, t.Items, t.Quantity, t.Money})
	}
	for _, d := range l.plan.Drops {
		drops = append(drops, totalRow{cmpOr(d.Drop, "No drop"), d.Items, d.Quantity, d.Money})
	}
	all := totalRow{"All", len(l.plan.Items), l.plan.Quantity, l.plan.Sum}
	rows := max(len(types), len(drops)) + 1
	h := 14 + 12 + float64(rows)*lsTableRH + 4 + 14
	return block{h: h, draw: func(s *pdfsheet.Sheet, y float64) {
		half := (s.W - 2*lsMargin - 24) / 2
		l.table(s, lsMargin, y, half, "By type", types, all)
		if len(drops) > 0 {
			l.table(s, lsMargin+half+24, y, half, "By drop", drops, all)
		}
	}}
}

// table writes one totals table w points wide: its rows, then all.
func (l lineSheet) table(s *pdfsheet.Sheet, x, y, w float64, title string, rows []totalRow, all totalRow) {
	s.Text(x, y, title, 11, true, ink, w)
	y += 14
	// Right edges of the number columns.
	cols := []float64{x + w - 250, x + w - 190, x + w - 60, x + w}
	heads := []string{"Styles", "Units", "Value", "Margin"}
	s.Text(x, y, "", 7.5, true, muted, 0)
	for i, h := range heads {
		s.TextRight(cols[i], y, h, 7.5, true, muted)
	}
	s.Line(x, y+10, x+w, y+10, 0.4, rule)
	y += 12
	row := func(r totalRow, bold bool) {
		s.Text(x, y, r.label, 8.5, bold, ink, cols[0]-x-50)
		cells := []string{fmt.Sprint(r.items), formatUnits(r.units), "–", "–"}
		if r.money.Value != nil {
			cells[2] = formatMoney(l.plan.Currency, *r.money.Value)
		}
		if r.money.Margin != nil {
			cells[3] = percent(*r.money.Margin)
		}
		for i, c := range cells {
			s.TextRight(cols[i], y, c, 8.5, bold, ink)
		}
		y += lsTableRH
	}
	for _, r := range rows {
		row(r, false)
	}
	s.Line(x, y+1, x+w, y+1, 0.4, rule)
	y += 4
	row(all, true)
}

// sectionHead writes a drop's or a type's heading with its figures.
func (l lineSheet) sectionHead(s *pdfsheet.Sheet, y float64, sec []PlanItem, byDrop bool) {
	label := ""
	if byDrop {
		label = cmpOr(sec[0].Drop, "No drop")
	} else {
		g, _ := garmentLimit(sec[0].Type)
		label = g.label
	}
	m := moneyOf(sec)
	parts := []string{plural(len(sec), "style"), formatUnits(units(sec)) + " units"}
	if m.Value != nil {
		parts = append(parts, formatMoney(l.plan.Currency, *m.Value))
	}
	if m.Margin != nil {
		parts = append(parts, "margin "+percent(*m.Margin))
	}
	w := s.TextWidth(label, 13, true)
	s.Text(lsMargin, y+2, label, 13, true, ink, 0)
	s.Text(lsMargin+w+12, y+5, strings.Join(parts, " · "), 9, false, muted, s.W-2*lsMargin-w-12)
	s.Line(lsMargin, y+18, s.W-lsMargin, y+18, 0.5, rule)
}

// card draws one style: its image (or its fabric, or its colour), then its
// name, type and fabric, colourway, sizes, price and units.
func (l lineSheet) card(s *pdfsheet.Sheet, x, y, w float64, it PlanItem) {
	l.cardImage(s, x, y, w, it)
	ty := y + l.g.imageH + 5
	for _, line := range nameLines(s, it.Name, w) {
		s.Text(x, ty, line, 9, true, ink, w)
		ty += lsNameLH
	}
	ty += 1
	g, _ := garmentLimit(it.Type)
	line := g.label
	f := l.fabric(it)
	if f != nil {
		line += " · " + f.Name
	}
	s.Text(x, ty, line, 7.5, false, muted, w)
	ty += lsLineH
	if f != nil {
		s.Text(x, ty, f.Code, 7, false, muted, w)
	}
	ty += lsLineH
	cx := x
	for _, c := range it.Colours {
		s.Swatch(cx, ty, 12, 9, tasks.ParseColour(c.Hex))
		cx += 15
	}
	name := it.Colourway
	if name == "" && len(it.Colours) > 0 {
		var names []string
		for _, c := range it.Colours {
			names = append(names, colour.Label(c.Name))
		}
		name = strings.Join(names, "/")
	}
	if name != "" && x+w-cx-3 > 20 {
		s.Text(cx+3, ty+0.5, name, 7, false, ink, x+w-cx-3)
	}
	ty += 12.5
	if len(it.Sizes) > 0 {
		s.Text(x, ty, "Sizes "+strings.Join(it.Sizes, " "), 7.5, false, ink, w)
	}
	ty += lsLineH
	var money []string
	if it.Price != nil {
		money = append(money, formatMoney(l.plan.Currency, *it.Price))
	}
	if it.Cost != nil {
		money = append(money, "cost "+formatMoney(l.plan.Currency, *it.Cost))
	}
	if it.Price != nil && it.Cost != nil && *it.Price > 0 {
		money = append(money, percent((*it.Price-*it.Cost) / *it.Price))
	}
	if len(money) > 0 {
		s.Text(x, ty, strings.Join(money, " · "), 7.5, false, ink, w)
	}
	ty += lsLineH
	qty := formatUnits(it.Quantity) + " units"
	if it.Price != nil {
		qty += " · " + formatMoney(l.plan.Currency, float64(it.Quantity)**it.Price)
	}
	s.Text(x, ty, qty, 7.5, true, ink, w)
}

// fabric is an item's fabric, or nil.
func (l lineSheet) fabric(it PlanItem) *Fabric {
	if it.Fabric == nil {
		return nil
	}
	return l.fabrics[*it.Fabric]
}

// cardImage fills a card's image box: the item's first image whole on a
// light ground (never cropped or stretched) with its other images as
// thumbnails, else its fabric's swatch, else its first colour.
func (l lineSheet) cardImage(s *pdfsheet.Sheet, x, y, w float64, it PlanItem) {
	var imgs []image.Image
	for _, ref := range it.Images {
		if img := l.imgs[ref]; img != nil {
			imgs = append(imgs, img)
		}
	}
	switch {
	case len(imgs) > 0:
		h := l.g.imageH
		s.Rect(x, y, w, h, cardGround)
		thumbs := 0.0
		if len(imgs) > 1 {
			thumbs = 34
		}
		fx, fy, fw, fh := contain(imgs[0].Bounds(), x, y, w-thumbs, h)
		s.Image(imgs[0], fx, fy, fw, fh)
		for k, img := range imgs[1:] {
			if 4+float64(k)*34+30 > h {
				break // no room for more thumbnails in the box
			}
			tx, ty, tw, th := contain(img.Bounds(), x+w-30, y+4+float64(k)*34, 26, 30)
			s.Image(img, tx, ty, tw, th)
		}
	case l.fabric(it) != nil:
		s.Image(l.fabric(it).Swatch(300), x, y, w, l.g.imageH)
	case len(it.Colours) > 0:
		s.Swatch(x, y, w, l.g.imageH, tasks.ParseColour(it.Colours[0].Hex))
	default:
		s.Outline(x, y, w, l.g.imageH, rule)
	}
}

// contain is the box an image with bounds b takes inside (x, y, w, h),
// whole and centred.
func contain(b image.Rectangle, x, y, w, h float64) (float64, float64, float64, float64) {
	iw, ih := float64(b.Dx()), float64(b.Dy())
	scale := min(w/iw, h/ih)
	fw, fh := iw*scale, ih*scale
	return x + (w-fw)/2, y + (h-fh)/2, fw, fh
}

// cmpOr is a unless it is empty, else b.
func cmpOr(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}
