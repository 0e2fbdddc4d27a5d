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

// Enum lists the vocabulary's values in order.
func (v Vocabulary) Enum() []string {
	out := make([]string, len(v.Values))
	for i, x := range v.Values {
		out[i] = x.Value
	}
	return out
}

// Accepted lists what a task field bound to the vocabulary accepts, as its
// schema enum has them: the values in order, then every value's aliases in
// the same order.
func (v Vocabulary) Accepted() []string {
	out := v.Enum()
	for _, x := range v.Values {
		out = append(out, x.Aliases...)
	}
	return out
}

// AliasMap maps each alias to its value; nil when no value has an alias.
func (v Vocabulary) AliasMap() map[string]string {
	var out map[string]string
	for _, x := range v.Values {
		for _, a := range x.Aliases {
			if out == nil {
				out = map[string]string{}
			}
			out[a] = x.Value
		}
	}
	return out
}

// checkAliases holds a vocabulary's aliases to what a field bound to it
// needs: every alias names one value, and is not itself a value.
func (v Vocabulary) checkAliases() error {
	seen := map[string]bool{}
	for _, s := range v.Accepted() {
		if seen[s] {
			return fmt.Errorf("vocabulary %s accepts %q twice (as a value or an alias)", v.Name, s)
		}
		seen[s] = true
	}
	return nil
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
			{
				Value:       "512",
				Label:       "512 × 512 px",
				Description: "Small tile for previews, swatches and screens.",
				ChooseWhen:  "you try ideas or need web backgrounds",
			},
			{
				Value:       "1024",
				Label:       "1024 × 1024 px",
				Description: "Standard tile; prints about 8.7 cm wide at 300 dpi.",
				ChooseWhen:  "you are unsure",
				Default:     true,
			},
			{
				Value:       "2048",
				Label:       "2048 × 2048 px",
				Description: "Large tile for print; about 17.3 cm wide at 300 dpi.",
				ChooseWhen:  "the tile goes to print or large screens",
			},
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
			Description: fmt.Sprintf(
				"%s Motifs repeat %d times across the tile unless repeats is sent.",
				u.Text,
				u.Repeats,
			),
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
	// Enum is the field's enum: what it accepts, the vocabulary's values
	// then their aliases (Vocabulary.Accepted); nil when its schema lists
	// none.
	Enum []string
	// Aliases is the field's AliasesKeyword: each alias accepted, mapped to
	// the value it stands for; nil when the field accepts none.
	Aliases map[string]string
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
		walkVocab(doc, s.prefix, func(f VocabField) {
			f.Direction = s.direction
			out = append(out, f)
		})
	}
	return out
}

// walkVocab calls f with every field of schema s marked x-vocab, Vocab,
// Field, Enum and Aliases set, in the order of their paths.
func walkVocab(s map[string]any, path string, f func(VocabField)) {
	if v, ok := s[VocabKeyword].(string); ok {
		vf := VocabField{Vocab: v, Field: path}
		if e, ok := s["enum"].([]any); ok {
			vf.Enum = make([]string, len(e))
			for i, x := range e {
				vf.Enum[i] = fmt.Sprint(x)
			}
		}
		if a, ok := s[AliasesKeyword].(map[string]any); ok {
			vf.Aliases = make(map[string]string, len(a))
			for k, x := range a {
				vf.Aliases[k] = fmt.Sprint(x)
			}
		}
		f(vf)
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
