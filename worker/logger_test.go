package worker_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
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

// TestCancellationIsNotAnError: the lines the SDK and the job workflow write
// when a job is cancelled (each running step's heartbeat that learns of it
// at WARN and its "Activity error." at ERROR, a step's "output not
// produced" at WARN, their error a cancellation) are written at INFO with
// the job's id; any other error keeps its level.
func TestCancellationIsNotAnError(t *testing.T) {
	core, logs := observer.New(zapcore.DebugLevel)
	l := worker.NewLogger(zap.New(core))
	l.Error("Activity error.", "WorkflowID", "j_1", "ActivityType", "RunStep", "Error", context.Canceled)
	log.With(l, "WorkflowID", "j_2").Warn("output not produced", "index", 0,
		"error", fmt.Errorf("step: %w", temporal.NewCanceledError()))
	l.Warn("RecordActivityHeartbeat with error", "WorkflowID", "j_1", "Error", temporal.NewCanceledError())
	l.Error("Activity error.", "WorkflowID", "j_3", "Error", errors.New("disk full"))
	l.Warn("webhook not delivered", "error", errors.New("connection refused"))
	entries := logs.AllUntimed()
	require.Len(t, entries, 5)
	require.Equal(t, zapcore.InfoLevel, entries[0].Level)
	require.Equal(t, "j_1", entries[0].ContextMap()["job_id"])
	require.Equal(t, zapcore.InfoLevel, entries[1].Level)
	require.Equal(t, "j_2", entries[1].ContextMap()["job_id"])
	require.Equal(t, zapcore.InfoLevel, entries[2].Level, "the heartbeat that learns of the cancel")
	require.Equal(t, zapcore.ErrorLevel, entries[3].Level)
	require.Equal(t, zapcore.WarnLevel, entries[4].Level)
}
