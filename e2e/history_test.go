package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"

	"github.com/taskplatform/taskplatform/testenv"
)

// recordHistory writes a workflow's history, once it has closed, to
// workflows/testdata/<name>.json when TP_RECORD_HISTORIES=1, for the replay
// test (the README's "Workflow histories and replay" lists the tests that
// record them).
func recordHistory(t *testing.T, workflowID, name string) {
	t.Helper()
	if os.Getenv("TP_RECORD_HISTORIES") != "1" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_ = temporalClient(t).GetWorkflow(ctx, workflowID, "").Get(ctx, nil) // its end, whatever it was
	it := temporalClient(t).GetWorkflowHistory(ctx, workflowID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	hist := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		require.NoError(t, err)
		hist.Events = append(hist.Events, ev)
	}
	raw, err := temporalproto.CustomJSONMarshalOptions{Indent: "  "}.Marshal(hist)
	require.NoError(t, err)
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(root, "workflows", "testdata", name+".json"), raw, 0o644))
}
