package worker

import (
	"go.temporal.io/sdk/log"
	"go.uber.org/zap"
)

// zapLogger lets the Temporal SDK log through zap.
type zapLogger struct{ s *zap.SugaredLogger }

// NewLogger adapts a zap logger to the SDK's logger.
func NewLogger(l *zap.Logger) log.Logger {
	if l == nil {
		l = zap.NewNop()
	}
	return &zapLogger{s: l.WithOptions(zap.AddCallerSkip(1)).Sugar()}
}

func (z *zapLogger) Debug(msg string, kv ...any) { z.s.Debugw(msg, kv...) }
func (z *zapLogger) Info(msg string, kv ...any)  { z.s.Infow(msg, kv...) }
func (z *zapLogger) Warn(msg string, kv ...any)  { z.s.Warnw(msg, kv...) }
func (z *zapLogger) Error(msg string, kv ...any) { z.s.Errorw(msg, kv...) }

// With implements log.WithLogger so SDK fields stay on every line.
func (z *zapLogger) With(kv ...any) log.Logger { return &zapLogger{s: z.s.With(kv...)} }
