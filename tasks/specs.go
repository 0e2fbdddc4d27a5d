package tasks

// specTitles are the titles of the spec keys, in SpecKeys order.
var specTitles = map[string]string{
	"input_formats":     "Input formats",
	"input_count":       "Input count",
	"output_format":     "Output format",
	"output_resolution": "Output resolution",
	"aspect_ratios":     "Aspect ratios",
	"outputs_per_job":   "Outputs per job",
	"watermark":         "Watermark",
	"commercial_use":    "Commercial use",
	"content_checks":    "Content checks",
	"reproducibility":   "Reproducibility",
}

// Spec is the spec row of key (one of SpecKeys) with its title and text.
func Spec(key, text string) SpecRow {
	return SpecRow{Key: key, Title: specTitles[key], Text: text}
}

// Terms are the rows every task page ends its specs with: whether outputs
// carry a watermark, who may use them commercially, what the task checks
// in what it is sent and whether the same input gives the same output. A
// family states its terms once and appends Rows to each task's specs.
type Terms struct {
	// CommercialUse says for which inputs the outputs may be used
	// commercially, such as "Allowed for images you hold the rights to.".
	CommercialUse string
	// Reproducibility says whether and how the same input gives the same
	// output.
	Reproducibility string
	// ContentChecks says what the task checks in its inputs; empty reads
	// "None.".
	ContentChecks string
	// Watermark says what mark the outputs carry; empty reads "None.".
	Watermark string
}

// Rows are the terms as spec rows: watermark, commercial_use,
// content_checks and reproducibility, in that order.
func (t Terms) Rows() []SpecRow {
	orNone := func(s string) string {
		if s == "" {
			return "None."
		}
		return s
	}
	return []SpecRow{
		Spec("watermark", orNone(t.Watermark)),
		Spec("commercial_use", t.CommercialUse),
		Spec("content_checks", orNone(t.ContentChecks)),
		Spec("reproducibility", t.Reproducibility),
	}
}
