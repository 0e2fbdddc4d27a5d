package image

import (
	"image"
	"image/color"
	"math"

	"github.com/disintegration/imaging"
	xdraw "golang.org/x/image/draw"
)

// attention is smartcrop's FindBestCrop (github.com/muesli/smartcrop
// v0.3.0, MIT licence, Christian Muehlhaeuser and others, after Jonas
// Wagner's smartcrop.js) for an image shorter than its prescaling side
// (400 px; the scoring copy is at most attentionSide long): the same
// candidate crops scored alike, the best kept. smartcrop works out its
// edge, skin and saturation maps at every pixel, but its score reads them
// at every 8th pixel of every 8th row only; they are worked out there
// alone, so the crop is the same for a small part of the work.
func attention(img image.Image, width, height int) image.Rectangle {
	in := analysed(img)
	W, H := in.Bounds().Dx(), in.Bounds().Dy()
	scale := math.Min(float64(W)/float64(width), float64(H)/float64(height))
	cropW, cropH := chop(float64(width)*scale), chop(float64(height)*scale)
	realMinScale := math.Min(maxScale, math.Max(1.0/scale, minScale))
	maps := sampleMaps(in)
	var top image.Rectangle
	topScore := -1.0
	for _, c := range candidates(W, H, cropW, cropH, realMinScale) {
		if s := maps.score(c); s > topScore {
			top, topScore = c, s
		}
	}
	return top.Canon()
}

// smartcrop's constants, as far as its default analysis uses them.
const (
	detailWeight            = 0.2
	skinBias                = 0.01
	skinBrightnessMin       = 0.2
	skinBrightnessMax       = 1.0
	skinThreshold           = 0.8
	skinWeight              = 1.8
	saturationBrightnessMin = 0.05
	saturationBrightnessMax = 0.9
	saturationThreshold     = 0.4
	saturationBias          = 0.2
	saturationWeight        = 0.3
	scoreDownSample         = 8
	candidateStep           = 8
	scaleStep               = 0.1
	minScale                = 0.9
	maxScale                = 1.0
	edgeRadius              = 0.4
	edgeWeight              = -20.0
	outsideImportance       = -0.5
)

var skinColour = [3]float64{0.78, 0.57, 0.44}

// analysed is the image smartcrop analyses: it passes every image through
// its resizer at the image's own size (image.crop's gives imaging.Clone's
// copy) and copies that to RGBA. An opaque NRGBA image at the origin has
// the same bytes, so it is read in place.
func analysed(img image.Image) *image.RGBA {
	if m, ok := img.(*image.NRGBA); ok && m.Rect.Min == (image.Point{}) && m.Opaque() {
		return &image.RGBA{Pix: m.Pix, Stride: m.Stride, Rect: m.Rect}
	}
	c := imaging.Clone(img)
	out := image.NewRGBA(c.Bounds())
	xdraw.Copy(out, image.Point{}, c, c.Bounds(), xdraw.Src, nil)
	return out
}

// sampled is smartcrop's analysis at the points its score reads: skin
// (red), edges (green) and saturation (blue), every scoreDownSample
// pixels across and down from the corner.
type sampled struct {
	w, h   int // the image's size
	cols   int // sample points a row
	points []color.RGBA
}

func sampleMaps(in *image.RGBA) sampled {
	W, H := in.Bounds().Dx(), in.Bounds().Dy()
	s := sampled{w: W, h: H}
	for y := 0; y <= H-scoreDownSample; y += scoreDownSample {
		s.cols = 0
		for x := 0; x <= W-scoreDownSample; x += scoreDownSample {
			s.points = append(s.points, analysePoint(in, x, y))
			s.cols++
		}
	}
	return s
}

// analysePoint is smartcrop's output map at (x, y), which it indexes from
// 0 whatever the image's bounds: zero outside them.
func analysePoint(in *image.RGBA, x, y int) color.RGBA {
	if !image.Pt(x, y).In(in.Bounds()) {
		return color.RGBA{}
	}
	W, H := in.Bounds().Dx(), in.Bounds().Dy()
	cieAt := func(x, y int) float64 { return cie(in.RGBAAt(x, y)) }
	var lightness float64
	if !(x == 0 || x >= W-1 || y == 0 || y >= H-1) {
		lightness = cieAt(x, y)*4.0 - cieAt(x, y-1) - cieAt(x-1, y) - cieAt(x+1, y) - cieAt(x, y+1)
	}
	out := color.RGBA{G: uint8(bounds(lightness)), A: 255}
	c := in.RGBAAt(x, y)
	light := cie(c) / 255.0
	if skin := skinCol(c); skin > skinThreshold && light >= skinBrightnessMin && light <= skinBrightnessMax {
		out.R = uint8(bounds((skin - skinThreshold) * (255.0 / (1.0 - skinThreshold))))
	}
	if sat := saturation(c); sat > saturationThreshold && light >= saturationBrightnessMin &&
		light <= saturationBrightnessMax {
		out.B = uint8(bounds((sat - saturationThreshold) * (255.0 / (1.0 - saturationThreshold))))
	}
	return out
}

