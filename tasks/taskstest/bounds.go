package taskstest

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// violation is one generated call that breaks one schema bound.
type violation struct {
	name    string
	body    map[string]any
	field   string
	generic string
	keyword string
	code    apierr.Code // the generic code before task rules
}

var annotations = map[string]bool{"description": true, "default": true, "examples": true, "title": true, tasks.VocabKeyword: true, tasks.RefKeyword: true}

// violations builds, from the published schema alone, one body per bound of
// every top-level property, starting from the task's first example.
func violations(t *testing.T, d *tasks.Definition) []violation {
	var doc map[string]any
	require.NoError(t, json.Unmarshal(d.InputSchema, &doc))
	base := map[string]any{}
	require.NoError(t, json.Unmarshal(d.Examples[0].Input, &base))
	with := func(k string, v any) map[string]any {
		m := maps.Clone(base)
		if d.Variant != nil && d.Variant.Only[k] != nil {
			m[d.Variant.Field] = d.Variant.Only[k][0]
		}
		m[k] = v
		return m
	}
	var out []violation
	add := func(name string, body map[string]any, field, generic, kw string, code apierr.Code) {
		out = append(out, violation{name, body, field, generic, kw, code})
	}
	props := doc["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p := props[name].(map[string]any)
		for _, kw := range slices.Sorted(maps.Keys(p)) {
			v := p[kw]
			switch kw {
			case "type":
				wrong := map[string]any{"string": 12, "integer": "x", "number": "x", "array": "x", "boolean": "x", "object": "x"}[v.(string)]
				add(name+" type", with(name, wrong), name, name, "type", apierr.InvalidRequest)
			case "enum":
				var bad any = "no_such_option"
				if _, isNum := v.([]any)[0].(float64); isNum {
					bad = 7
				}
				add(name+" enum", with(name, bad), name, name, "enum", apierr.InvalidOption)
			case "minimum":
				add(name+" minimum", with(name, v.(float64)-1), name, name, "minimum", apierr.InvalidRequest)
			case "maximum":
				add(name+" maximum", with(name, v.(float64)+1), name, name, "maximum", apierr.InvalidRequest)
			case "pattern":
				add(name+" pattern", with(name, "bad"), name, name, "pattern", apierr.InvalidRequest)
			case "minLength":
				add(name+" minLength", with(name, strings.Repeat("a", int(v.(float64))-1)), name, name, "minLength", apierr.InvalidRequest)
			case "maxLength":
				add(name+" maxLength", with(name, "https://"+strings.Repeat("a", int(v.(float64)))), name, name, "maxLength", apierr.InvalidRequest)
			case "minItems", "maxItems", "uniqueItems":
				item := validItem(t, p)
				n := 2 // uniqueItems: the same item twice
				switch kw {
				case "minItems":
					n = int(p[kw].(float64)) - 1
				case "maxItems":
					n = int(p[kw].(float64)) + 1
				}
				arr := make([]any, max(n, 0))
				for i := range arr {
					arr[i] = item
				}
				add(name+" "+kw, with(name, arr), name, name, kw, apierr.InvalidRequest)
			case "items":
				items := v.(map[string]any)
				item := validItem(t, p)
				for _, ikw := range slices.Sorted(maps.Keys(items)) {
					var bad any
					code := apierr.InvalidRequest
					switch ikw {
					case "type":
						bad = 7
					case "pattern":
						bad = "#12345G"
					case "enum":
						bad, code = "no_such_option", apierr.InvalidOption
					case "maxLength":
						bad = "https://" + strings.Repeat("a", int(items[ikw].(float64)))
					default:
						require.True(t, annotations[ikw], "%s: no violation for items keyword %s", d.Name, ikw)
						continue
					}
					add(name+" items "+ikw, with(name, []any{item, bad}), name+"[1]", name+"[]", ikw, code)
				}
			default:
				require.True(t, annotations[kw], "%s: no violation for keyword %s of %s", d.Name, kw, name)
			}
		}
		if d.Variant != nil {
			for _, val := range variantValues(d) {
				if !slices.Contains(d.Variant.Only[name], val) && d.Variant.Only[name] != nil {
					b := with(d.Variant.Field, val)
					b[name] = p["default"]
					add(name+" with "+val, b, name, name, "false", apierr.FieldNotSupported)
				}
			}
			if d.Variant.Only[name] != nil && !slices.Contains(d.Variant.Only[name], d.Variant.Default) {
				b := maps.Clone(base)
				delete(b, d.Variant.Field)
				b[name] = p["default"]
				add(name+" with default variant", b, name, name, "false", apierr.FieldNotSupported)
			}
		}
	}
	for _, r := range doc["required"].([]any) {
		b := maps.Clone(base)
		delete(b, r.(string))
		add(r.(string)+" required", b, r.(string), r.(string), "required", apierr.InvalidRequest)
	}
	add("unknown field", with("zz_not_a_field", 1), "zz_not_a_field", "zz_not_a_field", "additionalProperties", apierr.FieldNotAccepted)
	for k := range doc {
		require.Contains(t, []string{"$schema", "title", "description", "type", "properties", "additionalProperties", "required", "allOf"}, k)
	}
	return out
}

