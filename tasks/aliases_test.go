package tasks

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
)

// shapeVocab is a vocabulary whose values have aliases, older spellings.
func shapeVocab() Vocabulary {
	return Vocabulary{Name: "shape_kind", Default: new("round"), Values: []VocabValue{
		{Value: "round", Label: "Round", Aliases: []string{"circle", "disc"}},
		{Value: "polygon", Label: "Polygon", Aliases: []string{"poly"}},
		{Value: "star", Label: "Star"},
	}}
}

// aliasTask takes shape_kind as its variant field and as a list of unique
// items.
func aliasTask() *Definition {
	v := &Variant{
		Field:   "shape",
		Default: "round",
		Only:    map[string][]string{"radius": {"round"}, "sides": {"polygon", "star"}},
	}
	props := map[string]any{
		"shape":  VocabEnum(shapeVocab(), "The shape."),
		"radius": map[string]any{"type": "number", "minimum": 0.1, "default": 0.5},
		"sides":  map[string]any{"type": "integer", "minimum": 3, "default": 6},
		"others": map[string]any{"type": "array", "items": VocabEnum(shapeVocab(), "A shape."), "uniqueItems": true},
	}
	return &Definition{Name: "test.aliases", Category: CategoryDesignGeneration, Runner: countRunner{},
		InputSchema: MustJSON(ObjectSchema("test.aliases input", "", props, nil, v)), Variant: v}
}

func TestAliasesValidateAsTheirValue(t *testing.T) {
	d := aliasTask()
	served, err := CompileSchema("served", d.InputSchema)
	require.NoError(t, err)
	tests := []struct {
		body  string
		want  map[string]any
		code  apierr.Code
		field string
	}{
		{body: `{"shape":"circle"}`, want: map[string]any{"shape": "round", "radius": 0.5}},
		{body: `{"shape":"disc","radius":0.2}`, want: map[string]any{"shape": "round", "radius": 0.2}},
		{body: `{"shape":"poly","sides":5}`, want: map[string]any{"shape": "polygon", "sides": int64(5)}},
		{body: `{"shape":"polygon","others":["circle","poly","star"]}`,
			want: map[string]any{"shape": "polygon", "sides": int64(6), "others": []any{"round", "polygon", "star"}}},
		{body: `{"shape":"poly","radius":0.2}`, code: apierr.FieldNotSupported, field: "radius"},
		{body: `{"shape":"circle","sides":5}`, code: apierr.FieldNotSupported, field: "sides"},
		{body: `{"others":["round","circle"]}`, code: apierr.InvalidRequest, field: "others"},
		{body: `{"others":["disc","circle"]}`, code: apierr.InvalidRequest, field: "others"},
		{body: `{"shape":"square"}`, code: apierr.InvalidOption, field: "shape"},
	}
	for _, tc := range tests {
		t.Run(tc.body, func(t *testing.T) {
			in, err := d.Validate([]byte(tc.body))
			if tc.code != "" {
				e := apierr.As(err)
				require.Equal(t, tc.code, e.Code, e.Message)
				require.Equal(t, tc.field, *e.Field)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, in.Fields)
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(tc.body)))
			require.NoError(t, err)
			require.NoError(t, served.Validate(inst), "the schema served takes what the service takes")
		})
	}
	_, err = d.Validate([]byte(`{"shape":"square"}`))
	require.Equal(
		t,
		`shape: value must be one of "round", "polygon", "star", or an alias of one (GET /v1/vocab/shape_kind).`,
		apierr.As(err).Message,
	)
}

// The schema lists the values, then the aliases, and maps each alias to
// its value; the registry holds a field's enum and aliases to its
// vocabulary's, and a vocabulary to one meaning per spelling.
func TestAliasesInTheSchemaAndRegistry(t *testing.T) {
	var doc struct {
		Properties map[string]struct {
			Enum    []string          `json:"enum"`
			Aliases map[string]string `json:"x-aliases"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(aliasTask().InputSchema, &doc))
	require.Equal(t, []string{"round", "polygon", "star", "circle", "disc", "poly"}, doc.Properties["shape"].Enum)
	require.Equal(
		t,
		map[string]string{"circle": "round", "disc": "round", "poly": "polygon"},
		doc.Properties["shape"].Aliases,
	)
	_, hasAliases := VocabEnum(ResolutionVocab(), "")[AliasesKeyword]
	require.False(t, hasAliases, "a vocabulary without aliases adds no x-aliases")

	r := NewRegistry()
	require.NoError(
		t,
		r.Add(Family{Name: "x", Vocabularies: []Vocabulary{shapeVocab()}, Tasks: []*Definition{aliasTask()}}),
	)

	twice := shapeVocab()
	twice.Values[2].Aliases = []string{"round"}
	noAliases := aliasTask()
	noAliases.InputSchema = json.RawMessage(
		`{"type":"object","properties":{"shape":{"type":"string","x-vocab":"shape_kind",
		"enum":["round","polygon","star","circle","disc","poly"]}}}`,
	)
	for name, f := range map[string]Family{
		"an alias is another value": {Name: "y", Vocabularies: []Vocabulary{twice}},
		"a field without the aliases map": {Name: "y", Vocabularies: []Vocabulary{shapeVocab()}, Tasks: []*Definition{
			noAliases}},
	} {
		require.Error(t, NewRegistry().Add(f), name)
	}
}
