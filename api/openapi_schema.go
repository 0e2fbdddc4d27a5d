package api

import (
	"reflect"
	"slices"
	"strings"
)

// The schemas of the OpenAPI documents are read from the Go types the
// handlers answer with, so a field added to a view type is documented by
// the same change. What a Go type cannot say (enums, raw JSON, slices that
// may be null) is added by typeSchemas and fieldSchemas.

type oa = map[string]any

// ref points at a component schema.
func ref(name string) oa { return oa{"$ref": "#/components/schemas/" + name} }

// object is an object schema with properties; required names the
// properties always present.
func object(props oa, required ...string) oa {
	o := oa{"type": "object", "properties": props}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

// freeObject is an object whose properties are not fixed (a JSON Schema,
// an output's data): any keys and values.
func freeObject(description string) oa {
	return oa{"type": "object", "additionalProperties": true, "description": description}
}

// arrayOf is an array schema.
func arrayOf(items oa) oa { return oa{"type": "array", "items": items} }

// str, integer and boolean are the scalar schemas.
func str() oa     { return oa{"type": "string"} }
func integer() oa { return oa{"type": "integer"} }
func boolean() oa { return oa{"type": "boolean"} }

// dateTime is an ISO-8601 UTC time.
func dateTime() oa { return oa{"type": "string", "format": "date-time"} }

// enum is a string schema taking only values.
func enum[S ~string](values []S) oa {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return oa{"type": "string", "enum": out}
}

// nullable lets s also be null.
func nullable(s oa) oa {
	t, ok := s["type"].(string)
	if !ok {
		return oa{"oneOf": []any{s, oa{"type": "null"}}}
	}
	out := make(oa, len(s))
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
func describe(s oa, description string) oa {
	out := make(oa, len(s)+1)
	for k, v := range s {
		out[k] = v
	}
	out["description"] = description
	return out
}

// page is a cursor-paged list of items.
func page(items oa) oa {
	return object(oa{"items": arrayOf(items), "has_more": boolean(),
		"next_cursor": describe(str(), "Present while has_more is true; send it back as cursor.")}, "items", "has_more")
}

// schemaOf is the schema of the JSON encoding/json writes for a T.
func schemaOf[T any]() oa { return schemaFor(reflect.TypeFor[T]()) }

// schemaFor is the schema of the JSON encoding/json writes for t: a
// reference for a named component, else the schema read from the type.
func schemaFor(t reflect.Type) oa {
	if name, ok := componentNames()[t]; ok {
		return ref(name)
	}
	return readSchema(t)
}

// readSchema reads the schema of t itself, never a reference to t.
func readSchema(t reflect.Type) oa {
	if s, ok := typeSchemas()[t]; ok {
		return s
	}
	switch t.Kind() {
	case reflect.Pointer:
		return nullable(schemaFor(t.Elem()))
	case reflect.Struct:
		return structSchema(t)
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return str()
		}
		return arrayOf(schemaFor(t.Elem()))
	case reflect.Map:
		return oa{"type": "object", "additionalProperties": schemaFor(t.Elem())}
	case reflect.String:
		return str()
	case reflect.Bool:
		return boolean()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return integer()
	case reflect.Float32, reflect.Float64:
		return oa{"type": "number"}
	}
	return oa{} // an interface: any JSON value
}

// structSchema is the object encoding/json writes for a struct: one
// property per exported field (embedded structs flattened), required unless
// omitempty, with fieldSchemas' overrides.
func structSchema(t reflect.Type) oa {
	props, required := oa{}, []string{}
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
			s, ok := fieldSchemas()[t][name].(oa)
			switch {
			case ok:
			case slices.Contains(nullSlices[t], name):
				s = nullable(schemaFor(f.Type))
			default:
				s = schemaFor(f.Type)
			}
			props[name] = s
			if !slices.Contains(strings.Split(opts, ","), "omitempty") {
				required = append(required, name)
			}
		}
	}
	walk(t)
	return object(props, required...)
}
