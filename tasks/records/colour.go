package records

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/taskplatform/taskplatform/tasks"
)

// lab is a colour in CIELAB (D65 white): L* 0–100, a* and b* about ±128.
type lab struct{ L, A, B float64 }

// srgbToLinear undoes the sRGB transfer curve of one channel in 0..1.
func srgbToLinear(c float64) float64 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// linear8 is srgbToLinear of every 8-bit channel value: rgbLab reads it
// instead of a math.Pow per channel.
var linear8 = func() (t [256]float64) {
	for i := range t {
		t[i] = srgbToLinear(float64(i) / 255)
	}
	return t
}()

func linearToSRGB(c float64) float64 {
	if c <= 0.0031308 {
		return 12.92 * c
	}
	return 1.055*math.Pow(c, 1/2.4) - 0.055
}

// D65 reference white.
const xn, yn, zn = 0.95047, 1.0, 1.08883

func labF(t float64) float64 {
	if t > 216.0/24389 {
		return math.Cbrt(t)
	}
	return (24389.0/27*t + 16) / 116
}

func labFInv(t float64) float64 {
	if t3 := t * t * t; t3 > 216.0/24389 {
		return t3
	}
	return (116*t - 16) / (24389.0 / 27)
}

// rgbLab converts 8-bit sRGB to CIELAB.
func rgbLab(r, g, b uint8) lab {
	rl, gl, bl := linear8[r], linear8[g], linear8[b]
	x := 0.4124564*rl + 0.3575761*gl + 0.1804375*bl
	y := 0.2126729*rl + 0.7151522*gl + 0.0721750*bl
	z := 0.0193339*rl + 0.1191920*gl + 0.9503041*bl
	fx, fy, fz := labF(x/xn), labF(y/yn), labF(z/zn)
	return lab{L: 116*fy - 16, A: 500 * (fx - fy), B: 200 * (fy - fz)}
}

// rgb converts back to 8-bit sRGB, clipping colours outside the gamut.
func (c lab) rgb() color.RGBA {
	fy := (c.L + 16) / 116
	fx, fz := fy+c.A/500, fy-c.B/200
	x, y, z := xn*labFInv(fx), yn*labFInv(fy), zn*labFInv(fz)
	rl := 3.2404542*x - 1.5371385*y - 0.4985314*z
	gl := -0.9692660*x + 1.8760108*y + 0.0415560*z
	bl := 0.0556434*x - 0.2040259*y + 1.0572252*z
	ch := func(v float64) uint8 {
		return uint8(math.Round(255 * min(max(linearToSRGB(min(max(v, 0), 1)), 0), 1)))
	}
	return color.RGBA{ch(rl), ch(gl), ch(bl), 0xff}
}

// hex writes the colour #RRGGBB.
func (c lab) hex() string { return hexOf(c.rgb()) }

func hexOf(c color.RGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }

// labOfHex reads a #RRGGBB colour.
func labOfHex(hex string) lab {
	c := tasks.ParseColour(hex)
	return rgbLab(c.R, c.G, c.B)
}

// chroma is C*ab, the colour's distance from grey.
func (c lab) chroma() float64 { return math.Hypot(c.A, c.B) }

// hue is h_ab in degrees, 0–360.
func (c lab) hue() float64 {
	h := math.Atan2(c.B, c.A) * 180 / math.Pi
	if h < 0 {
		h += 360
	}
	return h
}

// dist2 is the squared CIE76 distance, used by the clustering.
func (c lab) dist2(o lab) float64 {
	dl, da, db := c.L-o.L, c.A-o.A, c.B-o.B
	return dl*dl + da*da + db*db
}

