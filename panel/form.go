package panel

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/taskplatform/taskplatform/api"
	catalog "github.com/taskplatform/taskplatform/catalogue"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
)

// field is one input of a run form, generated from the task's inputSchema.
type field struct {
	Name, Label, Description string
	Required                 bool
	// Kind picks the control: select, checks, colour, colours, ref, refs,
	// record, records, integer, number, boolean, text, csv, json.
	Kind     string
	Options  []string
	Default  string
	Defaults []string
	Min, Max string
	// RefKinds are the handle kinds a picker lists (file, art, or a record
	// kind such as background or pose).
	RefKinds []string
	// Colour says a record picker also takes a #RRGGBB colour (a
	// background).
	Colour bool
	// Variants are the values of the task's variant field that use the
	// field; empty when every variant does.
	Variants []string
}

// schemaProp is the part of a JSON Schema property the form reads.
type schemaProp struct {
	Type        any          `json:"type"`
	Description string       `json:"description"`
	Enum        []any        `json:"enum"`
	Pattern     string       `json:"pattern"`
	Default     any          `json:"default"`
	Minimum     *float64     `json:"minimum"`
	Maximum     *float64     `json:"maximum"`
	Items       *schemaProp  `json:"items"`
	OneOf       []schemaProp `json:"oneOf"`
	XRef        string       `json:"x-ref"`
	Title       string       `json:"title"`
	// Aliases are the older spellings the enum also accepts
	// (x-aliases); the form offers the values only.
	Aliases map[string]string `json:"x-aliases"`
}

const colourPattern = "^#[0-9A-Fa-f]{6}$"

// handlePattern finds the handle kinds a pattern takes: "background" in
// ^(background:[A-Za-z0-9_-]{1,64}|#…)$, "pose|pose_preset" in
// ^(pose|pose_preset):[A-Za-z0-9_-]{1,64}$.
var handlePattern = regexp.MustCompile(`([a-z_]+(?:\|[a-z_]+)*)\)?:\[A-Za-z0-9_-\]`)

