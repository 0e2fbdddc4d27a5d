package tasks

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/taskplatform/taskplatform/apierr"
)

var printer = message.NewPrinter(language.English)

// Validate checks a raw JSON request body against the task's published input
// schema and returns the input with nulls removed, every vocabulary alias
// replaced by the value it stands for and schema defaults applied. A body
// that is not a JSON object answers malformed_request; a schema failure
// answers the catalogue code of the first failure by field path
// (field_not_accepted, field_not_supported, invalid_option, invalid_request
// or a task-specific code from ErrorRules), then the task's own Refuse check
// (request_refused).
func (d *Definition) Validate(body []byte) (Input, error) {
	fields, err := d.validate(body)
	if err != nil {
		return Input{}, err
	}
	in, err := d.Input(fields)
	if err != nil {
		return Input{}, apierr.New(apierr.Internal, "")
	}
	if d.Refuse != nil {
		if e := d.Refuse(in, nil); e != nil {
			return Input{}, e
		}
	}
	return in, nil
}

// validate is Validate up to the task's input struct: the checked fields.
func (d *Definition) validate(body []byte) (map[string]any, error) {
	if d.Removed {
		return nil, removedError(d)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, apierr.New(apierr.MalformedRequest, "The body is not valid JSON.")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, apierr.New(apierr.MalformedRequest, "The body has data after the JSON object.")
	}
	in, ok := v.(map[string]any)
	if !ok {
		return nil, apierr.New(apierr.MalformedRequest, "The body must be a JSON object.")
	}
	stripNulls(in)
	sch, err := d.schema()
	if err != nil {
		return nil, apierr.New(apierr.Internal, "")
	}
	if err := sch.Validate(in); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return nil, apierr.New(apierr.InvalidRequest, "")
		}
		return nil, d.firstIssue(in, ve).err()
	}
	out := normalise(in).(map[string]any)
	if _, e := d.canonical(d.doc, out, "", ""); e != nil {
		return nil, e
	}
	d.applyDefaults(out)
	return out, nil
}

// stripNulls removes null members of every object, so that null equals
// omitted. Null array items stay: they are invalid items.
func stripNulls(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if x == nil {
				delete(t, k)
				continue
			}
			stripNulls(x)
		}
	case []any:
		for _, x := range t {
			stripNulls(x)
		}
	}
}

// normalise turns json.Number into int64 when integral and in range, else
// float64, so that runners see plain Go numbers.
func normalise(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = normalise(x)
		}
	case []any:
		for i, x := range t {
			t[i] = normalise(x)
		}
	case json.Number:
		if n, err := t.Int64(); err == nil {
			return n
		}
		if f, err := t.Float64(); err == nil {
			if f == float64(int64(f)) && f >= -(1<<53) && f <= 1<<53 {
				return int64(f)
			}
			return f
		}
		return t.String()
	}
	return v
}

// issue is one schema failure, placed at its public field path.
type issue struct {
	field   string
	generic string // field with indices written []
	keyword string
	code    apierr.Code
	msg     string
}

func (i issue) err() *apierr.Error {
	e := apierr.New(i.code, i.msg)
	if i.field != "" {
		e = e.WithField(i.field)
	}
	return e
}

func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func rank(c apierr.Code) int {
	switch c {
	case apierr.FieldNotAccepted:
		return 0
	case apierr.FieldNotSupported:
		return 1
	}
	return 2
}

// firstIssue flattens a validation error and returns the first failure by
// field path, then by code and keyword, so the answer is deterministic.
func (d *Definition) firstIssue(in map[string]any, ve *jsonschema.ValidationError) issue {
	var all []issue
	d.collect(in, ve, &all)
	if len(all) == 0 {
		return issue{code: apierr.InvalidRequest, msg: "The input does not match the task's input schema."}
	}
	slices.SortFunc(all, func(a, b issue) int {
		if c := strings.Compare(a.field, b.field); c != 0 {
			return c
		}
		if c := rank(a.code) - rank(b.code); c != 0 {
			return c
		}
		if c := strings.Compare(a.keyword, b.keyword); c != 0 {
			return c
		}
		return strings.Compare(a.msg, b.msg)
	})
	return all[0]
}

