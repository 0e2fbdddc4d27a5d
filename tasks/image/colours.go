package image

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
)

// The family's colour machinery as other families use it (tasks/colourwork,
// tasks/design): tasks/colour's clustering run on an image's pixels and the
// recolouring image.recolour runs, so every task reads and maps colours
// alike.

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

// Recolour is image.recolour's mapping (see recolourmap.go): the image's
// colours, inside the product on a plain backdrop or over the whole image
// as o.Area says, paired with o's palette or pairs, every pixel moved with
// its colour and anti-aliased edges unmixed.
func Recolour(ctx context.Context, img image.Image, o RecolourOptions) (*Recoloured, error) {
	if len(o.Palette) == 0 && len(o.Pairs) == 0 {
		return nil, fmt.Errorf("an empty palette")
	}
	return recolourWith(ctx, img, o)
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

// Quantise reduces img to at most k colours (k ≤ 254): colour.Cluster
// (k-means in CIELAB from a fixed seed) on a copy at most 256 px a side;
// clusters closer than mergeDE (CIEDE2000) are merged and a cluster under
// minShare of the copy's pixels (anti-aliased edges, noise) is folded into
// its nearest neighbour; then every pixel at full size takes its nearest
// mean. A fully transparent image is an error.
func Quantise(ctx context.Context, img image.Image, k int, mergeDE, minShare float64) (*Quantised, error) {
	samples := opaqueColours(img)
	if len(samples) == 0 {
		return nil, fmt.Errorf("the image is fully transparent")
	}
	centres := means(colour.Cluster(samples, k, mergeDE, minShare))
	px := readOnly(img)
	W, H := px.Rect.Dx(), px.Rect.Dy()
	idx := image.NewGray(image.Rect(0, 0, W, H))
	counts := make([]int, len(centres))
	opaque := 0
	index := func(r, g, b uint8) uint32 { return uint32(colour.Nearest(centres, colour.LabOf8(r, g, b))) }
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
			Swatch{Colour: c.NRGBA(), Share: float64(counts[j]) / float64(max(opaque, 1))},
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
	var out []Swatch
	for _, s := range colour.Cluster(samples, k, mergeDE, minShare) {
		out = append(out, Swatch{Colour: s.C.NRGBA(), Share: s.Share})
	}
	return out, nil
}

// means is the swatches' colours.
func means(sw []colour.Swatch) []colour.Lab {
	out := make([]colour.Lab, len(sw))
	for i, s := range sw {
		out[i] = s.C
	}
	return out
}

// DeltaE is the CIEDE2000 difference of two colours.
func DeltaE(a, b color.Color) float64 { return colour.DeltaE(colour.LabOf(a), colour.LabOf(b)) }

// Lightness is a colour's CIELAB L*, 0 (black) to 100 (white).
func Lightness(c color.Color) float64 { return colour.LabOf(c).L }

// opaqueColours are the CIELAB colours of the pixels at least half opaque
// of a copy of img at most 256 px a side, each once with its count, in the
// order they first come: what k-means clusters, each colour matched once
// however often the image repeats it (its weight is its count).
func opaqueColours(img image.Image) []colour.Weighted {
	at := make(map[uint32]int32, 64)
	out := make([]colour.Weighted, 0, 64)
	scanOpaque(img, func(rgb uint32, n int) {
		if i, ok := at[rgb]; ok {
			out[i].W += float64(n)
			return
		}
		at[rgb] = int32(len(out))
		out = append(out, colour.Weighted{C: colour.LabOf8(unpack(rgb)), W: float64(n)})
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
