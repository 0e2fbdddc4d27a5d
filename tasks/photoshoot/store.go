package photoshoot

import (
	"context"

	"github.com/taskplatform/taskplatform/tasks"
	"github.com/taskplatform/taskplatform/tasks/recordstore"
)

// stored are the kinds of record the family's jobs make, as the record
// store keeps them.
var stored = map[string]recordstore.Kind{
	kindPhotoshoot: {Name: kindPhotoshoot, IDPrefix: "sh_"},
	kindModel:      {Name: kindModel, IDPrefix: "ms_"},
}

// handleOf is the handle of the record of kind the step's job makes, or
// nil in a catalogue example.
func handleOf(ctx context.Context, kind string) any { return stored[kind].HandleOf(ctx) }

// openRecord writes, at submit, the record of kind a job makes, creating
// until its job completes it.
func openRecord(ctx context.Context, env tasks.Env, kind, name string, fields any) error {
	return stored[kind].Open(ctx, env, name, fields)
}

// completeRecord marks the step's job's record of kind ready with its
// fields.
func completeRecord(ctx context.Context, kind string, fields any) error {
	return stored[kind].Complete(ctx, fields, nil)
}

// styleFields are a saved style's record fields.
type styleFields struct {
	// Base is the base model, model:<id>.
	Base string `json:"base"`
	Body
	// Images are the reference photos as sent.
	Images []string `json:"images"`
	// Adjustments are the proportions asked for.
	Adjustments map[string]float64 `json:"adjustments"`
}