func validItem(t *testing.T, p map[string]any) any {
	items := p["items"].(map[string]any)
	if e, ok := items["enum"].([]any); ok {
		return e[0]
	}
	if items["pattern"] == tasks.ColourPattern {
		return "#ABCDEF"
	}
	if items["pattern"] == tasks.RefPattern {
		return "file:abc123"
	}
	t.Fatalf("no valid item for %v", p)
	return nil
}

func variantValues(d *tasks.Definition) []string {
	var doc map[string]any
	_ = json.Unmarshal(d.InputSchema, &doc)
	var out []string
	for _, v := range doc["properties"].(map[string]any)[d.Variant.Field].(map[string]any)["enum"].([]any) {
		out = append(out, v.(string))
	}
	return out
}

func expectedCode(d *tasks.Definition, v violation) apierr.Code {
	for _, r := range d.ErrorRules {
		if r.Field == v.generic && r.Keyword == v.keyword {
			return r.Code
		}
	}
	return v.code
}

// checkBounds breaks every bound of the published schema and checks the
// documented code and field.
func checkBounds(t *testing.T, d *tasks.Definition) {
	for _, v := range violations(t, d) {
		t.Run(v.name, func(t *testing.T) {
			body, err := json.Marshal(v.body)
			require.NoError(t, err)
			_, err = d.Validate(body)
			require.Error(t, err, string(body))
			e := apierr.As(err)
			require.Equal(t, expectedCode(d, v), e.Code, "%s: %s", body, e.Message)
			require.NotNil(t, e.Field)
			require.Equal(t, v.field, *e.Field)
			require.Equal(t, 422, e.Status)
		})
	}
}

// reachableCodes is every code a call of the task can answer: the codes its
// validation answers (found by breaking every bound), malformed bodies, the
// codes of every call, and the warnings its runner reports on its examples.
func reachableCodes(t *testing.T, d *tasks.Definition) map[apierr.Code]bool {
	got := map[apierr.Code]bool{}
	for _, v := range violations(t, d) {
		got[expectedCode(d, v)] = true
	}
	_, err := d.Validate([]byte(`[]`))
	got[apierr.As(err).Code] = true
	for _, c := range tasks.CallErrors {
		got[c] = true
	}
	if len(d.RefFields()) > 0 {
		for _, c := range tasks.RefErrors {
			got[c] = true
		}
	}
	if len(d.RefSides) > 0 || d.Refuse != nil {
		got[apierr.RequestRefused] = true // an upload of the wrong size, or the task's own refusal
	}
	for i := range d.Examples {
		files, err := d.ExampleOutputs(context.Background(), i)
		require.NoError(t, err)
		for _, f := range files {
			for _, w := range f.Warnings {
				got[apierr.Code(w.Code)] = true
			}
		}
	}
	return got
}

// checkErrors checks the docs list exactly the codes a call can answer,
// each of them catalogued.
func checkErrors(t *testing.T, d *tasks.Definition) {
	reach := reachableCodes(t, d)
	listed := map[apierr.Code]bool{}
	for _, c := range d.Docs.Errors {
		_, ok := apierr.Lookup(c)
		require.True(t, ok, "listed code %s is not catalogued", c)
		listed[c] = true
	}
	require.Equal(t, sortedCodes(reach), sortedCodes(listed))
}

func sortedCodes(m map[apierr.Code]bool) []string {
	var out []string
	for c := range m {
		out = append(out, string(c))
	}
	slices.Sort(out)
	return out
}
