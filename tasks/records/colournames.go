package records

// ColourName is one value of the colour_name vocabulary with the colour it
// names.
type ColourName struct {
	// Value is the vocabulary value (sky_blue); Label its words (Sky blue).
	Value, Label string
	// Hex is the reference colour, #RRGGBB.
	Hex string
}

// ColourNames lists the colour_name vocabulary this family registers, in
// its order: other families read colours named in words with it.
func ColourNames() []ColourName {
	out := make([]ColourName, len(namedColours))
	for i, n := range namedColours {
		out[i] = ColourName{Value: n.value, Label: n.label, Hex: n.hex}
	}
	return out
}
