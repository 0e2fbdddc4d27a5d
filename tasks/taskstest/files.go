package taskstest

import (
	"context"

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
