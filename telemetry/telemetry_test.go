package telemetry_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/taskplatform/taskplatform/telemetry"
)

// TestTracesGoToTheOTLPEndpoint: with OTEL_EXPORTER_OTLP_ENDPOINT set, the
// spans reach the collector over OTLP/HTTP by Shutdown at the latest, and
// the Temporal clients get the tracing interceptor.
func TestTracesGoToTheOTLPEndpoint(t *testing.T) {
	var (
		mu    sync.Mutex
		posts []string
	)
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		posts = append(posts, r.Method+" "+r.URL.Path+" "+r.Header.Get("Content-Type"))
		mu.Unlock()
	}))
	t.Cleanup(collector.Close)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "")
	t.Setenv("OTEL_SDK_DISABLED", "")

	tel, err := telemetry.New(context.Background(), telemetry.Options{Service: "taskplatform-test"})
	require.NoError(t, err)
	require.NotNil(t, tel.Tracing())
	opts, err := tel.ClientOptions(client.Options{})
	require.NoError(t, err)
	require.Len(t, opts.Interceptors, 1, "the tracing interceptor")
	_, span := tel.Tracing().Tracer("test").Start(context.Background(), "one")
	span.End()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, tel.Shutdown(ctx))
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, []string{"POST /v1/traces application/x-protobuf"}, posts)
}

// TestNoEndpointNoTracing: without an endpoint, or with the SDK disabled,
// nothing is traced and the clients get no interceptor; a protocol the
// exporter does not speak is refused.
func TestNoEndpointNoTracing(t *testing.T) {
	for _, env := range []map[string]string{
		{"OTEL_EXPORTER_OTLP_ENDPOINT": "", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": ""},
		{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SDK_DISABLED": "true"},
		{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SDK_DISABLED": "", "OTEL_TRACES_EXPORTER": "none"},
	} {
		for k, v := range env {
			t.Setenv(k, v)
		}
		tel, err := telemetry.New(context.Background(), telemetry.Options{})
		require.NoError(t, err)
		require.Nil(t, tel.Tracing(), "%v", env)
		opts, err := tel.ClientOptions(client.Options{})
		require.NoError(t, err)
		require.Empty(t, opts.Interceptors)
		require.Nil(t, opts.MetricsHandler, "no registry, no SDK metrics")
		require.NoError(t, tel.Shutdown(context.Background()))
	}
	t.Setenv("OTEL_SDK_DISABLED", "")
	t.Setenv("OTEL_TRACES_EXPORTER", "")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json")
	_, err := telemetry.New(context.Background(), telemetry.Options{})
	require.ErrorContains(t, err, "http/json")

	var nothing *telemetry.Telemetry
	require.Nil(t, nothing.Tracing())
	require.NoError(t, nothing.Shutdown(context.Background()))
}

// TestSDKMetricsArePrometheusNamed: what the Temporal SDK records reaches
// the registry with Prometheus names — counters with _total, timers as
// histograms in seconds (buckets from 1 ms), gauges as they are — with the
// SDK's tags as labels.
func TestSDKMetricsArePrometheusNamed(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	reg := prometheus.NewRegistry()
	tel, err := telemetry.New(context.Background(), telemetry.Options{Registry: reg})
	require.NoError(t, err)
	opts, err := tel.ClientOptions(client.Options{})
	require.NoError(t, err)
	h := opts.MetricsHandler.WithTags(map[string]string{"namespace": "default"})
	h.WithTags(map[string]string{"operation": "Poll"}).Counter("temporal_request").Inc(2)
	h.WithTags(map[string]string{"operation": "Poll"}).Counter("temporal_request").Inc(3)
	h.Timer("temporal_request_latency").Record(3 * time.Millisecond)
	h.Timer("temporal_request_latency").Record(2 * time.Second)
	h.Gauge("temporal_worker_task_slots_available").Update(4)

	families, err := reg.Gather()
	require.NoError(t, err)
	got := map[string]string{}
	for _, f := range families {
		got[f.GetName()] = f.GetType().String()
		m := f.GetMetric()
		require.Len(t, m, 1, f.GetName())
		labels := map[string]string{}
		for _, l := range m[0].GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		require.Equal(t, "default", labels["namespace"], f.GetName())
		switch f.GetName() {
		case "temporal_request_total":
			require.Equal(t, "Poll", labels["operation"])
			require.EqualValues(t, 5, m[0].GetCounter().GetValue())
		case "temporal_request_latency_seconds":
			hist := m[0].GetHistogram()
			require.EqualValues(t, 2, hist.GetSampleCount())
			require.InDelta(t, 2.003, hist.GetSampleSum(), 1e-9)
			require.Equal(t, 0.001, hist.GetBucket()[0].GetUpperBound())
			require.EqualValues(t, 1, hist.GetBucket()[1].GetCumulativeCount(), "3 ms is under 5 ms")
		case "temporal_worker_task_slots_available":
			require.EqualValues(t, 4, m[0].GetGauge().GetValue())
		}
	}
	require.Equal(
		t,
		map[string]string{"temporal_request_total": "COUNTER", "temporal_request_latency_seconds": "HISTOGRAM",
			"temporal_worker_task_slots_available": "GAUGE"},
		got,
	)
	require.NoError(t, tel.Shutdown(context.Background()))
}