// score is smartcrop's total score of crop c.
func (s sampled) score(c image.Rectangle) float64 {
	var skin, detail, sat float64
	for i, p := range s.points {
		x, y := scoreDownSample*(i%s.cols), scoreDownSample*(i/s.cols)
		r8, g8, b8 := float64(p.R), float64(p.G), float64(p.B)
		imp := importance(c, x, y)
		det := g8 / 255.0
		skin += r8 / 255.0 * (det + skinBias) * imp
		detail += det * imp
		sat += b8 / 255.0 * (det + saturationBias) * imp
	}
	return (detail*detailWeight + skin*skinWeight + sat*saturationWeight) / float64(c.Dx()) / float64(c.Dy())
}

// candidates are smartcrop's crops of a W × H image.
func candidates(W, H int, cropWidth, cropHeight, realMinScale float64) []image.Rectangle {
	minDimension := math.Min(float64(W), float64(H))
	cropW, cropH := cropWidth, cropHeight
	if cropW == 0 {
		cropW = minDimension
	}
	if cropH == 0 {
		cropH = minDimension
	}
	var out []image.Rectangle
	for scale := maxScale; scale >= realMinScale; scale -= scaleStep {
		for y := 0; float64(y)+cropH*scale <= float64(H); y += candidateStep {
			for x := 0; float64(x)+cropW*scale <= float64(W); x += candidateStep {
				out = append(out, image.Rect(x, y, x+int(cropW*scale), y+int(cropH*scale)))
			}
		}
	}
	return out
}

func importance(c image.Rectangle, x, y int) float64 {
	if c.Min.X > x || x >= c.Max.X || c.Min.Y > y || y >= c.Max.Y {
		return outsideImportance
	}
	xf := float64(x-c.Min.X) / float64(c.Dx())
	yf := float64(y-c.Min.Y) / float64(c.Dy())
	px, py := math.Abs(0.5-xf)*2.0, math.Abs(0.5-yf)*2.0
	dx, dy := math.Max(px-1.0+edgeRadius, 0.0), math.Max(py-1.0+edgeRadius, 0.0)
	d := (dx*dx + dy*dy) * edgeWeight
	s := 1.41 - math.Sqrt(px*px+py*py)
	s += (math.Max(0.0, s+d+0.5) * 1.2) * (thirds(px) + thirds(py))
	return s + d
}

func thirds(x float64) float64 {
	x = (math.Mod(x-(1.0/3.0)+1.0, 2.0)*0.5 - 0.5) * 16.0
	return math.Max(1.0-x*x, 0.0)
}

func chop(x float64) float64 {
	if x < 0 {
		return math.Ceil(x)
	}
	return math.Floor(x)
}

func bounds(l float64) float64 { return math.Min(math.Max(l, 0.0), 255) }

func cie(c color.RGBA) float64 {
	return 0.5126*float64(c.B) + 0.7152*float64(c.G) + 0.0722*float64(c.R)
}

func skinCol(c color.RGBA) float64 {
	r8, g8, b8 := float64(c.R), float64(c.G), float64(c.B)
	mag := math.Sqrt(r8*r8 + g8*g8 + b8*b8)
	rd, gd, bd := r8/mag-skinColour[0], g8/mag-skinColour[1], b8/mag-skinColour[2]
	return 1.0 - math.Sqrt(rd*rd+gd*gd+bd*bd)
}

func saturation(c color.RGBA) float64 {
	cMax, cMin := max(c.R, c.G, c.B), min(c.R, c.G, c.B)
	if cMax == cMin {
		return 0
	}
	maximum, minimum := float64(cMax)/255.0, float64(cMin)/255.0
	l, d := (maximum+minimum)/2.0, maximum-minimum
	if l > 0.5 {
		return d / (2.0 - maximum - minimum)
	}
	return d / (maximum + minimum)
}
