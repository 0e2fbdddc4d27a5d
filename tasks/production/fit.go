package production

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/resample"
)

// minEffectiveShare is the refusal limit of print.prepare: an artwork that
// would print at less than this share of the asked dpi (enlarged more than
// 3×) is refused rather than printed blurred.
const minEffectiveShare = 1.0 / 3

func fitVocab() tasks.Vocabulary {
	return tasks.Vocabulary{
		Name: "print_fit", Description: "How print.prepare sizes one artwork (repeat none) on the print.", Concept: new(
			"bleed"),
		Values: []tasks.VocabValue{
			{
				Value: "contain",
				Label: "Fit inside the trim",
				Description: "The whole artwork scaled (Lanczos) to fit inside the trim and placed at the anchor; the rest of " +
					"the trim is the background colour, and the bleed repeats the trim's edge pixels outward. Nothing of the " +
					"artwork is cut.",
				ChooseWhen: "the artwork must print whole: a poster with text near its edges, a logo, a label",
				Default:    true,
			},
			{
				Value: "cover",
				Label: "Cover and crop",
				Description: "The artwork scaled to cover the whole print, bleed included, placed at the anchor; what falls " +
					"outside the trim is cut, and the warning artwork_cropped says how much of its width and height.",
				ChooseWhen: "the artwork is a photo or texture with no edge detail to lose, and the print must be filled edge " +
					"to edge",
			},
		},
		Default: new("contain"),
	}
}

// anchors are the places an artwork can be put at, as fractions of the
// free room (x, y) and the imaging anchor of the same place.
var anchors = []struct {
	value, label string
	x, y         float64
	im           imaging.Anchor
}{
	{"center", "Centre", 0.5, 0.5, imaging.Center},
	{"top", "Top", 0.5, 0, imaging.Top},
	{"bottom", "Bottom", 0.5, 1, imaging.Bottom},
	{"left", "Left", 0, 0.5, imaging.Left},
	{"right", "Right", 1, 0.5, imaging.Right},
	{"top_left", "Top left", 0, 0, imaging.TopLeft},
	{"top_right", "Top right", 1, 0, imaging.TopRight},
	{"bottom_left", "Bottom left", 0, 1, imaging.BottomLeft},
	{"bottom_right", "Bottom right", 1, 1, imaging.BottomRight},
}

func anchorVocab() tasks.Vocabulary {
	values := make([]tasks.VocabValue, len(anchors))
	for i, a := range anchors {
		values[i] = tasks.VocabValue{Value: a.value, Label: a.label,
			Description: fmt.Sprintf(
				"The artwork is placed at the %s of the print: with fit contain, the padding goes to the other side; with fit "+
					"cover, the cut is taken from the other side.",
				a.label,
			),
			ChooseWhen: fmt.Sprintf(
				"the part of the artwork to keep (cover) or the place to put it (contain) is the %s",
				a.label,
			), Default: a.value == "center"}
	}
	return tasks.Vocabulary{Name: "print_anchor", Description: "Where print.prepare places the artwork on the print.",
		Concept: new("bleed"), Values: values, Default: new("center")}
}

func anchorOf(v string) (x, y float64, im imaging.Anchor) {
	for _, a := range anchors {
		if a.value == v {
			return a.x, a.y, a.im
		}
	}
	return 0.5, 0.5, imaging.Center
}

// placement is how an artwork of srcW × srcH px lands on a print.
type placement struct {
	scale        float64 // print pixels per artwork pixel
	effectiveDPI float64 // the artwork's own pixels per printed inch
	cutW, cutH   float64 // percent of the artwork's width and height outside the trim
}

// place works out the placement of a srcW × srcH artwork on p with fit.
func place(srcW, srcH int, p printSize, fit, repeat string) placement {
	if repeat == "tile" {
		return placement{scale: 1, effectiveDPI: float64(p.dpi)}
	}
	sw, sh := float64(srcW), float64(srcH)
	if fit == "cover" {
		s := math.Max(float64(p.W())/sw, float64(p.H())/sh)
		cut := func(trim int, side float64) float64 { return math.Max(0, 100*(1-float64(trim)/(side*s))) }
		return placement{scale: s, effectiveDPI: float64(p.dpi) / s, cutW: cut(p.trimW, sw), cutH: cut(p.trimH, sh)}
	}
	s := math.Min(float64(p.trimW)/sw, float64(p.trimH)/sh)
	return placement{scale: s, effectiveDPI: float64(p.dpi) / s}
}