// deltaE00 is the CIEDE2000 colour difference (kL = kC = kH = 1).
func deltaE00(p, q lab) float64 {
	rad := math.Pi / 180
	c1, c2 := p.chroma(), q.chroma()
	cm := (c1 + c2) / 2
	cm7 := math.Pow(cm, 7)
	g := 0.5 * (1 - math.Sqrt(cm7/(cm7+math.Pow(25, 7))))
	a1, a2 := (1+g)*p.A, (1+g)*q.A
	c1p, c2p := math.Hypot(a1, p.B), math.Hypot(a2, q.B)
	hp := func(a, b float64) float64 {
		if a == 0 && b == 0 {
			return 0
		}
		h := math.Atan2(b, a) / rad
		if h < 0 {
			h += 360
		}
		return h
	}
	h1, h2 := hp(a1, p.B), hp(a2, q.B)
	dL, dC := q.L-p.L, c2p-c1p
	var dh float64
	switch {
	case c1p*c2p == 0:
		dh = 0
	case math.Abs(h2-h1) <= 180:
		dh = h2 - h1
	case h2-h1 > 180:
		dh = h2 - h1 - 360
	default:
		dh = h2 - h1 + 360
	}
	dH := 2 * math.Sqrt(c1p*c2p) * math.Sin(dh/2*rad)
	lm, cpm := (p.L+q.L)/2, (c1p+c2p)/2
	var hm float64
	switch {
	case c1p*c2p == 0:
		hm = h1 + h2
	case math.Abs(h1-h2) <= 180:
		hm = (h1 + h2) / 2
	case h1+h2 < 360:
		hm = (h1 + h2 + 360) / 2
	default:
		hm = (h1 + h2 - 360) / 2
	}
	t := 1 - 0.17*math.Cos(
		(hm-30)*rad,
	) + 0.24*math.Cos(
		2*hm*rad,
	) + 0.32*math.Cos(
		(3*hm+6)*rad,
	) - 0.20*math.Cos(
		(4*hm-63)*rad,
	)
	dTheta := 30 * math.Exp(-math.Pow((hm-275)/25, 2))
	cpm7 := math.Pow(cpm, 7)
	rc := 2 * math.Sqrt(cpm7/(cpm7+math.Pow(25, 7)))
	sl := 1 + 0.015*(lm-50)*(lm-50)/math.Sqrt(20+(lm-50)*(lm-50))
	sc := 1 + 0.045*cpm
	sh := 1 + 0.015*cpm*t
	rt := -math.Sin(2*dTheta*rad) * rc
	return math.Sqrt(math.Pow(dL/sl, 2) + math.Pow(dC/sc, 2) + math.Pow(dH/sh, 2) + rt*(dC/sc)*(dH/sh))
}

// namedColour is one value of the colour_name vocabulary.
type namedColour struct {
	value, label, hex, group string
}

// namedColours are the colour names analyses use: the nearest by CIEDE2000
// names a measured colour.
var namedColours = []namedColour{
	{"black", "Black", "#111111", "neutral"},
	{"charcoal", "Charcoal", "#36393B", "neutral"},
	{"grey", "Grey", "#8A8D8F", "neutral"},
	{"silver", "Silver", "#C4C6C8", "neutral"},
	{"white", "White", "#FAFAF7", "neutral"},
	{"ivory", "Ivory", "#F3EBD7", "neutral"},
	{"cream", "Cream", "#EDE0C2", "neutral"},
	{"beige", "Beige", "#D6C3A1", "neutral"},
	{"stone", "Stone", "#A99F8E", "neutral"},
	{"camel", "Camel", "#B9895A", "brown"},
	{"tan", "Tan", "#C8A27A", "brown"},
	{"brown", "Brown", "#6E4A2E", "brown"},
	{"chocolate", "Chocolate", "#3F2A1E", "brown"},
	{"rust", "Rust", "#A4471F", "brown"},
	{"burgundy", "Burgundy", "#6D1A2C", "red"},
	{"red", "Red", "#E0261B", "red"},
	{"scarlet", "Scarlet", "#FF2400", "red"},
	{"coral", "Coral", "#F2735E", "red"},
	{"blush", "Blush", "#E8B4B0", "pink"},
	{"pink", "Pink", "#EE8DB5", "pink"},
	{"fuchsia", "Fuchsia", "#D3228C", "pink"},
	{"orange", "Orange", "#F07D16", "orange"},
	{"terracotta", "Terracotta", "#C3643F", "orange"},
	{"mustard", "Mustard", "#D3A12A", "yellow"},
	{"yellow", "Yellow", "#F6D52A", "yellow"},
	{"lemon", "Lemon", "#F8EE76", "yellow"},
	{"olive", "Olive", "#6D6B2E", "green"},
	{"khaki", "Khaki", "#A79B6C", "green"},
	{"sage", "Sage", "#9CAE8B", "green"},
	{"green", "Green", "#2E9B3F", "green"},
	{"emerald", "Emerald", "#0F7A50", "green"},
	{"forest", "Forest green", "#1F4A2C", "green"},
	{"mint", "Mint", "#A8DDC0", "green"},
	{"teal", "Teal", "#137C7B", "blue"},
	{"turquoise", "Turquoise", "#2BC2C0", "blue"},
	{"sky_blue", "Sky blue", "#8EC6EA", "blue"},
	{"blue", "Blue", "#1740D8", "blue"},
	{"cobalt", "Cobalt", "#0F4DA8", "blue"},
	{"denim", "Denim", "#4E6C92", "blue"},
	{"navy", "Navy", "#1B2A4A", "blue"},
	{"lavender", "Lavender", "#B9A6D8", "purple"},
	{"lilac", "Lilac", "#C79FC6", "purple"},
	{"purple", "Purple", "#6B2D8F", "purple"},
	{"plum", "Plum", "#5A2446", "purple"},
}