func (d *Definition) collect(in map[string]any, ve *jsonschema.ValidationError, out *[]issue) {
	if len(ve.Causes) > 0 {
		for _, c := range branches(ve) {
			d.collect(in, c, out)
		}
		return
	}
	field, generic := publicPath(in, ve.InstanceLocation)
	add := func(field, generic, kw string, code apierr.Code, msg string) {
		*out = append(*out, issue{field, generic, kw, d.ruleCode(generic, kw, code), msg})
	}
	switch k := ve.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		for _, p := range slices.Sorted(slices.Values(k.Properties)) {
			f, g := join(field, p), join(generic, p)
			add(f, g, "additionalProperties", apierr.FieldNotAccepted, f+" is not a field of "+d.Name+".")
		}
	case *kind.Required:
		for _, p := range slices.Sorted(slices.Values(k.Missing)) {
			f, g := join(field, p), join(generic, p)
			add(f, g, "required", apierr.InvalidRequest, f+" is required.")
		}
	case *kind.FalseSchema, *kind.Not: // Never, the only "not" the schemas use
		add(field, generic, "false", apierr.FieldNotSupported, d.notSupported(in, field))
	case *kind.Enum:
		add(field, generic, "enum", apierr.InvalidOption, d.enumMessage(field, generic, k))
	case *kind.Const:
		add(field, generic, "enum", apierr.InvalidOption, field+": "+ve.ErrorKind.LocalizedString(printer)+".")
	default:
		kw := "schema"
		if p := ve.ErrorKind.KeywordPath(); len(p) > 0 {
			kw = p[0]
		}
		add(field, generic, kw, apierr.InvalidRequest, describe(field, ve.ErrorKind))
	}
}

// ruleCode is the code of a failure of keyword kw at the generic field
// path: the task's ErrorRules code when one names them, else code.
func (d *Definition) ruleCode(generic, kw string, code apierr.Code) apierr.Code {
	for _, r := range d.ErrorRules {
		if r.Field == generic && r.Keyword == kw {
			code = r.Code
		}
	}
	return code
}

// enumMessage words an invalid_option: a field bound to a vocabulary with
// aliases names its values and points at the vocabulary for the aliases,
// rather than listing every spelling.
func (d *Definition) enumMessage(field, generic string, k *kind.Enum) string {
	for _, vf := range d.VocabFields() {
		if vf.Direction != "input" || vf.Field != generic || len(vf.Aliases) == 0 {
			continue
		}
		var values []string
		for _, w := range k.Want {
			if s, ok := w.(string); ok && vf.Aliases[s] == "" {
				values = append(values, strconv.Quote(s))
			}
		}
		return field + ": value must be one of " + strings.Join(values, ", ") +
			", or an alias of one (GET /v1/vocab/" + vf.Vocab + ")."
	}
	return field + ": " + k.LocalizedString(printer) + "."
}

// branches are the causes of a failure worth answering. When a value
// matches no branch of a oneOf or anyOf, the branches of another type than
// the value are left out: a list of colourways with a bad colour is answered
// about that colour, not that the field could also have been a string.
func branches(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	switch ve.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
	default:
		return ve.Causes
	}
	var kept []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		if _, isType := c.ErrorKind.(*kind.Type); isType && slices.Equal(c.InstanceLocation, ve.InstanceLocation) {
			continue
		}
		kept = append(kept, c)
	}
	if len(kept) == 0 {
		return ve.Causes
	}
	return kept
}

