package activities

import (
	"context"
	"slices"

	"go.uber.org/zap"

	"github.com/taskplatform/taskplatform/events"
	"github.com/taskplatform/taskplatform/jobstream"
	"github.com/taskplatform/taskplatform/models"
)

// emit records a job event's deliveries and starts one delivery workflow per
// delivery on queue, when someone subscribed to the event at admit
// (events). It is safe to repeat: delivery and workflow ids are stable.
// Emitting from the activity that caused the event costs the job workflow
// no activity or child workflow of its own.
func (a *Activities) emit(ctx context.Context, jobID, event string, seq int, events []string, queue string) error {
	return a.emitEvent(ctx, Event{JobID: jobID, Event: event, Seq: seq}, events, queue)
}

// emitEnded emits the terminal event of job, its row as the caller just
// wrote or read it, and accountVersion the contract version its account is
// pinned to ("" for none; nil: read it), as emit does: the body is built
// from them, neither read again.
func (a *Activities) emitEnded(ctx context.Context, job *models.Job, accountVersion *string, event string,
	events []string, queue string) error {
	return a.emitEvent(ctx, Event{JobID: job.ID, Job: job, AccountVersion: accountVersion, Event: event}, events,
		queue)
}

func (a *Activities) emitEvent(ctx context.Context, in Event, events []string, queue string) error {
	a.notify(ctx, in.JobID)
	if !slices.Contains(events, in.Event) {
		return nil
	}
	in.OccurredAt = a.now()
	deliveries, err := a.recordEvent(ctx, in)
	if err != nil || len(deliveries) == 0 {
		return err
	}
	return a.emitter().Start(ctx, deliveries, in.Event, in.Event+" of "+in.JobID, queue)
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
