package photoshoot

import (
	"fmt"

	"github.com/taskplatform/taskplatform/tasks"
)

// marketplaceNone is the marketplace value of a shoot framed by its own
// resolution, aspect ratio and placements.
const marketplaceNone = "none"

// marketplace is a marketplace's published rules for a product image, as
// a preset frames a packshot by them.
type marketplace struct {
	value, label string
	// w and h are the shot's size in pixels.
	w, h int
	// fill is the share of the frame the product's box fills: its width
	// over the frame's or its height over the frame's, whichever is larger.
	fill float64
	// white says the backdrop must be pure white, #FFFFFF.
	white bool
	// reflection says a reflection under the product is allowed.
	reflection bool
	// rules are the marketplace's published rules, for the docs.
	rules string
}

// marketplaces are the presets. Sizes: Amazon asks at least 1000 px on the
// long side for zoom and recommends 1600 px or more; Zalando's best
// practice is 1801 × 2600 (1:1.44, at least 762 × 1100); Shopify
// recommends 2048 × 2048 for square product images.
var marketplaces = []marketplace{
	{value: "amazon", label: "Amazon main image", w: 2000, h: 2000, fill: 0.87, white: true,
		rules: "Amazon's main image: pure white backdrop (RGB 255, 255, 255), the product filling at least 85 % of " +
			"the frame, at least 1000 px on the long side for zoom (1600 px or more recommended), square " +
			"recommended, no props or text, a soft contact shadow at most and no reflection. The preset makes " +
			"2000 × 2000 px, the product filling 87 % of the frame."},
	{value: "zalando", label: "Zalando packshot", w: 1801, h: 2600, fill: 0.8, white: true, reflection: true,
		rules: "Zalando's packshot: upright 1:1.44 (best practice 1801 × 2600 px, at least 762 × 1100), JPEG, a " +
			"primary packshot on white. Zalando publishes no fill ratio; the preset makes 1801 × 2600 px on " +
			"#FFFFFF with the product filling 80 % of the frame."},
	{value: "shopify", label: "Shopify product image", w: 2048, h: 2048, fill: 0.8, reflection: true,
		rules: "Shopify: square 2048 × 2048 px recommended for product images (at most 4472 × 4472 px, 20 MB); any " +
			"backdrop, one kept the same across the store. Shopify publishes no fill ratio; the preset makes " +
			"2048 × 2048 px on the studio colour sent with the product filling 80 % of the frame."},
}

// marketplaceOf finds a preset by its value; false for none.
func marketplaceOf(value string) (marketplace, bool) {
	for _, m := range marketplaces {
		if m.value == value {
			return m, true
		}
	}
	return marketplace{}, false
}

// marketplaceValues are the options of the marketplace field.
func marketplaceValues() []tasks.VocabValue {
	out := []tasks.VocabValue{{Value: marketplaceNone, Default: true, ChooseWhen: "the shots are for your own shop or " +
		"print",
		Description: "Framed by resolution, aspect_ratio and count_per_pose."}}
	for _, m := range marketplaces {
		out = append(out, tasks.VocabValue{Value: m.value, Description: fmt.Sprintf(
			"%s: %d × %d px, the product filling %.0f %% of the frame%s.", m.label, m.w, m.h, m.fill*100,
			map[bool]string{true: " on pure white #FFFFFF", false: ""}[m.white])})
	}
	return out
}

// marketplaceVariant: a preset fixes the shot's size and framing, so it
// takes no resolution, aspect_ratio or count_per_pose.
var marketplaceVariant = &tasks.Variant{Field: "marketplace", Default: marketplaceNone, Only: map[string][]string{
	"resolution":     {marketplaceNone},
	"aspect_ratio":   {marketplaceNone},
	"count_per_pose": {marketplaceNone},
}}
