package photoshoot

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// planLimitation says which plans run the family's tasks.
const planLimitation = "The starter plan does not include photoshoots tasks: a call with a key of a starter-plan " +
	"account answers 403 permission_denied."

// commonSpecs are the spec rows the family's tasks share: its terms.
func commonSpecs() []tasks.SpecRow {
	return tasks.Terms{
		CommercialUse: "Allowed for product images you hold the rights to; " +
			"the backdrops and figures are the service's own drawings.",
		Reproducibility: "Deterministic: the same input gives the same pixels.",
	}.Rows()
}

func createDocs() tasks.Docs {
	var rules []string
	for _, m := range marketplaces {
		rules = append(rules, m.rules)
	}
	return tasks.Docs{
		Lead: "photoshoot.create turns product photographs into a consistent set of packshots. It is a compositor, not a " +
			"generative model: it cuts each product image out of its plain background (the cut-out of " +
			"image.remove_background; a transparent PNG is its own cut-out), makes the product opaque inside its outline, " +
			"and lays it on a studio colour — framed by Amazon's, Zalando's or Shopify's published rules when marketplace " +
			"asks — or stands it at its real size on the floor of one of the library's drawn scenes, with one soft contact " +
			"shadow cast from its own silhouette. It makes no on-model shots itself: model is refused unless the operator " +
			"routes the jobs with a model to an on-model engine (TP_ENGINES, a route with when: model), which the " +
			"limitations below then name. Every view is a photograph you sent: a back is never the front mirrored.",
		BuiltFor: []string{
			"Marketplace main images: Amazon (pure white, 85 % fill, 2000 px square), Zalando (1801 × 2600 on white) and " +
				"Shopify (2048 px square) in one call.",
			"A small brand's catalogue: the same product from each side you photographed, framed the same way on the same " +
				"backdrop.",
			"Lifestyle placements on drawn scenes, the product at its true size for its height in centimetres.",
		},
		WhatYouGet: []string{
			"One JPEG per pose and count: with marketplace, the marketplace's size with the product centred at its fill (the " +
				"larger of its width and height shares of the frame); otherwise the resolution and aspect ratio asked, the " +
				"product standing on a floor line.",
			"One soft contact shadow, darkest where the product touches the floor and fading where it lifts (a sneaker's " +
				"toe), within 3 % of the product's width beside it and 5 % under it, so product and shadow together stay inside " +
				"a marketplace's frame; with reflection, a faint mirror image on a glossy studio floor. Pure white stays " +
				"exactly #FFFFFF away from the product and its shadow.",
			"Views: front and walking (the front tilted 6°) show product; back, side and three_quarter show product_back, " +
				"product_side and product_three_quarter. A pose whose view has no image is refused before anything is charged.",
			"In a scene the product stands on the floor in perspective, at its real height (product_height_cm): the camera " +
				"stands 35 to 160 cm above the floor, the planks and tiles are drawn at their real size for it, and a nearer " +
				"placement is larger.",
			"The record photoshoot:<id> (GET /v1/refs/photoshoot, GET /v1/files/photoshoot:<id>): the product images by " +
				"view, background, marketplace, poses and its images, the art: handles photoshoot.upscale takes.",
			"Each file's data: pose, angle, the product image shown, placement, marketplace and fill, whether the product " +
				"was cut out, where it lies (product_box), the floor line and its height.",
			"The marketplaces' published rules and what each preset makes: " + strings.Join(rules, " "),
		},
		Outputs: tasks.DocsOutputs{
			Count: fmt.Sprintf(
				"Poses (a preset counts its poses; none sent is one front pose) × count_per_pose (1 with a marketplace); at "+
					"most %d.",
				maxOutputs,
			),
			CountDependsOn: []string{"poses", "count_per_pose"},
			Order: new(
				"Pose by pose as sent (a preset's poses in its order); within a pose, placements centred, nearer, further, " +
					"off-centre.",
			),
		},
		Specs: append([]tasks.SpecRow{
			{
				Key:   "input_formats",
				Title: "Input formats",
				Text: "PNG, JPEG, WebP, GIF (first frame) or BMP, 16 to 8192 px a side; a transparent PNG is used as its own " +
					"cut-out.",
			},
			{Key: "input_count", Title: "Input count", Text: "One product image per view: front (product), back, side and " +
				"three-quarter."},
			{Key: "output_format", Title: "Output format", Text: fmt.Sprintf("JPEG, quality %d, sRGB.", shotQuality)},
			{
				Key:   "output_resolution",
				Title: "Output resolution",
				Text: "With marketplace: Amazon 2000 × 2000, Zalando 1801 × 2600, Shopify 2048 × 2048 px. Otherwise the long " +
					"side from resolution (1024, 1536 or 2048 px), the other from aspect_ratio.",
			},
			{Key: "aspect_ratios", Title: "Aspect ratios", Text: "1:1, 4:5, 3:4, 2:3, 16:9, 9:16; a marketplace's own."},
			{
				Key:   "outputs_per_job",
				Title: "Outputs per job",
				Text:  fmt.Sprintf("1 to %d; more answers too_many_outputs at submit.", maxOutputs),
			},
		}, commonSpecs()...),
		Limitations: []string{
			"No generative model: the product is not relit or re-rendered, and no view is invented; a pose whose view has no " +
				"photograph (product_back, product_side, product_three_quarter) is refused with request_refused.",
			"No on-model shots of its own: model is refused with request_refused unless the operator routes the jobs " +
				"with a model to an on-model engine (docs/engines/onmodel.yaml); where one does, a limitation below names " +
				"it. Without one, send a photograph of the garment worn as product.",
			"The cut-out needs a plain, evenly lit background (a confidence of 0.8, as image.remove_background); without a " +
				"marketplace preset an image without one is laid down whole, as a print (cut_out false); with a marketplace " +
				"preset a stored product image (a file: handle) that clearly cannot be cut out — its border's confidence " +
				"under 0.75 on a copy 256 px long, or nothing against its backdrop — is refused at submit with " +
				"request_refused naming the image and the reason (no job, nothing held; an estimate refuses it too); one " +
				"nearer the threshold, or sent as a URL, gives no shot, is not charged, and the summary carries " +
				"output_not_produced with the reason. A see-through body (glass) is laid down opaque, as photographed on " +
				"its backdrop (image.remove_background gives it its alpha instead). A part in the backdrop's own colour " +
				"with no seam around it is cut away with the backdrop: send such " +
				"products as a transparent PNG.",
			"A scene needs product_height_cm; without it a scene is refused. A product much smaller than 35 cm is small in a " +
				"scene, as it would be in a photograph of the room.",
			"Marketplace presets frame packshots on a studio colour only; Amazon and Zalando take only #FFFFFF, Amazon no " +
				"reflection. JPEG blocks within 16 px of the product's edge may be off pure white by a level or two, as in any " +
				"JPEG.",
			"On the black studio sweep the contact shadow barely shows.",
			planLimitation,
		},
		Errors: tasks.ErrorList(
			apierr.FieldNotAccepted,
			apierr.FieldNotSupported,
			apierr.InvalidOption,
			apierr.ImageNotPublic,
			apierr.RequestRefused,
			apierr.TooManyOutputs,
		),
		Related: []tasks.Related{
			{Task: "image.remove_background", Relation: "before"},
			{Task: "photoshoot.upscale", Relation: "after"},
		},
	}
}

