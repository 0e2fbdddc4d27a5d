package colour

import (
	"math"
	"strconv"
)

// Name is one value of the colour_name vocabulary: the words the platform
// gives a measured colour (a moodboard's palette, a brand kit's colours, a
// fabric's colour, an ink's description).
type Name struct {
	// Value is the vocabulary value (sky_blue); Label its words (Sky blue).
	Value, Label string
	// Hex is the reference colour, #RRGGBB; Lab the same in CIELAB.
	Hex string
	Lab Lab
	// Group is the colour's family (green for sage): a brief's "sage
	// green" names one colour.
	Group string
	// Aliases are other names of the colour, in words (navy blue).
	Aliases []string
}

// Names lists the colour_name vocabulary in its order. The slice is the
// caller's to keep; its aliases are shared and must not be changed.
func Names() []Name { return append([]Name(nil), names...) }

// NameOf is the colour_name nearest to c by CIEDE2000.
func NameOf(c Lab) Name {
	best, bestD := 0, math.Inf(1)
	for i, n := range names {
		if d := DeltaE(c, n.Lab); d < bestD {
			best, bestD = i, d
		}
	}
	return names[best]
}

// NameByValue is the colour_name whose value is v.
func NameByValue(v string) (Name, bool) {
	for _, n := range names {
		if n.Value == v {
			return n, true
		}
	}
	return Name{}, false
}

// Label is the words of a colour_name value (sky_blue → Sky blue), or v
// itself when it is not one.
func Label(v string) string {
	if n, ok := NameByValue(v); ok {
		return n.Label
	}
	return v
}

// names is the vocabulary with each reference colour in CIELAB.
var names = func() []Name {
	out := make([]Name, len(nameTable))
	for i, n := range nameTable {
		v, _ := strconv.ParseUint(n[2][1:], 16, 32)
		lab := LabOf8(uint8(v>>16), uint8(v>>8), uint8(v))
		out[i] = Name{Value: n[0], Label: n[1], Hex: n[2], Lab: lab, Group: n[3], Aliases: nameAliases[n[0]]}
	}
	return out
}()

// nameTable holds value, label, reference colour and group of each name.
var nameTable = [][4]string{
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

// nameAliases are the everyday names of colours the vocabulary names
// otherwise, each read as the value nearest to it: a brief's "dusty rose"
// is blush, "royal blue" cobalt. A specific name followed by its family's
// word ("sage green", "navy blue") needs no alias: it reads as one colour.
var nameAliases = map[string][]string{
	"blush":      {"dusty rose", "dusty pink", "old rose", "rose"},
	"pink":       {"baby pink", "light pink"},
	"fuchsia":    {"hot pink", "magenta"},
	"sky_blue":   {"baby blue", "powder blue", "light blue"},
	"cobalt":     {"royal blue"},
	"navy":       {"midnight blue", "indigo"},
	"denim":      {"dusty blue", "slate blue"},
	"terracotta": {"burnt orange"},
	"ivory":      {"off white", "ecru"},
	"beige":      {"sand", "oatmeal"},
	"forest":     {"bottle green", "dark green", "hunter green"},
	"burgundy":   {"wine", "maroon", "oxblood"},
	"mustard":    {"ochre", "gold"},
	"silver":     {"light grey", "light gray", "dove grey", "dove gray"},
	"charcoal":   {"dark grey", "dark gray", "slate grey", "slate gray"},
	"grey":       {"gray"},
	"mint":       {"seafoam"},
	"lilac":      {"mauve"},
}
