package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/batchstart"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/events"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

// DefaultBatchSweepAfter is how long after its write a batch not yet
// marked started is the sweep's to start: its request starts it well
// within, or goes on starting it (sends are idempotent, so overlapping
// only sends an admit twice).
const DefaultBatchSweepAfter = 2 * time.Minute

// sweepBatches starts the jobs of batches whose API process stopped while
// starting them (every send is idempotent, so a batch its request is still
// starting is only sent twice).
func (l *LateAdmits) sweepBatches(ctx context.Context) {
	now := l.acts.now()
	batches, err := models.UnstartedBatches(ctx, l.acts.DB, now.Add(-l.o.BatchAfter), 4)
	if err != nil {
		l.acts.Log.Warn("unstarted batches not read", zap.Error(err))
		return
	}
	for i := range batches {
		b := &batches[i]
		sctx, cancel := context.WithTimeout(ctx, 2*l.o.Wait)
		err := batchstart.Batch(sctx, l.acts.DB, batchstart.Send(l.send), b, l.acts.now)
		cancel()
		if err != nil {
			l.acts.Log.Warn("a batch's jobs were not all started; the sweep starts them again",
				zap.String("batch_id", b.ID), zap.Error(err))
			continue
		}
		l.acts.Log.Info("a batch's jobs were started by the sweep", zap.String("batch_id", b.ID))
	}
}

// completeBatch emits batch.completed when the ended job jobID was the last
// of its batch to end (models.CompleteBatch decides it once; a retried
// settlement of the same job records the same deliveries again).
func (a *Activities) completeBatch(ctx context.Context, jobID, queue string) error {
	b, err := models.CompleteBatch(ctx, a.DB, jobID, a.now())
	if err != nil || b == nil {
		return err
	}
	event := contract.EventBatchCompleted
	eventID := events.ID("evt_", b.ID, event)
	body, err := a.batchEventBody(ctx, b, eventID)
	if err != nil {
		return err
	}
	type target struct{ endpointID, url string }
	var targets []target
	if b.APIKeyID != "" {
		eps, err := models.EndpointsFor(ctx, a.DB, b.UserID, event)
		if err != nil {
			return err
		}
		for _, ep := range eps {
			targets = append(targets, target{ep.ID, ep.URL})
		}
	}
	if b.WebhookURL != "" {
		targets = append(targets, target{"", b.WebhookURL})
	}
	if len(targets) > 0 && a.Temporal == nil {
		return errors.New("batch.completed: no Temporal client to start deliveries with")
	}
	for _, t := range targets {
		d := &models.WebhookDelivery{ID: events.ID("whd_", eventID, t.endpointID, t.url), EventID: eventID,
			UserID: b.UserID, EndpointID: t.endpointID, URL: t.url, Event: event, Body: string(body),
			Status: models.DeliveryPending}
		if err := models.CreateDelivery(ctx, a.DB, d); err != nil && !errors.Is(err, gorm.ErrDuplicatedKey) {
			return fmt.Errorf("record delivery: %w", err)
		}
		_, err := a.Temporal.ExecuteWorkflow(ctx, events.DeliveryStart(ctx, a.DB, b.UserID, d.ID, queue,
			event+" of "+b.ID), contract.WebhookDeliveryWorkflow, contract.WebhookDeliveryInput{DeliveryID: d.ID, Event: event})
		var started *serviceerror.WorkflowExecutionAlreadyStarted
		if err != nil && !errors.As(err, &started) {
			return fmt.Errorf("start delivery %s: %w", d.ID, err)
		}
	}
	a.Log.Info("batch completed", zap.String("batch_id", b.ID), zap.Int("deliveries", len(targets)))
	return nil
}

// batchEventBody is the body of a batch's batch.completed event, in the
// version its account is pinned to.
func (a *Activities) batchEventBody(ctx context.Context, b *models.Batch, eventID string) ([]byte, error) {
	version := contract.CurrentVersion
	switch u, err := models.UserByID(ctx, a.DB, b.UserID); {
	case err == nil:
		version = contract.VersionOr(u.ServiceVersion)
	case !errors.Is(err, models.ErrNotFound):
		return nil, err
	}
	rec, err := models.BatchRecord(ctx, a.DB, b, a.FilesBaseURL)
	if err != nil {
		return nil, err
	}
	return json.Marshal(wire.BatchEvent{ID: eventID, OccurredAt: b.CompletedAt.UTC(), Event: contract.EventBatchCompleted,
		APIVersion: version, Batch: rec})
}
