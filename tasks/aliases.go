package tasks

import (
	"maps"
	"slices"
	"strconv"

	"github.com/taskplatform/taskplatform/apierr"
)

// canonical writes, in v (an input valid against schema s, at field path
// field; generic: indices written []), the value a vocabulary alias stands
// for in place of the alias, so the job, its stored input and its steps see
// only values. A list whose items must be unique that holds an alias and its
// value (or two aliases of one value) answers as a repeated item does.
func (d *Definition) canonical(s map[string]any, v any, field, generic string) (any, *apierr.Error) {
	switch t := v.(type) {
	case string:
		if a, ok := s[AliasesKeyword].(map[string]any); ok {
			if c, ok := a[t].(string); ok {
				v = c
			}
		}
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(t)) {
			ps, ok := props[k].(map[string]any)
			if !ok {
				continue
			}
			x, err := d.canonical(ps, t[k], join(field, k), join(generic, k))
			if err != nil {
				return nil, err
			}
			t[k] = x
		}
	case []any:
		items, ok := s["items"].(map[string]any)
		if !ok {
			break
		}
		changed := false
		for i, x := range t {
			y, err := d.canonical(items, x, field+"["+strconv.Itoa(i)+"]", generic+"[]")
			if err != nil {
				return nil, err
			}
			if xs, ok := x.(string); ok && y != any(xs) {
				changed = true
			}
			t[i] = y
		}
		if changed && s["uniqueItems"] == true {
			if err := d.uniqueStrings(t, field, generic); err != nil {
				return nil, err
			}
		}
	}
	for _, kw := range []string{"oneOf", "anyOf"} {
		branches, _ := s[kw].([]any)
		for _, b := range branches {
			if bs, ok := b.(map[string]any); ok {
				x, err := d.canonical(bs, v, field, generic)
				if err != nil {
					return nil, err
				}
				v = x
			}
		}
	}
	return v, nil
}

// uniqueStrings answers the uniqueItems failure of list (at field) when two
// of its string items are equal.
func (d *Definition) uniqueStrings(list []any, field, generic string) *apierr.Error {
	first := map[string]int{}
	for j, x := range list {
		s, ok := x.(string)
		if !ok {
			continue
		}
		if i, seen := first[s]; seen {
			msg := printer.Sprintf(
				"%s has the same item twice (items %d and %d are both %s; an alias counts as its value).",
				field,
				i,
				j,
				strconv.Quote(s),
			)
			return issue{field: field, generic: generic, keyword: "uniqueItems",
				code: d.ruleCode(generic, "uniqueItems", apierr.InvalidRequest), msg: msg}.err()
		}
		first[s] = j
	}
	return nil
}
