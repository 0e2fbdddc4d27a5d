package photoshoot

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// TestRefusalsNameWhatIsMissing: what the compositor cannot make honestly
// is refused before anything is held — an on-model shot, a view with no
// photograph of it, a scene without the product's size, a backdrop or a
// reflection a marketplace does not take — naming the field to change.
func TestRefusalsNameWhatIsMissing(t *testing.T) {
	views := map[string]any{"product_back": "file:b", "product_side": "file:s"}
	with := func(extra ...map[string]any) map[string]any {
		in := map[string]any{"product": "file:f"}
		for _, e := range extra {
			for k, v := range e {
				in[k] = v
			}
		}
		return in
	}
	for _, tc := range []struct {
		name  string
		in    map[string]any
		field string
		says  string
	}{
		{"a model", with(map[string]any{"model": "model:md_ava"}), "model", "not on-model shots"},
		{"a back without its image", with(map[string]any{"poses": []any{"pose:ps_woman_front", "pose:ps_woman_back"}}),
			"poses[1]", "send product_back"},
		{"a preset without its views", with(map[string]any{"poses": "pose_preset:pp_catalogue"}), "poses",
			"send product_back and product_side"},
		{"a preset with its views", with(views, map[string]any{"poses": "pose_preset:pp_catalogue"}), "", ""},
		{"walking is the front tilted", with(map[string]any{"poses": []any{"pose:ps_man_walking"}}), "", ""},
		{"a scene without a size", with(map[string]any{"background": "background:bg_scene_beach"}),
			"product_height_cm", "real size"},
		{"a scene with a size", with(map[string]any{"background": "background:bg_scene_beach",
			"product_height_cm": 12}), "", ""},
		{"a reflection in a scene", with(map[string]any{"background": "background:bg_scene_loft",
			"product_height_cm": 12, "reflection": true}), "reflection", "glossy floor"},
		{"Amazon off white", with(map[string]any{"marketplace": "amazon", "background": "#F3EFE8"}), "background",
			"pure white #FFFFFF"},
		{"Zalando on grey", with(map[string]any{"marketplace": "zalando",
			"background": "background:bg_studio_light_grey"}), "background", "#E6E6E3"},
		{"Amazon with a reflection", with(map[string]any{"marketplace": "amazon", "reflection": true}), "reflection",
			"no reflection"},
		{"Shopify in a scene", with(map[string]any{"marketplace": "shopify", "background": "background:bg_scene_loft",
			"product_height_cm": 30}), "background", "not a scene"},
		{"Shopify on sand", with(map[string]any{"marketplace": "shopify", "background": "background:bg_studio_sand",
			"reflection": true}), "", ""},
		{"Amazon by default", with(map[string]any{"marketplace": "amazon"}), "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := refuseCreate(decodeLoose(t, tc.in), map[string]tasks.ImageSize{})
			if tc.field == "" {
				require.Nil(t, err)
				return
			}
			require.NotNil(t, err)
			require.Equal(t, apierr.RequestRefused, err.Code)
			require.Equal(t, tc.field, *err.Field)
			require.Contains(t, err.Message, tc.says)
		})
	}
}

// decodeLoose is in validated by photoshoot.create's schema without its
// refusal (the check under test), defaults applied.
func decodeLoose(t *testing.T, in map[string]any) *createInput {
	t.Helper()
	if _, ok := in["background"]; !ok {
		in["background"] = "background:bg_studio_white"
	}
	if _, ok := in["marketplace"]; !ok {
		in["marketplace"] = marketplaceNone
	}
	v, err := create().Input(in) // decoded, not refused
	require.NoError(t, err)
	return tasks.Arg[createInput](v)
}