// lowResolution is the refusal of an artwork enlarged past the limit, or
// nil.
func (pl placement) refusal(srcW, srcH int, p printSize) *apierr.Error {
	if pl.effectiveDPI >= float64(p.dpi)*minEffectiveShare {
		return nil
	}
	needW := int(math.Ceil(float64(srcW) * pl.scale * minEffectiveShare))
	needH := int(math.Ceil(float64(srcH) * pl.scale * minEffectiveShare))
	return apierr.New(apierr.RequestRefused, fmt.Sprintf("The image is %d × %d px: at %g × %g mm it would print at "+
		"%.0f dpi effective, "+
		"less than a third of the asked %d dpi (enlarged %.1f×). Send an image of at least %d × %d px, ask for %.0f dpi "+
		"or less, or a smaller size.",
		srcW, srcH, p.wMM, p.hMM, pl.effectiveDPI, p.dpi, pl.scale, needW, needH, math.Floor(
			pl.effectiveDPI/minEffectiveShare)),
	).
		WithField("image")
}

// warnings are the low_resolution and artwork_cropped warnings of a
// placement.
func (pl placement) warnings(p printSize) []contract.Warning {
	var out []contract.Warning
	field := "image"
	if math.Round(pl.effectiveDPI) < float64(p.dpi) {
		out = append(out, contract.Warning{Code: string(apierr.LowResolution), Field: &field, Message: fmt.Sprintf(
			"The image was enlarged %.2f× and prints at %.0f dpi effective, not the %d dpi of the file: it will look softer. "+
				"Send a larger image for full sharpness.",
			pl.scale,
			pl.effectiveDPI,
			p.dpi,
		)})
	}
	if pl.cutW > 0.05 || pl.cutH > 0.05 {
		f := "fit"
		out = append(out, contract.Warning{Code: string(apierr.ArtworkCropped), Field: &f, Message: fmt.Sprintf(
			"fit cover cut %.1f %% of the artwork's width and %.1f %% of its height at the trim (more is in the bleed, cut "+
				"off when trimmed). "+
				"Use fit contain to keep all of it.",
			pl.cutW,
			pl.cutH,
		)})
	}
	return out
}

// renderOne draws one artwork on the print: fitted inside the trim on the
// background, the bleed repeating the trim's edge (contain), or covering
// the whole file at the anchor (cover). Transparent parts show background.
func renderOne(src image.Image, p printSize, fit, anchor string, bg color.NRGBA) *image.NRGBA {
	ax, ay, im := anchorOf(anchor)
	if fit == "cover" {
		filled := resample.Fill(src, p.W(), p.H(), im, imaging.Lanczos)
		if o, ok := src.(interface{ Opaque() bool }); ok && o.Opaque() {
			return filled // an opaque image scales to an opaque one
		}
		out := imaging.New(p.W(), p.H(), bg)
		over(out, out.Bounds(), filled, image.Point{})
		resample.Release(filled)
		return out
	}
	b := src.Bounds()
	pl := place(b.Dx(), b.Dy(), p, fit, "none")
	aw := min(p.trimW, max(1, int(math.Round(float64(b.Dx())*pl.scale))))
	ah := min(p.trimH, max(1, int(math.Round(float64(b.Dy())*pl.scale))))
	art := resample.Resize(src, aw, ah, imaging.Lanczos)
	defer resample.Release(art)
	out := imaging.New(p.W(), p.H(), bg)
	x := p.bleed + int(math.Round(float64(p.trimW-aw)*ax))
	y := p.bleed + int(math.Round(float64(p.trimH-ah)*ay))
	over(out, image.Rect(x, y, x+aw, y+ah), art, image.Point{})
	extendBleed(out, p)
	return out
}

// extendBleed fills the bleed of img by repeating the trim's edge pixels
// outward, so a cut that wanders shows the artwork's edge, not a line.
func extendBleed(img *image.NRGBA, p printSize) {
	if p.bleed == 0 {
		return
	}
	b0, b1 := p.bleed, p.bleed+p.trimW-1
	for y := p.bleed; y < p.bleed+p.trimH; y++ {
		row := img.Pix[y*img.Stride:]
		left, right := row[4*b0:4*b0+4], row[4*b1:4*b1+4]
		for x := 0; x < b0; x++ {
			copy(row[4*x:], left)
		}
		for x := b1 + 1; x < p.W(); x++ {
			copy(row[4*x:], right)
		}
	}
	top, bottom := img.Pix[p.bleed*img.Stride:][:img.Stride], img.Pix[(p.bleed+p.trimH-1)*img.Stride:][:img.Stride]
	for y := 0; y < p.bleed; y++ {
		copy(img.Pix[y*img.Stride:], top)
		copy(img.Pix[(p.H()-1-y)*img.Stride:], bottom)
	}
}
