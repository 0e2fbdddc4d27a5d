package worker

import (
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.temporal.io/sdk/client"
)

// SDKMetrics collects the Temporal SDK's own metrics (counters, gauges,
// timers with free-form tags) and exposes them to Prometheus. Series of one
// name that carry different tag sets are padded to the union of the tag
// names, as Prometheus needs one label set per metric family.
type SDKMetrics struct {
	mu     sync.Mutex
	series map[string]*series
}

type kind int

const (
	kindCounter kind = iota
	kindGauge
	kindTimer
)

var timerBuckets = []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}

type series struct {
	name    string
	kind    kind
	tags    map[string]string
	value   float64
	count   uint64
	buckets []uint64
}

// NewSDKMetrics registers a collector on reg and returns it.
func NewSDKMetrics(reg prometheus.Registerer) *SDKMetrics {
	m := &SDKMetrics{series: map[string]*series{}}
	reg.MustRegister(m)
	return m
}

// Handler is the SDK-facing handler with no tags.
func (m *SDKMetrics) Handler() client.MetricsHandler {
	return &sdkHandler{m: m, tags: map[string]string{}}
}

var invalidName = regexp.MustCompile(`[^a-zA-Z0-9_]`)

func (m *SDKMetrics) get(name string, k kind, tags map[string]string) *series {
	name = invalidName.ReplaceAllString(name, "_")
	keys := slices.Sorted(maps.Keys(tags))
	var b strings.Builder
	b.WriteString(name)
	for _, key := range keys {
		b.WriteString("|" + key + "=" + tags[key])
	}
	id := b.String()
	s, ok := m.series[id]
	if !ok {
		s = &series{name: name, kind: k, tags: tags}
		if k == kindTimer {
			s.buckets = make([]uint64, len(timerBuckets))
		}
		m.series[id] = s
	}
	return s
}

// Describe sends nothing: the collector is unchecked.
func (m *SDKMetrics) Describe(chan<- *prometheus.Desc) {}

// Collect emits every series.
func (m *SDKMetrics) Collect(ch chan<- prometheus.Metric) {
	m.mu.Lock()
	defer m.mu.Unlock()
	labels := map[string]map[string]bool{}
	for _, s := range m.series {
		if labels[s.name] == nil {
			labels[s.name] = map[string]bool{}
		}
		for k := range s.tags {
			labels[s.name][invalidName.ReplaceAllString(k, "_")] = true
		}
	}
	for _, s := range m.series {
		names := slices.Sorted(maps.Keys(labels[s.name]))
		values := make([]string, len(names))
		for i, n := range names {
			for k, v := range s.tags {
				if invalidName.ReplaceAllString(k, "_") == n {
					values[i] = v
				}
			}
		}
		desc := prometheus.NewDesc(s.name, "Temporal SDK metric "+s.name+".", names, nil)
		switch s.kind {
		case kindCounter:
			ch <- prometheus.MustNewConstMetric(desc, prometheus.CounterValue, s.value, values...)
		case kindGauge:
			ch <- prometheus.MustNewConstMetric(desc, prometheus.GaugeValue, s.value, values...)
		case kindTimer:
			b := make(map[float64]uint64, len(timerBuckets))
			var cum uint64
			for i, ub := range timerBuckets {
				cum += s.buckets[i]
				b[ub] = cum
			}
			ch <- prometheus.MustNewConstHistogram(desc, s.count, s.value, b, values...)
		}
	}
}

type sdkHandler struct {
	m    *SDKMetrics
	tags map[string]string
}

func (h *sdkHandler) WithTags(t map[string]string) client.MetricsHandler {
	merged := maps.Clone(h.tags)
	maps.Copy(merged, t)
	return &sdkHandler{m: h.m, tags: merged}
}

func (h *sdkHandler) Counter(name string) client.MetricsCounter {
	return counterFunc(func(d int64) {
		h.m.mu.Lock()
		h.m.get(name, kindCounter, h.tags).value += float64(d)
		h.m.mu.Unlock()
	})
}

func (h *sdkHandler) Gauge(name string) client.MetricsGauge {
	return gaugeFunc(func(v float64) {
		h.m.mu.Lock()
		h.m.get(name, kindGauge, h.tags).value = v
		h.m.mu.Unlock()
	})
}

func (h *sdkHandler) Timer(name string) client.MetricsTimer {
	return timerFunc(func(d time.Duration) {
		h.m.mu.Lock()
		s := h.m.get(name, kindTimer, h.tags)
		s.count++
		s.value += d.Seconds()
		i := sort.SearchFloat64s(timerBuckets, d.Seconds())
		if i < len(s.buckets) {
			s.buckets[i]++
		}
		h.m.mu.Unlock()
	})
}

type counterFunc func(int64)

func (f counterFunc) Inc(d int64) { f(d) }

type gaugeFunc func(float64)

func (f gaugeFunc) Update(v float64) { f(v) }

type timerFunc func(time.Duration)

func (f timerFunc) Record(d time.Duration) { f(d) }
