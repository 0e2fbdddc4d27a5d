package image

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/tasks"
)

// The family's colour machinery as other families use it (tasks/colourwork,
// tasks/design): the same k-means in CIELAB and recolouring image.recolour
// runs, so every task reads and maps colours alike.

// InputSides bounds the sides of every image the family's loader (Load)
// takes.
var InputSides = inputSides

// InputFormats is the input_formats spec text of the family's loader.
const InputFormats = inputFormats

// Decode reads the bytes of reference r (fetched with tasks.LoadRef) as
// Load does: sides and area checked before the pixels are decoded, EXIF
// orientation applied. A file that cannot be used is a permanent step
// failure naming r's field.
func Decode(r tasks.Ref, data []byte) (image.Image, error) {
	src, err := decodeRef(r, data)
	if err != nil {
		return nil, err
	}
	return src.img, nil
}

// Recolour is image.recolour's mapping: the image's len(palette) dominant
// colours are paired one to one with the palette at the smallest total ΔE,
// and every pixel keeps its offset in lightness and hue from its colour's
// mean. mapping lists each dominant colour (from), the palette colour it
// became (to) and its share, largest share first.
func Recolour(ctx context.Context, img image.Image, palette []color.Color) (*image.NRGBA, []map[string]any, error) {
	if len(palette) == 0 {
		return nil, nil, fmt.Errorf("an empty palette")
	}
	pal := make([]lab, len(palette))
	for i, c := range palette {
		pal[i] = labOf(c)
	}
	return recolourImage(ctx, img, pal)
}

// Swatch is one colour of an image and its share of the opaque pixels.
type Swatch struct {
	Colour color.NRGBA
	Share  float64
}

// Hex writes the swatch's colour #RRGGBB.
func (s Swatch) Hex() string { return hex(s.Colour) }

// Quantised is an image reduced to a few colours: every opaque pixel is
// given the nearest of Colours.
type Quantised struct {
	// Colours are the cluster means with their shares of the full-size
	// opaque pixels.
	Colours []Swatch
	// Index holds, per pixel, its colour's position in Colours, or
	// Transparent for a pixel under half opacity.
	Index *image.Gray
}

// Transparent marks a pixel of a Quantised image that no colour covers.
const Transparent = 255

// Quantise reduces img to at most k colours (k ≤ 254): k-means in CIELAB
// from a fixed seed on a copy at most 256 px a side; clusters closer than
// mergeDE (ΔE76) are merged and a cluster under minShare of the copy's
// pixels (anti-aliased edges, noise) is folded into its nearest neighbour;
// then every pixel at full size takes its nearest mean. A fully
// transparent image is an error.
func Quantise(ctx context.Context, img image.Image, k int, mergeDE, minShare float64) (*Quantised, error) {
	samples := opaqueColours(img)
	if len(samples) == 0 {
		return nil, fmt.Errorf("the image is fully transparent")
	}
	centres := simplify(samples, kmeans(samples, k), mergeDE, minShare)
	px := readOnly(img)
	W, H := px.Rect.Dx(), px.Rect.Dy()
	idx := image.NewGray(image.Rect(0, 0, W, H))
	counts := make([]int, len(centres))
	opaque := 0
	index := func(r, g, b uint8) uint32 { return uint32(nearest(centres, toLab(r, g, b))) }
	cache := newRGBCache()
	defer cache.release()
	for y := range H {
		if y%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		row, out := px.Pix[y*px.Stride:y*px.Stride+W*4], idx.Pix[y*idx.Stride:y*idx.Stride+W]
		last, j := uint32(1<<24), uint8(0)
		for x := range out {
			p := row[x*4 : x*4+4 : x*4+4]
			if p[3] < 128 {
				out[x] = Transparent
				continue
			}
			if key := uint32(p[0])<<16 | uint32(p[1])<<8 | uint32(p[2]); key != last {
				last, j = key, uint8(cache.get(p[0], p[1], p[2], index))
			}
			out[x] = j
			counts[j]++
			opaque++
		}
	}
	q := &Quantised{Index: idx}
	for j, c := range centres {
		q.Colours = append(
			q.Colours,
			Swatch{Colour: swatchColour(c), Share: float64(counts[j]) / float64(max(opaque, 1))},
		)
	}
	return q, nil
}

