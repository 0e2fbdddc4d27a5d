package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.temporal.io/sdk/client"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

// emitSpendThresholds sends the spend.threshold events a job's admit
// recorded (models.Admit writes each threshold once per limit and period)
// to the account's endpoints subscribed to them, starting one delivery
// workflow each on queue. A retried admit reads the same thresholds and
// makes the same deliveries, so it is safe to repeat.
func (a *Activities) emitSpendThresholds(ctx context.Context, jobID, queue string) error {
	crossed, err := models.ThresholdsOfJob(ctx, a.DB, jobID)
	if err != nil || len(crossed) == 0 {
		return err
	}
	eps, err := models.EndpointsFor(ctx, a.DB, crossed[0].UserID, contract.EventSpendThreshold)
	if err != nil || len(eps) == 0 {
		return err
	}
	version, err := a.accountVersion(ctx, crossed[0].UserID)
	if err != nil {
		return err
	}
	for i := range crossed {
		th := &crossed[i]
		body, err := json.Marshal(spendThresholdBody(th, version))
		if err != nil {
			return err
		}
		var deliveries []Delivery
		for _, ep := range eps {
			d := &models.WebhookDelivery{ID: stableID("whd_", th.ID, ep.ID, ep.URL), EventID: th.ID,
				UserID: th.UserID, EndpointID: ep.ID, URL: ep.URL, Event: contract.EventSpendThreshold,
				Body: string(body), Status: models.DeliveryPending}
			if err := models.CreateDelivery(ctx, a.DB, d); err != nil && !errors.Is(err, gorm.ErrDuplicatedKey) {
				return fmt.Errorf("record delivery: %w", err)
			}
			deliveries = append(deliveries, Delivery{DeliveryID: d.ID, EndpointID: ep.ID, UserID: th.UserID})
		}
		summary := fmt.Sprintf("%s %d%% of the %s %s limit", contract.EventSpendThreshold, th.Percent, th.Scope(),
			th.Period)
		if err := a.startDeliveries(ctx, deliveries, contract.EventSpendThreshold, summary, queue); err != nil {
			return err
		}
	}
	return nil
}

// EmitSpendThresholds sends the spend.threshold events recorded for job
// jobID with c, as a job's admit does: the API sends the 100 % a refused
// batch recorded (models.BatchRefusal.JobID). Repeating it makes the same
// deliveries.
func EmitSpendThresholds(ctx context.Context, c client.Client, db *gorm.DB, jobID, queue string) error {
	a := &Activities{DB: db, Temporal: c}
	return a.emitSpendThresholds(ctx, jobID, queue)
}

// spendThresholdBody is the public body of a recorded threshold.
func spendThresholdBody(th *models.SpendThreshold, version string) wire.SpendThresholdEvent {
	var key *string
	if th.APIKeyID != "" {
		key = &th.APIKeyID
	}
	return wire.SpendThresholdEvent{ID: th.ID, OccurredAt: th.CreatedAt.UTC(), Event: contract.EventSpendThreshold,
		APIVersion: version, Threshold: th.Percent, Scope: th.Scope(), APIKeyID: key, Period: th.Period,
		CreditType: th.CreditType, Limit: th.Limit, Spent: th.Spent, PeriodStart: th.PeriodStart.UTC(),
		ResetsAt: th.ResetsAt.UTC(), JobID: th.JobID}
}

// accountVersion is the contract version an account's event bodies follow:
// its pin, else the current one.
func (a *Activities) accountVersion(ctx context.Context, userID uint64) (string, error) {
	u, err := models.UserByID(ctx, a.DB, userID)
	if err != nil && !errors.Is(err, models.ErrNotFound) {
		return "", err
	}
	if err == nil && contract.KnownVersion(u.ServiceVersion) {
		return u.ServiceVersion, nil
	}
	return contract.VersionOr(""), nil
}
