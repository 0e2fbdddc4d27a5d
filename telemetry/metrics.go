package telemetry

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/otlptranslator"
	"go.opentelemetry.io/otel"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	"go.temporal.io/sdk/client"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
)

// secondsBuckets are the histogram buckets of durations in seconds (the
// SDK's timers): from a millisecond to a minute. OpenTelemetry's default
// buckets are made for milliseconds.
var secondsBuckets = []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}

// meter is the metrics side: a meter provider read by the Prometheus
// exporter registered on the served registry.
type meter struct {
	provider *sdkmetric.MeterProvider
	sdk      client.MetricsHandler
}

// newMeter registers the exporter on reg. Names follow Prometheus
// conventions: counters end in _total, durations in _seconds; no target_info
// or scope labels are added.
func newMeter(reg prometheus.Registerer, res *resource.Resource) (*meter, error) {
	exp, err := otelprom.New(otelprom.WithRegisterer(reg), otelprom.WithoutTargetInfo(), otelprom.WithoutScopeInfo(),
		otelprom.WithTranslationStrategy(otlptranslator.UnderscoreEscapingWithSuffixes))
	if err != nil {
		return nil, fmt.Errorf("prometheus metrics exporter: %w", err)
	}
	seconds := sdkmetric.NewView(sdkmetric.Instrument{Name: "*", Kind: sdkmetric.InstrumentKindHistogram, Unit: "s"},
		sdkmetric.Stream{Aggregation: sdkmetric.AggregationExplicitBucketHistogram{Boundaries: secondsBuckets}})
	p := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp), sdkmetric.WithResource(res), sdkmetric.WithView(seconds))
	return &meter{provider: p, sdk: temporalotel.NewMetricsHandler(temporalotel.MetricsHandlerOptions{
		Meter:                p.Meter("temporal-sdk-go"),
		OnError:              otel.Handle,
		UseMonotonicCounters: true,
	})}, nil
}
