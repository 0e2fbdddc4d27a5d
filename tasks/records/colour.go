package records

import (
	"image/color"
	"slices"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
)

// labOfHex reads a #RRGGBB colour.
func labOfHex(hex string) colour.Lab { return colour.LabOf(tasks.ParseColour(hex)) }

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
	names := colour.Names()
	values := make([]tasks.VocabValue, len(names))
	for i, n := range names {
		values[i] = tasks.VocabValue{Value: n.Value, Label: n.Label, Group: n.Group, Aliases: n.Aliases,
			Description: n.Label + ", measured as " + n.Hex + "."}
	}
	return tasks.Vocabulary{
		Name: "colour_name",
		Description: "The names given to measured colours: a moodboard's palette and looks, a brand kit's colours. Each " +
			"names its reference colour; a colour is named after the reference nearest to it by CIEDE2000.",
		Values: values, Groups: groups, Concept: new("moodboard"),
	}
}

// nearestName is the colour_name value nearest to c.
func nearestName(c colour.Lab) string { return colour.NameOf(c).Value }

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