// colourNameVocab is the colour_name vocabulary.
func colourNameVocab() tasks.Vocabulary {
	groups := []tasks.VocabGroup{
		{Name: "neutral", Description: "Blacks, greys, whites and undyed tones."},
		{Name: "brown", Description: "Browns and earth tones."},
		{Name: "red", Description: "Reds."}, {Name: "pink", Description: "Pinks."},
		{Name: "orange", Description: "Oranges."}, {Name: "yellow", Description: "Yellows."},
		{Name: "green", Description: "Greens."}, {Name: "blue", Description: "Blues and teals."},
		{Name: "purple", Description: "Purples."},
	}
	values := make([]tasks.VocabValue, len(namedColours))
	for i, n := range namedColours {
		values[i] = tasks.VocabValue{Value: n.value, Label: n.label, Group: n.group,
			Description: n.label + ", measured as " + n.hex + "."}
	}
	return tasks.Vocabulary{
		Name:        "colour_name",
		Description: "The names given to measured colours: a moodboard's palette and looks, a brand kit's colours. Each names its reference colour; a colour is named after the reference nearest to it by CIEDE2000.",
		Values:      values, Groups: groups, Concept: new("moodboard"),
	}
}

var namedLabs = func() []lab {
	out := make([]lab, len(namedColours))
	for i, n := range namedColours {
		out[i] = labOfHex(n.hex)
	}
	return out
}()

// nearestName is the colour_name value nearest to c.
func nearestName(c lab) string {
	best, bestD := 0, math.Inf(1)
	for i, n := range namedLabs {
		if d := deltaE00(c, n); d < bestD {
			best, bestD = i, d
		}
	}
	return namedColours[best].value
}

// sample is one colour of an image with its weight.
type sample struct {
	c lab
	w float64
}

// swatch is one colour of a clustered palette: its mean and its share.
type swatch struct {
	c      lab
	weight float64
}

// bin keys a colour by its sRGB value at 5 bits a channel: clustering runs on
// at most 32768 weighted bins instead of every pixel.
func binKey(c color.RGBA) int { return int(c.R>>3)<<10 | int(c.G>>3)<<5 | int(c.B>>3) }

// histogram sums weighted pixels into bins, each bin holding the mean
// colour of its pixels.
type histogram map[int]*sample

func (h histogram) add(c color.RGBA, w float64) {
	k := binKey(c)
	l := rgbLab(c.R, c.G, c.B)
	b, ok := h[k]
	if !ok {
		h[k] = &sample{c: l, w: w}
		return
	}
	t := b.w + w
	b.c = lab{(b.c.L*b.w + l.L*w) / t, (b.c.A*b.w + l.A*w) / t, (b.c.B*b.w + l.B*w) / t}
	b.w = t
}

