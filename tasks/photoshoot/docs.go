package photoshoot

import (
	"encoding/json"
	"fmt"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// planLimitation says which plans run the family's tasks.
const planLimitation = "The starter plan does not include photoshoots tasks: a call with a key of a starter-plan account answers 403 permission_denied."

// commonSpecs are the spec rows the family's tasks share: its terms.
func commonSpecs() []tasks.SpecRow {
	return tasks.Terms{
		CommercialUse: "Allowed for product images you hold the rights to; " +
			"the backdrops and figures are the service's own drawings.",
		Reproducibility: "Deterministic: the same input gives the same pixels.",
	}.Rows()
}

func createDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "photoshoot.create turns one product image into a consistent set of catalogue shots. It is a compositor, not a generative model: it cuts the product out of a plain background (the cut-out of image.remove_background), lays it on a studio colour or on one of the library's drawn scenes with a soft shadow on the floor, or dresses it, flat, on one of the library's drawn fashion figures (croquis), once per pose and placement. Nothing is invented: every shot shows your product's own pixels.",
		BuiltFor: []string{
			"A small brand's catalogue and web shop: the same product on the same backdrop from several angles in one call.",
			"Marketplace packshots on white or light grey with a floor shadow.",
			"Flat presentation of a garment on a figure (line sheets, pre-orders) before a real shoot.",
		},
		WhatYouGet: []string{
			"One JPEG per pose and count, in the aspect ratio and long side asked.",
			"Without model: the product on the backdrop, standing on the floor line with a contact shadow (on a studio sweep a wider, softer floor shadow too). A pose is a camera angle: front as photographed; three_quarter and side foreshortened (narrower, the far edge shorter); back mirrored and dimmed, as lit from behind; walking tilted 6°. The tasks see one image of the product, so these angles are drawn from it, not photographed.",
			"With model: the figure drawn in the pose (body proportions, skin tone and hair of the model), the garment laid over its torso as wide as the shoulders (mirrored from behind, foreshortened when turned), on the backdrop with a shadow at its feet.",
			"In a scene the subject stands on the scene's floor with perspective-correct scale: its height grows with the distance of its floor line below the scene's horizon, so a nearer placement is larger.",
			"The record photoshoot:<id> (GET /v1/refs/photoshoot, GET /v1/files/photoshoot:<id>): product, background, model, poses and its images, the art: handles photoshoot.upscale takes.",
			"Each file's data: pose, angle, placement, whether the product was cut out, where it lies (product_box), the floor line and the subject's height.",
		},
		Outputs: tasks.DocsOutputs{
			Count: fmt.Sprintf(
				"Poses (a preset counts its poses; none sent is one front pose) × count_per_pose; at most %d.",
				maxOutputs,
			),
			CountDependsOn: []string{"poses", "count_per_pose"},
			Order: new(
				"Pose by pose as sent (a preset's poses in its order); within a pose, placements centred, nearer, further, off-centre.",
			),
		},
		Specs: append([]tasks.SpecRow{
			{
				Key:   "input_formats",
				Title: "Input formats",
				Text:  "PNG, JPEG, WebP, GIF (first frame) or BMP, 16 to 8192 px a side; a transparent PNG is used as its own cut-out.",
			},
			{Key: "input_count", Title: "Input count", Text: "One product image."},
			{Key: "output_format", Title: "Output format", Text: fmt.Sprintf("JPEG, quality %d, sRGB.", shotQuality)},
			{
				Key:   "output_resolution",
				Title: "Output resolution",
				Text:  "The long side from resolution (1024, 1536 or 2048 px), the other from aspect_ratio.",
			},
			{Key: "aspect_ratios", Title: "Aspect ratios", Text: "1:1, 4:5, 3:4, 2:3, 16:9, 9:16."},
			{
				Key:   "outputs_per_job",
				Title: "Outputs per job",
				Text:  fmt.Sprintf("1 to %d; more answers too_many_outputs at submit.", maxOutputs),
			},
		}, commonSpecs()...),
		Limitations: []string{
			"No generative model: the product is not relit, re-rendered or seen from another side; angles are drawn from the one image.",
			"The cut-out needs a plain, evenly lit background; an image without one is laid down whole, as a print (cut_out false).",
			"Figures are drawn fashion croquis, not photographs of people; a garment is laid flat over the torso, not draped or fitted.",
			"On the black studio sweep the floor shadow barely shows.",
			planLimitation,
		},
		Errors: tasks.ErrorList(
			apierr.FieldNotAccepted,
			apierr.InvalidOption,
			apierr.ImageNotPublic,
			apierr.RequestRefused,
			apierr.TooManyOutputs,
		),
		Related: []tasks.Related{
			{Task: "image.remove_background", Relation: "before"},
			{Task: "model.create", Relation: "before"},
			{Task: "photoshoot.upscale", Relation: "after"},
		},
	}
}

