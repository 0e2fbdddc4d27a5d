package engines

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/tasks/all"
)

// TestEveryBuiltInSchemaPassesTheKeywordCheck: any built-in task can be
// routed to an engine, and the start-up check must not refuse a schema the
// conformance suite accepts.
func TestEveryBuiltInSchemaPassesTheKeywordCheck(t *testing.T) {
	for _, d := range all.Registry().Runnable() {
		var in map[string]any
		require.NoError(t, json.Unmarshal(d.InputSchema, &in))
		require.NoError(t, checkKeywords(in), d.Name)
	}
}
