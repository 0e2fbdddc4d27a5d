package colour

import (
	"image/color"
	"math"
)

// FormulaCMYK is the fallback conversion of a colour to percentages of
// cyan, magenta, yellow and black where no ICC profile is used: K is 1 −
// the largest of R, G and B; C, M and Y are what remains of each channel
// under K.
func FormulaCMYK(c color.Color) [4]int {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	r, g, b := float64(n.R)/255, float64(n.G)/255, float64(n.B)/255
	k := 1 - max(r, g, b)
	if k >= 1 {
		return [4]int{0, 0, 0, 100}
	}
	f := func(v float64) int { return int(math.Round(100 * (1 - v - k) / (1 - k))) }
	return [4]int{f(r), f(g), f(b), int(math.Round(100 * k))}
}

// FormulaPixel is FormulaCMYK at 8 bits a channel (255 is 100 %).
func FormulaPixel(r, g, b uint8) (c, m, y, k uint8) {
	mx := max(r, g, b)
	if mx == 0 {
		return 0, 0, 0, 255
	}
	f := func(v uint8) uint8 { return uint8((int(mx-v)*255 + int(mx)/2) / int(mx)) }
	return f(r), f(g), f(b), 255 - mx
}
