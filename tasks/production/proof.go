package production

import (
	"fmt"
	"image"
	"image/png"
	"strings"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/colour"
	"github.com/taskplatform/taskplatform/tasks/pdfsheet"
)

func colourSpaceVocab() tasks.Vocabulary {
	return tasks.Vocabulary{
		Name: "print_colour_space", Description: "The colour space of print.prepare's PDF.", Concept: new("bleed"),
		Values: []tasks.VocabValue{
			{
				Value: "rgb",
				Label: "RGB",
				Description: "The art's sRGB values as they are (DeviceRGB): the print shop's RIP converts them with its own " +
					"profile for its press and inks.",
				ChooseWhen: "the printer takes RGB files (most digital and textile printers do), or you are unsure",
				Default:    true,
			},
			{
				Value: "cmyk",
				Label: "CMYK (ICC profile)",
				Description: "The art converted to DeviceCMYK through the service's CMYK ICC profile (TP_CMYK_PROFILE; " +
					"by default Ghostscript's Artifex CMYK SWOP Profile where Debian's libgs-common is installed), " +
					"relative colorimetric, with the profile embedded as the PDF's output intent. Without a profile, " +
					"by the formula fallback, which the file's data and slug line say: " + cmykFormula +
					" Bright RGB greens, blues and oranges fall outside any press's gamut and print duller.",
				ChooseWhen: "the printer insists on CMYK and will not convert RGB itself",
			},
		},
		Default: new("rgb"),
	}
}

// cmykFormula states pdfsheet.ToCMYK for the docs.
const cmykFormula = "with R, G and B as 0–1, K = 1 − max(R, G, B), C = (1 − R − K) ÷ (1 − K), " +
	"M = (1 − G − K) ÷ (1 − K), Y = (1 − B − K) ÷ (1 − K) (full grey-component replacement: greys and black " +
	"print with black ink only; the most ink anywhere is 200 %)."

// printPDF writes the print file as a PDF a print shop takes: one page of
// the trim plus bleed plus a slug for the crop marks, the art at the
// file's dpi over the bleed box, the media, bleed and trim boxes set, crop
// marks outside the bleed and a slug line in the embedded Go font. It
// answers the page size in points.
func printPDF(art *image.NRGBA, p printSize, in *printInput) ([]byte, float64, float64, error) {
	space := strings.ToUpper(in.ColourSpace)
	press := colour.CurrentPress()
	if in.ColourSpace == "cmyk" {
		space += " " + press.Method()
	}
	slug := fmt.Sprintf("%s | trim %g x %g mm | bleed %g mm | %d dpi | %s",
		in.Image, p.wMM, p.hMM, p.b, p.dpi, space)
	doc := pdfsheet.Print{
		Title:   fmt.Sprintf("Print file %g x %g mm, %g mm bleed, %d dpi (%s)", p.wMM, p.hMM, p.b, p.dpi, in.Image),
		TrimWMM: p.wMM, TrimHMM: p.hMM, BleedMM: p.b, Art: art, CMYK: in.ColourSpace == "cmyk", Slug: slug,
		Press:    press,
		Compress: int(png.BestSpeed),
	}
	data, err := doc.Bytes()
	m := doc.Boxes().Media
	return data, m[2], m[3], err
}
