package photoshoot

import (
	"encoding/json"

	"github.com/taskplatform/taskplatform/tasks"
)

func recipes() []tasks.Recipe {
	return []tasks.Recipe{
		{
			Name: "catalogue_shoot", Title: "From one product photo to a catalogue set",
			Description: "Upload a packshot on a plain background, shoot it front, back and side on white in two placements each, read the shoot and enlarge its best shot.",
			Steps: []tasks.RecipeStep{
				{
					Title:  "Upload the product",
					Method: "POST",
					Path:   "/v1/files",
					Note:   "Multipart, part file: a PNG or JPEG of the product on a plain, evenly lit background. Answers file:<id>.",
				},
				{
					Title:  "Pick a backdrop",
					Method: "GET",
					Path:   "/v1/refs/background",
					Note:   "Studio colours (kind studio) and drawn scenes (kind scene), each with a preview url. Any #RRGGBB works as a studio colour too.",
				},
				{Title: "Shoot", Method: "POST", Path: "/v1/tasks/photoshoot.create", Task: "photoshoot.create",
					Headers: map[string]string{"Prefer": "wait=60"},
					Body: json.RawMessage(
						`{"product":"file:FROM_STEP_1","background":"background:bg_studio_white","poses":["pose_preset:pp_catalogue"],"count_per_pose":2,"aspect_ratio":"4:5"}`,
					),
					Note: "Put step 1's handle in product. Six shots: front, back, side, two placements each; files[0].data.photoshoot is the shoot."},
				{
					Title:  "Read the shoot",
					Method: "GET",
					Path:   "/v1/files/photoshoot:FROM_STEP_3",
					Note:   "Its product, background, poses and images (art: handles, in shot order).",
				},
				{
					Title:   "Enlarge the hero shot",
					Method:  "POST",
					Path:    "/v1/tasks/photoshoot.upscale",
					Task:    "photoshoot.upscale",
					Headers: map[string]string{"Prefer": "wait=60"},
					Body:    json.RawMessage(`{"images":["art:FROM_STEP_4"],"factor":"2"}`),
					Note:    "Put one or more of step 4's images (all of that one shoot). Each side doubled.",
				},
			},
		},
		{
			Name: "house_model", Title: "A house model in your customers' tones",
			Description: "Spend model credits on a saved style of a base model with tones read from a portrait, find it under its base, and dress a garment on it in a scene.",
			Steps: []tasks.RecipeStep{
				{
					Title:  "Check model credits",
					Method: "GET",
					Path:   "/v1/account/balance",
					Note:   "model.create spends model_credits; an operator grants them with taskplatform admin credits grant --type model_credits.",
				},
				{
					Title:  "Estimate the style",
					Method: "POST",
					Path:   "/v1/tasks/model.create/estimate",
					Task:   "model.create",
					Body: json.RawMessage(
						`{"name":"Imani, house style","base":"model:md_imani","images":["file:example_ps_portrait"]}`,
					),
					Note: "Answers credits 10 of credit_type model_credits.",
				},
				{Title: "Create the style", Method: "POST", Path: "/v1/tasks/model.create", Task: "model.create",
					Headers: map[string]string{"Prefer": "wait=60"},
					Body: json.RawMessage(
						`{"name":"Imani, house style","base":"model:md_imani","images":["file:example_ps_portrait"],"adjustments":{"height":0.1}}`,
					),
					Note: "Send your own portraits (file: uploads) as images. The style card's data.model is the saved style."},
				{
					Title:  "Find it under its base",
					Method: "GET",
					Path:   "/v1/refs/model?base=model:md_imani",
					Note:   "The base's saved styles, newest first; q=house finds it by name.",
				},
				{
					Title:   "Dress a garment on it",
					Method:  "POST",
					Path:    "/v1/tasks/photoshoot.create",
					Task:    "photoshoot.create",
					Headers: map[string]string{"Prefer": "wait=60"},
					Body: json.RawMessage(
						`{"product":"file:example_ps_tee","background":"background:bg_scene_terracotta","model":"model:FROM_STEP_3","poses":["pose_preset:pp_lookbook"],"aspect_ratio":"3:4"}`,
					),
					Note: "Put step 3's model:<id> in model; a preset takes the poses of the model's gender.",
				},
			},
		},
	}
}