// Dominant is the image's at most k dominant colours, as Quantise finds
// them, with their shares of the opaque pixels of a copy at most 256 px a
// side, largest share first.
func Dominant(img image.Image, k int, mergeDE, minShare float64) ([]Swatch, error) {
	samples := opaqueColours(img)
	if len(samples) == 0 {
		return nil, fmt.Errorf("the image is fully transparent")
	}
	centres := simplify(samples, kmeans(samples, k), mergeDE, minShare)
	counts := make([]int, len(centres))
	for _, r := range samples {
		counts[nearest(centres, r.c)] += r.n
	}
	out := make([]Swatch, len(centres))
	for j, c := range centres {
		out[j] = Swatch{Colour: swatchColour(c), Share: float64(counts[j]) / float64(sampleCount(samples))}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Share > out[j-1].Share; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, nil
}

// DeltaE is ΔE76, the CIELAB distance of two colours.
func DeltaE(a, b color.Color) float64 { return labOf(a).dist(labOf(b)) }

// Lightness is a colour's CIELAB L*, 0 (black) to 100 (white).
func Lightness(c color.Color) float64 { return labOf(c).L }

func swatchColour(c lab) color.NRGBA {
	r, g, b := c.rgb()
	return color.NRGBA{r, g, b, 255}
}

// opaqueSamples are the CIELAB colours of the pixels at least half opaque
// of a copy of img at most 256 px a side, in scan order, as runs of equal
// colours: scanOpaque's runs, which opaqueColours folds.
func opaqueSamples(img image.Image) []colourRun {
	var samples []colourRun
	cache := new(labCache)
	scanOpaque(img, func(rgb uint32, n int) {
		c := cache.of(unpack(rgb))
		if last := len(samples) - 1; last >= 0 && samples[last].c == c {
			samples[last].n += n
		} else {
			samples = append(samples, colourRun{c, n})
		}
	})
	return samples
}

// opaqueColours are the CIELAB colours of the pixels at least half opaque
// of a copy of img at most 256 px a side, each once with its count, in the
// order they first come: what k-means clusters, each colour matched once
// however often the image repeats it.
func opaqueColours(img image.Image) []colourRun {
	at := make(map[uint32]int32, 64)
	out := make([]colourRun, 0, 64)
	scanOpaque(img, func(rgb uint32, n int) {
		if i, ok := at[rgb]; ok {
			out[i].n += n
			return
		}
		at[rgb] = int32(len(out))
		out = append(out, colourRun{toLab(unpack(rgb)), n})
	})
	return out
}

// scanOpaque calls run for every run of equal sRGB colours (packed as
// 0xBBGGRR) among the pixels at least half opaque of a copy of img at most
// 256 px a side, in scan order.
func scanOpaque(img image.Image, run func(rgb uint32, n int)) {
	var small *image.NRGBA
	if b := img.Bounds(); b.Dx() <= 256 && b.Dy() <= 256 {
		small = readOnly(img) // what imaging.Fit would copy
	} else {
		small = imaging.Fit(img, 256, 256, imaging.Box)
	}
	prev, n := uint32(0), 0 // the current run's colour and length
	last := uint64(1 << 32) // the last opaque pixel, alpha included
	for y := range small.Rect.Dy() {
		row := small.Pix[y*small.Stride:][:4*small.Rect.Dx()]
		for o := 0; o < len(row); o += 4 {
			p := row[o : o+4 : o+4]
			w := uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24
			if uint64(w) == last {
				n++
				continue
			}
			if p[3] < 128 {
				continue
			}
			last = uint64(w)
			if key := w & 0xFFFFFF; n > 0 && key == prev {
				n++
				continue
			} else if n > 0 {
				run(prev, n)
			}
			prev, n = w&0xFFFFFF, 1
		}
	}
	if n > 0 {
		run(prev, n)
	}
}

// unpack is the channels of a colour scanOpaque packed.
func unpack(rgb uint32) (r, g, b uint8) { return uint8(rgb), uint8(rgb >> 8), uint8(rgb >> 16) }

// simplify drops the smallest cluster while it holds under minShare of the
// samples, then merges the closest pair while it is nearer than mergeDE,
// recomputing the means from the samples each round.
func simplify(samples []colourRun, centres []lab, mergeDE, minShare float64) []lab {
	for len(centres) > 1 {
		counts, sums := make([]float64, len(centres)), make([]lab, len(centres))
		for _, r := range samples {
			j := nearest(centres, r.c)
			counts[j] += float64(r.n)
			sums[j] = r.addTo(sums[j])
		}
		for j, n := range counts {
			if n > 0 {
				centres[j] = lab{sums[j].L / n, sums[j].A / n, sums[j].B / n}
			}
		}
		small, least := -1, minShare*float64(sampleCount(samples))
		for j, n := range counts {
			if n < least {
				small, least = j, n
			}
		}
		if small >= 0 {
			centres = append(centres[:small:small], centres[small+1:]...)
			continue
		}
		a, b, bd := -1, -1, mergeDE
		for i := range centres {
			for j := i + 1; j < len(centres); j++ {
				if d := centres[i].dist(centres[j]); d < bd {
					a, b, bd = i, j, d
				}
			}
		}
		if a < 0 {
			break
		}
		na, nb := counts[a], counts[b]
		centres[a] = lab{
			(centres[a].L*na + centres[b].L*nb) / (na + nb),
			(centres[a].A*na + centres[b].A*nb) / (na + nb),
			(centres[a].B*na + centres[b].B*nb) / (na + nb),
		}
		centres = append(centres[:b:b], centres[b+1:]...)
	}
	return centres
}

// readOnly is img's pixels as non-premultiplied RGBA at the origin, for
// reading only: img itself when it is an NRGBA image, or an opaque RGBA one
// (whose bytes are the same), else imaging.Clone's copy.
func readOnly(img image.Image) *image.NRGBA {
	switch m := img.(type) {
	case *image.NRGBA:
		if m.Rect.Min == (image.Point{}) {
			return m
		}
	case *image.RGBA:
		if m.Rect.Min == (image.Point{}) && m.Opaque() {
			return &image.NRGBA{Pix: m.Pix, Stride: m.Stride, Rect: m.Rect}
		}
	}
	return imaging.Clone(img)
}

// copyTarget is img's pixels to read (readOnly's) and an image of the same
// size at the origin to write the result to: a new one when src shares
// img's pixels, else src itself, already a copy.
func copyTarget(img image.Image) (src, dst *image.NRGBA) {
	src = readOnly(img)
	switch m := img.(type) {
	case *image.NRGBA:
		if m == src {
			return src, image.NewNRGBA(src.Rect)
		}
	case *image.RGBA:
		if len(m.Pix) > 0 && len(src.Pix) > 0 && &m.Pix[0] == &src.Pix[0] {
			return src, image.NewNRGBA(src.Rect)
		}
	}
	return src, src
}

// cloneNRGBA is imaging.Clone(img): its pixels as non-premultiplied RGBA
// at the origin, in a new image. A YCbCr image (a decoded JPEG) is
// converted by image/draw, which gives the same bytes several times
// faster than imaging's pixel-by-pixel scanner, into a scratch buffer
// (releaseImage gives it back).
func cloneNRGBA(img image.Image) *image.NRGBA {
	m, ok := img.(*image.YCbCr)
	if !ok {
		return imaging.Clone(img)
	}
	W, H := m.Rect.Dx(), m.Rect.Dy()
	out := &image.RGBA{Pix: bytePool.get(4 * W * H), Stride: 4 * W, Rect: image.Rect(0, 0, W, H)}
	draw.Draw(out, out.Rect, m, m.Rect.Min, draw.Src)                     // every pixel written
	return &image.NRGBA{Pix: out.Pix, Stride: out.Stride, Rect: out.Rect} // opaque: the same bytes
}
