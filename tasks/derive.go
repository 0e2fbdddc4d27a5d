package tasks

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Described is a task's input struct, the one source of its input schema:
// its fields (json tags naming them, `schema:"required"` marking the
// required ones) are the schema's properties, their Go types the
// properties' JSON types, and FieldSchemas says what a tag cannot — for
// each field by JSON name, its keywords: description, default, bounds,
// enum and x-vocab (VocabEnum), pattern, examples, a oneOf of a field
// that decodes itself, and the same for the fields of a nested object
// (under "properties") or of an array's items (under "items").
type Described interface {
	FieldSchemas() map[string]any
}

// InputSchema is the input schema of a task over In, derived from In (see
// Described) and closed like ObjectSchema, with the variant rule of v. It
// panics when In and its FieldSchemas disagree (a property with no field,
// a field with no schema, a type the field cannot hold, an optional field
// without a default that is not a pointer, slice or map): a programming
// error every test of the family catches.
func InputSchema[In Described](title, description string, v *Variant) map[string]any {
	var zero In
	return DerivedSchema[In](title, description, zero.FieldSchemas(), v)
}

// DerivedSchema is InputSchema with the fields' keywords given, for a task
// whose keywords depend on the service's options (the video formats this
// service's ffmpeg can write).
func DerivedSchema[In any](title, description string, fields map[string]any, v *Variant) map[string]any {
	props, required, err := deriveObject(reflect.TypeFor[In](), fields, "")
	if err != nil {
		panic(fmt.Sprintf("tasks: input schema of %T: %v", *new(In), err))
	}
	return ObjectSchema(title, description, props, required, v)
}

// deriveObject is the properties and required list of struct t, each
// property its annotation with the type the field's Go type says.
func deriveObject(t reflect.Type, ann map[string]any, path string) (map[string]any, []string, error) {
	props := map[string]any{}
	var required []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			return nil, nil, fmt.Errorf("%s%s: a field without a json tag", path, f.Name)
		}
		a, ok := ann[name].(map[string]any)
		if !ok {
			return nil, nil, fmt.Errorf("%s%s: a field with no schema in FieldSchemas", path, name)
		}
		a = maps.Clone(a)
		req := f.Tag.Get("schema") == "required"
		_, hasDefault := a["default"]
		k := f.Type.Kind()
		switch {
		case !req && !hasDefault && k != reflect.Pointer && k != reflect.Slice && k != reflect.Map &&
			!decodesItself(f.Type):
			return nil, nil, fmt.Errorf("%s%s: optional without a default, so a pointer, slice or map", path, name)
		case (req || hasDefault) && k == reflect.Pointer:
			return nil, nil, fmt.Errorf("%s%s: required or defaulted, so not a pointer", path, name)
		}
		if err := deriveType(f.Type, a, path+name); err != nil {
			return nil, nil, err
		}
		props[name] = a
		if req {
			required = append(required, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(ann)) {
		if _, ok := props[name]; !ok {
			return nil, nil, fmt.Errorf("%s%s: a schema in FieldSchemas with no field", path, name)
		}
	}
	return props, required, nil
}

// jsonTypes are the JSON types of the Go kinds an input field may have.
var jsonTypes = map[reflect.Kind]string{
	reflect.String: "string", reflect.Bool: "boolean",
	reflect.Int: "integer", reflect.Int32: "integer", reflect.Int64: "integer",
	reflect.Float32: "number", reflect.Float64: "number",
	reflect.Slice: "array", reflect.Struct: "object", reflect.Map: "object",
}

// deriveType writes the JSON type of Go type t into the property schema a
// (an annotation that names a type must name that one), and derives an
// array's items and a nested object's properties the same way.
func deriveType(t reflect.Type, a map[string]any, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if decodesItself(t) || t == reflect.TypeFor[json.RawMessage]() || t.Kind() == reflect.Interface {
		return nil // a oneOf of several shapes: the annotation says them all
	}
	want, ok := jsonTypes[t.Kind()]
	if !ok {
		return fmt.Errorf("%s: %s has no JSON type", path, t)
	}
	if err := sameType(a["type"], want); err != nil {
		return fmt.Errorf("%s: %s for %w", path, t, err)
	}
	if _, ok := a["type"]; !ok {
		a["type"] = want
	}
	switch t.Kind() {
	case reflect.Slice:
		items, _ := a["items"].(map[string]any)
		items = maps.Clone(items)
		if items == nil {
			items = map[string]any{}
		}
		if err := deriveType(t.Elem(), items, path+"[]"); err != nil {
			return err
		}
		a["items"] = items
	case reflect.Struct:
		sub, _ := a["properties"].(map[string]any)
		props, required, err := deriveObject(t, sub, path+".")
		if err != nil {
			return err
		}
		a["properties"] = props
		delete(a, "required")
		if len(required) > 0 {
			a["required"] = required
		}
	}
	return nil
}

// sameType checks an annotation's type keyword (absent, a name, or a list
// of names with "null") against the type the Go field holds.
func sameType(typ any, want string) error {
	switch v := typ.(type) {
	case nil:
		return nil
	case string:
		if v == want {
			return nil
		}
	case []any:
		for _, x := range v {
			if x == want {
				return nil
			}
		}
	}
	return fmt.Errorf("a JSON %v", typ)
}

// decodesItself reports a type that decodes itself (a oneOf of several
// shapes).
func decodesItself(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]())
}
