package main

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/taskplatform/taskplatform/worker"
)

// TestLogLevel checks TP_LOG_LEVEL on both loggers: INFO by default, so the
// Temporal SDK's DEBUG lines (which go through the same zap logger) are not
// printed unless asked for.
func TestLogLevel(t *testing.T) {
	tests := []struct {
		name, value string
		sdkDebug    bool // the SDK's DEBUG line is printed
		info        bool // an INFO line is printed
	}{
		{"default", "", false, true},
		{"info", "info", false, true},
		{"debug", "debug", true, true},
		{"upper case", "DEBUG", true, true},
		{"warn", "warn", false, false},
		{"error", "error", false, false},
	}
	for _, tc := range tests {
		for _, human := range []bool{true, false} {
			t.Run(tc.name, func(t *testing.T) {
				clearEnv(t)
				t.Setenv("TP_LOG_LEVEL", tc.value)
				_, err := loadConfig()
				require.NoError(t, err)
				var logs *observer.ObservedLogs
				l := newLogger(human).WithOptions(zap.WrapCore(func(c zapcore.Core) zapcore.Core {
					var obs zapcore.Core
					obs, logs = observer.New(c) // the built logger's level decides
					return obs
				}))
				sdk := worker.NewLogger(l)
				sdk.Debug("Worker heartbeating configured, but server version does not support it.")
				require.Equal(t, tc.sdkDebug, logs.FilterLevelExact(zapcore.DebugLevel).Len() == 1)
				sdk.Info("Started Worker")
				l.Info("api listening")
				require.Equal(t, tc.info, logs.FilterLevelExact(zapcore.InfoLevel).Len() == 2)
				sdk.Error("Workflow panic")
				require.Equal(t, 1, logs.FilterLevelExact(zapcore.ErrorLevel).Len())
			})
		}
	}
}

// TestLogLevelRefused checks an unknown TP_LOG_LEVEL is a configuration
// error naming the variable.
func TestLogLevelRefused(t *testing.T) {
	clearEnv(t)
	t.Setenv("TP_LOG_LEVEL", "verbose")
	_, err := loadConfig()
	require.ErrorContains(t, err, "TP_LOG_LEVEL")
	require.ErrorContains(t, err, "debug, info, warn or error")
}
