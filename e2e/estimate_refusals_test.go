package e2e_test

import "github.com/taskplatform/taskplatform/apierr"

// admitRefusal is a task's own refusal at submit: its first example with
// the fields of set changed (a nil value removes the field).
type admitRefusal struct {
	name string
	set  map[string]any
	code apierr.Code
}

// admitRefusals are, by task, the refusals its Admit makes on the
// account's records and the input as a whole.
func admitRefusals(st admitState) map[string][]admitRefusal {
	item := func(typ string) map[string]any {
		return map[string]any{
			"type":     typ,
			"name":     "Tee",
			"fabric":   "fabric:fb_cur_jersey_white",
			"colours":  []string{"#1B2A4A"},
			"quantity": 10,
		}
	}
	var tees []any
	for range 17 {
		tees = append(tees, item("t_shirt"))
	}
	badFabric := item("t_shirt")
	badFabric["fabric"] = "fabric:fb_nope"
	blank := map[string]any{"name": "   "}
	return map[string][]admitRefusal{
		"colourway.generate": {
			{"unknown kit", map[string]any{"palettes": "brand_kit:bk_nope"}, apierr.InvalidRequest},
			{"kit not ready", map[string]any{"palettes": st.kitCreating}, apierr.BrandKitLookNotReady},
		},
		"design.from_prompt": {
			{"refused term", map[string]any{"prompt": "a gucci monogram in navy"}, apierr.ContentRefused},
		},
		"image.recolour": {{"unknown kit", map[string]any{"palette": "brand_kit:bk_nope"}, apierr.InvalidRequest}},
		"photoshoot.create": {
			{
				"too many shots",
				map[string]any{
					"marketplace": nil,
					"poses": []string{"pose:ps_woman_front", "pose:ps_woman_walking", "pose:ps_woman_front",
						"pose:ps_woman_walking"},
					"count_per_pose": 4,
					"model":          nil,
				},
				apierr.TooManyOutputs,
			},
			{"unknown background", map[string]any{"background": "background:bg_nope"}, apierr.InvalidRequest},
			{"a model", map[string]any{"model": "model:md_ava"}, apierr.RequestRefused},
			{"a back without its image", map[string]any{"poses": []string{"pose:ps_woman_back"}},
				apierr.RequestRefused},
			{"unknown pose", map[string]any{"poses": []string{"pose:ps_nope"}}, apierr.InvalidRequest},
		},
		"photoshoot.upscale": {
			{"not a shot", map[string]any{"images": []string{st.artNotShot}}, apierr.ImageNotFromShoot},
			{"a Zalando shot at 4×", map[string]any{"images": []string{st.artTall}, "factor": "4"}, apierr.RequestRefused},
		},
		"model.create": {
			{"blank name", blank, apierr.NameRequired},
			{"not a base", map[string]any{"base": "model:md_nope"}, apierr.InvalidRequest},
			{"a style as base", map[string]any{"base": st.styleCreating}, apierr.InvalidRequest},
		},
		"techpack.create": {
			{"unknown fabric", map[string]any{"fabric": "fabric:fb_nope"}, apierr.InvalidRequest},
			{"kit not ready", map[string]any{"colourways": st.kitCreating}, apierr.BrandKitLookNotReady},
			{"unknown range plan", map[string]any{"range_plan": "range_plan:rp_nope"}, apierr.InvalidRequest},
		},
		"moodboard.create": {{"blank name", blank, apierr.NameRequired}},
		"brand_kit.create": {
			{"blank name", blank, apierr.NameRequired},
			{
				"unknown moodboard",
				map[string]any{"moodboards": []string{"moodboard:mb_nope"}},
				apierr.MoodboardRequired,
			},
			{
				"moodboard analysing",
				map[string]any{"moodboards": []string{st.boardAnalysing}},
				apierr.MoodboardNotReady,
			},
			{
				"look of another board",
				map[string]any{"looks": []string{"https://elsewhere.example/files/nope.jpg"}},
				apierr.LookNotInMoodboard,
			},
			{"look kept", map[string]any{"looks": []string{st.look}}, ""},
		},
		"fabric.create": {
			{"blank name", blank, apierr.NameRequired},
			{"composition under 100", map[string]any{"facts": map[string]any{"weight_gsm": 200, "construction": "twill",
				"composition": []any{map[string]any{"fibre": "cotton", "percent": 60}}}}, apierr.InvalidRequest},
			{"fibre twice", map[string]any{"facts": map[string]any{"weight_gsm": 200, "construction": "twill",
				"composition": []any{
					map[string]any{"fibre": "cotton", "percent": 50},
					map[string]any{"fibre": "cotton", "percent": 50},
				}}}, apierr.InvalidRequest},
			{"a price without its currency", map[string]any{"trade": map[string]any{"price_per_m": 12}},
				apierr.RequestRefused},
		},
		"range_plan.create": {
			{"prices without a currency", map[string]any{"currency": nil}, apierr.RequestRefused},
			{"blank name", blank, apierr.NameRequired},
			{"17 t-shirts", map[string]any{"items": tees}, apierr.TooManyItems},
			{"16 t-shirts", map[string]any{"items": tees[:16]}, ""},
			{"unknown fabric", map[string]any{"items": []any{badFabric}}, apierr.InvalidRequest},
			{"unknown kit", map[string]any{"brand_kit": "brand_kit:bk_nope"}, apierr.InvalidRequest},
			{"kit not ready", map[string]any{"brand_kit": st.kitCreating}, apierr.BrandKitLookNotReady},
		},
	}
}