func createExamples() []tasks.Example {
	return []tasks.Example{
		{Name: "amazon_main", Title: "A tote bag as Amazon's main image",
			Description: "The tote is cut out of its grey sweep and framed on pure white #FFFFFF, 2000 × 2000 px, filling 87 " +
				"% of the frame, with one soft contact shadow.",
			Input: json.RawMessage(`{"product":"file:example_ps_tote","marketplace":"amazon"}`),
			Files: []tasks.ExampleFile{toteFile}},
		{Name: "catalogue_views", Title: "The tote from the front, back and side",
			Description: "Three photographs of the tote, one per view, shot the same way on the library's light grey studio " +
				"backdrop with a reflection.",
			Input: json.RawMessage(
				`{"product":"file:example_ps_tote","product_back":"file:example_ps_tote_back",` +
					`"product_side":"file:example_ps_tote_side","background":"background:bg_studio_light_grey",` +
					`"poses":["pose_preset:pp_catalogue"],"reflection":true,"resolution":"1024","aspect_ratio":"4:5"}`,
			),
			Files: []tasks.ExampleFile{toteFile, toteBackFile, toteSideFile}},
		{Name: "loft_scene", Title: "The tote in the loft, near and far",
			Description: "The 38 cm tote stands on the loft's oak floor at its real size; the nearer placement is larger, as " +
				"perspective asks.",
			Input: json.RawMessage(
				`{"product":"file:example_ps_tote","background":"background:bg_scene_loft","product_height_cm":38,` +
					`"count_per_pose":2}`,
			),
			Files: []tasks.ExampleFile{toteFile}},
	}
}

