package palette

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
)

// hsl is a colour as hue (degrees, [0, 360)), saturation and lightness ([0, 1]).
type hsl struct{ h, s, l float64 }

// swatch is one colour of a harmony.
type swatch struct {
	role     string
	c        hsl
	hex      string
	adjusted bool
}

// scheme is one value of the colour_scheme vocabulary and its rule.
type scheme struct {
	value, label, text, when string
	make                     func(b hsl) []swatch
}

// turn is the colour deg degrees round the OKLCH hue circle from b, at b's
// perceptual lightness and chroma, gamut-mapped into sRGB by chroma.
func turn(b hsl, deg float64, role string) swatch {
	ok := hexToOKLCH(toHex(b))
	ok.h = math.Mod(ok.h+deg+360, 360)
	hex := ok.hex()
	return swatch{role: role, c: toHSL(hex), hex: hex}
}

// light is b with its OKLCH lightness moved by dl (kept within 0.08 to
// 0.97), hue and chroma kept, gamut-mapped by chroma: a one-hue step that
// is never more saturated than b (HSL steps made dark greens vivid).
func light(b hsl, dl float64, role string) swatch {
	ok := hexToOKLCH(toHex(b))
	ok.l = math.Min(0.97, math.Max(0.08, ok.l+dl))
	hex := ok.hex()
	return swatch{role: role, c: toHSL(hex), hex: hex}
}

var schemes = []scheme{
	{"complementary", "Complementary", "The base and the colour opposite it on the wheel.", "you want strong contrast",
		func(b hsl) []swatch { return []swatch{turn(b, 0, "base"), turn(b, 180, "complement")} }},
	{
		"split_complementary",
		"Split complementary",
		"The base and the two colours beside its opposite.",
		"you want contrast that is less harsh",
		func(b hsl) []swatch {
			return []swatch{turn(b, 0, "base"), turn(b, 150, "split_1"), turn(b, 210, "split_2")}
		},
	},
	{"analogous", "Analogous", "The base and its neighbours 30° either side.", "you want a calm, related palette",
		func(b hsl) []swatch {
			return []swatch{turn(b, -30, "neighbour_1"), turn(b, 0, "base"), turn(b, 30, "neighbour_2")}
		}},
	{"triadic", "Triadic", "Three colours evenly spaced, 120° apart.", "you want a balanced, lively palette",
		func(b hsl) []swatch {
			return []swatch{turn(b, 0, "base"), turn(b, 120, "triad_1"), turn(b, 240, "triad_2")}
		}},
	{"tetradic", "Tetradic", "Four colours 90° apart: two complementary pairs.", "you need many distinct colours",
		func(b hsl) []swatch {
			return []swatch{
				turn(b, 0, "base"),
				turn(b, 90, "square_1"),
				turn(b, 180, "square_2"),
				turn(b, 270, "square_3"),
			}
		}},
	{"monochromatic", "Monochromatic", "One hue in five lightnesses.", "you want a quiet palette of one colour",
		func(b hsl) []swatch {
			return []swatch{
				light(b, -0.24, "shade_2"),
				light(b, -0.12, "shade_1"),
				light(b, 0, "base"),
				light(b, 0.12, "tint_1"),
				light(b, 0.24, "tint_2"),
			}
		}},
}

func schemeByValue(v string) (scheme, bool) {
	for _, s := range schemes {
		if s.value == v {
			return s, true
		}
	}
	return scheme{}, false
}

func toHSL(hex string) hsl {
	c := tasks.ParseColour(hex)
	r, g, b := float64(c.R)/255, float64(c.G)/255, float64(c.B)/255
	mx, mn := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	l := (mx + mn) / 2
	if mx == mn {
		return hsl{0, 0, l}
	}
	d := mx - mn
	s := d / (1 - math.Abs(2*l-1))
	var h float64
	switch mx {
	case r:
		h = math.Mod((g-b)/d+6, 6)
	case g:
		h = (b-r)/d + 2
	default:
		h = (r-g)/d + 4
	}
	return hsl{h * 60, s, l}
}

func toHex(c hsl) string {
	ch := (1 - math.Abs(2*c.l-1)) * c.s
	x := ch * (1 - math.Abs(math.Mod(c.h/60, 2)-1))
	m := c.l - ch/2
	var r, g, b float64
	switch {
	case c.h < 60:
		r, g = ch, x
	case c.h < 120:
		r, g = x, ch
	case c.h < 180:
		g, b = ch, x
	case c.h < 240:
		g, b = x, ch
	case c.h < 300:
		r, b = x, ch
	default:
		r, b = ch, x
	}
	v := func(f float64) int { return int(math.Round(math.Min(1, math.Max(0, f+m)) * 255)) }
	return fmt.Sprintf("#%02X%02X%02X", v(r), v(g), v(b))
}

// tooClose reports colours a viewer cannot tell apart on a swatch sheet:
// closer than minDeltaE.
func tooClose(a, b string) bool { return deltaE(a, b) < minDeltaE }

// minDeltaE is the least CIEDE2000 difference between two colours of a
// sheet: clearly different side by side.
const minDeltaE = 5

// deltaE is the CIEDE2000 difference of two colours.
func deltaE(a, b string) float64 {
	return colour.DeltaE(colour.LabOf(tasks.ParseColour(a)), colour.LabOf(tasks.ParseColour(b)))
}

