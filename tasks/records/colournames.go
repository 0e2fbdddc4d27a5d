package records

// ColourName is one value of the colour_name vocabulary with the colour it
// names.
type ColourName struct {
	// Value is the vocabulary value (sky_blue); Label its words (Sky blue).
	Value, Label string
	// Hex is the reference colour, #RRGGBB.
	Hex string
	// Group is the colour's family (green for sage): a brief's "sage
	// green" names one colour.
	Group string
	// Aliases are other names of the colour, in words (navy blue).
	Aliases []string
}

// ColourNames lists the colour_name vocabulary this family registers, in
// its order: other families read colours named in words with it.
func ColourNames() []ColourName {
	out := make([]ColourName, len(namedColours))
	for i, n := range namedColours {
		out[i] = ColourName{Value: n.value, Label: n.label, Hex: n.hex, Group: n.group, Aliases: colourAliases[n.value]}
	}
	return out
}

// colourAliases are the everyday names of colours the vocabulary names
// otherwise, each read as the value nearest to it: a brief's "dusty rose"
// is blush, "royal blue" cobalt. A specific name followed by its family's
// word ("sage green", "navy blue") needs no alias: it reads as one colour.
var colourAliases = map[string][]string{
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