func createExamples() []tasks.Example {
	return []tasks.Example{
		{Name: "catalogue_packshots", Title: "A tote bag on light grey: front, back and side",
			Description: "The tote is cut out of its grey sweep and shot three ways on the library's light grey studio backdrop.",
			Input: json.RawMessage(
				`{"product":"file:example_ps_tote","background":"background:bg_studio_light_grey","poses":["pose_preset:pp_catalogue"],"count_per_pose":1,"resolution":"1024","aspect_ratio":"4:5"}`,
			),
			Files: []tasks.ExampleFile{toteFile}},
		{Name: "loft_scene", Title: "The tote in the loft, near and far",
			Description: "Two placements on the loft's oak floor: the nearer shot shows the bag larger, as perspective asks.",
			Input: json.RawMessage(
				`{"product":"file:example_ps_tote","background":"background:bg_scene_loft","count_per_pose":2}`,
			),
			Files: []tasks.ExampleFile{toteFile}},
		{Name: "dressed_figure", Title: "A T-shirt on Ava, front and back",
			Description: "The coral T-shirt dressed on the base model Ava on a warm studio colour.",
			Input: json.RawMessage(
				`{"product":"file:example_ps_tee","background":"#F3EFE8","model":"model:md_ava","poses":["pose:ps_woman_front","pose:ps_woman_back"],"aspect_ratio":"3:4"}`,
			),
			Files: []tasks.ExampleFile{teeFile}},
	}
}

func modelDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "model.create derives a saved style of one of the library's base models. It is image analysis and drawing, not a generative model: it reads the skin and hair tones of your reference photos (pixels in the skin range of YCbCr, and the hair above the face, each clustered by k-means in CIELAB), applies the proportion changes you ask within fixed bounds, keeps the result as model:<id> with base set, and draws its style card. photoshoot.create then dresses garments on it. It is priced in model credits.",
		BuiltFor: []string{
			"A brand's own house model: its customers' skin and hair tones on a consistent figure across every shoot.",
			"Size-inclusive line sheets: the same base drawn taller, broader or with fuller hips.",
		},
		WhatYouGet: []string{
			"One style card (JPEG): the figure front and back, with its skin and hair swatches.",
			"The record model:<id>, listed at GET /v1/refs/model?base=<its base> from the moment it is accepted (status creating, then ready), found by name with q.",
			"The card's data: the tones and whether each came from the photos or was kept from the base, and the proportions.",
		},
		Outputs: tasks.DocsOutputs{Count: "One style card.", CountDependsOn: []string{}, Order: nil},
		Specs: append([]tasks.SpecRow{
			{
				Key:   "input_formats",
				Title: "Input formats",
				Text:  "PNG, JPEG, WebP, GIF (first frame) or BMP, 16 to 8192 px a side; read at 256 px.",
			},
			{
				Key:   "input_count",
				Title: "Input count",
				Text:  fmt.Sprintf("1 to %d reference photos.", maxReferencePhotos),
			},
			{
				Key:   "output_format",
				Title: "Output format",
				Text:  fmt.Sprintf("JPEG, quality %d, 720 × 560 px.", shotQuality),
			},
			{Key: "outputs_per_job", Title: "Outputs per job", Text: "1."},
		}, commonSpecs()...),
		Limitations: []string{
			"Tones only: faces, features and hair styles are not copied from the photos; the style keeps its base's figure and hair style.",
			"Very dark skin (luma under 60) and skin under coloured light fall outside the skin rule; when no skin or hair is found the base's tone is kept (skin_source or hair_source base).",
			fmt.Sprintf(
				"Height changes by at most %.1f head heights, shoulder, waist and hip half-widths by at most %.2f.",
				maxHeightAdjust,
				maxWidthAdjust,
			),
			planLimitation,
		},
		Errors: tasks.ErrorList(
			apierr.FieldNotAccepted,
			apierr.ImagesRequired,
			apierr.TooManyImages,
			apierr.ImageNotPublic,
			apierr.RequestRefused,
			apierr.NameRequired,
		),
		Related: []tasks.Related{{Task: "photoshoot.create", Relation: "after"}},
	}
}

func modelExamples() []tasks.Example {
	return []tasks.Example{{
		Name: "house_model", Title: "A house style of Ava from a portrait",
		Description: "Skin and hair tones read from one portrait; a little taller, with fuller hips.",
		Input: json.RawMessage(
			`{"name":"Ava, warm brunette","base":"model:md_ava","images":["file:example_ps_portrait"],"adjustments":{"height":0.2,"hips":0.05}}`,
		),
		Files: []tasks.ExampleFile{faceFile},
	}}
}
