package pattern

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"math"

	"github.com/taskplatform/taskplatform/tasks/pngenc"
)

// spec is everything one pattern tile is drawn from. Every kind is a
// function of the pixel (x, y) that is periodic with period size in both
// axes: positions are integers scaled by the repeat count, so x+size lands
// exactly one tile further and every per-cell choice cycles within it.
type spec struct {
	kind     string
	size     int
	repeats  int           // motif repeats across the tile, as drawn
	palette  color.Palette // index 0 is the ground
	angle    int           // stripes: 0, 45, 90 or 135 degrees
	dotSize  float64       // dots: diameter as a fraction of the cell
	halfDrop bool          // dots: every other column drops by half a cell
	cross    [4]uint8      // woven checks: palette index of (column band, row band)
	bandFrac float64       // woven checks: the coloured share of a cell
	amp      float64       // chevron, waves: height as a fraction of a repeat
	sx, sy   int           // phase shift in pixels, from the seed
	seed     uint64
	bands    []int   // stripes: cumulative band weights
	bandCol  []uint8 // stripes: the palette index of each band
	sett     []int   // plaid: palette index of each thread of the sett
}

// kind is one value of the pattern_kind vocabulary and its drawing.
type kind struct {
	value, label, group, text string
	// cycle is how many palette entries a per-cell colour cycles through
	// (the repeat count is rounded up to a multiple of it); 0 for none.
	cycle func(k int) int
	at    func(s *spec, x, y int) uint8
	// rows draws the tile row by row as at does pixel by pixel (render).
	rows func(s *spec) rowDrawer
}

var kinds = []kind{
	{
		"stripes",
		"Stripes",
		"geometric",
		"Bands of every colour in turn; band widths vary with the seed; stripe_angle sets the direction.",
		nil,
		stripesAt,
		stripesRows,
	},
	{
		"checks",
		"Checks",
		"geometric",
		"A checkerboard of squares cycling through the colours (for woven checks see gingham, buffalo_check and windowpane).",
		func(k int) int { return k },
		checksAt,
		checksRows,
	},
	{
		"dots",
		"Dots",
		"spot",
		"Polka dots on the first colour on a regular lattice, square or half-drop (dot_layout), cycling through the " +
			"others; dot_size sets the diameter.",
		func(k int) int { return k - 1 },
		dotsAt,
		dotsRows,
	},
	{
		"chevron",
		"Chevron",
		"geometric",
		"Zigzag bands of every colour; amplitude sets the zigzag height.",
		nil,
		chevronAt,
		chevronRows,
	},
	{
		"waves",
		"Waves",
		"geometric",
		"Smooth wavy bands of every colour; amplitude sets the wave height.",
		nil,
		wavesAt,
		wavesRows,
	},
	{
		"diamonds",
		"Diamonds",
		"geometric",
		"Diamonds touching at their tips on the first colour, cycling through the others.",
		func(k int) int { return k - 1 },
		diamondsAt,
		diamondsRows,
	},
	{
		"houndstooth",
		"Houndstooth",
		"woven",
		"The broken-check of a 2/2 twill with four dark and four light threads; the first colour is the light one.",
		func(k int) int { return k - 1 },
		houndstoothAt,
		houndstoothRows,
	},
	{
		"plaid",
		"Plaid",
		"woven",
		"A tartan sett in a 2/2 twill: mirrored bands of every colour, widths from the seed, or woven thread by thread " +
			"from a thread count you send (sett, as \"K4 R24 K24 Y4\").",
		nil,
		plaidAt,
		plaidRows,
	},
	{
		"gingham",
		"Gingham",
		"woven",
		"An even check of one colour on a ground, as woven: where a coloured stripe crosses the ground the two mix into a " +
			"third, half tone (50 % of each); where coloured stripes cross, the full colour. A third colour, when sent, is " +
			"the colour of the horizontal stripes.",
		nil,
		crossAt,
		crossRows,
	},
	{
		"buffalo_check",
		"Buffalo check",
		"woven",
		"Gingham's weave at a bold scale (half the repeats of gingham for the same use_case), classically red and black: " +
			"the two colours and their mixed tone in large blocks.",
		nil,
		crossAt,
		crossRows,
	},
	{
		"windowpane",
		"Windowpane",
		"woven",
		"Thin lines of the second colour crossing on the first, making large squares like a window's panes; line_width " +
			"sets the lines' share of a repeat. A third colour, when sent, is the colour of the horizontal lines.",
		nil,
		crossAt,
		crossRows,
	},
}

func kindByValue(v string) (kind, bool) {
	for _, k := range kinds {
		if k.value == v {
			return k, true
		}
	}
	return kind{}, false
}

