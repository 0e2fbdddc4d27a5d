package tasks

import "encoding/json"

// Recipe is a walk-through over several calls; every step is a real request.
type Recipe struct {
	Name        string       `json:"name"`
	Title       string       `json:"title"`
	Description string       `json:"description"`
	Steps       []RecipeStep `json:"steps"`
}

// RecipeStep is one call of a recipe. Task names the task a POST runs or
// estimates; Body is then valid input of that task.
type RecipeStep struct {
	Title   string            `json:"title"`
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Task    string            `json:"task,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    json.RawMessage   `json:"body,omitempty"`
	Note    string            `json:"note"`
}
