package engines

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskplatform/taskplatform/models"
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

// TestEngineOutputsAreNamedByTheirType checks every type an engine's output
// may be read as downloads under the extension the files' URLs use.
func TestEngineOutputsAreNamedByTheirType(t *testing.T) {
	for mt, ext := range extensions {
		named, ok := models.Extension(mt)
		require.True(t, ok, mt)
		require.Equal(t, ext, named, mt)
	}
}
