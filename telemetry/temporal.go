package telemetry

import (
	"go.temporal.io/sdk/client"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
)

// ClientOptions returns o with the Temporal SDK's metrics reported to the
// registry and, when tracing is on, the tracing interceptor: client calls
// start spans under the caller's context and carry them in the Temporal
// headers, and the workers made from the client continue them in workflow
// and activity spans. A nil *Telemetry returns o unchanged.
func (t *Telemetry) ClientOptions(o client.Options) (client.Options, error) {
	if t == nil {
		return o, nil
	}
	if t.meter != nil {
		o.MetricsHandler = t.meter.sdk
	}
	if t.tracer != nil {
		ti, err := temporalotel.NewTracingInterceptor(
			temporalotel.TracerOptions{Tracer: t.tracer.Tracer("temporal-sdk-go")},
		)
		if err != nil {
			return o, err
		}
		o.Interceptors = append([]interceptor.ClientInterceptor{ti}, o.Interceptors...)
	}
	return o, nil
}
