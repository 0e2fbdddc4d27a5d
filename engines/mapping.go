package engines

import (
	"maps"
	"slices"
	"strings"
)

// Mapping builds an engine's input (or an output's data) from a task's
// validated input and the step's index. A string value "$field" is the
// input's field (left out when the input has none), "$index" the step's
// index (0-based), "$field+index" the numeric field plus the index (a seed
// that differs per output), "$output.width" and "$output.height" (in an
// output's data) the pixel size of the image the engine made, and "$$…" the
// literal string "$…"; objects and lists are mapped value by value;
// anything else is sent as written.
type Mapping map[string]any

// Apply maps a task's validated input for output i.
func (m Mapping) Apply(input map[string]any, i int) map[string]any {
	return m.apply(scope{input: input, i: i})
}

// scope is what a mapping reads: the input, the step's index, and the
// output's facts once the engine has answered.
type scope struct {
	input  map[string]any
	i      int
	output map[string]any
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
		v, ok := input[s[1:]]
		return v, ok
	}
	return s, true
}

// Fields are the input fields the mapping reads, sorted.
func (m Mapping) Fields() []string {
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if strings.HasPrefix(x, "$") && !strings.HasPrefix(x, "$$") && x != "$index" &&
				!strings.HasPrefix(x, "$output.") {
				seen[strings.TrimSuffix(x[1:], "+index")] = true
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
