package activities

import (
	"context"
	"time"
)

// RecordEvent records the deliveries of one job event (recordEvent), for
// the tests of event bodies and subscribers.
var RecordEvent = (*Activities).recordEvent
var CountSettled = (*JobMetrics).settledJob

// EngineInputs is the publisher of engine input URLs a's steps run with.
func EngineInputs(a *Activities) interface {
	URL(ctx context.Context, base string, data []byte, mediaType string, expires time.Time) (string, error)
} {
	return engineInputs{a: a}
}
