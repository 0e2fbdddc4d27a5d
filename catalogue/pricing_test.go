package catalogue_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

// TestPriceListMatchesEstimate checks that every figure of the price list is
// what Estimate charges for one output with that option, and that a price
// depending on a vocabulary field names every value of it.
func TestPriceListMatchesEstimate(t *testing.T) {
	c := served()
	rows := c.Prices()
	require.Len(t, rows, len(c.Tasks().Runnable()))
	for i, d := range c.Tasks().Runnable() {
		p := rows[i]
		require.Equal(t, d.Name, p.Task)
		require.Equal(t, d.Pricing.CreditType, p.CreditType)
		require.Contains(t, contract.CreditTypes, p.CreditType)
		base, err := d.Validate(d.Examples[0].Input)
		require.NoError(t, err)
		if p.DependsOn == nil {
			require.NotNil(t, p.PerOutput)
			require.Equal(t, *p.PerOutput, d.PricePerOutput(base))
			continue
		}
		for _, f := range d.VocabFields() {
			if f.Field == *p.DependsOn && f.Direction == "input" {
				require.Equal(t, f.Enum, optionValues(p.Prices), "%s is priced at every %s", d.Name, f.Field)
			}
		}
		for _, op := range p.Prices {
			base.Fields[*p.DependsOn] = op.Value
			base, err := d.Input(base.Fields)
			require.NoError(t, err)
			require.Equal(t, op.Credits, d.PricePerOutput(base))
			credits, _ := d.Estimate(base)
			require.Equal(t, op.Credits*int64(d.Runner.Plan(base).Steps), credits)
		}
	}
}

func optionValues(p []tasks.OptionPrice) []string {
	var out []string
	for _, o := range p {
		out = append(out, o.Value)
	}
	return out
}
