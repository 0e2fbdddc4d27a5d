package worker_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/log"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/taskplatform/taskplatform/worker"
)

// TestLoggerWritesThroughZap: the SDK's lines reach zap at their level with
// their key-value pairs, and With keeps its pairs on every later line.
func TestLoggerWritesThroughZap(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	l := worker.NewLogger(zap.New(core))
	l.Debug("polling", "queue", "jobs")
	l.Info("started", "workers", 2)
	l.Warn("slow", "ms", 900)
	l.Error("failed", "error", "boom")
	worker.NewLogger(nil).Info("dropped") // a nil logger discards
	log.With(l, "job_id", "j_1").Info("settled", "charged", 4)
	entries := logs.AllUntimed()
	require.Len(t, entries, 5)
	for i, want := range []struct {
		level zapcore.Level
		msg   string
		field map[string]any
	}{
		{zapcore.DebugLevel, "polling", map[string]any{"queue": "jobs"}},
		{zapcore.InfoLevel, "started", map[string]any{"workers": int64(2)}},
		{zapcore.WarnLevel, "slow", map[string]any{"ms": int64(900)}},
		{zapcore.ErrorLevel, "failed", map[string]any{"error": "boom"}},
		{zapcore.InfoLevel, "settled", map[string]any{"job_id": "j_1", "charged": int64(4)}},
	} {
		require.Equal(t, want.level, entries[i].Level)
		require.Equal(t, want.msg, entries[i].Message)
		require.Equal(t, want.field, entries[i].ContextMap())
	}
}
