package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"

	"github.com/taskplatform/taskplatform/testenv"
)

// recordHistory writes a finished job workflow's history to
// workflows/testdata/<name>.json when TP_RECORD_HISTORIES=1, for the replay
// test. Run: TP_RECORD_HISTORIES=1 go test ./api -run 'TestSubmitWait|TestCancel|TestStartTimeout|TestStorageFailure'
func recordHistory(t *testing.T, jobID, name string) {
	t.Helper()
	if os.Getenv("TP_RECORD_HISTORIES") != "1" {
		return
	}
	ctx := context.Background()
	it := temporalClient(t).GetWorkflowHistory(ctx, jobID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
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
