package activities

import (
	"github.com/prometheus/client_golang/prometheus"
)

// JobMetrics are the business counters a worker adds to when it settles a
// job, each by task and outcome (the README's metrics table): their own
// labels and help, not the Temporal SDK's.
type JobMetrics struct {
	settled, delivered, charged *prometheus.CounterVec
}

// NewJobMetrics registers the counters on reg.
func NewJobMetrics(reg prometheus.Registerer) *JobMetrics {
	counter := func(name, help string) *prometheus.CounterVec {
		c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{"task", "outcome"})
		reg.MustRegister(c)
		return c
	}
	return &JobMetrics{
		settled: counter("taskplatform_jobs_settled_total", "Jobs settled, by task and outcome."),
		delivered: counter("taskplatform_outputs_delivered_total",
			"Outputs delivered (and charged) by the settled jobs, by task and outcome."),
		charged: counter("taskplatform_credits_charged_total", "Credits charged at settlement, by task and outcome."),
	}
}

// settledJob counts one job's first settlement; nil counts nothing.
func (m *JobMetrics) settledJob(task, outcome string, delivered int, charged int64) {
	if m == nil {
		return
	}
	m.settled.WithLabelValues(task, outcome).Inc()
	m.delivered.WithLabelValues(task, outcome).Add(float64(delivered))
	m.charged.WithLabelValues(task, outcome).Add(float64(charged))
}
