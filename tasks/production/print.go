package production

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"

	"github.com/disintegration/imaging"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/pngenc"
	"github.com/taskplatform/taskplatform/tasks/resample"
)

// maxPrintPixels is the pixel budget of print.prepare: the most pixels one
// print file has, bleed included — a 160 cm fabric width at 150 dpi runs
// to 86 cm a file — so a step stays within tasks.StepMemoryBytes. It is
// checked at submit (request_refused) and documented from here.
const maxPrintPixels = 48_000_000

// The bounds of a print's fields.
const (
	minDPI, maxDPI = 72, 600
	minSideMM      = 10
	maxSideMM      = 2000
	maxBleedMM     = 25
)

func repeatVocab() tasks.Vocabulary {
	return tasks.Vocabulary{
		Name: "print_repeat", Description: "How print.prepare fills the print with the image.", Concept: new("bleed"),
		Values: []tasks.VocabValue{
			{
				Value: "none",
				Label: "One artwork",
				Description: "The image is one artwork, scaled (Lanczos) onto the print as fit says: whole inside the trim " +
					"(contain, the default) or covering the print and cut at the trim (cover).",
				ChooseWhen: "the image is one artwork: a poster, a card, a placement print",
				Default:    true,
			},
			{
				Value: "tile",
				Label: "Tile",
				Description: "The image repeated at its own pixel size, one pixel per printed dot, from the trim's top-left " +
					"corner outward into the bleed.",
				ChooseWhen: "the image is a repeat tile (pattern.generate) to print by the metre or sheet",
			},
		},
		Default: new("none"),
	}
}

// printSize is the pixel geometry of a print.
type printSize struct {
	trimW, trimH int // round(mm × dpi / 25.4)
	bleed        int // round(bleed_mm × dpi / 25.4), added on each side
	dpi          int
	wMM, hMM, b  float64
}

// px converts millimetres at dpi to whole pixels.
func px(mm float64, dpi int) int { return int(math.Round(mm * float64(dpi) / 25.4)) }

func sizeOf(in *printInput) printSize {
	dpi := in.DPI
	w, h, b := in.WidthMM, in.HeightMM, in.BleedMM
	return printSize{trimW: px(w, dpi), trimH: px(h, dpi), bleed: px(b, dpi), dpi: dpi, wMM: w, hMM: h, b: b}
}

// W and H are the file's size, bleed included.
func (p printSize) W() int { return p.trimW + 2*p.bleed }

// H is the file's height, bleed included.
func (p printSize) H() int { return p.trimH + 2*p.bleed }

func (p printSize) pixels() int { return p.W() * p.H() }

func printPrepare() *tasks.Definition {
	return &tasks.Definition{
		Name: "print.prepare", Title: "Prepare a file for print",
		Description: "Makes a print-ready PNG at an exact physical size and DPI, with bleed and the DPI recorded in the " +
			"file, plus a print PDF at the same resolution with its trim and bleed boxes, crop marks and an embedded font, " +
			"in RGB or CMYK.",
		Category: tasks.CategoryProductionPrep, Unit: "file", AddedOn: "2026-11-22",
		InputSchema: tasks.MustJSON(tasks.InputSchema[printInput](
			"print.prepare input",
			"An image and the physical size, resolution and bleed to print it at.",
			nil,
		)),
		OutputSchema: printOutput(),
		Runner:       tasks.Typed[printInput](printRunner{}),
		Pricing:      perOutput(2),
		RefSides:     map[string]tasks.ImageSides{"image": inputSides},
		Refuse:       tasks.Refusal(refusePrint),
		ErrorRules: []tasks.ErrorRule{
			{Field: "background", Keyword: "pattern", Code: apierr.InvalidColour},
			{Field: "background", Keyword: "type", Code: apierr.InvalidColour},
		},
		Docs:     printDocs(),
		Examples: printExamples(),
		Produces: []string{"bleed", "job"},
		Uses:     []string{"output_resolution", "credit_hold"},
	}
}

// megapixels writes a pixel count as megapixels: 48 MP.
func megapixels(n int) string { return fmt.Sprintf("%g MP", float64(n)/1e6) }

// refusePrint refuses a print over the pixel budget, naming dpi with the
// highest resolution that fits: every size the schema takes fits at the
// lowest dpi (2000 × 2000 mm with 25 mm bleed at 72 dpi is 33 MP).
func refusePrint(in *printInput, sizes map[string]tasks.ImageSize) *apierr.Error {
	p := sizeOf(in)
	if p.pixels() <= maxPrintPixels {
		if sz, ok := sizes["image"]; ok && sz.Width > 0 && sz.Height > 0 {
			return place(sz.Width, sz.Height, p, in.Fit, in.Repeat).refusal(sz.Width, sz.Height, p)
		}
		return nil
	}
	fits := minDPI
	for d := p.dpi - 1; d > minDPI; d-- {
		q := printSize{trimW: px(p.wMM, d), trimH: px(p.hMM, d), bleed: px(p.b, d)}
		if q.pixels() <= maxPrintPixels {
			fits = d
			break
		}
	}
	return apierr.New(apierr.RequestRefused, fmt.Sprintf("%g × %g mm with %g mm bleed at %d dpi is %d × %d px (%.1f MP); "+
		"print.prepare makes files of at most %s (a 160 cm fabric width at 150 dpi runs to 86 cm). "+
		"Send dpi %d or less%s, or a smaller size.",
		p.wMM, p.hMM, p.b, p.dpi, p.W(), p.H(), float64(p.pixels())/1e6, megapixels(maxPrintPixels), fits, longest(p)),
	).
		WithField("dpi")
}