// describe words a failure of a bound or type for the named field.
func describe(field string, k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		return field + " must be " + strings.Join(k.Want, " or ") + ", not " + k.Got + "."
	case *kind.MinItems:
		return printer.Sprintf("%s needs at least %d items; it has %d.", field, k.Want, k.Got)
	case *kind.MaxItems:
		return printer.Sprintf("%s takes at most %d items; it has %d.", field, k.Want, k.Got)
	case *kind.MinLength:
		return printer.Sprintf("%s needs at least %d characters.", field, k.Want)
	case *kind.MaxLength:
		return printer.Sprintf("%s takes at most %d characters.", field, k.Want)
	case *kind.Minimum:
		return field + " must be at least " + ratString(k.Want) + "."
	case *kind.Maximum:
		return field + " must be at most " + ratString(k.Want) + "."
	case *kind.Pattern:
		if k.Want == ColourPattern {
			return field + " must be a colour written #RRGGBB, not " + strconv.Quote(k.Got) + "."
		}
		return field + " must match " + k.Want + "."
	case *kind.UniqueItems:
		return printer.Sprintf("%s has the same item twice (items %d and %d).", field, k.Duplicates[0], k.Duplicates[1])
	}
	return field + ": " + k.LocalizedString(printer) + "."
}

// notSupported words a field_not_supported message naming the variant.
func (d *Definition) notSupported(in map[string]any, field string) string {
	if d.Variant == nil {
		return field + " is not used by this request."
	}
	val, _ := in[d.Variant.Field].(string)
	if val == "" {
		val = d.Variant.Default
	}
	users := d.Variant.Only[field]
	return field + " is not used by " + d.Variant.Field + " " + strconv.Quote(val) +
		"; it applies to " + d.Variant.Field + " " + strings.Join(users, ", ") + "."
}

// publicPath writes an instance location as the public field path
// (colors[2], a.b) and its generic form with indices written [].
func publicPath(in any, tokens []string) (field, generic string) {
	cur := in
	for _, t := range tokens {
		if arr, ok := cur.([]any); ok {
			field += "[" + t + "]"
			generic += "[]"
			if i, err := strconv.Atoi(t); err == nil && i >= 0 && i < len(arr) {
				cur = arr[i]
			} else {
				cur = nil
			}
			continue
		}
		field, generic = join(field, t), join(generic, t)
		if m, ok := cur.(map[string]any); ok {
			cur = m[t]
		} else {
			cur = nil
		}
	}
	return field, generic
}

func join(base, name string) string {
	if base == "" {
		return name
	}
	return base + "." + name
}

// applyDefaults fills absent properties with their schema defaults, the
// variant field first; a field the chosen variant does not use gets none.
func (d *Definition) applyDefaults(in map[string]any) {
	doc, err := d.schemaDoc()
	if err != nil {
		return
	}
	if d.Variant != nil {
		if ps, ok := doc["properties"].(map[string]any)[d.Variant.Field].(map[string]any); ok {
			if def, ok := ps["default"]; ok {
				if _, has := in[d.Variant.Field]; !has {
					in[d.Variant.Field] = normalise(deepCopy(def))
				}
			}
		}
	}
	fillDefaults(doc, in, func(field string) bool { return d.uses(in, field) })
}

// uses reports whether the chosen variant uses a top-level field.
func (d *Definition) uses(in map[string]any, field string) bool {
	if d.Variant == nil || d.Variant.Only[field] == nil {
		return true
	}
	val, _ := in[d.Variant.Field].(string)
	return slices.Contains(d.Variant.Only[field], val)
}

func fillDefaults(schema map[string]any, in map[string]any, allowed func(string) bool) {
	props, _ := schema["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		ps, _ := props[name].(map[string]any)
		if ps == nil {
			continue
		}
		if cur, has := in[name]; has {
			if m, ok := cur.(map[string]any); ok {
				fillDefaults(ps, m, func(string) bool { return true })
			}
			continue
		}
		if def, ok := ps["default"]; ok && (allowed == nil || allowed(name)) {
			in[name] = normalise(deepCopy(def))
		}
	}
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, x := range t {
			a[i] = deepCopy(x)
		}
		return a
	}
	return v
}

// schemaDoc is the parsed input schema (numbers as json.Number).
func (d *Definition) schemaDoc() (map[string]any, error) {
	_, err := d.schema()
	return d.doc, err
}
