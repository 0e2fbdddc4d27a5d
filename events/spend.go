package events

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/wire"
)

// SpendThresholds sends the spend.threshold events a job's admit
// recorded (models.Admit writes each threshold once per limit and period)
// to the account's endpoints subscribed to them, starting one delivery
// workflow each on queue. A retried admit reads the same thresholds and
// makes the same deliveries, so it is safe to repeat.
func (e *Emitter) SpendThresholds(ctx context.Context, jobID, queue string) error {
	crossed, err := models.ThresholdsOfJob(ctx, e.DB, jobID)
	if err != nil || len(crossed) == 0 {
		return err
	}
	eps, err := models.EndpointsFor(ctx, e.DB, crossed[0].UserID, contract.EventSpendThreshold)
	if err != nil || len(eps) == 0 {
		return err
	}
	version, err := e.accountVersion(ctx, crossed[0].UserID)
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
			d := &models.WebhookDelivery{ID: ID("whd_", th.ID, ep.ID, ep.URL), EventID: th.ID,
				UserID: th.UserID, EndpointID: ep.ID, URL: ep.URL, Event: contract.EventSpendThreshold,
				Body: string(body), Status: models.DeliveryPending}
			if err := models.CreateDelivery(ctx, e.DB, d); err != nil && !errors.Is(err, gorm.ErrDuplicatedKey) {
				return fmt.Errorf("record delivery: %w", err)
			}
			deliveries = append(deliveries, Delivery{DeliveryID: d.ID, EndpointID: ep.ID, UserID: th.UserID})
		}
		summary := fmt.Sprintf("%s %d%% of the %s %s limit", contract.EventSpendThreshold, th.Percent, th.Scope(),
			th.Period)
		if err := e.Start(ctx, deliveries, contract.EventSpendThreshold, summary, queue); err != nil {
			return err
		}
	}
	return nil
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
func (e *Emitter) accountVersion(ctx context.Context, userID uint64) (string, error) {
	u, err := models.UserByID(ctx, e.DB, userID)
	if err != nil && !errors.Is(err, models.ErrNotFound) {
		return "", err
	}
	if err == nil && contract.KnownVersion(u.ServiceVersion) {
		return u.ServiceVersion, nil
	}
	return contract.VersionOr(""), nil
}
