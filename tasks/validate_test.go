package tasks

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
)

// variantTask is a task of its own for the core's tests: a variant field
// (shape) deciding which of two fields apply, a colour list, an integer with
// a default and a vocabulary field.
func variantTask() *Definition {
	v := &Variant{
		Field:   "shape",
		Default: "round",
		Only:    map[string][]string{"radius": {"round"}, "sides": {"polygon"}},
	}
	props := map[string]any{
		"shape":      map[string]any{"type": "string", "enum": []any{"round", "polygon"}, "default": "round"},
		"radius":     map[string]any{"type": "number", "minimum": 0.1, "default": 0.5},
		"sides":      map[string]any{"type": "integer", "minimum": 3, "default": 6},
		"colors":     map[string]any{"type": "array", "minItems": 1, "maxItems": 2, "items": ColourSchema("A colour.")},
		"count":      map[string]any{"type": "integer", "minimum": 1, "maximum": 4, "default": 1},
		"resolution": VocabEnum(ResolutionVocab(), "The side."),
	}
	return &Definition{
		Name: "test.shapes", Category: CategoryDesignGeneration, Unit: "tile",
		InputSchema: MustJSON(ObjectSchema("test.shapes input", "Shapes.", props, []string{"colors"}, v)),
		Variant:     v, Runner: countRunner{},
		ErrorRules: []ErrorRule{
			{"colors", "maxItems", apierr.TooManyColours},
			{"colors[]", "pattern", apierr.InvalidColour},
		},
		Pricing: Pricing{
			CreditType: contract.CreditService,
			Option:     "resolution",
			ByOption:   []OptionPrice{{"512", 1}, {"1024", 2}, {"2048", 4}},
		},
	}
}

func TestValidateMalformed(t *testing.T) {
	d := variantTask()
	for _, body := range []string{``, ` `, `nul`, `{`, `[]`, `[1]`, `"str"`, `12`, `null`, `true`,
		`{"colors":["#000000"]} {}`, `{"colors":["#000000"]} x`} {
		t.Run(body, func(t *testing.T) {
			_, err := d.Validate([]byte(body))
			e := apierr.As(err)
			require.Equal(t, apierr.MalformedRequest, e.Code)
			require.Equal(t, 400, e.Status)
			require.Nil(t, e.Field)
		})
	}
}

func TestValidateCodesAndFields(t *testing.T) {
	tests := []struct {
		body  string
		code  apierr.Code
		field string
	}{
		{`{"colors":["#000000","#fff"]}`, apierr.InvalidColour, "colors[1]"},
		{`{"colors":["#000000","#FFFFFF","#000000"]}`, apierr.TooManyColours, "colors"},
		{`{"colors":[]}`, apierr.InvalidRequest, "colors"},
		{`{}`, apierr.InvalidRequest, "colors"},
		{`{"colors":null}`, apierr.InvalidRequest, "colors"},
		{`{"colors":["#000000"],"shape":"star"}`, apierr.InvalidOption, "shape"},
		{`{"colors":["#000000"],"shape":"polygon","radius":0.3}`, apierr.FieldNotSupported, "radius"},
		{`{"colors":["#000000"],"sides":5}`, apierr.FieldNotSupported, "sides"},
		{`{"colors":["#000000"],"shape":"polygon","sides":5}`, "", ""},
		{`{"colors":["#000000"],"shape":"polygon","radius":null}`, "", ""},
		{`{"colors":["#000000"],"job_id":"j_1"}`, apierr.FieldNotAccepted, "job_id"},
		{`{"colors":["#000000"],"count":9}`, apierr.InvalidRequest, "count"},
		{`{"colors":["#000000"],"count":1.5}`, apierr.InvalidRequest, "count"},
		{`{"colors":["#000000"],"count":2.0}`, "", ""},
		{`{"colors":["#000000"],"count":1e400}`, apierr.InvalidRequest, "count"},
		{`{"colors":["#000000"],"resolution":"300"}`, apierr.InvalidOption, "resolution"},
		// First failure by path: colors[1] sorts before count and zz.
		{`{"zz":1,"count":0,"colors":["#000000","bad"]}`, apierr.InvalidColour, "colors[1]"},
		{`{"b":1,"a":1,"colors":["#000000"]}`, apierr.FieldNotAccepted, "a"},
	}
	d := variantTask()
	for _, tc := range tests {
		t.Run(tc.body, func(t *testing.T) {
			_, err := d.Validate([]byte(tc.body))
			if tc.code == "" {
				require.NoError(t, err)
				return
			}
			e := apierr.As(err)
			require.Equal(t, tc.code, e.Code, e.Message)
			require.NotNil(t, e.Field)
			require.Equal(t, tc.field, *e.Field)
			require.NotEmpty(t, e.Message)
		})
	}
}

