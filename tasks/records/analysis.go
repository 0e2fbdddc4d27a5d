package records

import (
	"image"
	"image/color"
	"math"

	"github.com/taskplatform/taskplatform/tasks/colour"
)

// Analysis is a moodboard's analysis: the board's palette and one look per
// image.
type Analysis struct {
	Palette []NamedColour `json:"palette"`
	Looks   []Look        `json:"looks"`
}

// The thresholds of a look's reading.
const (
	analysisSide = 128  // images are read at most this many px a side
	edgeStep     = 12.0 // an L* change across a pixel that counts as an edge
	printDensity = 0.08 // a share of edge pixels above which an image reads as a print
	chromatic    = 12.0 // C*ab above which a pixel counts as coloured
)

// pixels are an image's colours read at analysis size, each with its L*.
type pixels struct {
	w, h int
	rgb  []color.RGBA
	lab  []colour.Lab
}

func readPixels(img image.Image) pixels {
	small := sampleImage(img, analysisSide)
	b := small.Bounds()
	p := pixels{w: b.Dx(), h: b.Dy()}
	for y := range p.h {
		for x := range p.w {
			c := small.RGBAAt(x, y)
			p.rgb = append(p.rgb, c)
			p.lab = append(p.lab, colour.LabOf8(c.R, c.G, c.B))
		}
	}
	return p
}

// named turns swatches into named colours with weights to 3 decimals.
func named(sw []colour.Swatch) []NamedColour {
	out := make([]NamedColour, len(sw))
	for i, s := range sw {
		out[i] = NamedColour{Hex: s.C.Hex(), Weight: round(s.Share, 3), Name: nearestName(s.C)}
	}
	return out
}

func round(f float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(f*p) / p
}

// analyse reads a board: the palette of all images together (each image
// weighs the same; 5 to 8 colours, fewer when the board holds fewer
// distinct ones) and one look per image. urls are the looks' stored copies.
func analyse(imgs []image.Image, refs, urls []string) Analysis {
	px := make([]pixels, len(imgs))
	for i, img := range imgs {
		px[i] = readPixels(img)
	}
	return analysePixels(px, refs, urls, true)
}

// analysePixels is analyse of the images' pixels read at analysis size;
// with ignoreBackdrops a product shot's plain backdrop (backdropOf) is left
// out of the palette and of its look's colours.
func analysePixels(px []pixels, refs, urls []string, ignoreBackdrops bool) Analysis {
	board := histogram{}
	var looks []Look
	for i, p := range px {
		subj := p
		var back *colour.Lab
		if ignoreBackdrops {
			var mask []bool
			mask, back = backdropOf(p)
			subj = p.subject(mask)
		}
		own := histogram{}
		w := 1 / float64(len(subj.rgb))
		for _, c := range subj.rgb {
			board.add(c, w)
			own.add(c, 1)
		}
		look := readLook(p, subj, own)
		if back != nil {
			look.Backdrop = new(back.Hex())
		}
		look.Index, look.Image = i, refs[i]
		if i < len(urls) {
			look.URL = urls[i]
		}
		looks = append(looks, look)
	}
	return Analysis{Palette: named(colour.Cluster(board.samples(), 8, 4, 0.015)), Looks: looks}
}

// readLook measures one image: its colours from subj (the image without
// its backdrop), its surface from the whole image p.
func readLook(whole, p pixels, own histogram) Look {
	dom := colour.Cluster(own.samples(), 5, 6, 0.05)
	if len(dom) > 3 {
		dom = dom[:3]
		var sum float64
		for _, d := range dom {
			sum += d.Share
		}
		for i := range dom {
			dom[i].Share /= sum
		}
	}
	var lsum, csum, colourW, warmW float64
	for _, l := range p.lab {
		lsum += l.L
		c := l.Chroma()
		csum += c
		if c > chromatic {
			colourW += c
			if h := l.Hue(); h < 100 || h >= 330 {
				warmW += c
			}
		}
	}
	n := float64(len(p.lab))
	temp := "neutral"
	var chromaticShare float64
	for _, l := range p.lab {
		if l.Chroma() > chromatic {
			chromaticShare++
		}
	}
	if chromaticShare/n >= 0.1 && colourW > 0 {
		switch share := warmW / colourW; {
		case share >= 0.6:
			temp = "warm"
		case share <= 0.4:
			temp = "cool"
		}
	}
	density := edgeDensity(whole)
	surface := "solid"
	if density > printDensity {
		surface = "print"
	}
	return Look{Dominant: named(dom), Lightness: round(lsum/n, 1), Chroma: round(csum/n, 1),
		Temperature: temp, Surface: surface, EdgeDensity: round(density, 3)}
}

// edgeDensity is the share of interior pixels whose Sobel gradient of L*
// exceeds edgeStep: near 0 for a plain cloth, high for a print.
func edgeDensity(p pixels) float64 {
	if p.w < 3 || p.h < 3 {
		return 0
	}
	at := func(x, y int) float64 { return p.lab[y*p.w+x].L }
	var edges, total int
	for y := 1; y < p.h-1; y++ {
		for x := 1; x < p.w-1; x++ {
			gx := (at(x+1, y-1) + 2*at(x+1, y) + at(x+1, y+1)) - (at(x-1, y-1) + 2*at(x-1, y) + at(x-1, y+1))
			gy := (at(x-1, y+1) + 2*at(x, y+1) + at(x+1, y+1)) - (at(x-1, y-1) + 2*at(x, y-1) + at(x+1, y-1))
			if math.Hypot(gx, gy)/4 > edgeStep {
				edges++
			}
			total++
		}
	}
	return float64(edges) / float64(total)
}
