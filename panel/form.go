package panel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/tasks"
)

// field is one input of a run form, generated from the task's inputSchema.
type field struct {
	Name, Label, Description string
	Required                 bool
	// Kind picks the control: select, checks, colour, colours, ref, refs,
	// integer, number, boolean, text, json.
	Kind     string
	Options  []string
	Default  string
	Defaults []string
	Min, Max string
	// RefKinds are the handle kinds a picker lists (file, art).
	RefKinds []string
}

// schemaProp is the part of a JSON Schema property the form reads.
type schemaProp struct {
	Type        any             `json:"type"`
	Description string          `json:"description"`
	Enum        []any           `json:"enum"`
	Pattern     string          `json:"pattern"`
	Default     any             `json:"default"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	Items       *schemaProp     `json:"items"`
	XRef        string          `json:"x-ref"`
	Title       string          `json:"title"`
	Raw         json.RawMessage `json:"-"`
	// Aliases are the older spellings the enum also accepts
	// (x-aliases); the form offers the values only.
	Aliases map[string]string `json:"x-aliases"`
}

const colourPattern = "^#[0-9A-Fa-f]{6}$"

// formFields reads a task's input schema into form fields, required ones
// first, in the schema's property order within each group.
func formFields(schema json.RawMessage) ([]field, error) {
	var doc struct {
		Properties map[string]schemaProp `json:"properties"`
		Required   []string              `json:"required"`
	}
	if err := json.Unmarshal(schema, &doc); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(doc.Properties))
	for n := range doc.Properties {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		ra, rb := slices.Contains(doc.Required, a), slices.Contains(doc.Required, b)
		switch {
		case ra && !rb:
			return -1
		case rb && !ra:
			return 1
		}
		return strings.Compare(a, b)
	})
	out := make([]field, 0, len(names))
	for _, n := range names {
		out = append(out, fieldOf(n, doc.Properties[n], slices.Contains(doc.Required, n)))
	}
	return out, nil
}

func fieldOf(name string, p schemaProp, required bool) field {
	f := field{
		Name:        name,
		Label:       strings.ToUpper(name[:1]) + strings.ReplaceAll(name[1:], "_", " "),
		Description: p.Description,
		Required:    required,
	}
	if p.Default != nil {
		switch d := p.Default.(type) {
		case []any:
			for _, v := range d {
				f.Defaults = append(f.Defaults, fmt.Sprint(v))
			}
		default:
			f.Default = fmt.Sprint(d)
		}
	}
	if p.Minimum != nil {
		f.Min = fmt.Sprint(*p.Minimum)
	}
	if p.Maximum != nil {
		f.Max = fmt.Sprint(*p.Maximum)
	}
	typ, _ := p.Type.(string)
	switch {
	case len(p.Enum) > 0:
		f.Kind = "select"
		if typ == "integer" {
			f.Kind = "select-int"
		}
		for _, v := range p.Enum {
			if s, ok := v.(string); !ok || p.Aliases[s] == "" {
				f.Options = append(f.Options, fmt.Sprint(v))
			}
		}
	case p.XRef == "image" && typ == "array":
		f.Kind, f.RefKinds = "refs", []string{"file", "art"}
	case p.XRef == "image":
		f.Kind, f.RefKinds = "ref", []string{"file", "art"}
	case typ == "string" && p.Pattern == colourPattern:
		f.Kind = "colour"
	case typ == "array" && p.Items != nil && len(p.Items.Enum) > 0:
		f.Kind = "checks"
		for _, v := range p.Items.Enum {
			if s, ok := v.(string); !ok || p.Items.Aliases[s] == "" {
				f.Options = append(f.Options, fmt.Sprint(v))
			}
		}
	case typ == "array" && p.Items != nil && p.Items.Pattern == colourPattern:
		f.Kind = "colours"
		if len(f.Defaults) == 0 {
			f.Defaults = []string{"#1F6FEB", "#F2CC60", "#E5534B"}
		}
	case typ == "integer":
		f.Kind = "integer"
	case typ == "number":
		f.Kind = "number"
	case typ == "boolean":
		f.Kind = "boolean"
	case typ == "string":
		f.Kind = "text"
	case typ == "array" && p.Items != nil && p.Items.Type == "string":
		f.Kind = "csv"
	default:
		f.Kind = "json"
	}
	return f
}

// runListData is the task chooser's.
type runListData struct {
	Tasks []*tasks.Definition
}

func (p *panel) runList(_ http.ResponseWriter, _ *http.Request, u *models.User) (string, string, any, error) {
	plan := models.PlanOf(u.Plan)
	var list []*tasks.Definition
	for _, d := range p.d.Catalogue.Tasks().Runnable() {
		if plan.AllowsCategory(d.Category) {
			list = append(list, d)
		}
	}
	return "run", "Run a task", runListData{Tasks: list}, nil
}

// runFormData is a task's run form.
type runFormData struct {
	Task   *tasks.Definition
	Fields []field
}

func (p *panel) runForm(_ http.ResponseWriter, r *http.Request, u *models.User) (string, string, any, error) {
	d, err := p.d.Catalogue.Tasks().Lookup(r.PathValue("task"))
	if err != nil || d.Removed || !models.PlanOf(u.Plan).AllowsCategory(d.Category) {
		return "", "", nil, fmt.Errorf("task %s: %w", r.PathValue("task"), models.ErrNotFound)
	}
	fields, err := formFields(d.InputSchema)
	if err != nil {
		return "", "", nil, err
	}
	return "runform", "Run " + d.Title, runFormData{Task: d, Fields: fields}, nil
}
