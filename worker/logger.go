package worker

import (
	"context"
	"errors"

	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.uber.org/zap"
)

// zapLogger lets the Temporal SDK log through zap.
type zapLogger struct{ s *zap.SugaredLogger }

// NewLogger adapts a zap logger to the SDK's logger. A WARN or ERROR line
// whose error is a cancellation is written at INFO with the job's id: a job
// cancelled by its caller stops its running steps, and the SDK logs each
// step's heartbeat that learns of it ("RecordActivityHeartbeat with error",
// WARN) and its end ("Activity error.", ERROR). A cancel is an expected
// outcome, not something for an operator.
func NewLogger(l *zap.Logger) log.Logger {
	if l == nil {
		l = zap.NewNop()
	}
	return &zapLogger{s: l.WithOptions(zap.AddCallerSkip(1)).Sugar()}
}

func (z *zapLogger) Debug(msg string, kv ...any) { z.s.Debugw(msg, kv...) }
func (z *zapLogger) Info(msg string, kv ...any)  { z.s.Infow(msg, kv...) }

func (z *zapLogger) Warn(msg string, kv ...any) {
	if cancellation(kv) {
		z.s.Infow(msg, withJobID(kv)...)
		return
	}
	z.s.Warnw(msg, kv...)
}

func (z *zapLogger) Error(msg string, kv ...any) {
	if cancellation(kv) {
		z.s.Infow(msg, withJobID(kv)...)
		return
	}
	z.s.Errorw(msg, kv...)
}

// With implements log.WithLogger so SDK fields stay on every line (a
// workflow's lines carry job_id beside WorkflowID).
func (z *zapLogger) With(kv ...any) log.Logger { return &zapLogger{s: z.s.With(withJobID(kv)...)} }

// cancellation says whether a line's error value is a cancellation: a
// context cancelled, or Temporal's CanceledError.
func cancellation(kv []any) bool {
	for i := 1; i < len(kv); i += 2 {
		if err, ok := kv[i].(error); ok && (errors.Is(err, context.Canceled) || temporal.IsCanceledError(err)) {
			return true
		}
	}
	return false
}

// withJobID adds job_id beside the SDK's WorkflowID (a job's workflow id is
// its id), as the service's own job lines carry it.
func withJobID(kv []any) []any {
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] == "WorkflowID" {
			return append(append([]any(nil), kv...), "job_id", kv[i+1])
		}
	}
	return kv
}
