package palette

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

// registry holds the palette family alone.
func registry(t testing.TB) *tasks.Registry {
	r := tasks.NewRegistry()
	require.NoError(t, r.Add(Family()))
	return r
}

func mustLookup(t testing.TB, name string) *tasks.Definition {
	d, err := registry(t).Lookup(name)
	require.NoError(t, err)
	return d
}

func TestFamilyKeepsTheCorePromises(t *testing.T) {
	taskstest.Check(t, registry(t))
}

func TestValidateCodesAndFields(t *testing.T) {
	tests := []struct {
		body  string
		code  apierr.Code
		field string
	}{
		{`{"base_color":"blue"}`, apierr.InvalidColour, "base_color"},
		{`{"base_color":"#123456","schemes":["triadic","triadic"]}`, apierr.InvalidRequest, "schemes"},
		{`{"base_color":"#123456","schemes":["triadic","rainbow"]}`, apierr.InvalidOption, "schemes[1]"},
		{`{"base_color":"#123456","kind":"stripes"}`, apierr.FieldNotAccepted, "kind"},
		{`{"base_color":"#123456","shades":5}`, apierr.InvalidRequest, "shades"},
	}
	d := mustLookup(t, "palette.generate")
	for _, tc := range tests {
		t.Run(tc.body, func(t *testing.T) {
			_, err := d.Validate([]byte(tc.body))
			e := apierr.As(err)
			require.Equal(t, tc.code, e.Code, e.Message)
			require.NotNil(t, e.Field)
			require.Equal(t, tc.field, *e.Field)
		})
	}
	in, err := d.Validate([]byte(`{"base_color":"#123456","schemes":null}`))
	require.NoError(t, err)
	require.Equal(t, []any{"complementary", "analogous", "triadic"}, in.Fields["schemes"])
	require.Equal(t, true, in.Fields["labels"])
}

func TestEstimateIsPriceTimesOutputs(t *testing.T) {
	tests := []struct {
		body       string
		per, total int64
	}{
		{`{"base_color":"#000000"}`, 1, 3},
		{`{"base_color":"#000000","schemes":["triadic","tetradic","monochromatic","analogous","complementary"]}`, 1, 5},
	}
	d := mustLookup(t, "palette.generate")
	for _, tc := range tests {
		in, err := d.Validate([]byte(tc.body))
		require.NoError(t, err)
		credits, ct := d.Estimate(in)
		require.Equal(t, contract.CreditService, ct)
		require.Equal(t, tc.per, d.PricePerOutput(in), tc.body)
		require.Equal(t, tc.total, credits, tc.body)
	}
}
