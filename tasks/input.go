package tasks

import (
	"image/color"
	"strconv"
	"strings"
)

// ParseColour reads a colour written #RRGGBB (the form ColourPattern
// accepts) as an opaque RGBA colour.
func ParseColour(hex string) color.RGBA {
	v, _ := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}