func TestValidateDefaultsAndNulls(t *testing.T) {
	d := variantTask()
	tests := []struct {
		body string
		want map[string]any
	}{
		{`{"colors":["#000000"]}`, map[string]any{"colors": []any{"#000000"}, "shape": "round", "count": int64(1),
			"resolution": "1024", "radius": 0.5}},
		{
			`{"colors":["#000000"],"count":null,"shape":null}`,
			map[string]any{"colors": []any{"#000000"}, "shape": "round",
				"count": int64(1), "resolution": "1024", "radius": 0.5},
		},
		{
			`{"colors":["#000000"],"shape":"polygon"}`,
			map[string]any{"colors": []any{"#000000"}, "shape": "polygon", "count": int64(1),
				"resolution": "1024", "sides": int64(6)},
		},
		{
			`{"colors":["#000000"],"radius":1}`,
			map[string]any{"colors": []any{"#000000"}, "shape": "round", "count": int64(1),
				"resolution": "1024", "radius": int64(1)},
		},
	}
	for _, tc := range tests {
		t.Run(tc.body, func(t *testing.T) {
			in, err := d.Validate([]byte(tc.body))
			require.NoError(t, err)
			require.Equal(t, tc.want, in.Fields)
			// The returned input validates again unchanged.
			b, err := json.Marshal(in)
			require.NoError(t, err)
			again, err := d.Validate(b)
			require.NoError(t, err)
			require.Equal(t, in, again)
		})
	}
}

func TestEstimateIsPriceTimesOutputs(t *testing.T) {
	d := variantTask()
	tests := []struct {
		body       string
		per, total int64
	}{
		{`{"colors":["#000000"]}`, 2, 2},
		{`{"colors":["#000000"],"resolution":"512","count":4}`, 1, 4},
		{`{"colors":["#000000"],"resolution":"2048","count":3}`, 4, 12},
	}
	for _, tc := range tests {
		in, err := d.Validate([]byte(tc.body))
		require.NoError(t, err)
		credits, ct := d.Estimate(in)
		require.Equal(t, contract.CreditService, ct)
		require.Equal(t, tc.per, d.PricePerOutput(in), tc.body)
		require.Equal(t, tc.total, credits, tc.body)
	}
	// Raw input without defaults prices the same as validated input.
	raw, err := d.Input(map[string]any{"colors": []any{"#000000"}})
	require.NoError(t, err)
	c, _ := d.Estimate(raw)
	require.Equal(t, int64(2), c)
	raw, err = d.Input(map[string]any{"colors": []any{"#000000"}, "count": float64(3), "resolution": "512"})
	require.NoError(t, err)
	c, _ = d.Estimate(raw)
	require.Equal(t, int64(3), c)
}

// TestNestedPaths checks public paths on a schema with nested objects and
// arrays, which the catalogue's tasks do not have yet.
func TestNestedPaths(t *testing.T) {
	d := &Definition{Name: "test.nested", InputSchema: json.RawMessage(`{
		"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false,
		"properties": {"a": {"type": "object", "additionalProperties": false,
			"properties": {"b": {"type": "integer", "maximum": 3}, "list": {"type": "array", "items": {"type": "object",
				"properties": {"c": {"type": "string", "default": "x"}}, "required": ["c"]}}}}}}`)}
	tests := []struct {
		body, field string
		code        apierr.Code
	}{
		{`{"a":{"b":4}}`, "a.b", apierr.InvalidRequest},
		{`{"a":{"z":4}}`, "a.z", apierr.FieldNotAccepted},
		{`{"a":{"list":[{"c":"ok"},{}]}}`, "a.list[1].c", apierr.InvalidRequest},
		{`{"a":{"list":[{"c":"ok"},{"c":null}]}}`, "a.list[1].c", apierr.InvalidRequest},
	}
	for _, tc := range tests {
		_, err := d.Validate([]byte(tc.body))
		e := apierr.As(err)
		require.Equal(t, tc.code, e.Code, tc.body)
		require.Equal(t, tc.field, *e.Field, tc.body)
	}
}
