// Package photoshoot is the photoshoots family: photoshoot.create (product
// images composited into a set of packshots on a studio colour, framed by a
// marketplace's rules, or on a drawn scene at true scale), photoshoot.upscale
// (shots of one shoot enlarged) and model.create (a saved style of a base
// figure, priced in model credits). It is a deterministic compositor: no
// generative model is used. It ships the library of backgrounds, base
// models, poses and pose presets (SeedLibrary), listed at GET /v1/refs/{kind}.
package photoshoot

import (
	"github.com/taskplatform/taskplatform/tasks"
)

// Family is everything the photoshoots family adds to a registry.
func Family() tasks.Family {
	return tasks.Family{
		Name:     "photoshoot",
		Tasks:    []*tasks.Definition{create(), upscale(), modelCreate()},
		Concepts: concepts(),
		Recipes:  recipes(),
		Records:  recordKinds(),
	}
}

func concepts() []tasks.Concept {
	return []tasks.Concept{
		{
			Name:  "photoshoot",
			Short: "A set of shots of one product made by one photoshoot.create job, kept as a record.",
			Long: "photoshoot:<id> keeps what a shoot used — product images by view, background, marketplace, poses — and " +
				"its images (the job's art: files). photoshoot.upscale takes images of one shoot. Shots are composited by the " +
				"service's own code from your product image: nothing is generated.",
			Related: []string{"background", "pose", "cut_out"},
		},
		{Name: "background", Short: "A backdrop of the library: a studio colour or a drawn scene.",
			Long: "background:<id> is studio (one colour, the product on it with a soft floor shadow) or scene (a drawn " +
				"interior, wall-and-floor set or outdoor view with a horizon; the subject stands on its floor with " +
				"perspective-correct scale and a contact shadow). GET /v1/refs/background lists them with their kind. A shoot " +
				"also takes any studio colour as #RRGGBB.",
			Related: []string{"photoshoot"}},
		{Name: "pose", Short: "A figure's stance and the camera's angle: front, three-quarter, side, back or walking.",
			Long: "pose:<id> is one angle drawn for one gender's figures (woman, man, girl, boy). pose_preset:<id> names " +
				"a set of angles, such as a catalogue's front, back and side. Without a model a pose is the camera angle on the " +
				"product.",
			Related: []string{"photoshoot", "model"}},
		{Name: "model", Short: "A drawn fashion figure's style: a base model or a saved style of one.",
			Long: "model:<id> is a parametric croquis — height in heads, shoulder, waist and hip widths, skin tone, hair " +
				"colour and style — drawn by the service's code. Base models are in the library; model.create derives a saved " +
				"style of a base (skin and hair tones read from reference photos, proportions adjusted within bounds), listed " +
				"at GET /v1/refs/model?base=model:<id>. photoshoot.create makes on-model shots only where the operator " +
				"routes the jobs with a model to an on-model engine (its page says whether); otherwise it refuses model.",
			Related: []string{"pose"}},
	}
}
