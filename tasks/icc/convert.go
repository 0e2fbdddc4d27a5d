package icc

import (
	"image/color"
	"math"
)

// srgbD50 maps linear sRGB to CIE XYZ adapted to D50 (Bradford), as the
// ICC's sRGB profile does.
var srgbD50 = [9]float64{
	0.4360747, 0.3850649, 0.1430804,
	0.2225045, 0.7168786, 0.0606169,
	0.0139322, 0.0971045, 0.7141733,
}

// d50 is the profile connection space's white.
var d50 = [3]float64{0.9642, 1, 0.8249}

func linear(v float64) float64 {
	if v <= 0.04045 {
		return v / 12.92
	}
	return math.Pow((v+0.055)/1.055, 2.4)
}

// XYZ is the sRGB colour c in CIE XYZ, D50.
func XYZ(c color.Color) [3]float64 {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	rgb := [3]float64{linear(float64(n.R) / 255), linear(float64(n.G) / 255), linear(float64(n.B) / 255)}
	var xyz [3]float64
	for r := range 3 {
		xyz[r] = srgbD50[3*r]*rgb[0] + srgbD50[3*r+1]*rgb[1] + srgbD50[3*r+2]*rgb[2]
	}
	return xyz
}

// Lab is the sRGB colour c in CIE L*a*b*, D50.
func Lab(c color.Color) [3]float64 {
	xyz := XYZ(c)
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	fx, fy, fz := f(xyz[0]/d50[0]), f(xyz[1]/d50[1]), f(xyz[2]/d50[2])
	return [3]float64{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

// CMYK converts the sRGB colour c to the profile's cyan, magenta, yellow
// and black, each 0–100 %.
func (p *Profile) CMYK(c color.Color) [4]float64 {
	var in []float64
	if p.lab {
		lab := Lab(c)
		in = []float64{lab[0] / 100, (lab[1] + 128) / 255, (lab[2] + 128) / 255}
		if p.toCMYK.v2Lab {
			// lut16 reads L*a*b* in the ICC v2 encoding: 0xFF00 is L* 100.
			for i := range in {
				in[i] *= 65280.0 / 65535
			}
		}
	} else {
		xyz := XYZ(c)
		for _, v := range xyz {
			in = append(in, clamp(v*32768/65535))
		}
	}
	out := p.toCMYK.eval(in)
	return [4]float64{100 * out[0], 100 * out[1], 100 * out[2], 100 * out[3]}
}
