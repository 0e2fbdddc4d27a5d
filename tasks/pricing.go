package tasks

// Pricing is what one delivered output of a task costs.
type Pricing struct {
	// CreditType is the credit type charged, contract.CreditService for tasks.
	CreditType string
	// PerOutput is the price of one output when it depends on no option.
	PerOutput int64
	// Option names the input field the price depends on ("" for none).
	Option string
	// ByOption is the price of one output for each value of Option.
	ByOption []OptionPrice
}

// OptionPrice is the price of one output for one value of an option.
type OptionPrice struct {
	Value   string `json:"value"`
	Credits int64  `json:"credits"`
}

// PricePerOutput is what one delivered output of the input costs; settle
// charges it times the outputs delivered. Absent options take their schema
// default.
func (d *Definition) PricePerOutput(input Input) int64 {
	p := d.Pricing
	if p.Option == "" {
		return p.PerOutput
	}
	in := d.WithDefaults(input.Fields)
	val, _ := in[p.Option].(string)
	for _, o := range p.ByOption {
		if o.Value == val {
			return o.Credits
		}
	}
	// An unknown value cannot pass validation; charge the highest price.
	var most int64
	for _, o := range p.ByOption {
		most = max(most, o.Credits)
	}
	return most
}

// Estimate is the ceiling of a job's cost: the price of one output times the
// outputs its plan asks for, in the task's credit type.
func (d *Definition) Estimate(input Input) (credits int64, creditType string) {
	if d.Runner == nil {
		return 0, d.Pricing.CreditType
	}
	return d.PricePerOutput(input) * int64(d.Runner.Plan(input).Steps), d.Pricing.CreditType
}

// WithDefaults is a shallow copy of input with absent schema defaults added
// (a field the chosen variant does not use gets none), as Validate adds
// them: for a caller that builds another task's input in Go.
func (d *Definition) WithDefaults(input map[string]any) map[string]any {
	in := make(map[string]any, len(input)+4)
	for k, v := range input {
		if v != nil {
			in[k] = v
		}
	}
	d.applyDefaults(in)
	return in
}
