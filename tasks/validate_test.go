package tasks

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
)

func mustLookup(t testing.TB, name string) *Definition {
	d, err := Lookup(name)
	require.NoError(t, err)
	return d
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name   string
		code   apierr.Code
		status int
	}{
		{"pattern.generate", "", 0},
		{"palette.generate", "", 0},
		{"pattern.stripes", "", 0},
		{"pattern.legacy", apierr.TaskRemoved, 410},
		{"no.such.task", apierr.TaskNotFound, 404},
		{"", apierr.TaskNotFound, 404},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Lookup(tc.name)
			if tc.code == "" {
				require.NoError(t, err)
				require.Equal(t, tc.name, d.Name)
				return
			}
			e := apierr.As(err)
			require.Equal(t, tc.code, e.Code)
			require.Equal(t, tc.status, e.Status)
		})
	}
	require.Equal(t, "deprecated", mustLookup(t, "pattern.stripes").Status)
	require.Equal(t, "pattern.generate", mustLookup(t, "pattern.stripes").ReplacedBy)
	names := []string{}
	for _, d := range All() {
		names = append(names, d.Name)
	}
	require.Equal(t, []string{"pattern.generate", "palette.generate", "pattern.repeat", "pattern.stripes", "pattern.legacy"}, names)
	require.Len(t, Runnable(), 4)
}

func TestValidateMalformed(t *testing.T) {
	d := mustLookup(t, "pattern.generate")
	for _, body := range []string{``, ` `, `nul`, `{`, `[]`, `[1]`, `"str"`, `12`, `null`, `true`, `{"colors":["#000000"]} {}`, `{"colors":["#000000"]} x`} {
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
		task, body string
		code       apierr.Code
		field      string
	}{
		{"pattern.generate", `{"colors":["#000000","#fff"]}`, apierr.InvalidColour, "colors[1]"},
		{"pattern.generate", `{"colors":["#000000","#FFFFFF","#000000","#FFFFFF","#000000","#FFFFFF","#000000"]}`, apierr.TooManyColours, "colors"},
		{"pattern.generate", `{"colors":[]}`, apierr.InvalidRequest, "colors"},
		{"pattern.generate", `{}`, apierr.InvalidRequest, "colors"},
		{"pattern.generate", `{"colors":null}`, apierr.InvalidRequest, "colors"},
		{"pattern.generate", `{"colors":["#000000"],"kind":"zigzag"}`, apierr.InvalidOption, "kind"},
		{"pattern.generate", `{"colors":["#000000"],"kind":"dots","stripe_angle":45}`, apierr.FieldNotSupported, "stripe_angle"},
		{"pattern.generate", `{"colors":["#000000"],"stripe_angle":45,"amplitude":0.5}`, apierr.FieldNotSupported, "amplitude"},
		{"pattern.generate", `{"colors":["#000000"],"kind":"waves","amplitude":0.3}`, "", ""},
		{"pattern.generate", `{"colors":["#000000"],"kind":"dots","stripe_angle":null}`, "", ""},
		{"pattern.generate", `{"colors":["#000000"],"job_id":"j_1"}`, apierr.FieldNotAccepted, "job_id"},
		{"pattern.generate", `{"colors":["#000000"],"count":9}`, apierr.InvalidRequest, "count"},
		{"pattern.generate", `{"colors":["#000000"],"count":1.5}`, apierr.InvalidRequest, "count"},
		{"pattern.generate", `{"colors":["#000000"],"count":2.0}`, "", ""},
		{"pattern.generate", `{"colors":["#000000"],"count":1e400}`, apierr.InvalidRequest, "count"},
		// First failure by path: colors[1] sorts before count and zz.
		{"pattern.generate", `{"zz":1,"count":0,"colors":["#000000","bad"]}`, apierr.InvalidColour, "colors[1]"},
		{"pattern.generate", `{"b":1,"a":1,"colors":["#000000"]}`, apierr.FieldNotAccepted, "a"},
		{"palette.generate", `{"base_color":"blue"}`, apierr.InvalidColour, "base_color"},
		{"palette.generate", `{"base_color":"#123456","schemes":["triadic","triadic"]}`, apierr.InvalidRequest, "schemes"},
		{"palette.generate", `{"base_color":"#123456","schemes":["triadic","rainbow"]}`, apierr.InvalidOption, "schemes[1]"},
		{"palette.generate", `{"base_color":"#123456","kind":"stripes"}`, apierr.FieldNotAccepted, "kind"},
		{"pattern.stripes", `{"colors":["#000000"],"kind":"stripes"}`, apierr.FieldNotAccepted, "kind"},
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
			require.NotEmpty(t, e.Message)
		})
	}
}

func TestValidateDefaultsAndNulls(t *testing.T) {
	d := mustLookup(t, "pattern.generate")
	tests := []struct {
		body string
		want map[string]any
	}{
		{`{"colors":["#000000"]}`, map[string]any{"colors": []any{"#000000"}, "kind": "stripes", "count": int64(1),
			"resolution": "1024", "seed": int64(0), "use_case": "general", "stripe_angle": int64(0)}},
		{`{"colors":["#000000"],"count":null,"kind":null,"seed":5}`, map[string]any{"colors": []any{"#000000"}, "kind": "stripes",
			"count": int64(1), "resolution": "1024", "seed": int64(5), "use_case": "general", "stripe_angle": int64(0)}},
		{`{"colors":["#000000"],"kind":"dots"}`, map[string]any{"colors": []any{"#000000"}, "kind": "dots", "count": int64(1),
			"resolution": "1024", "seed": int64(0), "use_case": "general", "dot_size": 0.5}},
		{`{"colors":["#000000"],"kind":"chevron","amplitude":1}`, map[string]any{"colors": []any{"#000000"}, "kind": "chevron", "count": int64(1),
			"resolution": "1024", "seed": int64(0), "use_case": "general", "amplitude": int64(1)}},
	}
	for _, tc := range tests {
		t.Run(tc.body, func(t *testing.T) {
			in, err := d.Validate([]byte(tc.body))
			require.NoError(t, err)
			require.Equal(t, tc.want, in)
			// The returned input validates again unchanged.
			b, err := json.Marshal(in)
			require.NoError(t, err)
			again, err := d.Validate(b)
			require.NoError(t, err)
			require.Equal(t, in, again)
		})
	}
	p := mustLookup(t, "palette.generate")
	in, err := p.Validate([]byte(`{"base_color":"#123456","schemes":null}`))
	require.NoError(t, err)
	require.Equal(t, []any{"complementary", "analogous", "triadic"}, in["schemes"])
	require.Equal(t, true, in["labels"])
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