// kindsOf lists the handle kinds of known (the service's reference kinds)
// that pattern takes, in the pattern's order.
func kindsOf(pattern string, known []string) []string {
	var out []string
	for _, m := range handlePattern.FindAllStringSubmatch(pattern, -1) {
		for k := range strings.SplitSeq(m[1], "|") {
			if slices.Contains(known, k) && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// formFields reads a task's input schema into form fields in the order of
// importance: the variant field (kind, format) first, then the required
// fields, then the others, each group in the order the task's input type
// declares them (its author's order); fields the type does not name come
// last, by name. refKinds are the service's reference kinds, for pickers.
func formFields(d *tasks.Definition, refKinds []string) ([]field, error) {
	var doc struct {
		Properties map[string]schemaProp `json:"properties"`
		Required   []string              `json:"required"`
	}
	if err := json.Unmarshal(d.InputSchema, &doc); err != nil {
		return nil, err
	}
	declared := declaredOrder(d)
	rank := func(n string) (int, int) {
		group := 2
		switch {
		case d.Variant != nil && n == d.Variant.Field:
			group = 0
		case slices.Contains(doc.Required, n):
			group = 1
		}
		at := slices.Index(declared, n)
		if at < 0 {
			at = len(declared)
		}
		return group, at
	}
	names := slices.Collect(maps.Keys(doc.Properties))
	slices.SortFunc(names, func(a, b string) int {
		ga, ia := rank(a)
		gb, ib := rank(b)
		return cmp.Or(cmp.Compare(ga, gb), cmp.Compare(ia, ib), strings.Compare(a, b))
	})
	out := make([]field, 0, len(names))
	for _, n := range names {
		f := fieldOf(n, doc.Properties[n], slices.Contains(doc.Required, n), refKinds)
		if d.Variant != nil {
			f.Variants = d.Variant.Only[n]
		}
		out = append(out, f)
	}
	return out, nil
}

// declaredOrder is the JSON names of the task's input type's fields in
// declaration order; nil for a task whose runner is not typed.
func declaredOrder(d *tasks.Definition) []string {
	tr, ok := d.Runner.(tasks.TypedRunner)
	if !ok {
		return nil
	}
	t := tr.InputType()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	out := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out = append(out, name)
	}
	return out
}

// fieldOf is the form field of the input property name, of schema p.
func fieldOf(name string, p schemaProp, required bool, refKinds []string) field {
	f := field{
		Name:        name,
		Label:       strings.ToUpper(name[:1]) + strings.ReplaceAll(name[1:], "_", " "),
		Description: p.Description,
		Required:    required,
	}
	f.Default, f.Defaults = defaultsOf(p.Default)
	if p.Minimum != nil {
		f.Min = fmt.Sprint(*p.Minimum)
	}
	if p.Maximum != nil {
		f.Max = fmt.Sprint(*p.Maximum)
	}
	typ, p := typeOf(p)
	if !f.refKind(typ, p, refKinds) {
		f.valueKind(typ, p)
	}
	return f
}

// defaultsOf writes a schema default for the form: one value, or a list's.
func defaultsOf(d any) (one string, list []string) {
	switch d := d.(type) {
	case nil:
		return "", nil
	case []any:
		for _, v := range d {
			list = append(list, fmt.Sprint(v))
		}
		return "", list
	default:
		return fmt.Sprint(d), nil
	}
}

// typeOf is p's JSON type; a list-or-one-item property (poses) is its list,
// which is what the form sends.
func typeOf(p schemaProp) (string, schemaProp) {
	typ, _ := p.Type.(string)
	if typ == "" && len(p.OneOf) > 0 {
		for _, alt := range p.OneOf {
			if alt.Type == "array" && alt.Items != nil {
				typ, p.Items = "array", alt.Items
			}
		}
	}
	return typ, p
}

// optionsOf lists the values of an enum a form offers: every value but the
// aliases (which name another value).
func optionsOf(enum []any, aliases map[string]string) []string {
	var out []string
	for _, v := range enum {
		if s, ok := v.(string); !ok || aliases[s] == "" {
			out = append(out, fmt.Sprint(v))
		}
	}
	return out
}

// refKind sets f's kind where the property names files or records (or is a
// choice); false when it is a plain value.
func (f *field) refKind(typ string, p schemaProp, refKinds []string) bool {
	var itemPattern string
	if p.Items != nil {
		itemPattern = p.Items.Pattern
	}
	switch {
	case len(p.Enum) > 0:
		f.Kind = "select"
		if typ == "integer" {
			f.Kind = "select-int"
		}
		f.Options = optionsOf(p.Enum, p.Aliases)
	case p.XRef == "image" && typ == "array":
		f.Kind, f.RefKinds = "refs", kindsOf(itemPattern, refKinds)
	case p.XRef == "image":
		f.Kind, f.RefKinds = "ref", kindsOf(p.Pattern, refKinds)
	case typ == "string" && len(kindsOf(p.Pattern, refKinds)) > 0:
		f.Kind, f.RefKinds = "record", kindsOf(p.Pattern, refKinds)
		f.Colour = strings.Contains(p.Pattern, "#[0-9A-Fa-f]{6}")
	case typ == "array" && len(kindsOf(itemPattern, refKinds)) > 0:
		f.Kind, f.RefKinds = "records", kindsOf(itemPattern, refKinds)
	default:
		return false
	}
	return true
}

// valueKind sets f's kind for a plain value: a colour, a list, a number, text.
func (f *field) valueKind(typ string, p schemaProp) {
	switch {
	case typ == "string" && p.Pattern == colourPattern:
		f.Kind = "colour"
	case typ == "array" && p.Items != nil && len(p.Items.Enum) > 0:
		f.Kind = "checks"
		f.Options = optionsOf(p.Items.Enum, p.Items.Aliases)
	case typ == "array" && p.Items != nil && p.Items.Pattern == colourPattern:
		f.Kind = "colours"
		if len(f.Defaults) == 0 {
			f.Defaults = []string{"#1F6FEB", "#F2CC60", "#E5534B"}
		}
	case typ == "integer", typ == "number", typ == "boolean":
		f.Kind = typ
	case typ == "string":
		f.Kind = "text"
	case typ == "array" && p.Items != nil && p.Items.Type == "string":
		f.Kind = "csv"
	default:
		f.Kind = "json"
	}
}

// taskCard is one task of the chooser.
type taskCard struct {
	*tasks.Definition
	// Price is what an output costs, for people: "3 credits per shot".
	Price string
}

// category is one heading of the chooser with its tasks.
type category struct {
	Name, Title string
	Tasks       []taskCard
}

// runListData is the task chooser's.
type runListData struct {
	Categories []category
}

// priceLabel writes a task's price for people: "3 credits per shot", or
// "2–8 credits per image, by resolution" when an option sets it.
func priceLabel(d *tasks.Definition) string {
	e := catalog.Price(d)
	credits := func(n int64) string {
		kind := "credit"
		if e.CreditType != contract.CreditService {
			kind = strings.TrimSuffix(strings.ReplaceAll(e.CreditType, "_", " "), "s")
		}
		if n != 1 {
			kind += "s"
		}
		return kind
	}
	if e.PerOutput != nil {
		if *e.PerOutput == 0 {
			return "free"
		}
		return fmt.Sprintf("%d %s per %s", *e.PerOutput, credits(*e.PerOutput), d.Unit)
	}
	lo, hi := int64(-1), int64(0)
	for _, op := range e.Prices {
		if lo < 0 || op.Credits < lo {
			lo = op.Credits
		}
		hi = max(hi, op.Credits)
	}
	if lo == hi {
		return fmt.Sprintf("%d %s per %s", hi, credits(hi), d.Unit)
	}
	return fmt.Sprintf("%d–%d %s per %s, by %s", lo, hi, credits(hi), d.Unit, *e.DependsOn)
}

// categoryTitle names a category for people: design_generation is
// "Design generation".
func categoryTitle(c string) string {
	words := strings.ReplaceAll(c, "_", " ")
	return strings.ToUpper(words[:1]) + words[1:]
}

func (p *panel) runList(_ http.ResponseWriter, _ *http.Request, u *models.User) (string, string, any, error) {
	plan := models.PlanOf(u.Plan)
	var data runListData
	for _, c := range tasks.Categories() {
		if !plan.AllowsCategory(c) {
			continue
		}
		cat := category{Name: c, Title: categoryTitle(c)}
		for _, d := range p.d.Catalogue.Tasks().Runnable() {
			if d.Category == c {
				cat.Tasks = append(cat.Tasks, taskCard{Definition: d, Price: priceLabel(d)})
			}
		}
		if len(cat.Tasks) > 0 {
			data.Categories = append(data.Categories, cat)
		}
	}
	return "run", "Run a task", data, nil
}

// runFormData is a task's run form.
type runFormData struct {
	Task   *tasks.Definition
	Price  string
	Fields []field
	// Variant is the task's variant field and its default; nil when the
	// task has none.
	Variant *tasks.Variant
}

func (p *panel) runForm(_ http.ResponseWriter, r *http.Request, u *models.User) (string, string, any, error) {
	d, err := p.d.Catalogue.Tasks().Lookup(r.PathValue("task"))
	if err != nil || d.Removed || !models.PlanOf(u.Plan).AllowsCategory(d.Category) {
		return "", "", nil, fmt.Errorf("task %s: %w", r.PathValue("task"), models.ErrNotFound)
	}
	fields, err := formFields(d, api.RefKinds(p.d.Catalogue.Tasks()))
	if err != nil {
		return "", "", nil, err
	}
	return "runform", "Run " + d.Title, runFormData{Task: d, Price: priceLabel(d), Fields: fields, Variant: d.Variant},
		nil
}
