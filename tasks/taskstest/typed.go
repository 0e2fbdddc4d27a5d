package taskstest

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks"
)

// checkTyped checks that the task's input struct is its input schema:
// every property is a field with its JSON name and every field a property;
// each field's Go type takes the property's JSON type; a required property
// or one with a default (always applied) is a value, and an optional one
// without a default is a pointer, slice or map, so its absence shows.
func checkTyped(t *testing.T, d *tasks.Definition) {
	tr, ok := d.Runner.(tasks.TypedRunner)
	require.True(t, ok, "%s's Runner is tasks.Typed: its input is one Go struct", d.Name)
	var schema map[string]any
	require.NoError(t, json.Unmarshal(d.InputSchema, &schema))
	for _, p := range StructMismatches(tr.InputType(), schema, "") {
		t.Error(p)
	}
}

// StructMismatches lists where Go type typ differs from the object schema
// at path; empty when they agree.
func StructMismatches(typ reflect.Type, schema map[string]any, path string) []string {
	var out []string
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ.Kind() == reflect.Map {
		return nil // additionalProperties: checked by the schema alone
	}
	if typ.Kind() != reflect.Struct {
		return []string{path + ": " + typ.String() + " is not a struct for an object"}
	}
	props, _ := schema["properties"].(map[string]any)
	required, _ := schema["required"].([]any)
	fields := map[string]reflect.StructField{}
	for f := range typ.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			out = append(out, path+f.Name+": field without a json tag")
			continue
		}
		fields[name] = f
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range props {
			if !yield(k) {
				return
			}
		}
	}) {
		p, _ := props[name].(map[string]any)
		f, ok := fields[name]
		if !ok {
			out = append(out, path+name+": a property of the schema with no field")
			continue
		}
		delete(fields, name)
		_, hasDefault := p["default"]
		optional := !slices.Contains(required, any(name)) && !hasDefault
		switch k := f.Type.Kind(); {
		case optional && k != reflect.Pointer && k != reflect.Slice && k != reflect.Map && !isUnion(f.Type):
			out = append(out, path+name+": optional without a default, so a pointer, slice or map")
		case !optional && k == reflect.Pointer:
			out = append(out, path+name+": required or defaulted, so not a pointer")
		}
		out = append(out, typeMismatches(f.Type, p, path+name)...)
	}
	for name := range fields {
		out = append(out, path+name+": a field that is no property of the schema")
	}
	return out
}

// isUnion reports a type that decodes itself (a oneOf of several shapes).
func isUnion(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]())
}

// typeMismatches compares a field's Go type with its property schema.
func typeMismatches(t reflect.Type, p map[string]any, path string) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if isUnion(t) || t == reflect.TypeFor[json.RawMessage]() {
		return nil
	}
	types := schemaTypes(p)
	if len(types) == 0 {
		if t.Kind() == reflect.Interface {
			return nil
		}
		return []string{path + ": the schema names no type (a oneOf?); use a type that decodes itself"}
	}
	want := map[string][]reflect.Kind{
		"string":  {reflect.String},
		"integer": {reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint32, reflect.Uint64},
		"number":  {reflect.Float64, reflect.Float32},
		"boolean": {reflect.Bool},
		"array":   {reflect.Slice},
		"object":  {reflect.Struct, reflect.Map},
	}
	for _, typ := range types {
		if !slices.Contains(want[typ], t.Kind()) {
			return []string{path + ": " + t.String() + " for a JSON " + typ}
		}
	}
	switch t.Kind() {
	case reflect.Slice:
		if items, ok := p["items"].(map[string]any); ok {
			return typeMismatches(t.Elem(), items, path+"[]")
		}
	case reflect.Struct:
		return StructMismatches(t, p, path+".")
	}
	return nil
}

// schemaTypes are the JSON types a property schema allows, null aside.
func schemaTypes(p map[string]any) []string {
	switch v := p["type"].(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok && s != "null" {
				out = append(out, s)
			}
		}
		return out
	}
	if _, ok := p["enum"]; ok {
		return []string{"string"}
	}
	return nil
}
