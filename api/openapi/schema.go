package openapi

import (
	"reflect"
	"slices"
	"strings"

	"github.com/taskplatform/taskplatform/tasks"
)

// The schemas of the OpenAPI documents are read from the Go types the
// handlers answer with, so a field added to a view type is documented by
// the same change. What a Go type cannot say (enums, raw JSON, slices that
// may be null) is added by Overrides.

type M = map[string]any

// Overrides say what reflection cannot read of the answer types: Names
// the component name of a type written as a reference, Types the schemas
// of whole types, Fields the schema of one field (by its JSON name) of a
// struct type. The API sets them as its package is initialised, before its
// route table is built.
var Overrides struct {
	Names         func() map[reflect.Type]string
	Types, Fields func() map[reflect.Type]M
}

// ref points at a component schema.
func Ref(name string) M { return M{"$ref": "#/components/schemas/" + name} }

// object is an object schema with properties; required names the
// properties always present.
func Object(props M, required ...string) M {
	o := M{"type": "object", "properties": props}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

// freeObject is an object whose properties are not fixed (a JSON Schema,
// an output's data): any keys and values.
func FreeObject(description string) M {
	return M{"type": "object", "additionalProperties": true, "description": description}
}

// arrayOf is an array schema.
func ArrayOf(items M) M { return M{"type": "array", "items": items} }

// str, integer and boolean are the scalar schemas.
func Str() M     { return M{"type": "string"} }
func Integer() M { return M{"type": "integer"} }
func Boolean() M { return M{"type": "boolean"} }

// dateTime is an ISO-8601 UTC time.
func DateTime() M { return M{"type": "string", "format": "date-time"} }

// enum is a string schema taking only values.
func Enum[S ~string](values []S) M {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return M{"type": "string", "enum": out}
}

// nullable lets s also be null.
func Nullable(s M) M {
	t, ok := s["type"].(string)
	if !ok {
		return M{"oneOf": []any{s, M{"type": "null"}}}
	}
	out := make(M, len(s))
	for k, v := range s {
		out[k] = v
	}
	out["type"] = []any{t, "null"}
	if e, ok := s["enum"].([]any); ok {
		out["enum"] = append(slices.Clone(e), nil)
	}
	return out
}

// describe adds a description to a copy of s.
func Describe(s M, description string) M {
	out := make(M, len(s)+1)
	for k, v := range s {
		out[k] = v
	}
	out["description"] = description
	return out
}

// page is a cursor-paged list of items.
func Page(items M) M {
	return Object(M{"items": ArrayOf(items), "has_more": Boolean(),
		"next_cursor": Describe(Str(), "Present while has_more is true; send it back as cursor.")}, "items", "has_more")
}

// SchemaOf is the schema of the JSON encoding/json writes for a T.
func SchemaOf[T any]() M { return SchemaFor(reflect.TypeFor[T]()) }

// SchemaFor is the schema of the JSON encoding/json writes for t: a
// reference for a named component, else the schema read from the type.
func SchemaFor(t reflect.Type) M {
	if name, ok := Overrides.Names()[t]; ok {
		return Ref(name)
	}
	return ReadSchema(t)
}

// ReadSchema reads the schema of t itself, never a reference to t.
func ReadSchema(t reflect.Type) M {
	if s, ok := Overrides.Types()[t]; ok {
		return s
	}
	switch t.Kind() {
	case reflect.Pointer:
		return Nullable(SchemaFor(t.Elem()))
	case reflect.Struct:
		return structSchema(t)
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return Str()
		}
		return ArrayOf(SchemaFor(t.Elem()))
	case reflect.Map:
		return M{"type": "object", "additionalProperties": SchemaFor(t.Elem())}
	case reflect.String:
		return Str()
	case reflect.Bool:
		return Boolean()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return Integer()
	case reflect.Float32, reflect.Float64:
		return M{"type": "number"}
	}
	return M{} // an interface: any JSON value
}

// structSchema is the object encoding/json writes for a struct: one
// property per exported field (embedded structs flattened), required unless
// omitempty, with fieldSchemas' overrides.
func structSchema(t reflect.Type) M {
	props, required := M{}, []string{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for f := range t.Fields() {
			tag := f.Tag.Get("json")
			if tag == "-" || (!f.IsExported() && !f.Anonymous) {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
				walk(f.Type)
				continue
			}
			if name == "" {
				name = f.Name
			}
			s, ok := Overrides.Fields()[t][name].(M)
			switch {
			case ok:
			case slices.Contains(tasks.NullSlices[t], name):
				s = Nullable(SchemaFor(f.Type))
			default:
				s = SchemaFor(f.Type)
			}
			props[name] = s
			if !slices.Contains(strings.Split(opts, ","), "omitempty") {
				required = append(required, name)
			}
		}
	}
	walk(t)
	return Object(props, required...)
}
