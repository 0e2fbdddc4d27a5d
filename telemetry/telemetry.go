// Package telemetry builds the service's OpenTelemetry providers: metrics
// exported to the Prometheus registry that /metrics serves (beside the
// service's own metrics there), and traces exported by OTLP when
// OTEL_EXPORTER_OTLP_ENDPOINT is set, off otherwise. It hands the Temporal
// clients their metrics handler and tracing interceptor, so one job is one
// trace from its HTTP submit through its workflow, activities and webhook
// deliveries.
package telemetry

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/prometheus/client_golang/prometheus"
)

// Options shape the providers.
type Options struct {
	// Service is the service.name of spans and metrics unless
	// OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) names it.
	Service string
	// Registry is where the Temporal SDK's metrics are registered; nil
	// means the SDK reports no metrics.
	Registry prometheus.Registerer
	// SpanExporter, when set, receives every span as it ends instead of the
	// OTLP exporter (tests: tracetest's in-memory exporter). Tracing is on
	// whatever the environment says.
	SpanExporter sdktrace.SpanExporter
}

// Telemetry is the providers of one process. A nil *Telemetry is valid and
// reports nothing.
type Telemetry struct {
	meter    *meter
	tracer   *sdktrace.TracerProvider
	shutdown []func(context.Context) error
}

// New builds the providers from o and the standard OTEL_* variables.
// Tracing is on when o.SpanExporter is set, or when
// OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set
// and neither OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none says
// otherwise; the OTLP exporter reads its own variables (protocol, headers,
// timeout, certificates, compression), and the sampler honours
// OTEL_TRACES_SAMPLER. With tracing off no span is recorded.
func New(ctx context.Context, o Options) (*Telemetry, error) {
	t := &Telemetry{}
	res, err := newResource(ctx, o.Service)
	if err != nil {
		return nil, err
	}
	if o.Registry != nil {
		m, err := newMeter(o.Registry, res)
		if err != nil {
			return nil, err
		}
		t.meter = m
		t.shutdown = append(t.shutdown, m.provider.Shutdown)
	}
	exp := o.SpanExporter
	batch := false
	if exp == nil {
		if exp, err = exporterFromEnv(ctx); err != nil {
			_ = t.Shutdown(ctx)
			return nil, err
		}
		batch = true
	}
	if exp != nil {
		opt := sdktrace.WithSyncer(exp)
		if batch {
			opt = sdktrace.WithBatcher(exp)
		}
		t.tracer = sdktrace.NewTracerProvider(opt, sdktrace.WithResource(res))
		t.shutdown = append(t.shutdown, t.tracer.Shutdown)
	}
	return t, nil
}

// newResource names the service: o's name first, the environment over it.
func newResource(ctx context.Context, service string) (*resource.Resource, error) {
	if service == "" {
		service = "taskplatform"
	}
	return resource.New(
		ctx,
		resource.WithAttributes(attribute.String("service.name", service)),
		resource.WithFromEnv(),
		resource.WithTelemetrySDK(),
	)
}

// Tracing is the tracer provider, or nil when tracing is off.
func (t *Telemetry) Tracing() trace.TracerProvider {
	if t == nil || t.tracer == nil {
		return nil
	}
	return t.tracer
}

// Propagator is how a span context crosses a process boundary (W3C trace
// context): what the HTTP API accepts from callers.
func Propagator() propagation.TextMapPropagator {
	return propagation.TraceContext{}
}

// Shutdown flushes the spans and metrics not yet exported and stops the
// providers; call it once, after the Temporal clients closed.
func (t *Telemetry) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	var errs []error
	for i := len(t.shutdown) - 1; i >= 0; i-- {
		errs = append(errs, t.shutdown[i](ctx))
	}
	t.shutdown = nil
	return errors.Join(errs...)
}
