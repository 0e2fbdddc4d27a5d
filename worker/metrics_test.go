package worker_test

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/log"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/taskplatform/taskplatform/worker"
)

// series is one gathered metric: its labels and value (a histogram's
// count, sum and cumulative buckets).
type series struct {
	labels  map[string]string
	value   float64
	count   uint64
	sum     float64
	buckets map[float64]uint64
}

// gather reads every series of the registry by metric name.
func gather(t *testing.T, reg *prometheus.Registry) map[string][]series {
	t.Helper()
	families, err := reg.Gather()
	require.NoError(t, err)
	out := map[string][]series{}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			s := series{labels: map[string]string{}}
			for _, l := range m.GetLabel() {
				s.labels[l.GetName()] = l.GetValue()
			}
			switch {
			case m.GetCounter() != nil:
				s.value = m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				s.value = m.GetGauge().GetValue()
			case m.GetHistogram() != nil:
				h := m.GetHistogram()
				s.count, s.sum, s.buckets = h.GetSampleCount(), h.GetSampleSum(), map[float64]uint64{}
				for _, b := range h.GetBucket() {
					s.buckets[b.GetUpperBound()] = b.GetCumulativeCount()
				}
			}
			out[f.GetName()] = append(out[f.GetName()], s)
		}
	}
	return out
}

// TestSDKMetricsExposeWhatTheSDKRecords: counters add, gauges keep the last
// value, timers become histograms in seconds; names become Prometheus names
// and series of one name share the union of their tag names.
func TestSDKMetricsExposeWhatTheSDKRecords(t *testing.T) {
	reg := prometheus.NewRegistry()
	h := worker.NewSDKMetrics(reg).Handler()

	h.WithTags(map[string]string{"task-queue": "jobs"}).Counter("temporal.request").Inc(2)
	h.WithTags(map[string]string{"task-queue": "jobs"}).Counter("temporal.request").Inc(3)
	h.Counter("temporal.request").Inc(1)
	gauge := h.WithTags(map[string]string{"worker_type": "ActivityWorker"}).Gauge("temporal_worker_task_slots_available")
	gauge.Update(4)
	gauge.Update(1)
	timer := h.WithTags(map[string]string{"operation": "Poll"}).WithTags(map[string]string{"namespace": "default"}).Timer("temporal_request_latency")
	timer.Record(3 * time.Millisecond)
	timer.Record(2 * time.Second)

	got := gather(t, reg)
	require.ElementsMatch(t, []series{
		{labels: map[string]string{"task_queue": "jobs"}, value: 5},
		{labels: map[string]string{"task_queue": ""}, value: 1},
	}, got["temporal_request"], "dots become underscores; an untagged series gets the family's labels empty")
	require.Equal(t, []series{{labels: map[string]string{"worker_type": "ActivityWorker"}, value: 1}}, got["temporal_worker_task_slots_available"])

	lat := got["temporal_request_latency"]
	require.Len(t, lat, 1)
	require.Equal(t, map[string]string{"operation": "Poll", "namespace": "default"}, lat[0].labels, "tags accumulate")
	require.EqualValues(t, 2, lat[0].count)
	require.InDelta(t, 2.003, lat[0].sum, 1e-9)
	require.EqualValues(t, 0, lat[0].buckets[0.001])
	require.EqualValues(t, 1, lat[0].buckets[0.005])
	require.EqualValues(t, 1, lat[0].buckets[1])
	require.EqualValues(t, 2, lat[0].buckets[2.5])
	require.EqualValues(t, 2, lat[0].buckets[60])
}

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
