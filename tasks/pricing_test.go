package tasks

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEstimateIsPriceTimesOutputs(t *testing.T) {
	tests := []struct {
		task, body string
		per, total int64
	}{
		{"pattern.generate", `{"colors":["#000000"]}`, 2, 2},
		{"pattern.generate", `{"colors":["#000000"],"resolution":"512","count":8}`, 1, 8},
		{"pattern.generate", `{"colors":["#000000"],"resolution":"2048","count":4}`, 4, 16},
		{"pattern.stripes", `{"colors":["#000000"],"resolution":"2048","count":3}`, 4, 12},
		{"palette.generate", `{"base_color":"#000000"}`, 1, 3},
		{"palette.generate", `{"base_color":"#000000","schemes":["triadic","tetradic","monochromatic","analogous","complementary"]}`, 1, 5},
	}
	for _, tc := range tests {
		t.Run(tc.task+" "+tc.body, func(t *testing.T) {
			d := mustLookup(t, tc.task)
			in, err := d.Validate([]byte(tc.body))
			require.NoError(t, err)
			credits, ct := d.Estimate(in)
			require.Equal(t, CreditService, ct)
			require.Equal(t, tc.per, d.PricePerOutput(in))
			require.Equal(t, tc.total, credits)
			require.Equal(t, d.PricePerOutput(in)*int64(d.Runner.Plan(in).Steps), credits)
		})
	}
	// Raw input without defaults prices the same as validated input.
	d := mustLookup(t, "pattern.generate")
	c, _ := d.Estimate(map[string]any{"colors": []any{"#000000"}})
	require.Equal(t, int64(2), c)
	c, _ = d.Estimate(map[string]any{"colors": []any{"#000000"}, "count": float64(3), "resolution": "512"})
	require.Equal(t, int64(3), c)
}

// TestPriceListMatchesEstimate checks that every figure of the price list is
// what Estimate charges for one output with that option.
func TestPriceListMatchesEstimate(t *testing.T) {
	for _, d := range Runnable() {
		p := d.Price()
		require.Equal(t, d.Name, p.Task)
		require.Equal(t, CreditService, p.CreditType)
		base := map[string]any{}
		in, err := d.Validate(d.Examples[0].Input)
		require.NoError(t, err)
		for k, v := range in {
			base[k] = v
		}
		if p.DependsOn == nil {
			require.NotNil(t, p.PerOutput)
			require.Equal(t, *p.PerOutput, d.PricePerOutput(base))
			continue
		}
		require.Equal(t, VocabValues("resolution"), optionValues(p.Prices))
		for _, op := range p.Prices {
			base[*p.DependsOn] = op.Value
			require.Equal(t, op.Credits, d.PricePerOutput(base))
			credits, _ := d.Estimate(base)
			require.Equal(t, op.Credits*int64(d.Runner.Plan(base).Steps), credits)
		}
	}
}

func optionValues(p []OptionPrice) []string {
	var out []string
	for _, o := range p {
		out = append(out, o.Value)
	}
	return out
}
