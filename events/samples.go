package events

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

// SampleKinds are the event kinds a test event can be sent as: ping and
// every kind an endpoint subscribes to (as `stripe trigger` sends any).
func SampleKinds() []string {
	return slices.Concat([]string{contract.EventPing}, contract.JobEvents,
		[]string{contract.EventSpendThreshold, contract.EventBatchCompleted})
}

// SampleOf is a test event of kind to an endpoint, in the contract version
// of its account: ping, or a sample body of the kind's shape that names
// made-up ids (job_sample, batch_sample). It is delivered, signed and
// logged by StartDelivery like any event. ok is false for a kind
// SampleKinds does not list.
func SampleOf(
	ctx context.Context,
	db *gorm.DB,
	ep *models.WebhookEndpoint,
	kind string,
	now time.Time,
	currentVersion string,
) (d *models.WebhookDelivery, ok bool, err error) {
	if !slices.Contains(SampleKinds(), kind) {
		return nil, false, nil
	}
	if kind == contract.EventPing {
		d, err = PingOf(ctx, db, ep, now, currentVersion)
		return d, true, err
	}
	u, err := models.UserByID(ctx, db, ep.UserID)
	if err != nil {
		return nil, true, err
	}
	version := u.ServiceVersion
	if !contract.KnownVersion(version) {
		version = currentVersion
	}
	eventID := ID("evt_", ep.ID, kind, now.Format(time.RFC3339Nano))
	body, err := json.Marshal(sampleBody(kind, eventID, now.UTC(), version))
	if err != nil {
		return nil, true, fmt.Errorf("sample %s: %w", kind, err)
	}
	return &models.WebhookDelivery{
		ID:         ID("whd_", eventID, ep.ID),
		EventID:    eventID,
		UserID:     ep.UserID,
		EndpointID: ep.ID,
		URL:        ep.URL,
		Event:      kind,
		Body:       string(body),
		Status:     models.DeliveryPending,
	}, true, nil
}

// sampleBody is the body of a sample event of kind, of the shape its real
// events have.
func sampleBody(kind, eventID string, now time.Time, version string) any {
	switch kind {
	case contract.EventSpendThreshold:
		start := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
		return wire.SpendThresholdEvent{ID: eventID, OccurredAt: now, Event: kind, APIVersion: version, Threshold: 80,
			Scope: contract.SpendAccount, Period: contract.SpendMonth, CreditType: contract.CreditService,
			Limit: 1000, Spent: 800, PeriodStart: start, ResetsAt: start.AddDate(0, 1, 0), JobID: "job_sample"}
	case contract.EventBatchCompleted:
		succeeded := contract.OutcomeSucceeded
		return wire.BatchEvent{ID: eventID, OccurredAt: now, Event: kind, APIVersion: version,
			Batch: wire.Batch{BatchID: "batch_sample", Mode: models.BatchAll, Status: wire.BatchCompleted, CreatedAt: now,
				CompletedAt: &now, Counts: wire.BatchCounts{Jobs: 1, Succeeded: 1},
				Credits: []wire.BatchCredit{}, Refused: []wire.RefusedItem{}, StatusURL: "/v1/batches/batch_sample",
				Jobs: []wire.BatchJob{{JobID: "job_sample", Task: "pattern.generate",
					Lifecycle: contract.LifecycleTerminal, Outcome: &succeeded}}}}
	}
	total := 1
	ev := wire.Event{ID: eventID, OccurredAt: now, Event: kind, APIVersion: version, JobID: "job_sample",
		Task: "pattern.generate", Lifecycle: contract.LifecycleRunning,
		Progress: wire.Progress{Total: &total, Phase: "running"}}
	end := func(outcome string) {
		ev.Lifecycle, ev.Outcome, ev.Progress.Phase = contract.LifecycleTerminal, &outcome, "done"
	}
	switch kind {
	case contract.EventSucceeded:
		end(contract.OutcomeSucceeded)
		ev.Progress.Done = 1
	case contract.EventFailed:
		end(contract.OutcomeFailed)
		ev.Error, _ = json.Marshal(apierr.New(apierr.ProcessingFailed, "A sample failure: no job failed."))
	case contract.EventCancelled:
		end(contract.OutcomeCancelled)
	}
	return ev
}
