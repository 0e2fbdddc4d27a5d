package colour

import (
	"fmt"
	"image/color"
	"math"
)

// CMYK is a naive conversion of a colour to percentages of cyan,
// magenta, yellow and black (no ICC profile): K is 1 − the largest of R, G
// and B; C, M and Y are what remains of each channel under K.
func CMYK(c color.Color) [4]int {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	r, g, b := float64(n.R)/255, float64(n.G)/255, float64(n.B)/255
	k := 1 - max(r, g, b)
	if k >= 1 {
		return [4]int{0, 0, 0, 100}
	}
	f := func(v float64) int { return int(math.Round(100 * (1 - v - k) / (1 - k))) }
	return [4]int{f(r), f(g), f(b), int(math.Round(100 * k))}
}

// CMYKLabel writes CMYK(c) as a sheet labels it: C0 M0 Y0 K100.
func CMYKLabel(c color.Color) string {
	v := CMYK(c)
	return fmt.Sprintf("C%d M%d Y%d K%d", v[0], v[1], v[2], v[3])
}
