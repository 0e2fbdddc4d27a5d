package tasks

// Concept is an idea the catalogue refers to, served at GET /v1/concepts.
type Concept struct {
	Name       string   `json:"name"`
	Short      string   `json:"short"`
	Long       string   `json:"long"`
	Related    []string `json:"related"`
	ProducedBy []string `json:"produced_by"`
	UsedBy     []string `json:"used_by"`
}

// Concepts returns every concept.
func Concepts() []Concept {
	return []Concept{
		{
			Name: "seamless_tile", Short: "An image whose edges continue each other, so copies laid side by side show no seam.",
			Long:    "A seamless tile repeats without a visible join: the pixel after the right edge is the left edge's, the pixel below the bottom is the top's. Tiles can be printed on fabric or paper of any size, or used as backgrounds. pattern.generate draws only seamless tiles; use_case and repeats set how large the motif is within the tile.",
			Related: []string{"output_resolution", "seed", "task_variant"}, ProducedBy: []string{"pattern.generate", "pattern.stripes"}, UsedBy: []string{},
		},
		{
			Name: "colour_harmony", Short: "A set of colours chosen by their places on the colour wheel around a base colour.",
			Long:    "Harmonies (vocabulary colour_scheme) turn one base colour into a palette: complementary pairs opposites, analogous takes neighbours, triadic spaces three colours evenly, monochromatic varies lightness. palette.generate draws each as a sheet whose data lists the colours; send them as colors to pattern.generate.",
			Related: []string{"seamless_tile"}, ProducedBy: []string{"palette.generate"}, UsedBy: []string{"pattern.generate"},
		},
		{
			Name: "seed", Short: "An integer that makes a task's choices repeatable.",
			Long:    "Tasks with a seed are deterministic: the same input with the same seed gives the same bytes. A job of several outputs draws output i with seed + i, so its outputs differ and each can be drawn again alone by sending that seed with count 1.",
			Related: []string{"seamless_tile"}, ProducedBy: []string{}, UsedBy: []string{"pattern.generate", "pattern.stripes"},
		},
		{
			Name: "output_resolution", Short: "The pixel size of a delivered image (vocabulary resolution).",
			Long:    "Raster tasks draw at a resolution from the resolution vocabulary. Larger tiles cost more credits per output; the price list and the estimate give the figures per resolution.",
			Related: []string{"credit_hold", "seamless_tile"}, ProducedBy: []string{}, UsedBy: []string{"pattern.generate", "pattern.stripes"},
		},
		{
			Name: "task_variant", Short: "A field (kind or type) that chooses which other fields a task uses.",
			Long:    "Some tasks do several related things chosen by one field, such as kind in pattern.generate. Fields that only some variants use are marked in the schema; sending one with another variant answers 422 field_not_supported naming it.",
			Related: []string{"seamless_tile"}, ProducedBy: []string{}, UsedBy: []string{"pattern.generate"},
		},
		{
			Name: "credit_hold", Short: "Credits set aside when a job is accepted and settled when it ends.",
			Long:    "Submitting holds the estimate: the price of one output times the outputs planned. When the job ends it is charged only for delivered outputs and the rest is released. A hold the balance cannot cover answers 402 insufficient_credits with required and balance.",
			Related: []string{"job", "output_resolution"}, ProducedBy: []string{}, UsedBy: []string{"pattern.generate", "palette.generate", "pattern.stripes"},
		},
		{
			Name: "job", Short: "One run of a task: queued, running, then terminal with an outcome.",
			Long:    "POST /v1/tasks/{name} starts a job and answers its job_id at once. Follow it by polling GET /v1/jobs/{id}, waiting with Prefer: wait=N, or by webhook. Outputs are delivered one by one (progress.done rises); the result lists the files.",
			Related: []string{"credit_hold", "webhook"}, ProducedBy: []string{"pattern.generate", "palette.generate", "pattern.stripes"}, UsedBy: []string{},
		},
		{
			Name: "webhook", Short: "A signed HTTP callback the service sends for job events.",
			Long:    "Webhooks deliver job events (vocabulary webhook_event) to an https address, signed with Ed25519; verify with the keys at /.well-known/jwks.json and dedupe by the body id. Delivery is at least once, without ordering.",
			Related: []string{"job"}, ProducedBy: []string{}, UsedBy: []string{},
		},
	}
}

// ConceptByName returns one concept.
func ConceptByName(name string) (Concept, bool) {
	for _, c := range Concepts() {
		if c.Name == name {
			return c, true
		}
	}
	return Concept{}, false
}
