package middleware

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"gorm.io/gorm"
)

// HTTPMetrics counts requests and their latency by route and status.
type HTTPMetrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	handler  http.Handler
	reg      *prometheus.Registry
	// backlog registers the backlog's gauges once, for the first router
	// with a database.
	backlog sync.Once
}

// NewHTTPMetrics registers the API's metrics on reg and serves everything
// gathered from it (the worker's and the Temporal SDK's metrics included).
func NewHTTPMetrics(reg *prometheus.Registry) *HTTPMetrics {
	m := &HTTPMetrics{
		requests: prometheus.NewCounterVec(
			prometheus.CounterOpts{
				Name: "taskplatform_http_requests_total",
				Help: "HTTP requests by method, route and status.",
			},
			[]string{"method", "route", "status"},
		),
		latency: prometheus.NewHistogramVec(
			prometheus.HistogramOpts{
				Name:    "taskplatform_http_request_duration_seconds",
				Help:    "HTTP request latency by method, route and status.",
				Buckets: prometheus.DefBuckets,
			},
			[]string{"method", "route", "status"},
		),
		handler: promhttp.HandlerFor(reg, promhttp.HandlerOpts{}),
		reg:     reg,
	}
	reg.MustRegister(m.requests, m.latency)
	return m
}

// WatchBacklog adds the gauges of the service's queued and running jobs,
// read from db at each scrape.
func (m *HTTPMetrics) WatchBacklog(db *gorm.DB, now func() time.Time) {
	m.backlog.Do(func() { m.reg.MustRegister(newBacklogCollector(db, now)) })
}

func (m *HTTPMetrics) Middleware() gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		route := c.FullPath()
		if route == "" {
			route = "unmatched"
		}
		status := strconv.Itoa(c.Writer.Status())
		m.requests.WithLabelValues(c.Request.Method, route, status).Inc()
		m.latency.WithLabelValues(c.Request.Method, route, status).Observe(time.Since(start).Seconds())
	}
}

// Handler serves the metrics in the Prometheus text exposition format.
func (m *HTTPMetrics) Handler() http.Handler { return m.handler }
