package activities

import (
	"context"
	"github.com/taskplatform/taskplatform/events"
	"slices"

	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/jobstream"
)

// emit records a job event's deliveries and starts one delivery workflow per
// delivery on queue, when someone subscribed to the event at admit
// (events). It is safe to repeat: delivery and workflow ids are stable.
// Emitting from the activity that caused the event costs the job workflow
// no activity or child workflow of its own.
func (a *Activities) emit(ctx context.Context, jobID, event string, seq int, events []string, queue string) error {
	a.notify(ctx, jobID)
	if !slices.Contains(events, event) {
		return nil
	}
	deliveries, err := a.recordEvent(ctx, Event{JobID: jobID, Event: event, Seq: seq, OccurredAt: a.now()})
	if err != nil || len(deliveries) == 0 {
		return err
	}
	return a.emitter().Start(ctx, deliveries, event, event+" of "+jobID, queue)
}

// emitQuietly emits a started or progress event; a failure is logged, not
// returned, so a delivered output is never reported as failed because of
// its notification (progress events are coalesced: the terminal event
// carries the final state).
func (a *Activities) emitQuietly(ctx context.Context, jobID, event string, seq int, events []string, queue string) {
	if err := a.emit(ctx, jobID, event, seq, events, queue); err != nil {
		a.Log.Warn("job event not emitted", zap.String("job_id", jobID), zap.String("event", event), zap.Error(err))
	}
}

// notify tells the job's live event streams (GET /v1/jobs/{job_id}/events)
// that its row changed; they read it once per change, whoever follows it.
func (a *Activities) notify(ctx context.Context, jobID string) {
	if err := jobstream.Notify(ctx, a.DB, jobID); err != nil {
		a.Log.Warn("job stream not notified", zap.String("job_id", jobID), zap.Error(err))
	}
}

// emitter is the events use case on the activities' database and Temporal
// client.
func (a *Activities) emitter() *events.Emitter {
	return &events.Emitter{DB: a.DB, Temporal: a.Temporal}
}
