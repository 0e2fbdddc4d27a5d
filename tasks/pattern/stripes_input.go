package pattern

// stripesInput is a pattern.stripes request, defaults applied: the fields
// of pattern.generate it shares.
type stripesInput struct {
	Colors      []string `json:"colors" schema:"required"`
	Count       int      `json:"count"`
	Resolution  string   `json:"resolution"`
	Seed        int64    `json:"seed"`
	Repeats     *int     `json:"repeats"`
	StripeAngle int      `json:"stripe_angle"`
}

// FieldSchemas implements tasks.Described: pattern.generate's shared fields
// but use_case.
func (stripesInput) FieldSchemas() map[string]any {
	props := fields()
	delete(props, "use_case")
	return props
}
