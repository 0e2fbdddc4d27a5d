package catalogue

import (
	"encoding/json"

	"github.com/taskplatform/taskplatform/tasks"
)

// TaskView is the public Task object of GET /v1/tasks and /v1/tasks/{name}.
type TaskView struct {
	Name         string          `json:"name"`
	Title        *string         `json:"title"`
	Description  *string         `json:"description"`
	Category     *string         `json:"category"`
	Unit         *string         `json:"unit"`
	Status       string          `json:"status,omitempty"`
	ReplacedBy   string          `json:"replaced_by,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Docs         *tasks.Docs     `json:"docs"`
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// View is the task as the catalogue serves it. A deprecated task carries
// status and its replacement; a current one has neither.
func View(d *tasks.Definition) TaskView {
	v := TaskView{
		Name: d.Name, Title: optional(d.Title), Description: optional(d.Description),
		Category: optional(d.Category), Unit: optional(d.Unit), Status: d.Status,
		InputSchema: d.InputSchema, OutputSchema: d.OutputSchema, Docs: &d.Docs,
	}
	if d.Status != "" {
		v.ReplacedBy = d.ReplacedBy
	}
	if len(v.OutputSchema) == 0 {
		v.OutputSchema = json.RawMessage("null")
	}
	return v
}

// Views are the runnable tasks as the catalogue serves them, in order.
func (c *Catalogue) Views() []TaskView {
	var out []TaskView
	for _, d := range c.reg.Runnable() {
		out = append(out, View(d))
	}
	return out
}
