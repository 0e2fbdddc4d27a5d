package api

import (
	"context"
	"net/http"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/testenv"
)

// TestLogsAnOperatorActsOn: probes and scrapes are logged at DEBUG only, a
// call at INFO, and a client that left before its answer (its request
// cancelled while the database is read) logs no ERROR or WARN line.
func TestLogsAnOperatorActsOn(t *testing.T) {
	t.Parallel()
	core, logs := observer.New(zapcore.DebugLevel)
	e := newEnv(t, testenv.SQLite, func(d *Deps) {
		d.Log = zap.New(core)
		d.Metrics = middleware.NewHTTPMetrics(prometheus.NewRegistry())
	})
	for _, path := range []string{"/healthz", "/readyz", "/metrics"} {
		e.send(http.MethodGet, path, "")
	}
	require.Zero(t, logs.FilterLevelExact(zapcore.InfoLevel).Len(), "%v", logs.All())
	require.Equal(t, 3, logs.FilterMessage("request").FilterLevelExact(zapcore.DebugLevel).Len())

	require.Equal(t, http.StatusOK, e.send(http.MethodGet, "/v1/jobs", "", keyed(e.key)...).code)
	require.Equal(t, 1, logs.FilterMessage("request").FilterLevelExact(zapcore.InfoLevel).Len())

	for _, path := range []string{"/v1/jobs", "/v1/jobs/j_none", "/v1/account/balance"} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		serve(e.r, request(http.MethodGet, path, nil, keyed(e.key)...).WithContext(ctx))
	}
	require.Zero(t, logs.FilterLevelExact(zapcore.ErrorLevel).Len(), "%v", logs.FilterLevelExact(zapcore.ErrorLevel).All())
	require.Zero(t, logs.FilterLevelExact(zapcore.WarnLevel).Len(), "%v", logs.FilterLevelExact(zapcore.WarnLevel).All())
}
