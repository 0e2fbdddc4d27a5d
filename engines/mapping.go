package engines

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Mapping builds an engine's input (or an output's data) from a task's
// validated input and the step's index. A string value "$field" is the
// input's field (left out when the input has none), "$index" the index
// (0-based) of the prediction in a model's input and of the output in an
// output's data (the same unless predictions answer several files),
// "$field[2]" and "$field[$index]" an element of a list
// field (the step's index picks one per output), "$field+index" the numeric
// field plus the index (a seed that differs per output), "$output.width"
// and "$output.height" (in an output's data) the pixel size of the image
// the engine made, "$output.format" its format (png, jpeg, webp, gif),
// "$output.file" its place among its prediction's files (from 0),
// "$output.source_width" and "$output.source_height" the pixel size of the
// first file handed to the model, "$output.scale" the output's width over
// that file's (when whole), "$model.skin" and "$model.images[0]" a field of
// the record whose handle the input field model holds (records.go), and
// "$$…" the literal string "$…"; objects and lists are
// mapped value by value; anything else is sent as written. A field that
// holds file references (x-ref: a handle or a URL the caller wrote) is
// never sent as written: the Runner fetches the file under the service's
// rules and hands the model its own copy (inputs.go).
type Mapping map[string]any

// Apply maps a task's validated input for output i.
func (m Mapping) Apply(input map[string]any, i int) map[string]any {
	return m.apply(scope{input: input, i: i})
}

// scope is what a mapping reads: the input, the step's index, the output's
// facts once the engine has answered, and the input fields that hold file
// references.
type scope struct {
	input  map[string]any
	i      int
	output map[string]any
	refs   map[string]bool
}

func (m Mapping) apply(sc scope) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if mv, ok := mapValue(v, sc); ok {
			out[k] = mv
		}
	}
	return out
}

func mapValue(v any, sc scope) (any, bool) {
	switch x := v.(type) {
	case string:
		return mapString(x, sc)
	case map[string]any:
		return Mapping(x).apply(sc), true
	case []any:
		out := make([]any, 0, len(x))
		for _, e := range x {
			if mv, ok := mapValue(e, sc); ok {
				out = append(out, mv)
			}
		}
		return out, true
	}
	return v, true
}

func mapString(s string, sc scope) (any, bool) {
	input, i := sc.input, sc.i
	switch {
	case strings.HasPrefix(s, "$$"):
		return s[1:], true
	case s == "$index":
		return i, true
	case strings.HasPrefix(s, "$output."):
		v, ok := sc.output[strings.TrimPrefix(s, "$output.")]
		return v, ok
	case strings.HasPrefix(s, "$") && strings.HasSuffix(s, "+index"):
		v, ok := input[strings.TrimSuffix(s[1:], "+index")]
		if !ok {
			return nil, false
		}
		switch n := v.(type) {
		case float64:
			return n + float64(i), true
		case int:
			return n + i, true
		case int64:
			return n + int64(i), true
		}
		return v, true
	case strings.HasPrefix(s, "$"):
		return field(s[1:], sc)
	}
	return s, true
}

// field is "$name" or "$name[k]" (k a number or $index) of the input; a
// file reference is a fileRef the Runner resolves.
func field(s string, sc scope) (any, bool) {
	name, at, indexed := strings.Cut(strings.TrimSuffix(s, "]"), "[")
	if head, rest, dotted := strings.Cut(name, "."); dotted {
		return record(head, rest, at, indexed, sc)
	}
	v, ok := sc.input[name]
	if !ok {
		return nil, false
	}
	path := name
	if indexed {
		k := sc.i
		if at != "$index" {
			n, err := strconv.Atoi(at)
			if err != nil || n < 0 {
				return nil, false
			}
			k = n
		}
		list := asList(v)
		if k >= len(list) {
			return nil, false
		}
		v, path = list[k], fmt.Sprintf("%s[%d]", name, k)
	}
	if !sc.refs[name] {
		return v, true
	}
	if list := asList(v); list != nil {
		out := make([]any, len(list))
		for j, e := range list {
			out[j] = fileRef{Field: fmt.Sprintf("%s[%d]", name, j), Ref: fmt.Sprint(e)}
		}
		return out, true
	}
	return fileRef{Field: path, Ref: fmt.Sprint(v)}, true
}

// record is "$name.path" or "$name.path[k]": field path (its element k) of
// the record whose handle the input's field name holds, read by the
// Runner (records.go). Outside a step's input (an output's data) it maps
// to nothing.
func record(name, path, at string, indexed bool, sc scope) (any, bool) {
	ref, ok := sc.input[name].(string)
	if !ok || sc.refs == nil {
		return nil, false
	}
	k := -1
	if indexed {
		k = sc.i
		if at != "$index" {
			n, err := strconv.Atoi(at)
			if err != nil || n < 0 {
				return nil, false
			}
			k = n
		}
	}
	return recordRef{Field: name, Ref: ref, Path: path, Index: k}, true
}

// asList is a list field's elements, nil for anything else.
func asList(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	}
	return nil
}

// fileRef is a file reference of the input, at its public field path
// (images[0]), that the Runner turns into a URL or data URI the model can
// read.
type fileRef struct {
	Field string
	Ref   string
}

// Fields are the input fields the mapping reads, sorted ("$model.skin"
// reads model).
func (m Mapping) Fields() []string {
	seen := map[string]bool{}
	for _, p := range m.paths() {
		head, _, _ := strings.Cut(p, ".")
		seen[head] = true
	}
	return slices.Sorted(maps.Keys(seen))
}

// paths are the names the mapping reads, a record's field with its input
// field ("model.skin"), sorted.
func (m Mapping) paths() []string {
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if strings.HasPrefix(x, "$") && !strings.HasPrefix(x, "$$") && x != "$index" &&
				!strings.HasPrefix(x, "$output.") {
				name, _, _ := strings.Cut(strings.TrimSuffix(x[1:], "+index"), "[")
				seen[name] = true
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(map[string]any(m))
	return slices.Sorted(maps.Keys(seen))
}
