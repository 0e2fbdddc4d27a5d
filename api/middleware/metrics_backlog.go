package middleware

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/models"
)

// backlogReadTimeout bounds the database read of one scrape.
const backlogReadTimeout = 5 * time.Second

// backlogCollector reports the service's unfinished jobs at each scrape of
// /metrics: read from the jobs table, so every API process reports the
// whole fleet's backlog alike.
type backlogCollector struct {
	db                      *gorm.DB
	now                     func() time.Time
	queued, running, oldest *prometheus.Desc
}

func newBacklogCollector(db *gorm.DB, now func() time.Time) *backlogCollector {
	return &backlogCollector{
		db:  db,
		now: now,
		queued: prometheus.NewDesc("taskplatform_jobs_queued",
			"Jobs admitted and not started yet, fleet-wide.", nil, nil),
		running: prometheus.NewDesc("taskplatform_jobs_running",
			"Jobs running now, fleet-wide.", nil, nil),
		oldest: prometheus.NewDesc("taskplatform_jobs_queued_oldest_age_seconds",
			"Seconds since the oldest queued job was submitted; 0 when none is queued.", nil, nil),
	}
}

// Describe sends the collector's descriptions.
func (b *backlogCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- b.queued
	ch <- b.running
	ch <- b.oldest
}

// Collect reads the backlog; a failed read reports nothing this scrape
// (the rest of /metrics still answers).
func (b *backlogCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), backlogReadTimeout)
	defer cancel()
	bl, err := models.ReadBacklog(ctx, b.db)
	if err != nil {
		return
	}
	age := 0.0
	if bl.OldestQueued != nil {
		age = max(b.now().Sub(*bl.OldestQueued).Seconds(), 0)
	}
	ch <- prometheus.MustNewConstMetric(b.queued, prometheus.GaugeValue, float64(bl.Queued))
	ch <- prometheus.MustNewConstMetric(b.running, prometheus.GaugeValue, float64(bl.Running))
	ch <- prometheus.MustNewConstMetric(b.oldest, prometheus.GaugeValue, age)
}