// hash is splitmix64 of the seed and a salt: the per-seed randomness.
func hash(seed uint64, salt ...int) uint64 {
	z := seed
	for _, s := range salt {
		z = z*0x9E3779B97F4A7C15 + uint64(s) + 0x632BE59BD9B4E019
	}
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func mod(a, b int) int { return a - floorDiv(a, b)*b }

// cellAt places pixel coordinate p (its centre) among n cells of the tile:
// the cell number (not wrapped) and the position in it, in [0, 1).
func (s *spec) cellAt(p, n int) (int, float64) {
	c, rem := s.cellRem(p, n)
	return c, float64(rem) / float64(2*s.size)
}

// cellRem is cellAt with the position in the cell as the integer remainder
// in [0, 2·size): equal remainders are equal positions.
func (s *spec) cellRem(p, n int) (int, int) {
	num, den := (2*p+1)*n, 2*s.size
	c := floorDiv(num, den)
	return c, num - c*den
}

// index is the palette index of pixel (x, y) for any integers x and y.
func (s *spec) index(x, y int) uint8 {
	k, _ := kindByValue(s.kind)
	return k.at(s, x+s.sx, y+s.sy)
}

func stripesAt(s *spec, x, y int) uint8 {
	p := y
	switch s.angle {
	case 45:
		p = x + y
	case 90:
		p = x
	case 135:
		p = x - y
	}
	return s.stripe(p)
}

// stripe is the band at position p across the stripes.
func (s *spec) stripe(p int) uint8 {
	_, f := s.cellAt(p, s.repeats)
	t := int(f * float64(s.bands[len(s.bands)-1]))
	for i, b := range s.bands {
		if t < b {
			return s.bandCol[i]
		}
	}
	return s.bandCol[len(s.bands)-1]
}

func checksAt(s *spec, x, y int) uint8 {
	cx, _ := s.cellAt(x, s.repeats)
	cy, _ := s.cellAt(y, s.repeats)
	return uint8(mod(cx+cy, len(s.palette)))
}

func bandsAt(s *spec, x, y int, shape func(f float64) float64) uint8 {
	_, fx := s.cellAt(x, s.repeats)
	cy, fy := s.cellAt(y, s.repeats)
	k := len(s.palette)
	band := cy*k + int(math.Floor((fy+float64(s.amp*shape(fx)))*float64(k)))
	return uint8(mod(band, k))
}

func chevronAt(s *spec, x, y int) uint8 {
	return bandsAt(s, x, y, func(f float64) float64 { return math.Abs(2*f - 1) })
}

func wavesAt(s *spec, x, y int) uint8 {
	return bandsAt(s, x, y, func(f float64) float64 { return (1 - math.Cos(2*math.Pi*f)) / 2 })
}

func diamondsAt(s *spec, x, y int) uint8 {
	cx, fx := s.cellAt(x, s.repeats)
	cy, fy := s.cellAt(y, s.repeats)
	if math.Abs(fx-0.5)+math.Abs(fy-0.5) >= 0.5 {
		return 0
	}
	return uint8(1 + mod(cx+cy, len(s.palette)-1))
}

// twill is a 2/2 twill: which thread, warp (true) or weft, lies on top.
func twill(ti, tj int) bool { return mod(ti+tj, 4) < 2 }

func houndstoothAt(s *spec, x, y int) uint8 {
	ti, _ := s.cellAt(x, 8*s.repeats)
	tj, _ := s.cellAt(y, 8*s.repeats)
	return houndstoothThread(s, ti, tj)
}

// houndstoothThread is the colour where warp thread ti crosses weft tj.
func houndstoothThread(s *spec, ti, tj int) uint8 {
	dark := mod(tj, 8) < 4
	if twill(ti, tj) {
		dark = mod(ti, 8) < 4
	}
	if !dark {
		return 0
	}
	return uint8(1 + mod(floorDiv(ti, 8)+floorDiv(tj, 8), len(s.palette)-1))
}

func plaidAt(s *spec, x, y int) uint8 {
	t := len(s.sett)
	ti, _ := s.cellAt(x, t*s.repeats)
	tj, _ := s.cellAt(y, t*s.repeats)
	return plaidThread(s, ti, tj)
}

// plaidThread is the colour where warp thread ti crosses weft tj.
func plaidThread(s *spec, ti, tj int) uint8 {
	t := len(s.sett)
	if twill(ti, tj) {
		return uint8(s.sett[mod(ti, t)])
	}
	return uint8(s.sett[mod(tj, t)])
}

// render draws the tile, checking ctx every 64 rows: row y of the tile is
// index(x, y) for x in [0, size), drawn by the kind's rows. A row whose key
// was seen is a copy of the first row with that key.
func (s *spec) render(ctx context.Context) (*image.Paletted, error) {
	img := image.NewPaletted(image.Rect(0, 0, s.size, s.size), s.palette)
	k, _ := kindByValue(s.kind)
	d := k.rows(s)
	first := map[int]int{} // row key → the first row drawn with it
	for y := 0; y < s.size; y++ {
		if y%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		row := img.Pix[y*img.Stride : y*img.Stride+s.size]
		if d.key != nil {
			key := d.key(y + s.sy)
			if y0, ok := first[key]; ok {
				copy(row, img.Pix[y0*img.Stride:])
				continue
			}
			first[key] = y
		}
		d.draw(y, row)
	}
	return img, nil
}

// encodePNG writes the tile as an indexed PNG.
func encodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	// BestSpeed, deliberately: steps are CPU-bound and run beside the
	// worker, and flat-colour indexed tiles are small at any level.
	// DefaultCompression halves the bytes (a 1024 px tile: ~9 KB → ~4 KB)
	// for 5–60 % more encode time (make bench, tasks table).
	enc := pngenc.Encoder(png.BestSpeed)
	if err := enc.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
