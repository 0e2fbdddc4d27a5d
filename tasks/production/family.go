// Package production is the production_prep family: techpack.create (a
// multi-page PDF techpack of a style — cover, fabric card, colourways,
// measurements and bill of materials — drawn from the account's fabric,
// brand kit and range plan records) and print.prepare (a print-ready PNG at
// an exact physical size and resolution, with bleed and its DPI recorded,
// plus a print PDF with trim and bleed boxes and crop marks). Both are
// deterministic layout and image processing; no generative model is used.
package production

import (
	"image/color"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

type obj = map[string]any

// Family is everything the production family adds to a registry.
func Family() tasks.Family {
	return tasks.Family{
		Name:  "production",
		Tasks: []*tasks.Definition{techpack(), printPrepare()},
		Vocabularies: []tasks.Vocabulary{bomUnitVocab(), repeatVocab(), fitVocab(), anchorVocab(),
			colourSpaceVocab()},
		Concepts: []tasks.Concept{
			{
				Name: "techpack",
				Short: "A style's production document: images, fabric, colourways, measurements and bill of materials in one " +
					"PDF.",
				Long: "techpack.create lays a style out for a factory on A4 landscape pages: a cover with the style images, " +
					"a fabric card with the fabric record's facts (weight, composition, construction, code), colourway swatches " +
					"with hex, sRGB and approximate CMYK values, the graded measurement table with tolerances, and the bill of " +
					"materials. The PDF embeds its fonts, so the text can be searched and copied; the file's data repeats the " +
					"figures as JSON.",
				Related: []string{"fabric", "brand_kit", "range_plan"},
			},
			{
				Name:  "bleed",
				Short: "Extra image printed beyond the trim line, so a cut that wanders leaves no white edge.",
				Long: "print.prepare adds bleed_mm on each side of the trim size: the PNG is the trim plus bleed, and the " +
					"print PDF's bleed box is the same size, inside a page with crop marks showing where to cut. Printers commonly " +
					"ask for 3 mm.",
				Related: []string{"output_resolution"},
			},
		},
	}
}

// perOutput prices every output alike.
func perOutput(credits int64) tasks.Pricing {
	return tasks.Pricing{CreditType: contract.CreditService, PerOutput: credits}
}

// fail is a permanent step failure: retrying cannot help.
func fail(msg string) error {
	return &tasks.StepError{Code: contract.ErrTypeProcessing, Message: msg}
}

var (
	ink   = color.RGBA{0x1A, 0x1A, 0x1A, 0xff}
	muted = color.RGBA{0x6B, 0x6B, 0x6B, 0xff}
	rule  = color.RGBA{0xDD, 0xD8, 0xCF, 0xff}
)

// commonSpecs are the spec rows the family's tasks share: its terms.
func commonSpecs() []tasks.SpecRow {
	return tasks.Terms{
		CommercialUse: "Allowed for images and designs you hold the rights to.",
		Reproducibility: "Deterministic layout and image processing, no generative model: " +
			"the same input and records give the same figures and pixels.",
	}.Rows()
}
