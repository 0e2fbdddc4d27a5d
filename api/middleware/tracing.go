package middleware

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"go.opentelemetry.io/contrib/instrumentation/github.com/gin-gonic/gin/otelgin"
	"go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/trace"

	"github.com/taskplatform/taskplatform/telemetry"
)

// Tracing starts a server span per API request (named by method and
// route) and puts it on the request's context, where the Temporal client's
// interceptor finds it: a submit's span is the root of its job's trace. A
// caller's W3C traceparent makes it the span's parent. Probes and /metrics
// are not traced; the HTTP metrics are HTTPMetrics', not the middleware's.
func Tracing(tp trace.TracerProvider) gin.HandlerFunc {
	return otelgin.Middleware(
		"taskplatform",
		otelgin.WithTracerProvider(tp),
		otelgin.WithPropagators(telemetry.Propagator()),
		otelgin.WithMeterProvider(noop.NewMeterProvider()),
		otelgin.WithFilter(func(r *http.Request) bool { return !operational(r.URL.Path) }),
	)
}
