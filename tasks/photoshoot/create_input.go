package photoshoot

import (
	"fmt"

	"github.com/taskplatform/taskplatform/tasks"
	imgfam "github.com/taskplatform/taskplatform/tasks/image"
)

// createInput is a photoshoot.create request, defaults applied.
type createInput struct {
	Product             string   `json:"product" schema:"required"`
	ProductBack         *string  `json:"product_back"`
	ProductSide         *string  `json:"product_side"`
	ProductThreeQuarter *string  `json:"product_three_quarter"`
	Background          string   `json:"background"`
	Marketplace         string   `json:"marketplace"`
	ProductHeightCM     *float64 `json:"product_height_cm"`
	Reflection          bool     `json:"reflection"`
	// Model is refused (refuseCreate) unless a route takes the jobs with
	// one to an on-model engine (engines, when: model).
	Model        *string  `json:"model"`
	Poses        poseList `json:"poses"`
	CountPerPose int      `json:"count_per_pose"`
	Resolution   string   `json:"resolution"`
	AspectRatio  string   `json:"aspect_ratio"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (createInput) FieldSchemas() map[string]any {
	props := obj{
		"product": productProp(
			"The product seen from the front: a packshot on a plain background is cut out (as image.remove_background does); " +
				"an image without a plain background is laid down whole. Front and walking poses show it.",
		),
		"product_back":          productProp("The product seen from the back, for back poses."),
		"product_side":          productProp("The product seen from the side, for side poses."),
		"product_three_quarter": productProp("The product turned about 35°, for three_quarter poses."),
		"background": obj{"pattern": backgroundPattern, "maxLength": 100,
			"default": "background:bg_studio_white",
			"description": "A library backdrop, background:<id> (GET /v1/refs/background: studio colours and scenes), or a " +
				"studio colour #RRGGBB.",
			"examples": []any{"background:bg_studio_white", "#F3EFE8"}},
		"marketplace": tasks.FieldEnum(marketplaceValues(),
			"Frames every shot by a marketplace's published rules for product images (size, aspect, backdrop, fill)."),
		"product_height_cm": obj{"minimum": 0.5, "maximum": 400,
			"description": "The product's real height as it stands in the product image, in centimetres. A scene needs it: " +
				"it stands the product at its true scale on the scene's floor."},
		"reflection": obj{"default": false,
			"description": "Adds a faint reflection of the product on a glossy studio floor under its contact shadow (studio " +
				"only; not with marketplace amazon)."},
		"model": obj{"pattern": modelPattern, "maxLength": 100,
			"description": "A saved style (model.create) to shoot the garment on. Refused with request_refused unless the " +
				"operator routes such jobs to an on-model engine (this task's limitations say whether); without one, send " +
				"a photograph of the garment worn as product."},
		"poses": obj{"oneOf": []any{
			obj{"type": "array", "minItems": 1, "maxItems": maxPoses,
				"items": obj{
					"type":      "string",
					"pattern":   posePattern,
					"maxLength": 100,
					"examples":  []any{"pose:ps_woman_front", "pose_preset:pp_hero"},
				},
				"description": fmt.Sprintf("1 to %d poses or presets.", maxPoses)},
			obj{"type": "string", "pattern": presetPattern, "maxLength": 100,
				"description": "One pose preset, standing for its poses.", "examples": []any{"pose_preset:pp_hero"}},
		},
			"description": fmt.Sprintf(
				"Camera angles on the product, pose:<id> (GET /v1/refs/pose), or pose presets, pose_preset:<id>, each standing "+
					"for its poses; 1 to %d entries, or one preset sent on its own. Front and walking (the front tilted 6°) show "+
					"product; back, side and three_quarter each need their own image (product_back, product_side, "+
					"product_three_quarter). Absent: one front shot.",
				maxPoses,
			),
			"examples": []any{[]any{"pose:ps_woman_front", "pose:ps_woman_back"}, "pose_preset:pp_hero"}},
		"count_per_pose": obj{"minimum": 1, "maximum": maxCount, "default": 1,
			"description": "Shots per pose, each placed differently (centred, nearer, further, off-centre)."},
		"resolution":   tasks.FieldEnum(shotResolutions(), "The long side of every shot, in pixels."),
		"aspect_ratio": tasks.VocabEnum(imgfam.AspectVocab(), "The shape of every shot."),
	}
	return props
}
