package tasks

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

type derivedSize struct {
	W float64 `json:"w" schema:"required"`
	H float64 `json:"h"`
}

type derivedInput struct {
	Colors []string     `json:"colors" schema:"required"`
	Count  int          `json:"count"`
	Seed   *int64       `json:"seed"`
	Size   *derivedSize `json:"size"`
}

func (derivedInput) FieldSchemas() map[string]any {
	return map[string]any{
		"colors": map[string]any{"items": ColourSchema("A colour."), "minItems": 1, "description": "The colours."},
		"count":  map[string]any{"minimum": 1, "default": 1, "description": "How many."},
		"seed":   map[string]any{"type": "integer", "description": "The seed."},
		"size": map[string]any{"description": "The size.", "properties": map[string]any{
			"w": map[string]any{"description": "Width."},
			"h": map[string]any{"default": 1, "description": "Height."},
		}},
	}
}

// TestInputSchemaIsTheStruct shows the schema a caller is served follows
// the input struct: its names, JSON types, required fields and nesting,
// with the keywords FieldSchemas adds.
func TestInputSchemaIsTheStruct(t *testing.T) {
	got, err := json.Marshal(InputSchema[derivedInput]("x input", "An x.", nil))
	require.NoError(t, err)
	require.JSONEq(t, `{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"x input",
		"description":"An x.","type":"object","additionalProperties":false,"required":["colors"],"properties":{
		"colors":{"type":"array","minItems":1,"description":"The colours.","items":{"type":"string",
			"pattern":"^#[0-9A-Fa-f]{6}$","description":"A colour.","examples":["#1F6FEB"]}},
		"count":{"type":"integer","minimum":1,"default":1,"description":"How many."},
		"seed":{"type":"integer","description":"The seed."},
		"size":{"type":"object","description":"The size.","required":["w"],"properties":{
			"w":{"type":"number","description":"Width."},
			"h":{"type":"number","default":1,"description":"Height."}}}}}`, string(got))
}

type misspelt struct {
	Colors []string `json:"colours" schema:"required"`
}

type wrongType struct {
	Seed *string `json:"seed"`
}

type optionalValue struct {
	Seed int64 `json:"seed"`
}

type requiredPointer struct {
	Seed *int64 `json:"seed" schema:"required"`
}

type wrongNested struct {
	Size *struct {
		W string `json:"w"`
	} `json:"size"`
}

// TestInputSchemaRefusesDrift shows each way a struct and its keywords can
// disagree is refused when the schema is built, before anything is served.
func TestInputSchemaRefusesDrift(t *testing.T) {
	seed := map[string]any{"seed": map[string]any{"type": "integer"}}
	for _, tc := range []struct {
		name   string
		build  func()
		reason string // after the type's name
	}{
		{"misspelt", func() {
			DerivedSchema[misspelt]("", "", map[string]any{"colors": map[string]any{}}, nil)
		}, "colours: a field with no schema in FieldSchemas"},
		{"property without field", func() {
			DerivedSchema[optionalValue]("", "", map[string]any{"seed": map[string]any{"default": 0}, "count": map[string]any{}},
				nil)
		}, "count: a schema in FieldSchemas with no field"},
		{"wrong type", func() { DerivedSchema[wrongType]("", "", seed, nil) }, "seed: string for a JSON integer"},
		{"optional value", func() { DerivedSchema[optionalValue]("", "", seed, nil) },
			"seed: optional without a default, so a pointer, slice or map"},
		{"required pointer", func() { DerivedSchema[requiredPointer]("", "", seed, nil) },
			"seed: required or defaulted, so not a pointer"},
		{"nested", func() {
			DerivedSchema[wrongNested]("", "", map[string]any{"size": map[string]any{"properties": map[string]any{
				"w": map[string]any{"type": "number", "default": 1}}}}, nil)
		}, "size.w: string for a JSON number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				require.Regexp(t, `^tasks: input schema of tasks\.\w+: `+tc.reason+`$`, recover())
			}()
			tc.build()
		})
	}
}
