package taskstest

import (
	"context"
	"testing"

	"github.com/taskplatform/taskplatform/tasks"
)

// Files is a loader of test images by reference (a tasks.Loader): a step
// run under tasks.WithLoader(ctx, Files{...}) reads its inputs from here,
// and an unknown reference fails the step as a missing file would.
type Files map[string][]byte

// Load implements the loader: the bytes stored under ref.
func (f Files) Load(_ context.Context, ref string) ([]byte, error) {
	if b, ok := f[ref]; ok {
		return b, nil
	}
	return nil, &tasks.StepError{Code: "processing_failed", Message: "no such file " + ref}
}

// Input is fields as task d's runners receive them: defaults added and
// decoded once into the task's input struct, for a test that builds an
// input in Go rather than through Validate.
func Input(t testing.TB, d *tasks.Definition, fields map[string]any) tasks.Input {
	t.Helper()
	in, err := d.Input(fields)
	if err != nil {
		t.Fatalf("%s: %v", d.Name, err)
	}
	return in
}
