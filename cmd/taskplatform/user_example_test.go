package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTasksShowEndsWithReadyCommand: tasks show ends with the task's
// example as a command; pasted into a shell, its words sent by the CLI
// post exactly the example's body.
func TestTasksShowEndsWithReadyCommand(t *testing.T) {
	f := newFakeAPI(t, nil)
	code, out, errs := f.cli(t, "tasks", "show", "pattern.generate")
	require.Equal(t, 0, code, errs)
	want := `taskplatform run pattern.generate --set 'colors=["#1F3A5F","#F2C14E"]' --set count=3 ` +
		`--set resolution=2048 --set 'opts={"seed":7}' --set 'base_color=it'\''s'`
	require.True(t, strings.HasSuffix(out, "\nexample — Navy stripes:\n  "+want+"\n"), out)

	// The shell splits the command; estimate takes run's input flags.
	split, err := exec.Command("sh", "-c", `set -- `+strings.TrimPrefix(want, "taskplatform ")+
		`; for w in "$@"; do printf '%s\0' "$w"; done`).Output()
	require.NoError(t, err)
	args := strings.Split(strings.TrimSuffix(string(split), "\x00"), "\x00")
	require.Equal(t, "run", args[0])
	args[0] = "estimate"
	code, _, errs = f.cli(t, args...)
	require.Equal(t, 0, code, errs)
	var body map[string]any
	require.NoError(t, json.Unmarshal([]byte(`{"colors":["#1F3A5F","#F2C14E"],"count":3,"resolution":"2048",`+
		`"opts":{"seed":7},"base_color":"it's"}`), &body))
	require.Equal(t, body, f.posted)
}

// TestExampleCommandFallsBackToStandardInput: a body --set cannot write
// (a null) is sent on standard input, as a here-document.
func TestExampleCommandFallsBackToStandardInput(t *testing.T) {
	t.Parallel()
	var n schemaNode
	require.NoError(t, json.Unmarshal([]byte(fakeSchema), &n))
	require.Equal(t, "taskplatform run pattern.generate --input - <<'JSON'\n{\"tile\":null,\"count\":2}\nJSON",
		exampleCommand("pattern.generate", json.RawMessage(`{"tile": null, "count": 2}`), &n))
	require.Equal(t, "taskplatform run pattern.generate --set count=2 --set tile=true",
		exampleCommand("pattern.generate", json.RawMessage(`{"count":2,"tile":true}`), &n))
}
