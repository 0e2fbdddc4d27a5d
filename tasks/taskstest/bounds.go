package taskstest

import (
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

// violations builds, from the published schema alone, one body per bound of
// every property — top-level ones, those of object fields and those of the
// object items of arrays — starting from the task's first example.
func violations(t *testing.T, d *tasks.Definition) []violation {
	var doc map[string]any
	require.NoError(t, json.Unmarshal(d.InputSchema, &doc))
	base := map[string]any{}
	require.NoError(t, json.Unmarshal(d.Examples[0].Input, &base))
	w := &walker{t: t, d: d}
	w.object(doc, base, "", "", func(m map[string]any) map[string]any { return m }, true)
	for k := range doc {
		require.Contains(
			t,
			[]string{
				"$schema",
				"title",
				"description",
				"type",
				"properties",
				"additionalProperties",
				"required",
				"allOf",
			},
			k,
		)
	}
	return w.out
}

// Violation is one request that breaks one bound of a task's published
// input schema.
type Violation struct {
	// Name names the field and the bound broken.
	Name string
	// Body is the whole request body.
	Body map[string]any
}

// Violations builds, from the published schema alone, one request body per
// bound of every property of d's input — top-level ones, those of object
// fields and those of the object items of arrays — each starting from the
// task's first example: what checkBounds sends to Validate, for tests that
// send it elsewhere (estimate and submit alike).
func Violations(t *testing.T, d *tasks.Definition) []Violation {
	var out []Violation
	for _, v := range violations(t, d) {
		out = append(out, Violation{Name: v.name, Body: v.body})
	}
	return out
}

// walker collects the violations of one task's schema.
type walker struct {
	t   *testing.T
	d   *tasks.Definition
	out []violation
}

func (w *walker) add(name string, body map[string]any, field, generic, kw string, code apierr.Code) {
	w.out = append(w.out, violation{name, body, field, generic, kw, code})
}

// structural are the keywords of an object schema the walker descends into
// rather than breaking in place.
var structural = map[string]bool{"properties": true, "required": true, "additionalProperties": true}

// object adds the violations of the properties of an object schema whose
// valid value is base, at field path (generic: indices written []); wrap
// turns a changed copy of base into a whole request body. top is the
// request itself, where the variant rules apply.
func (w *walker) object(
	schema, base map[string]any,
	path, generic string,
	wrap func(map[string]any) map[string]any,
	top bool,
) {
	d := w.d
	with := func(k string, v any) map[string]any {
		m := maps.Clone(base)
		if top && d.Variant != nil && d.Variant.Only[k] != nil {
			m[d.Variant.Field] = d.Variant.Only[k][0]
		}
		m[k] = v
		return wrap(m)
	}
	props, _ := schema["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p := props[name].(map[string]any)
		field, gen := join(path, name), join(generic, name)
		w.property(p, base[name], field, gen, func(v any) map[string]any { return with(name, v) })
		if top && d.Variant != nil {
			for _, val := range variantValues(d) {
				if !slices.Contains(d.Variant.Only[name], val) && d.Variant.Only[name] != nil {
					b := with(d.Variant.Field, val)
					if def, ok := p["default"]; ok || b[name] == nil {
						b[name] = orExample(p, def)
					}
					w.add(name+" with "+val, b, name, name, "false", apierr.FieldNotSupported)
				}
			}
			if d.Variant.Only[name] != nil && !slices.Contains(d.Variant.Only[name], d.Variant.Default) {
				b := maps.Clone(base)
				delete(b, d.Variant.Field)
				b[name] = orExample(p, p["default"])
				w.add(name+" with default variant", b, name, name, "false", apierr.FieldNotSupported)
			}
		}
	}
	required, _ := schema["required"].([]any)
	for _, r := range required {
		b := maps.Clone(base)
		delete(b, r.(string))
		w.add(
			join(path, r.(string))+" required",
			wrap(b),
			join(path, r.(string)),
			join(generic, r.(string)),
			"required",
			apierr.InvalidRequest,
		)
	}
	if schema["additionalProperties"] == false {
		f, g := join(path, "zz_not_a_field"), join(generic, "zz_not_a_field")
		w.add(f+" unknown field", with("zz_not_a_field", 1), f, g, "additionalProperties", apierr.FieldNotAccepted)
	}
}

// property adds the violations of one property of schema p whose valid
// value is val, at field path (generic: indices written []); set puts a
// value in its place in a whole request body. The branches of a oneOf are
// broken one by one, each from val when val is of its type.
func (w *walker) property(p map[string]any, val any, field, gen string, set func(any) map[string]any) {
	t, d := w.t, w.d
	add := func(kw string, body map[string]any, code apierr.Code) {
		w.add(field+" "+kw, body, field, gen, kw, code)
	}
	for _, kw := range slices.Sorted(maps.Keys(p)) {
		v := p[kw]
		switch kw {
		case "type":
			wrong := map[string]any{"string": 12, "integer": "x", "number": "x", "array": "x", "boolean": "x",
				"object": "x"}[v.(string)]
			add("type", set(wrong), apierr.InvalidRequest)
		case "enum":
			var bad any = "no_such_option"
			if _, isNum := v.([]any)[0].(float64); isNum {
				bad = 7
			}
			add("enum", set(bad), apierr.InvalidOption)
		case "minimum":
			add("minimum", set(v.(float64)-1), apierr.InvalidRequest)
		case "maximum":
			add("maximum", set(v.(float64)+1), apierr.InvalidRequest)
		case "pattern":
			add("pattern", set("bad"), apierr.InvalidRequest)
		case "minLength":
			add("minLength", set(strings.Repeat("a", int(v.(float64))-1)), apierr.InvalidRequest)
		case "maxLength":
			add("maxLength", set("https://"+strings.Repeat("a", int(v.(float64)))), apierr.InvalidRequest)
		case "contains":
			add("contains", set([]any{}), apierr.InvalidRequest) // an empty list contains nothing
		case "minItems", "maxItems", "uniqueItems":
			item := validItem(t, p, val)
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
			add(kw, set(arr), apierr.InvalidRequest)
		case "items":
			w.items(p, val, field, gen, func(arr []any) map[string]any { return set(arr) })
		case "properties":
			sub, ok := val.(map[string]any)
			require.True(t, ok, "%s: the first example has no object %s", d.Name, field)
			w.object(p, sub, field, gen, func(m map[string]any) map[string]any { return set(m) }, false)
		case "oneOf":
			for _, b := range v.([]any) {
				branch := b.(map[string]any)
				bv := val
				if !ofType(branch["type"], val) {
					bv = nil
				}
				w.property(branch, bv, field, gen, set)
			}
		default:
			require.True(
				t,
				slices.Contains(tasks.AnnotationKeywords, kw) || structural[kw],
				"%s: no violation for keyword %s of %s",
				d.Name,
				kw,
				field,
			)
		}
	}
}

// ofType says whether v, decoded from JSON, is of the JSON Schema type typ.
func ofType(typ any, v any) bool {
	switch v.(type) {
	case string:
		return typ == "string"
	case []any:
		return typ == "array"
	case map[string]any:
		return typ == "object"
	case float64:
		return typ == "number" || typ == "integer"
	case bool:
		return typ == "boolean"
	}
	return false
}

// items adds the violations of the items of array schema p, whose valid
// value is base: item 1 of a list otherwise valid (as long as minItems
// asks) is broken, or, for object items, walked.
func (w *walker) items(p map[string]any, base any, field, generic string, wrap func([]any) map[string]any) {
	t, d := w.t, w.d
	items := p["items"].(map[string]any)
	item := validItem(t, p, base)
	list := func(second any) []any {
		n := 2
		if m, ok := p["minItems"].(float64); ok {
			n = max(n, int(m))
		}
		arr := make([]any, n)
		for i := range arr {
			arr[i] = item
		}
		if b, ok := base.([]any); ok && len(b) >= n {
			arr = slices.Clone(b) // distinct valid items, should the list need them
		}
		arr[1] = second
		return arr
	}
	for _, ikw := range slices.Sorted(maps.Keys(items)) {
		var bad any
		code := apierr.InvalidRequest
		switch ikw {
		case "type":
			bad = 7
			if items[ikw] == "integer" || items[ikw] == "number" {
				bad = "7"
			}
		case "pattern":
			bad = "#12345G"
		case "enum":
			bad, code = "no_such_option", apierr.InvalidOption
		case "maxLength":
			bad = "https://" + strings.Repeat("a", int(items[ikw].(float64)))
		case "minimum":
			bad = items[ikw].(float64) - 1
		case "maximum":
			bad = items[ikw].(float64) + 1
		case "minItems", "maxItems":
			n := int(items[ikw].(float64)) - 1
			if ikw == "maxItems" {
				n += 2
			}
			inner := validItem(t, items, item)
			arr := make([]any, max(n, 0))
			for i := range arr {
				arr[i] = inner
			}
			bad = arr
		case "items":
			w.items(items, item, field+"[1]", generic+"[]", func(arr []any) map[string]any { return wrap(list(arr)) })
			continue
		case "properties":
			sub, ok := item.(map[string]any)
			require.True(t, ok, "%s: no valid object item of %s", d.Name, field)
			w.object(
				items,
				sub,
				field+"[1]",
				generic+"[]",
				func(m map[string]any) map[string]any { return wrap(list(m)) },
				false,
			)
			continue
		default:
			require.True(
				t,
				slices.Contains(tasks.AnnotationKeywords, ikw) || structural[ikw],
				"%s: no violation for items keyword %s of %s",
				d.Name,
				ikw,
				field,
			)
			continue
		}
		w.add(field+" items "+ikw, wrap(list(bad)), field+"[1]", generic+"[]", ikw, code)
	}
}

// join writes a field path: base.name.
func join(base, name string) string {
	if base == "" {
		return name
	}
	return base + "." + name
}

// validItem is a valid item of array schema p: the first of the example's
// list (base) when it has one, else one made from the items' schema.
func validItem(t *testing.T, p map[string]any, base any) any {
	if b, ok := base.([]any); ok && len(b) > 0 {
		return b[0]
	}
	items := p["items"].(map[string]any)
	if e, ok := items["enum"].([]any); ok {
		return e[0]
	}
	if e, ok := items["examples"].([]any); ok && len(e) > 0 {
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

// orExample is v, or, when v is nil (a field with no default the base
// example leaves out), the field's first schema example: a null would be
// read as absent and break no rule.
func orExample(p map[string]any, v any) any {
	if ex, _ := p["examples"].([]any); v == nil && len(ex) > 0 {
		return ex[0]
	}
	return v
}

// variantValues are the values of the variant field, its aliases left out.
func variantValues(d *tasks.Definition) []string {
	var doc map[string]any
	_ = json.Unmarshal(d.InputSchema, &doc)
	p := doc["properties"].(map[string]any)[d.Variant.Field].(map[string]any)
	aliases, _ := p[tasks.AliasesKeyword].(map[string]any)
	var out []string
	for _, v := range p["enum"].([]any) {
		if _, alias := aliases[v.(string)]; !alias {
			out = append(out, v.(string))
		}
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
