package tasks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SchemaDialect is the $schema of every published task schema.
const SchemaDialect = "https://json-schema.org/draft/2020-12/schema"

// VocabKeyword marks a schema enum generated from a named vocabulary; its
// value is the vocabulary name, served at GET /v1/vocab/{name}.
const VocabKeyword = "x-vocab"

// AliasesKeyword sits beside x-vocab on a field whose vocabulary has
// aliases (older spellings still accepted): it maps each alias to the value
// it stands for. The field's enum lists the values, then the aliases, so the
// schema validates every spelling the service accepts; the service runs the
// job with the value (Validate writes it in place of the alias).
const AliasesKeyword = "x-aliases"

// AnnotationKeywords are the keywords of a task's input schema that only
// describe a field: no value violates them. Engine declarations are held
// to them (engines), and the conformance suite breaks every other keyword
// (tasks/taskstest).
var AnnotationKeywords = []string{"title", "description", "default", "examples", VocabKeyword, AliasesKeyword,
	RefKeyword}

// obj is a JSON object under construction.
type obj = map[string]any

// ColourPattern is the #RRGGBB form of every colour field.
const ColourPattern = "^#[0-9A-Fa-f]{6}$"

// ObjectSchema builds a closed object schema (additionalProperties false)
// with the variant rule of v, if any, as if/then branches.
func ObjectSchema(title, description string, props map[string]any, required []string, v *Variant) map[string]any {
	s := obj{
		"$schema":              SchemaDialect,
		"title":                title,
		"description":          description,
		"type":                 "object",
		"properties":           props,
		"additionalProperties": false,
	}
	if len(required) > 0 {
		s["required"] = required
	}
	if v != nil {
		s["allOf"] = variantBranches(v, props)
	}
	return s
}

// variantBranches writes a Variant as one if/then per restricted field: when
// the variant field holds (or, absent, defaults to) a value that does not use
// the field, the field's schema is false, which answers field_not_supported.
// An alias of a value counts as that value.
func variantBranches(v *Variant, props map[string]any) []any {
	all := props[v.Field].(obj)["enum"].([]any)
	aliases, _ := props[v.Field].(obj)[AliasesKeyword].(map[string]string)
	var out []any
	for _, field := range slices.Sorted(maps.Keys(v.Only)) {
		var others []any
		for _, val := range all {
			canonical := val.(string)
			if c, ok := aliases[canonical]; ok {
				canonical = c
			}
			if !slices.Contains(v.Only[field], canonical) {
				others = append(others, val)
			}
		}
		if len(others) == 0 {
			continue
		}
		cond := obj{"properties": obj{v.Field: obj{"enum": others}}}
		if slices.Contains(v.Only[field], v.Default) {
			// An absent variant field means the default, which uses the field.
			cond["required"] = []string{v.Field}
		}
		out = append(out, obj{"if": cond, "then": obj{"properties": obj{field: Never}}})
	}
	return out
}

// Never is the schema no value matches: {"not": {}}, the same as the
// boolean schema false, written as an object because code generators that
// read OpenAPI (oapi-codegen) cannot load a boolean where a schema goes.
var Never = obj{"not": obj{}}

// VocabEnum is a string property whose options are the values of a
// vocabulary; the vocabulary's default is the schema default. When values
// have aliases, the enum lists them after the values and AliasesKeyword maps
// each to its value.
func VocabEnum(voc Vocabulary, description string) map[string]any {
	var enum []any
	for _, v := range voc.Accepted() {
		enum = append(enum, v)
	}
	s := obj{"type": "string", "enum": enum, "description": description, VocabKeyword: voc.Name}
	if a := voc.AliasMap(); a != nil {
		s[AliasesKeyword] = a
	}
	if voc.Default != nil {
		s["default"] = *voc.Default
	}
	return s
}

// FieldEnum is a string property taking one of options, a list that only
// this one field takes. The spec gives such a list no name at
// GET /v1/vocab/{name}: its values are in the task schema, so the enum,
// the default and what each value does (in the description) are all here,
// and no x-vocab names it. A list two fields or more use is a Vocabulary,
// written with VocabEnum.
func FieldEnum(options []VocabValue, description string) map[string]any {
	enum := make([]any, len(options))
	var b strings.Builder
	b.WriteString(description)
	s := obj{"type": "string", "enum": enum}
	for i, o := range options {
		enum[i] = o.Value
		b.WriteString(" " + o.Value)
		if o.Default {
			s["default"] = o.Value
			b.WriteString(" (the default)")
		}
		b.WriteString(": " + o.Description)
		if o.ChooseWhen != "" {
			b.WriteString(" Choose it when " + o.ChooseWhen + ".")
		}
	}
	s["description"] = b.String()
	return s
}

// ColourSchema is one #RRGGBB colour.
func ColourSchema(description string) map[string]any {
	return obj{"type": "string", "pattern": ColourPattern, "description": description, "examples": []any{"#1F6FEB"}}
}

// MustJSON marshals a schema built in code; a failure is a programming error.
func MustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("tasks: schema does not marshal: %v", err))
	}
	return b
}

// CompileSchema compiles a published schema as draft 2020-12. The id names
// the resource in error messages.
func CompileSchema(id string, raw json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "https://taskplatform.local/schemas/" + id + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// schema compiles the input schema once and caches it.
func (d *Definition) schema() (*jsonschema.Schema, error) {
	d.once.Do(func() {
		d.compiled, d.err = CompileSchema(d.Name+"/input", d.InputSchema)
		if d.err == nil {
			dec := json.NewDecoder(bytes.NewReader(d.InputSchema))
			dec.UseNumber()
			d.err = dec.Decode(&d.doc)
		}
	})
	return d.compiled, d.err
}
