package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/taskplatform/taskplatform/client"
)

// schemaNode is the part of a JSON Schema --set reads: a property's type,
// an array's items and an object's properties.
type schemaNode struct {
	Type                 json.RawMessage        `json:"type"`
	Items                *schemaNode            `json:"items"`
	Properties           map[string]*schemaNode `json:"properties"`
	Required             []string               `json:"required"`
	AdditionalProperties json.RawMessage        `json:"additionalProperties"`
	Default              json.RawMessage        `json:"default"`
	Description          string                 `json:"description"`
	// Enum, the bounds and the lengths are what tasks show prints as a
	// field's allowed values.
	Enum      []any    `json:"enum"`
	Minimum   *float64 `json:"minimum"`
	Maximum   *float64 `json:"maximum"`
	MinItems  *int     `json:"minItems"`
	MaxItems  *int     `json:"maxItems"`
	MinLength *int     `json:"minLength"`
	MaxLength *int     `json:"maxLength"`
}

// typeName is the node's type: the first that is not "null" when the
// schema lists several; "" when it names none.
func (n *schemaNode) typeName() string {
	if n == nil || len(n.Type) == 0 {
		return ""
	}
	var one string
	if json.Unmarshal(n.Type, &one) == nil {
		return one
	}
	var many []string
	_ = json.Unmarshal(n.Type, &many)
	for _, t := range many {
		if t != "null" {
			return t
		}
	}
	return ""
}

// closed says the object admits only the properties it lists.
func (n *schemaNode) closed() bool {
	return n != nil && len(n.Properties) > 0 && string(n.AdditionalProperties) != "true" &&
		!strings.HasPrefix(string(n.AdditionalProperties), "{")
}

// taskSchema reads a task's input schema from the catalogue; nil when the
// catalogue does not list the task (the service then answers for it).
func taskSchema(ctx context.Context, c *client.Client, task string) (*schemaNode, error) {
	ts, err := c.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range ts {
		if t.Name == task && len(t.InputSchema) > 0 {
			var n schemaNode
			if err := json.Unmarshal(t.InputSchema, &n); err != nil {
				return nil, nil //nolint:nilerr // an unreadable schema: the service checks the input
			}
			return &n, nil
		}
	}
	return nil, nil
}

// setValue is the value of one --set as the schema's property types it:
// integers, numbers and booleans parsed, a string kept as written, an
// array of strings from JSON or from a comma-separated list; without a
// type, JSON when it parses, else a string.
func setValue(key, value string, prop *schemaNode) (any, error) {
	switch prop.typeName() {
	case "string":
		return value, nil
	case "integer":
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil {
			return nil, &usageError{fmt.Sprintf("--set %s=%s: expected an integer", key, value)}
		}
		return n, nil
	case "number":
		f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			return nil, &usageError{fmt.Sprintf("--set %s=%s: expected a number", key, value)}
		}
		return f, nil
	case "boolean":
		b, err := strconv.ParseBool(strings.TrimSpace(value))
		if err != nil {
			return nil, &usageError{fmt.Sprintf("--set %s=%s: expected true or false", key, value)}
		}
		return b, nil
	case "array":
		var v []any
		if json.Unmarshal([]byte(value), &v) == nil {
			return v, nil
		}
		if prop.Items.typeName() == "string" {
			out := []any{}
			for _, s := range strings.Split(value, ",") {
				if s = strings.TrimSpace(s); s != "" {
					out = append(out, s)
				}
			}
			return out, nil
		}
		return nil, &usageError{fmt.Sprintf("--set %s=%s: expected a JSON array", key, value)}
	}
	var v any
	if json.Unmarshal([]byte(value), &v) != nil {
		v = value
	}
	return v, nil
}

// unknownField is the error of a --set key the schema does not list,
// naming the nearest field it does.
func unknownField(key, name string, n *schemaNode) error {
	props := make([]string, 0, len(n.Properties))
	for p := range n.Properties {
		props = append(props, p)
	}
	msg := fmt.Sprintf("--set %s: unknown field %q", key, name)
	if best := nearest(name, props); best != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", best)
	}
	return &usageError{msg}
}

// levenshtein is the edit distance between a and b.
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}

// input is a task's input from the flags, every --set typed by the task's
// input schema as the catalogue serves it.
func (r *userRun) input(ctx context.Context, in *inputFlags, task string) (map[string]any, error) {
	var schema *schemaNode
	if len(in.sets) > 0 {
		c, err := r.connect(true)
		if err != nil {
			return nil, err
		}
		if schema, err = taskSchema(ctx, c, task); err != nil {
			return nil, err
		}
	}
	return in.body(r.stdin, schema)
}

// inputFlags are --input and --set, shared by run and estimate.
type inputFlags struct {
	file string
	sets []string
}

func (f *inputFlags) add(c *cobra.Command) {
	c.Flags().StringVarP(&f.file, "input", "i", "", "the task input: a JSON file, or - for standard input")
	c.Flags().
		StringArrayVar(&f.sets, "set", nil, "set one input field: key=value, typed by the task's input schema (a.b=… nests)")
}

// body is the task input: the file's object with every --set applied, its
// value typed by the property's type in schema (nil: JSON when it parses).
func (f *inputFlags) body(stdin io.Reader, schema *schemaNode) (map[string]any, error) {
	in := map[string]any{}
	if f.file != "" {
		var raw []byte
		var err error
		if f.file == "-" {
			raw, err = io.ReadAll(stdin)
		} else {
			raw, err = os.ReadFile(f.file)
		}
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, &usageError{"--input is not a JSON object: " + err.Error()}
		}
	}
	for _, s := range f.sets {
		key, value, ok := strings.Cut(s, "=")
		if !ok || key == "" {
			return nil, &usageError{fmt.Sprintf("--set %q: expected key=value", s)}
		}
		obj, node := in, schema
		parts := strings.Split(key, ".")
		for i, p := range parts {
			var prop *schemaNode
			if node != nil {
				prop = node.Properties[p]
				if prop == nil && node.closed() {
					return nil, unknownField(key, p, node)
				}
			}
			if i == len(parts)-1 {
				v, err := setValue(key, value, prop)
				if err != nil {
					return nil, err
				}
				obj[p] = v
				break
			}
			next, ok := obj[p].(map[string]any)
			if !ok {
				next = map[string]any{}
				obj[p] = next
			}
			obj, node = next, prop
		}
	}
	return in, nil
}
