package pattern

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/taskstest"
)

// registry holds the pattern family alone.
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

func TestFamilyTasks(t *testing.T) {
	r := registry(t)
	require.Equal(t, "deprecated", mustLookup(t, "pattern.stripes").Status)
	require.Equal(t, "pattern.generate", mustLookup(t, "pattern.stripes").ReplacedBy)
	_, err := r.Lookup("pattern.legacy")
	require.Equal(t, apierr.TaskRemoved, apierr.As(err).Code)
	require.Equal(t, tasks.ResolutionVocab().Enum(), []string{
		resolutionPricing.ByOption[0].Value, resolutionPricing.ByOption[1].Value, resolutionPricing.ByOption[2].Value,
	}, "a tile is priced at every resolution")
}

func TestValidateCodesAndFields(t *testing.T) {
	tests := []struct {
		task, body string
		code       apierr.Code
		field      string
	}{
		{"pattern.generate", `{"colors":["#000000","#fff"]}`, apierr.InvalidColour, "colors[1]"},
		{
			"pattern.generate",
			`{"colors":["#000000","#FFFFFF","#000000","#FFFFFF","#000000","#FFFFFF","#000000"]}`,
			apierr.TooManyColours,
			"colors",
		},
		{"pattern.generate", `{"colors":["#000000"],"kind":"triangles"}`, apierr.InvalidOption, "kind"},
		{"pattern.generate", `{"colors":["#000000"],"kind":"zigzag","amplitude":0.3}`, "", ""},
		{
			"pattern.generate",
			`{"colors":["#000000"],"kind":"tartan","amplitude":0.3}`,
			apierr.FieldNotSupported,
			"amplitude",
		},
		{
			"pattern.generate",
			`{"colors":["#000000"],"kind":"dots","stripe_angle":45}`,
			apierr.FieldNotSupported,
			"stripe_angle",
		},
		{
			"pattern.generate",
			`{"colors":["#000000"],"stripe_angle":45,"amplitude":0.5}`,
			apierr.FieldNotSupported,
			"amplitude",
		},
		{"pattern.generate", `{"colors":["#000000"],"kind":"waves","amplitude":0.3}`, "", ""},
		{"pattern.generate", `{"colors":["#000000"],"kind":"dots","stripe_angle":null}`, "", ""},
		{"pattern.generate", `{"colors":["#000000"],"count":9}`, apierr.InvalidRequest, "count"},
		{"pattern.generate", `{"colors":["#000000"],"dot_layout":"grid"}`, apierr.FieldNotSupported, "dot_layout"},
		{"pattern.generate", `{"colors":["#000000"],"kind":"dots","stripe_widths":[2]}`, apierr.FieldNotSupported,
			"stripe_widths"},
		{"pattern.generate", `{"colors":["#000000"],"stripe_widths":[0]}`, apierr.InvalidRequest, "stripe_widths[0]"},
		{"pattern.generate", `{"colors":["#000000","#FFFFFF"],"kind":"gingham"}`, "", ""},
		{"pattern.generate", `{"colors":["#000000","#FFFFFF","#FF0000","#00FF00"],"kind":"vichy"}`,
			apierr.RequestRefused, "colors"},
		{"pattern.generate", `{"colors":["#000000"],"kind":"buffalo","line_width":0.1}`, apierr.FieldNotSupported,
			"line_width"},
		{"pattern.stripes", `{"colors":["#000000"],"kind":"stripes"}`, apierr.FieldNotAccepted, "kind"},
		{"pattern.repeat", `{"image":"file:abc","background":"white"}`, apierr.InvalidColour, "background"},
		{"pattern.repeat", `{"image":"ftp://x"}`, apierr.InvalidRequest, "image"},
	}
	for _, tc := range tests {
		t.Run(tc.task+" "+tc.body, func(t *testing.T) {
			_, err := mustLookup(t, tc.task).Validate([]byte(tc.body))
			if tc.code == "" {
				require.NoError(t, err)
				return
			}
			e := apierr.As(err)
			require.Equal(t, tc.code, e.Code, e.Message)
			require.NotNil(t, e.Field)
			require.Equal(t, tc.field, *e.Field)
		})
	}
}

func TestValidateDefaults(t *testing.T) {
	d := mustLookup(t, "pattern.generate")
	tests := []struct {
		body string
		want map[string]any
	}{
		{`{"colors":["#000000"]}`, map[string]any{"colors": []any{"#000000"}, "kind": "stripes", "count": int64(1),
			"resolution": "1024", "seed": int64(0), "use_case": "general", "stripe_angle": int64(0), "format": "png"}},
		{
			`{"colors":["#000000"],"kind":"dots"}`,
			map[string]any{"colors": []any{"#000000"}, "kind": "dots", "count": int64(1),
				"resolution": "1024", "seed": int64(0), "use_case": "general", "dot_size": 0.5,
				"dot_layout": "half_drop", "format": "png"},
		},
		{
			`{"colors":["#000000"],"kind":"chevron","amplitude":1}`,
			map[string]any{"colors": []any{"#000000"}, "kind": "chevron", "count": int64(1),
				"resolution": "1024", "seed": int64(0), "use_case": "general", "amplitude": int64(1), "format": "png"},
		},
	}
	for _, tc := range tests {
		in, err := d.Validate([]byte(tc.body))
		require.NoError(t, err)
		require.Equal(t, tc.want, in.Fields, tc.body)
	}
}

func TestEstimateIsPriceTimesOutputs(t *testing.T) {
	tests := []struct {
		task, body string
		per, total int64
	}{
		{"pattern.generate", `{"colors":["#000000"]}`, 2, 2},
		{"pattern.generate", `{"colors":["#000000"],"resolution":"512","count":8}`, 1, 8},
		{"pattern.generate", `{"colors":["#000000"],"resolution":"2048","count":4}`, 4, 16},
		{"pattern.stripes", `{"colors":["#000000"],"resolution":"2048","count":3}`, 4, 12},
		{"pattern.repeat", `{"image":"file:abc","layouts":["grid","brick"],"resolution":"512"}`, 1, 2},
	}
	for _, tc := range tests {
		t.Run(tc.task+" "+tc.body, func(t *testing.T) {
			d := mustLookup(t, tc.task)
			in, err := d.Validate([]byte(tc.body))
			require.NoError(t, err)
			credits, ct := d.Estimate(in)
			require.Equal(t, contract.CreditService, ct)
			require.Equal(t, tc.per, d.PricePerOutput(in))
			require.Equal(t, tc.total, credits)
		})
	}
}
