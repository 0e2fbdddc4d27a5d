package taskstest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/tasks"
)

// checkServed holds a task's page, as the catalogue serves it (GET
// /v1/tasks/{name}), to what the API's OpenAPI document requires of the
// Task schema it writes from the same Go types: no field null unless its
// type lets it be (a pointer, or a slice tasks.NullSlices names), and a
// category of the task_category vocabulary.
func checkServed(t *testing.T, d *tasks.Definition) {
	v := catalogue.View(d)
	require.Empty(t, NullFields(v), "served as null where the API's OpenAPI document (Task) requires a value: "+
		"write an empty slice or map, not nil")
	if v.Category != nil {
		require.Contains(t, catalogue.Empty().VocabValues("task_category"), *v.Category,
			"the task's category is a value of the task_category vocabulary")
	}
}

// checkFamilyServed holds what r's families bring that the API serves —
// vocabularies, concepts and recipes, as the catalogue serves them — to the
// same rule as checkServed.
func checkFamilyServed(t *testing.T, r *tasks.Registry) {
	c := catalogue.New(r)
	for name, v := range map[string]any{"vocabularies": c.Vocabularies(), "concepts": c.Concepts(),
		"recipes": c.Recipes()} {
		require.Empty(t, NullFields(v), "%s served as null where the API's OpenAPI document requires a value: "+
			"write an empty slice or map, not nil", name)
	}
}

// rawMessage is json.RawMessage, which the document writes as any JSON value.
var rawMessage = reflect.TypeFor[json.RawMessage]()

// NullFields lists the fields of v, by their JSON paths, that encoding/json
// writes as null where the API's OpenAPI document requires a value: a nil
// slice or map of a field that is neither omitempty nor named by
// tasks.NullSlices. Pointers, interfaces and raw JSON may be null (the
// document writes them so). It walks v as the document's schemas are
// written from Go types (api/openapi/schema.go): exported fields by JSON
// name, embedded structs flattened.
func NullFields(v any) []string {
	var out []string
	nullFields(reflect.ValueOf(v), "", &out)
	return out
}

func nullFields(v reflect.Value, path string, out *[]string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			nullFields(v.Elem(), path, out)
		}
	case reflect.Slice, reflect.Array:
		if v.Type() == rawMessage {
			return
		}
		for i := range v.Len() {
			nullFields(v.Index(i), fmt.Sprintf("%s[%d]", path, i), out)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			nullFields(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()), out)
		}
	case reflect.Struct:
		structNullFields(v, path, out)
	}
}

func structNullFields(v reflect.Value, path string, out *[]string) {
	t := v.Type()
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		fv := v.FieldByIndex(f.Index)
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			structNullFields(fv, path, out)
			continue
		}
		if name == "" {
			name = f.Name
		}
		field := name
		if path != "" {
			field = path + "." + name
		}
		kind := f.Type.Kind()
		if (kind == reflect.Slice || kind == reflect.Map) && fv.IsNil() {
			if f.Type != rawMessage && !slices.Contains(strings.Split(opts, ","), "omitempty") &&
				!slices.Contains(tasks.NullSlices[t], name) {
				*out = append(*out, field)
			}
			continue
		}
		nullFields(fv, field, out)
	}
}
