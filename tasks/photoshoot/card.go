package photoshoot

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"sync"

	"github.com/disintegration/imaging"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The style card: the saved style's tones as named swatches with their
// hex, read from the reference photos shown beside them with the regions
// they were read from outlined, and the proportions.

// cardW and cardH are the card's size.
const cardW, cardH = 720, 560

// The card's colours: its ground, its ink, and the outlines of the face
// and hair regions on the photos.
var (
	cardGround  = hexColour("#F4F3F0")
	cardInk     = hexColour("#1E1E1E")
	cardMuted   = hexColour("#6B6B6B")
	faceOutline = hexColour("#0A84C6")
	hairOutline = hexColour("#E0561B")
)

var (
	fontsOnce             sync.Once
	regularFont, boldFont *opentype.Font
)

// cardFace is the Go font at size px; each call gets its own face (a face
// is not safe for concurrent use).
func cardFace(size float64, isBold bool) font.Face {
	fontsOnce.Do(func() {
		regularFont, _ = opentype.Parse(goregular.TTF)
		boldFont, _ = opentype.Parse(gobold.TTF)
	})
	f := regularFont
	if isBold {
		f = boldFont
	}
	fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(fmt.Sprintf("photoshoot: the Go font does not load: %v", err))
	}
	return fc
}

// write draws s with its baseline at (x, y).
func write(img draw.Image, x, y int, s string, size float64, isBold bool, c color.Color) {
	d := &font.Drawer{Dst: img, Src: image.NewUniform(c), Face: cardFace(size, isBold), Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// outline draws the border of r, t px wide.
func outline(img *image.NRGBA, r image.Rectangle, t int, c color.NRGBA) {
	rect(img, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+t), c)
	rect(img, image.Rect(r.Min.X, r.Max.Y-t, r.Max.X, r.Max.Y), c)
	rect(img, image.Rect(r.Min.X, r.Min.Y, r.Min.X+t, r.Max.Y), c)
	rect(img, image.Rect(r.Max.X-t, r.Min.Y, r.Max.X, r.Max.Y), c)
}

// cardTone is one swatch of the card: its name, hex and where it came from.
type cardTone struct {
	name, hex, source string
}

// styleCard draws the card of a saved style named name on base, its
// tones read from photos (each as read at sampleSide, with its regions).
func styleCard(name, baseName string, b Body, tones []cardTone, photos []image.Image, reads []toneRead) *image.NRGBA {
	img := newCanvas(cardW, cardH, cardGround)
	write(img, 32, 52, name, 26, true, cardInk)
	write(img, 32, 80, fmt.Sprintf("Style of %s · %s · %.2f heads tall · shoulders %.2f, waist %.2f, hips %.2f",
		baseName, b.Gender, b.Heads, b.Shoulders, b.Waist, b.Hips), 14, false, cardMuted)
	// The reference photos, the regions read outlined.
	for i := 0; i < min(2, len(photos)); i++ {
		small := imaging.Fit(photos[i], sampleSide, sampleSide, imaging.Box)
		thumb := imaging.Fit(small, 180, 220, imaging.Lanczos)
		s := float64(thumb.Rect.Dx()) / float64(small.Rect.Dx())
		at := image.Pt(32+i*196, 112)
		draw.Draw(img, thumb.Rect.Add(at), thumb, image.Point{}, draw.Src)
		scale := func(r image.Rectangle) image.Rectangle {
			return image.Rect(int(float64(r.Min.X)*s), int(float64(r.Min.Y)*s), int(float64(r.Max.X)*s),
				int(float64(r.Max.Y)*s)).Add(at).Intersect(thumb.Rect.Add(at))
		}
		if !reads[i].hair.Empty() {
			outline(img, scale(reads[i].hair), 2, hairOutline)
		}
		if !reads[i].face.Empty() {
			outline(img, scale(reads[i].face), 2, faceOutline)
		}
	}
	if len(photos) > 0 {
		y := 112 + 220 + 26
		rect(img, image.Rect(32, y-11, 44, y+1), faceOutline)
		write(img, 50, y, "skin read here", 13, false, cardMuted)
		rect(img, image.Rect(170, y-11, 182, y+1), hairOutline)
		write(img, 188, y, "hair read here", 13, false, cardMuted)
		if len(photos) > 2 {
			write(img, 310, y, fmt.Sprintf("+%d more", len(photos)-2), 13, false, cardMuted)
		}
	}
	// The swatches, named with their hex, each in light and shade below.
	for i, t := range tones {
		x, y := 440, 112+i*190
		c := hexColour(t.hex)
		outline(img, image.Rect(x-1, y-1, x+249, y+131), 1, hexColour("#CFCDC8"))
		rect(img, image.Rect(x, y, x+248, y+110), c)
		for k, f := range []float64{-0.18, 0, 0.22} {
			sc := c
			if f < 0 {
				sc = mix(c, color.NRGBA{255, 255, 255, 255}, -f)
			} else if f > 0 {
				sc = darker(c, f)
			}
			rect(img, image.Rect(x+k*83, y+110, x+min(k*83+82, 248), y+130), sc)
		}
		write(img, x, y+154, t.name+"  "+t.hex, 22, true, cardInk)
		write(img, x, y+174, t.source, 13, false, cardMuted)
	}
	return img
}