// harmony makes a scheme's swatches from a base colour. The base swatch
// is the base exactly, as sent, and is never moved; every other swatch too
// close to the base or to an earlier swatch is moved in lightness until it
// is distinct, and marked.
func harmony(sc scheme, base string) []swatch {
	sw := sc.make(toHSL(base))
	fixed := make([]bool, len(sw))
	for i := range sw {
		if sw[i].role == "base" {
			sw[i].hex, fixed[i] = strings.ToUpper(base), true
		}
	}
	for i := range sw {
		if fixed[i] {
			continue
		}
		if sw[i].hex == "" {
			sw[i].hex = toHex(sw[i].c)
		}
		if !closeToFixed(sw, fixed, i) {
			fixed[i] = true
			continue
		}
		orig, dir := sw[i].c, 1.0
		if orig.l > 0.5 {
			dir = -1
		}
		ok := hexToOKLCH(toHex(orig))
		for _, d := range []float64{0.2, -0.2, 0.35, -0.35, 0.5, -0.5, 0.65, -0.65, 0.8, -0.8} {
			// Moved in OKLCH lightness, chroma kept or lowered to fit sRGB.
			c := ok
			c.l = math.Min(1, math.Max(0, ok.l+dir*d))
			sw[i].hex = c.hex()
			sw[i].c = toHSL(sw[i].hex)
			if !closeToFixed(sw, fixed, i) {
				break
			}
		}
		sw[i].adjusted, fixed[i] = true, true
	}
	if sc.value == "monochromatic" {
		nameByLightness(sw)
	}
	return sw
}

// nameByLightness orders a one-hue scheme from dark to light and names its
// swatches by where they fall against the base: shade_1 is the nearest
// darker one, tint_1 the nearest lighter one. A near-white base's steps are
// all darker, so they are all shades.
func nameByLightness(sw []swatch) {
	lum := func(hex string) float64 {
		c := tasks.ParseColour(hex)
		return 0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)
	}
	sort.SliceStable(sw, func(a, b int) bool { return lum(sw[a].hex) < lum(sw[b].hex) })
	at := slices.IndexFunc(sw, func(s swatch) bool { return s.role == "base" })
	for i := range sw {
		switch {
		case i < at:
			sw[i].role = fmt.Sprintf("shade_%d", at-i)
		case i > at:
			sw[i].role = fmt.Sprintf("tint_%d", i-at)
		}
	}
}

// closeToFixed reports whether swatch i is too close to a swatch already
// placed: the base, or an earlier one.
func closeToFixed(sw []swatch, fixed []bool, i int) bool {
	for j := range sw {
		if j != i && fixed[j] && tooClose(sw[j].hex, sw[i].hex) {
			return true
		}
	}
	return false
}

// textOn is black or white, whichever reads on the colour.
func textOn(hex string) string {
	c := tasks.ParseColour(hex)
	if 0.299*float64(c.R)+0.587*float64(c.G)+0.114*float64(c.B) > 150 {
		return "#111111"
	}
	return "#FFFFFF"
}

// swatchRect draws a swatch filled with hex and, when it is light enough
// to vanish on the white sheet (pdfsheet.Light, as on every sheet the
// project draws), outlines it 1 px inside its edge in pdfsheet.SwatchRule.
func swatchRect(b *strings.Builder, x, y, w, h int, hex string) {
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, x, y, w, h, hex)
	c := color.RGBAModel.Convert(tasks.ParseColour(hex)).(color.RGBA)
	if pdfsheet.Light(c) {
		r := pdfsheet.SwatchRule
		fmt.Fprintf(b, `<rect x="%g" y="%g" width="%d" height="%d" fill="none" stroke="#%02X%02X%02X" stroke-width="1"/>`,
			float64(x)+0.5, float64(y)+0.5, w-1, h-1, r.R, r.G, r.B)
	}
}

// paletteSVG draws one scheme as a swatch sheet.
func paletteSVG(title string, sw []swatch, shades [][]string, labels bool) []byte {
	const cell, gap, top = 128, 8, 44
	rows := 0
	if len(shades) > 0 {
		rows = len(shades[0])
	}
	w := gap + len(sw)*(cell+gap)
	h := top + cell + gap + rows*(32+4) + gap
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`, w, h, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#FFFFFF"/>`, w, h)
	if labels {
		fmt.Fprintf(
			&b,
			`<text x="%d" y="28" font-family="sans-serif" font-size="16" fill="#222222">%s</text>`,
			gap,
			title,
		)
	}
	for i, s := range sw {
		x := gap + i*(cell+gap)
		swatchRect(&b, x, top, cell, cell, s.hex)
		if labels {
			fmt.Fprintf(
				&b,
				`<text x="%d" y="%d" font-family="monospace" font-size="14" fill="%s">%s</text>`,
				x+8,
				top+cell-26,
				textOn(s.hex),
				s.hex,
			)
			fmt.Fprintf(
				&b,
				`<text x="%d" y="%d" font-family="sans-serif" font-size="12" fill="%s">%s</text>`,
				x+8,
				top+cell-10,
				textOn(s.hex),
				s.role,
			)
		}
		for r := range rows {
			swatchRect(&b, x, top+cell+gap+r*36, cell, 32, shades[i][r])
		}
	}
	b.WriteString(`</svg>`)
	return []byte(b.String())
}