func modelDocs() tasks.Docs {
	return tasks.Docs{
		Lead: "model.create derives a saved style of one of the library's base models. It is image analysis, not a " +
			"generative model: it finds the face in each reference photo — skin-hued pixels in CIELAB, away from the " +
			"photo's backdrop (the border's colour, followed across a graded wall), the region around a skin tone " +
			"(the likeliest near the photo's middle first, then the commonest anywhere, until one holds two eyes and a " +
			"mouth) — and refuses a photo that shows none. It reads the skin as the median of the face's cheeks and " +
			"nose without highlights and shadows, the hair from the hair-coloured pixels touching the face above its " +
			"middle (the hairline, the temples) — where they show strands (a fine grain of highlight and shade), " +
			"those only, so a smooth cap, hood or painted backdrop beside the hair is not read — and otherwise the " +
			"pixels of that tone above and beside it (not a cap, a hat or the backdrop), applies the proportion " +
			"changes you ask within fixed bounds, " +
			"keeps the result as model:<id> with base set, and draws a style card. photoshoot.create takes model only " +
			"where the operator routes it to an on-model engine (its page says whether), and refuses it otherwise; " +
			"elsewhere a style is a record of tones and proportions. It " +
			"is priced in model credits.",
		BuiltFor: []string{
			"Recording a house model's skin and hair tones, read from portraits, as named colours with their hex.",
			"Size-inclusive proportions of a base: taller, broader or with fuller hips, within bounds.",
		},
		WhatYouGet: []string{
			"One style card (JPEG): the skin and hair swatches, each named with its hex, in light and shade, and where it " +
				"came from; the first reference photos with the regions the skin and hair were read from outlined; the " +
				"proportions.",
			"The record model:<id>, listed at GET /v1/refs/model?base=<its base> from the moment it is accepted (status " +
				"creating, then ready), found by name with q.",
			"The card's data: the tones and whether each came from the photos or was kept from the base, and the proportions.",
		},
		Outputs: tasks.DocsOutputs{Count: "One style card.", CountDependsOn: []string{}, Order: nil},
		Specs: append([]tasks.SpecRow{
			{
				Key:   "input_formats",
				Title: "Input formats",
				Text:  "PNG, JPEG, WebP, GIF (first frame) or BMP, 16 to 8192 px a side; read at 512 px.",
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
			"Tones only: faces, features and hair styles are not copied from the photos; the style keeps its base's figure " +
				"and hair style.",
			"A photo with no face is refused: the job fails with processing_failed naming the photo, no card is made, " +
				"nothing is charged and the style's record ends failed. A face is a skin-toned region (at least 150 px " +
				"read at 512 px, at least 0.75 as tall as wide) holding two eyes — each a white " +
				"(chroma under 14, L* over 60 and over the skin's) with a pupil or iris at least 30 L* darker, 0.1–8 % of " +
				"the face box, the pair level within 10 % of its height, 20–70 % of its width apart, centred within 15 % " +
				"in its upper 5–60 % (a cap's peak may cover the forehead) — and a mouth: at least 0.4 % of the box, " +
				"below the eyes and in the middle, 8 ΔE or more from the skin, redder or darker. All must hold. A face " +
				"turned to three-quarters is read while both eyes show; a face in profile, with eyes closed or behind " +
				"sunglasses, or too small for its eyes' whites to show at 512 px is refused as no face.",
			"Measured on synthesised portraits: 7 bare-headed (skin from very dark #3B2519 to very " +
				"light #F2D4C2; black, brown, auburn, blond, white hair; 6 of them also as JPEG) and 4 under a cap or a hat " +
				"(navy, red, green, blue) are all read as faces, " +
				"skin and hair within ΔE 5 of the drawn tones; brown hair on a vignetted light grey " +
				"backdrop reads brown (ΔE under 6; read against the border's grey alone it read #CAC6C2); a coffee cup, " +
				"a cat's face (eyes with no white), a " +
				"bottle, a drawn smiley and a skin-coloured wall are all refused. 3 studio portraits with the face high " +
				"in the frame, brown or black hair and a mottled grey-beige backdrop near the hair's colour read the " +
				"skin within ΔE 3.3 and the hair within ΔE 0.1. 13 sittings drawn apart from those (hair as strands; " +
				"skin from very dark #3A2419 to very light #F3DCCB; black, brown, red, blond and white hair and a bald " +
				"head; a charcoal cap over black hair on very dark skin, a dark-brown cap over black curls, a beanie of " +
				"the hair's colour, a grey hood; mottled canvases of the hair's and of a skin's hue, a striped and a " +
				"skin-coloured wall; faces off-centre, at three-quarters and in profile; 2 as JPEG at quality 70): " +
				"every face that looks at the camera is found and the profile refused, skin within ΔE 2.1, hair within " +
				"ΔE 1.3 on the 10 showing hair, no hair read on the bald head or under the hood, and only the hood " +
				"says hair_covered (read by colour alone, 4 of the 13 were wrong: the capped face on very dark skin " +
				"missed, white hair on light grey not read, the skin-coloured canvas read as the hair, ΔE 40.7, and " +
				"the hood read as grey hair). 5 fresh sittings, measured once and never tuned on (a navy beanie over " +
				"grey hair, a black hood over black hair, a grey cap over grey hair on very dark skin, auburn hair on " +
				"a mottled green canvas at three-quarters, a black cap over brown curls on dark skin): 4 right; the " +
				"brown curls, within ΔE 12 of the skin, read as the cap's black (ΔE 18.2) — hair of the skin's own " +
				"tone is not told from it (below).",
			"Hair is read in hair colours only — black, grey, white (chroma under 12) or a brown, blond, auburn or red hue " +
				"(h 15–100°, chroma up to 65) — so a cap or hat of another colour is left out, but so is dyed blue or " +
				"pink hair. Where hair shows at the temples, beside the face, its tone there is the hair's, so a black " +
				"cap or a brown hat over the top of the head is not read as hair; a cap or hat of a hair colour with no " +
				"hair showing beside the face (or hair in the face's own tone) is read as hair. A covering that wraps " +
				"the face and closes under the chin in a hair colour (a headscarf) is not read: hair_covered is true and " +
				"the card says the hair is covered (a full beard joining the hair reads so too), and so is a smooth " +
				"covering of one tone that frames the face and runs on unbroken into the garment to the photo's " +
				"bottom edge (a hood; long flat-drawn hair of the top's colour reads so too). Hair that shows strands " +
				"— a fine grain, at least 1.4 L* up and down per pixel at 512 px, that a smooth cap, a hood or a " +
				"painted or mottled backdrop does not have — is read from its strands only, wherever they touch the " +
				"face; hair drawn flat is read by colour and place as above. Hair the colour of the " +
				"backdrop or no hair is not read: the base's is kept (hair_source base). Skin under strongly coloured " +
				"light reads as lit.",
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
			`{"name":"Ava, warm brunette","base":"model:md_ava","images":["file:example_ps_portrait"],` +
				`"adjustments":{"height":0.2,"hips":0.05}}`,
		),
		Files: []tasks.ExampleFile{faceFile},
	}}
}
