package photoshoot

import (
	"encoding/json"

	"github.com/taskplatform/taskplatform/tasks"
)

func recipes() []tasks.Recipe {
	return []tasks.Recipe{
		{
			Name: "catalogue_shoot", Title: "From one product photo to a catalogue set",
			Description: "Upload photographs of the product from the front, back and side on a plain background, shoot them " +
				"as Zalando packshots, read the shoot and enlarge its best shot.",
			Steps: []tasks.RecipeStep{
				{
					Title:  "Upload the product",
					Method: "POST",
					Path:   "/v1/files",
					Note: "Multipart, part file: a PNG or JPEG of the product on a plain, evenly lit background (or a " +
						"transparent PNG). Upload one per view you have: front, back, side. Each answers file:<id>.",
				},
				{
					Title:  "Pick a backdrop",
					Method: "GET",
					Path:   "/v1/refs/background",
					Note: "Studio colours (kind studio) and drawn scenes (kind scene), each with a preview url. Any #RRGGBB " +
						"works as a studio colour too.",
				},
				{Title: "Shoot", Method: "POST", Path: "/v1/tasks/photoshoot.create", Task: "photoshoot.create",
					Headers: map[string]string{"Prefer": "wait=60"},
					Body: json.RawMessage(
						`{"product":"file:FROM_STEP_1","product_back":"file:FROM_STEP_1","product_side":"file:FROM_STEP_1",` +
							`"marketplace":"zalando","poses":["pose_preset:pp_catalogue"]}`,
					),
					Note: "Put step 1's handles in product, product_back and product_side. Three 1801 × 2600 shots on pure white, " +
						"the product filling 80 % of each; files[0].data.photoshoot is the shoot."},
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
			Description: "Spend model credits on a saved style of a base model with skin and hair tones read from a " +
				"portrait, and find it under its base.",
			Steps: []tasks.RecipeStep{
				{
					Title:  "Check model credits",
					Method: "GET",
					Path:   "/v1/account/balance",
					Note: "model.create spends model_credits; an operator grants them with taskplatform admin credits grant " +
						"--type model_credits.",
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
						`{"name":"Imani, house style","base":"model:md_imani","images":["file:example_ps_portrait"],` +
							`"adjustments":{"height":0.1}}`,
					),
					Note: "Send your own portraits (file: uploads) as images. The style card's data.model is the saved style."},
				{
					Title:  "Find it under its base",
					Method: "GET",
					Path:   "/v1/refs/model?base=model:md_imani",
					Note:   "The base's saved styles, newest first; q=house finds it by name.",
				},
			},
		},
	}
}
