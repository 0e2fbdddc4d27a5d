package tasks

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// Vocabulary is a named list of values, served at GET /v1/vocab/{name}.
type Vocabulary struct {
	Name        string       `json:"name"`
	Description string       `json:"description"`
	Values      []VocabValue `json:"values"`
	Default     *string      `json:"default"`
	Concept     *string      `json:"concept"`
	SubsetOf    *string      `json:"subset_of"`
	Groups      []VocabGroup `json:"groups"`
	Source      *string      `json:"source"`
	// UsedIn lists the places outside task schemas that use the
	// vocabulary; the catalogue adds the task fields marked x-vocab.
	UsedIn []UsedIn `json:"used_in"`
}

// VocabValue is one value of a vocabulary.
type VocabValue struct {
	Value       string   `json:"value"`
	Label       string   `json:"label"`
	Description string   `json:"description"`
	ChooseWhen  string   `json:"choose_when,omitempty"`
	Group       string   `json:"group,omitempty"`
	Since       string   `json:"since,omitempty"`
	Default     bool     `json:"default,omitempty"`
	Deprecated  bool     `json:"deprecated,omitempty"`
	Aliases     []string `json:"aliases,omitempty"`
}

// VocabGroup is one group of a vocabulary's values.
type VocabGroup struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// UsedIn is one place a vocabulary is used; Direction is input or output.
type UsedIn struct {
	Where     string `json:"where"`
	Field     string `json:"field"`
	Direction string `json:"direction"`
}

// Enum lists the vocabulary's values in order, as a schema enum has them.
func (v Vocabulary) Enum() []string {
	out := make([]string, len(v.Values))
	for i, x := range v.Values {
		out[i] = x.Value
	}
	return out
}

// SharedVocabularies are the vocabularies of task fields that tasks of any
// family may use; every registry holds them before the families' own.
func SharedVocabularies() []Vocabulary {
	return []Vocabulary{ResolutionVocab(), UseCaseVocab()}
}

// ResolutionVocab is the side in pixels of a square output tile.
func ResolutionVocab() Vocabulary {
	return Vocabulary{
		Name: "resolution", Description: "The side in pixels of a square output tile.",
		Values: []VocabValue{
			{Value: "512", Label: "512 × 512 px", Description: "Small tile for previews, swatches and screens.", ChooseWhen: "you try ideas or need web backgrounds"},
			{Value: "1024", Label: "1024 × 1024 px", Description: "Standard tile; prints about 8.7 cm wide at 300 dpi.", ChooseWhen: "you are unsure", Default: true},
			{Value: "2048", Label: "2048 × 2048 px", Description: "Large tile for print; about 17.3 cm wide at 300 dpi.", ChooseWhen: "the tile goes to print or large screens"},
		},
		Default: new("1024"), Concept: new("output_resolution"),
	}
}

// UseCase is one value of the use_case vocabulary: where a design will be
// used and how many times a motif repeats across a tile for that use when
// the caller sets no repeat count.
type UseCase struct {
	Value, Label, Text string
	Repeats            int
}

// UseCases are the values of the use_case vocabulary; the first, general,
// is the default.
func UseCases() []UseCase {
	return []UseCase{
		{"general", "General", "No particular use.", 6},
		{"apparel", "Apparel", "Garments: small motifs that read at arm's length.", 8},
		{"home_textiles", "Home textiles", "Cushions, curtains and bedding: medium motifs.", 4},
		{"wallpaper", "Wallpaper", "Walls seen from across a room: large motifs.", 3},
		{"stationery", "Stationery", "Wrapping paper, cards and notebooks.", 6},
		{"packaging", "Packaging", "Boxes, bags and labels.", 5},
		{"digital", "Digital", "Screens: web backgrounds, slides and apps.", 4},
	}
}

// UseCaseVocab is where a design will be used.
func UseCaseVocab() Vocabulary {
	cases := UseCases()
	values := make([]VocabValue, len(cases))
	for i, u := range cases {
		values[i] = VocabValue{
			Value: u.Value, Label: u.Label, Default: i == 0,
			Description: fmt.Sprintf("%s Motifs repeat %d times across the tile unless repeats is sent.", u.Text, u.Repeats),
		}
	}
	return Vocabulary{
		Name: "use_case", Description: "Where a design will be used; it sets the motif size when repeats is not sent.",
		Values: values, Default: new(cases[0].Value), Concept: new("seamless_tile"),
	}
}

// VocabField is a task field whose values come from a vocabulary: its
// schema carries x-vocab.
type VocabField struct {
	// Vocab names the vocabulary.
	Vocab string
	// Field is the public path: data.… for output fields, [] for items.
	Field string
	// Direction is input or output.
	Direction string
	// Enum is the field's enum; nil when its schema lists none.
	Enum []string
}

// VocabFields lists the fields of the task's input, then output, schema
// that carry x-vocab, each schema's in the order of their paths.
func (d *Definition) VocabFields() []VocabField {
	var out []VocabField
	for _, s := range []struct {
		raw       []byte
		prefix    string
		direction string
	}{{d.InputSchema, "", "input"}, {d.OutputSchema, "data", "output"}} {
		var doc map[string]any
		if len(s.raw) == 0 || json.Unmarshal(s.raw, &doc) != nil {
			continue
		}
		walkVocab(doc, s.prefix, func(vocab, field string, enum []string) {
			out = append(out, VocabField{Vocab: vocab, Field: field, Direction: s.direction, Enum: enum})
		})
	}
	return out
}

func walkVocab(s map[string]any, path string, f func(vocab, field string, enum []string)) {
	if v, ok := s[VocabKeyword].(string); ok {
		var enum []string
		if e, ok := s["enum"].([]any); ok {
			enum = make([]string, len(e))
			for i, x := range e {
				enum[i] = fmt.Sprint(x)
			}
		}
		f(v, path, enum)
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(props)) {
			if ps, ok := props[k].(map[string]any); ok {
				walkVocab(ps, join(path, k), f)
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		walkVocab(items, path+"[]", f)
	}
}
