package taskstest

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/tasks"
)

// reachableCodes is every code a call of the task can answer: the codes its
// validation answers (found by breaking every bound), malformed bodies, the
// codes of every call, and the warnings its runner reports on its examples
// or declares (Warns).
func reachableCodes(t *testing.T, d *tasks.Definition) map[apierr.Code]bool {
	got := map[apierr.Code]bool{}
	for _, v := range violations(t, d) {
		got[expectedCode(d, v)] = true
	}
	_, err := d.Validate([]byte(`[]`))
	got[apierr.As(err).Code] = true
	for _, c := range tasks.CallErrors {
		got[c] = true
	}
	if len(d.RefFields()) > 0 {
		for _, c := range tasks.RefErrors {
			got[c] = true
		}
	}
	if len(d.RefSides) > 0 || d.Refuse != nil {
		got[apierr.RequestRefused] = true // an upload of the wrong size, or the task's own refusal
	}
	if a, ok := d.Runner.(tasks.Admitter); ok {
		for _, c := range a.AdmitErrors() {
			got[c] = true // the task's own checks at submit
		}
	}
	if e, ok := d.Runner.(tasks.EngineRunner); ok {
		for _, c := range e.EngineErrors() {
			got[c] = true // a model's refusal, an engine that stayed overloaded
		}
	}
	for _, ex := range d.Examples {
		if in, err := d.Validate(ex.Input); err == nil && len(d.Runner.Plan(in).Capacity) > 0 {
			got[apierr.CapacityBusy] = true // a capacity-limited step that could not start in time
		}
	}
	for _, c := range d.Warns {
		got[c] = true // a warning its examples do not show
	}
	for i := range d.Examples {
		files, err := d.ExampleOutputs(context.Background(), i)
		require.NoError(t, err)
		for _, f := range files {
			for _, w := range f.Warnings {
				got[apierr.Code(w.Code)] = true
			}
		}
	}
	return got
}

// checkErrors checks the docs list exactly the codes a call can answer,
// each of them catalogued.
func checkErrors(t *testing.T, d *tasks.Definition) {
	reach := reachableCodes(t, d)
	listed := map[apierr.Code]bool{}
	for _, c := range d.Docs.Errors {
		_, ok := apierr.Lookup(c)
		require.True(t, ok, "listed code %s is not catalogued", c)
		listed[c] = true
	}
	require.Equal(t, sortedCodes(reach), sortedCodes(listed))
}

func sortedCodes(m map[apierr.Code]bool) []string {
	var out []string
	for c := range m {
		out = append(out, string(c))
	}
	slices.Sort(out)
	return out
}
