package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJQFiltersJSONAsGhDoes: --jq implies --json and prints what the
// expression makes of the output: strings as plain text, other values as
// JSON; a bad expression is a usage error before anything is called.
func TestJQFiltersJSONAsGhDoes(t *testing.T) {
	t.Parallel()
	f := jobActionsAPI(t)
	code, out, errs := f.cli(t, "jobs", "--jq", ".items[].job_id")
	require.Equal(t, 0, code, errs)
	require.Equal(t, "job_2\n", out)

	code, out, errs = f.cli(t, "jobs", "--jq", "{id: .items[0].job_id, more: .has_more}")
	require.Equal(t, 0, code, errs)
	require.Equal(t, "{\n  \"id\": \"job_2\",\n  \"more\": true\n}\n", out)

	code, out, errs = f.cli(t, "tasks", "show", "pattern.generate", "--jq", ".price.per_output")
	require.Equal(t, 0, code, errs)
	require.Equal(t, "2\n", out)

	code, out, errs = f.cli(t, "jobs", "get", "job_1", "--jq", ".progress.done")
	require.Equal(t, 0, code, errs)
	require.Equal(t, "2\n", out)

	code, out, errs = f.cli(t, "jobs", "--jq", ".items[")
	require.Equal(t, 2, code)
	require.Empty(t, out)
	require.Contains(t, errs, "taskplatform: --jq .items[: ")
	require.Contains(t, errs, "see 'taskplatform jobs --help'")
}
