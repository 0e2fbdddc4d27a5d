package image

// cutoutInput is an image.remove_background request, defaults applied.
type cutoutInput struct {
	Images     []string `json:"images" schema:"required"`
	Tolerance  float64  `json:"tolerance"`
	Feather    int      `json:"feather"`
	KeepShadow bool     `json:"keep_shadow"`
}

// FieldSchemas implements tasks.Described: the schema keywords of each field.
func (cutoutInput) FieldSchemas() map[string]any {
	props := obj{
		"images": imagesProp("cut out"),
		"tolerance": obj{
			"minimum": 1,
			"maximum": 50,
			"default": 12,
			"description": "How far a colour may be from the fitted backdrop and still be backdrop (about ΔE; in sRGB units " +
				"it is 1.5 × tolerance). Raise it for uneven light or noise, lower it when the product is close to the backdrop " +
				"colour.",
		},
		"feather": obj{
			"minimum": 0,
			"maximum": 20,
			"default": 2,
			"description": "The width in pixels of the band along the outline where alpha is unmixed from the colours (a " +
				"soft, decontaminated edge); 0 gives a hard edge.",
		},
		"keep_shadow": obj{
			"default": false,
			"description": "Keep the product's shadow as a soft, neutral shadow layer behind it instead of removing it: its " +
				"density is measured from the photo (how much it darkens the backdrop), smoothed, and drawn again in black at " +
				"that opacity, so it reads as the same shadow on any new background, without the old backdrop's colour.",
		},
	}
	return props
}