// longest says how long a print of p's width and dpi may be, for the
// refusal, or nothing when not even the smallest side fits.
func longest(p printSize) string {
	rows := maxPrintPixels/p.W() - 2*p.bleed
	if rows < 1 {
		return ""
	}
	mm := math.Floor(float64(rows) * 25.4 / float64(p.dpi))
	if mm < minSideMM {
		return ""
	}
	return fmt.Sprintf(", height_mm %g or less at this width and dpi (print a longer length as panels)", mm)
}

// printRunner makes the print PNG and the print PDF.
type printRunner struct{}

// Plan asks for the PNG and the PDF.
func (printRunner) Plan(*printInput) tasks.Plan {
	return tasks.Plan{Steps: 2, Phase: "preparing the print file"}
}

// Step renders the PNG (0) or the PDF (1).
func (printRunner) Step(ctx context.Context, in *printInput, i int) (tasks.Output, error) {
	p := sizeOf(in)
	if p.pixels() > maxPrintPixels {
		return tasks.Output{}, fail(refusePrint(in, nil).Message)
	}
	ref := tasks.Ref{Field: "image", Ref: in.Image}
	src, err := loadImage(ctx, ref)
	if err != nil {
		return tasks.Output{}, err
	}
	repeat, fit, anchor, bg := in.Repeat, in.Fit, in.Anchor, in.Background
	b := src.Bounds()
	pl := place(b.Dx(), b.Dy(), p, fit, repeat)
	if e := pl.refusal(b.Dx(), b.Dy(), p); e != nil {
		return tasks.Output{}, fail(e.Message)
	}
	art := render(src, p, repeat, fit, anchor, color.NRGBAModel.Convert(tasks.ParseColour(bg)).(color.NRGBA))
	defer resample.Release(art) // encoded below, then read no more
	meta := obj{
		"index":          i,
		"image":          ref.Ref,
		"dpi":            p.dpi,
		"width_px":       p.W(),
		"height_px":      p.H(),
		"trim_width_px":  p.trimW,
		"trim_height_px": p.trimH,
		"bleed_px":       p.bleed,
		"width_mm":       p.wMM,
		"height_mm":      p.hMM,
		"bleed_mm":       p.b,
		"repeat":         repeat,
		"source_width":   b.Dx(),
		"source_height":  b.Dy(),
		"scale":          round2(pl.scale),
		"fit":            fit,
		"anchor":         anchor,
		"background":     strings.ToUpper(bg),
		"effective_dpi": math.Round(
			pl.effectiveDPI,
		),
		"cut_width_percent":  round2(pl.cutW),
		"cut_height_percent": round2(pl.cutH),
	}
	var warnings []contract.Warning
	if i == 0 {
		warnings = pl.warnings(p) // once per job, on the print file
	}
	switch i {
	case 0:
		data, err := encodePrintPNG(art, p.dpi)
		if err != nil {
			return tasks.Output{}, err
		}
		meta["format"] = "png"
		return tasks.Output{Data: data, MediaType: "image/png", Ext: "png", Meta: meta, Warnings: warnings}, nil
	case 1:
		data, w, h, err := printPDF(art, p, in)
		if err != nil {
			return tasks.Output{}, err
		}
		meta["format"] = "pdf"
		meta["page_width_pt"], meta["page_height_pt"] = round2(w), round2(h)
		meta["colour_space"] = in.ColourSpace
		if in.ColourSpace == "cmyk" {
			press := colour.CurrentPress()
			meta["cmyk_conversion"] = press.Method()
			if press.Profiled() {
				meta["output_intent"] = press.ProfileName()
			}
		}
		return tasks.Output{Data: data, MediaType: "application/pdf", Ext: "pdf", Meta: meta}, nil
	}
	return tasks.Output{}, fmt.Errorf("print.prepare: no output %d", i)
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// render makes the print's pixels, opaque: one artwork placed as fit
// says (renderOne), or the image tiled from the trim's top-left corner.
func render(src image.Image, p printSize, repeat, fit, anchor string, bg color.NRGBA) *image.NRGBA {
	if repeat != "tile" {
		return renderOne(src, p, fit, anchor, bg)
	}
	out := imaging.New(p.W(), p.H(), bg)
	tile := imaging.Clone(src)
	tw, th := tile.Bounds().Dx(), tile.Bounds().Dy()
	x0 := p.bleed - int(math.Ceil(float64(p.bleed)/float64(tw)))*tw
	y0 := p.bleed - int(math.Ceil(float64(p.bleed)/float64(th)))*th
	for y := y0; y < p.H(); y += th {
		for x := x0; x < p.W(); x += tw {
			over(out, image.Rect(x, y, x+tw, y+th), tile, image.Point{})
		}
	}
	return out
}

// withDefault is schema s with a default value.
func withDefault(s map[string]any, v any) map[string]any {
	s["default"] = v
	return s
}

// encodePrintPNG writes img as PNG with a pHYs chunk giving dpi in pixels
// per metre.
func encodePrintPNG(img image.Image, dpi int) ([]byte, error) {
	var buf bytes.Buffer
	if err := pngEncoder.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encode png: %w", err)
	}
	return pngenc.WithDPI(buf.Bytes(), dpi)
}