// samples lists the bins in a fixed order, so clustering is deterministic.
func (h histogram) samples() []sample {
	keys := make([]int, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]sample, len(keys))
	for i, k := range keys {
		out[i] = *h[k]
	}
	return out
}

// cluster groups weighted colours into at most k swatches with k-means in
// CIELAB: deterministic farthest-point seeding (weighted by share), Lloyd
// iterations, then swatches closer than mergeDE (CIEDE2000) are merged and
// those under minShare of the weight dropped. Swatches come heaviest first
// with weights summing to 1. Fewer distinct colours than k give fewer
// swatches: a board of pure red and pure blue gives exactly those two.
func cluster(pts []sample, k int, mergeDE, minShare float64) []swatch {
	if len(pts) == 0 {
		return nil
	}
	var total float64
	heaviest := 0
	for i, p := range pts {
		total += p.w
		if p.w > pts[heaviest].w {
			heaviest = i
		}
	}
	centres := []lab{pts[heaviest].c}
	near := make([]float64, len(pts))
	for i, p := range pts {
		near[i] = p.c.dist2(centres[0])
	}
	for len(centres) < k {
		best, bestScore := -1, 0.0
		for i, p := range pts {
			if near[i] < 4 { // within ΔE76 2 of a centre: nothing new
				continue
			}
			if s := p.w * near[i]; s > bestScore {
				best, bestScore = i, s
			}
		}
		if best < 0 {
			break
		}
		centres = append(centres, pts[best].c)
		for i, p := range pts {
			near[i] = min(near[i], p.c.dist2(pts[best].c))
		}
	}
	assign := make([]int, len(pts))
	weights := make([]float64, len(centres))
	for iter := range 30 {
		changed := false
		for i, p := range pts {
			best, bd := 0, math.Inf(1)
			for j, c := range centres {
				if d := p.c.dist2(c); d < bd {
					best, bd = j, d
				}
			}
			if assign[i] != best {
				changed, assign[i] = true, best
			}
		}
		sums := make([]lab, len(centres))
		clear(weights)
		for i, p := range pts {
			j := assign[i]
			sums[j].L += p.c.L * p.w
			sums[j].A += p.c.A * p.w
			sums[j].B += p.c.B * p.w
			weights[j] += p.w
		}
		for j := range centres {
			if weights[j] > 0 {
				centres[j] = lab{sums[j].L / weights[j], sums[j].A / weights[j], sums[j].B / weights[j]}
			}
		}
		if !changed && iter > 0 {
			break
		}
	}
	var out []swatch
	for j, c := range centres {
		if weights[j] > 0 {
			out = append(out, swatch{c: c, weight: weights[j] / total})
		}
	}
	out = merge(out, mergeDE)
	kept := out[:0]
	var sum float64
	for _, s := range out {
		if s.weight >= minShare {
			kept = append(kept, s)
			sum += s.weight
		}
	}
	for i := range kept {
		kept[i].weight /= sum
	}
	slices.SortStableFunc(kept, func(a, b swatch) int {
		switch {
		case a.weight > b.weight:
			return -1
		case a.weight < b.weight:
			return 1
		}
		return strings.Compare(a.c.hex(), b.c.hex())
	})
	return kept
}

// merge joins the closest pair of swatches while it is nearer than de.
func merge(sw []swatch, de float64) []swatch {
	for {
		bi, bj, bd := -1, -1, de
		for i := range sw {
			for j := i + 1; j < len(sw); j++ {
				if d := deltaE00(sw[i].c, sw[j].c); d < bd {
					bi, bj, bd = i, j, d
				}
			}
		}
		if bi < 0 {
			return sw
		}
		a, b := sw[bi], sw[bj]
		t := a.weight + b.weight
		sw[bi] = swatch{
			c: lab{
				(a.c.L*a.weight + b.c.L*b.weight) / t,
				(a.c.A*a.weight + b.c.A*b.weight) / t,
				(a.c.B*a.weight + b.c.B*b.weight) / t,
			},
			weight: t,
		}
		sw = append(sw[:bj], sw[bj+1:]...)
	}
}
