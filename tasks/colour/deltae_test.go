package colour

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// sharma are the CIEDE2000 test pairs of Sharma, Wu and Dalal, "The
// CIEDE2000 colour-difference formula: implementation notes, supplementary
// test data and mathematical observations" (Color Res. Appl. 30, 2005),
// Table 1: two CIELAB colours and their ΔE00 to 4 decimals. They cover the
// hue wrap, the blue rotation term and near-zero chroma.
var sharma = []struct {
	p, q Lab
	de   float64
}{
	{Lab{50, 2.6772, -79.7751}, Lab{50, 0, -82.7485}, 2.0425},
	{Lab{50, 3.1571, -77.2803}, Lab{50, 0, -82.7485}, 2.8615},
	{Lab{50, 2.8361, -74.0200}, Lab{50, 0, -82.7485}, 3.4412},
	{Lab{50, -1.3802, -84.2814}, Lab{50, 0, -82.7485}, 1.0000},
	{Lab{50, -1.1848, -84.8006}, Lab{50, 0, -82.7485}, 1.0000},
	{Lab{50, -0.9009, -85.5211}, Lab{50, 0, -82.7485}, 1.0000},
	{Lab{50, 0, 0}, Lab{50, -1, 2}, 2.3669},
	{Lab{50, -1, 2}, Lab{50, 0, 0}, 2.3669},
	{Lab{50, 2.49, -0.001}, Lab{50, -2.49, 0.0009}, 7.1792},
	{Lab{50, 2.49, -0.001}, Lab{50, -2.49, 0.0010}, 7.1792},
	{Lab{50, 2.49, -0.001}, Lab{50, -2.49, 0.0011}, 7.2195},
	{Lab{50, 2.49, -0.001}, Lab{50, -2.49, 0.0012}, 7.2195},
	{Lab{50, -0.001, 2.49}, Lab{50, 0.0009, -2.49}, 4.8045},
	{Lab{50, -0.001, 2.49}, Lab{50, 0.0010, -2.49}, 4.8045},
	{Lab{50, -0.001, 2.49}, Lab{50, 0.0011, -2.49}, 4.7461},
	{Lab{50, 2.5, 0}, Lab{50, 0, -2.5}, 4.3065},
	{Lab{50, 2.5, 0}, Lab{73, 25, -18}, 27.1492},
	{Lab{50, 2.5, 0}, Lab{61, -5, 29}, 22.8977},
	{Lab{50, 2.5, 0}, Lab{56, -27, -3}, 31.9030},
	{Lab{50, 2.5, 0}, Lab{58, 24, 15}, 19.4535},
	{Lab{50, 2.5, 0}, Lab{50, 3.1736, 0.5854}, 1.0000},
	{Lab{50, 2.5, 0}, Lab{50, 3.2972, 0}, 1.0000},
	{Lab{50, 2.5, 0}, Lab{50, 1.8634, 0.5757}, 1.0000},
	{Lab{50, 2.5, 0}, Lab{50, 3.2592, 0.3350}, 1.0000},
	{Lab{60.2574, -34.0099, 36.2677}, Lab{60.4626, -34.1751, 39.4387}, 1.2644},
	{Lab{63.0109, -31.0961, -5.8663}, Lab{62.8187, -29.7946, -4.0864}, 1.2630},
	{Lab{61.2901, 3.7196, -5.3901}, Lab{61.4292, 2.2480, -4.9620}, 1.8731},
	{Lab{35.0831, -44.1164, 3.7933}, Lab{35.0232, -40.0716, 1.5901}, 1.8645},
	{Lab{22.7233, 20.0904, -46.6940}, Lab{23.0331, 14.9730, -42.5619}, 2.0373},
	{Lab{36.4612, 47.8580, 18.3852}, Lab{36.2715, 50.5065, 21.2231}, 1.4146},
	{Lab{90.8027, -2.0831, 1.4410}, Lab{91.1528, -1.6435, 0.0447}, 1.4441},
	{Lab{90.9257, -0.5406, -0.9208}, Lab{88.6381, -0.8985, -0.7239}, 1.5381},
	{Lab{6.7747, -0.2908, -2.4247}, Lab{5.8714, -0.0985, -2.2286}, 0.6377},
	{Lab{2.0776, 0.0795, -1.1350}, Lab{0.9033, -0.0636, -0.5514}, 0.9082},
}

func TestDeltaEMatchesSharmasPairs(t *testing.T) {
	for i, c := range sharma {
		require.InDelta(t, c.de, DeltaE(c.p, c.q), 5e-5, "pair %d", i+1)
		require.InDelta(t, c.de, DeltaE(c.q, c.p), 5e-5, "pair %d reversed", i+1)
	}
}

func TestDeltaEOfAColourWithItselfIsZero(t *testing.T) {
	for _, c := range sharma {
		require.InDelta(t, 0, DeltaE(c.p, c.p), 1e-12)
	}
}
