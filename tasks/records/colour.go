package records

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
)

func hexOf(c color.RGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }

// labOfHex reads a #RRGGBB colour.
func labOfHex(hex string) colour.Lab { return colour.LabOf(tasks.ParseColour(hex)) }

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
		values[i] = tasks.VocabValue{Value: n.value, Label: n.label, Group: n.group, Aliases: colourAliases[n.value],
			Description: n.label + ", measured as " + n.hex + "."}
	}
	return tasks.Vocabulary{
		Name: "colour_name",
		Description: "The names given to measured colours: a moodboard's palette and looks, a brand kit's colours. Each " +
			"names its reference colour; a colour is named after the reference nearest to it by CIEDE2000.",
		Values: values, Groups: groups, Concept: new("moodboard"),
	}
}

var namedLabs = func() []colour.Lab {
	out := make([]colour.Lab, len(namedColours))
	for i, n := range namedColours {
		out[i] = labOfHex(n.hex)
	}
	return out
}()

// nearestName is the colour_name value nearest to c.
func nearestName(c colour.Lab) string {
	best, bestD := 0, math.Inf(1)
	for i, n := range namedLabs {
		if d := colour.DeltaE(c, n); d < bestD {
			best, bestD = i, d
		}
	}
	return namedColours[best].value
}

// bin keys a colour by its sRGB value at 5 bits a channel: clustering runs on
// at most 32768 weighted bins instead of every pixel.
func binKey(c color.RGBA) int { return int(c.R>>3)<<10 | int(c.G>>3)<<5 | int(c.B>>3) }

// histogram sums weighted pixels into bins, each bin holding the mean
// colour of its pixels.
type histogram map[int]*colour.Weighted

func (h histogram) add(c color.RGBA, w float64) {
	k := binKey(c)
	l := colour.LabOf8(c.R, c.G, c.B)
	b, ok := h[k]
	if !ok {
		h[k] = &colour.Weighted{C: l, W: w}
		return
	}
	t := b.W + w
	b.C = b.C.Scale(b.W).Add(l, w).Scale(1 / t)
	b.W = t
}

// samples lists the bins in a fixed order, so clustering is deterministic.
func (h histogram) samples() []colour.Weighted {
	keys := make([]int, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]colour.Weighted, len(keys))
	for i, k := range keys {
		out[i] = *h[k]
	}
	return out
}
