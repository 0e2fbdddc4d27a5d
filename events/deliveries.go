package events

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"go.temporal.io/sdk/client"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// ReplayOf is a new delivery of a stored one: same body, same event id,
// same receiver, its own delivery id. An unknown id wraps
// models.ErrNotFound.
func ReplayOf(ctx context.Context, db *gorm.DB, id string) (*models.WebhookDelivery, error) {
	old, err := models.DeliveryByID(ctx, db, id)
	if err != nil {
		return nil, err
	}
	return &models.WebhookDelivery{
		ID:         models.NewID("whd_"),
		EventID:    old.EventID,
		UserID:     old.UserID,
		EndpointID: old.EndpointID,
		URL:        old.URL,
		Event:      old.Event,
		JobID:      old.JobID,
		Body:       old.Body,
		Status:     models.DeliveryPending,
	}, nil
}

// PingOf is a ping event to an endpoint, in the contract version of its
// account (currentVersion when the account has none pinned, or one no
// longer served).
func PingOf(
	ctx context.Context,
	db *gorm.DB,
	ep *models.WebhookEndpoint,
	now time.Time,
	currentVersion string,
) (*models.WebhookDelivery, error) {
	u, err := models.UserByID(ctx, db, ep.UserID)
	if err != nil {
		return nil, err
	}
	version := u.ServiceVersion
	if !contract.KnownVersion(version) {
		version = currentVersion
	}
	return NewPing(ep, now, version)
}

// StartDelivery records d and hands it to a WebhookDeliveryWorkflow on the
// workers of queue (empty: contract.TaskQueue), so it is signed, retried
// and logged like any event; why names the caller in the workflow's summary.
func StartDelivery(
	ctx context.Context,
	c client.Client,
	db *gorm.DB,
	queue string,
	d *models.WebhookDelivery,
	why string,
) error {
	if queue == "" {
		queue = contract.TaskQueue
	}
	if err := models.CreateDelivery(ctx, db, d); err != nil {
		return err
	}
	_, err := c.ExecuteWorkflow(
		ctx,
		DeliveryStart(ctx, db, d.UserID, d.ID, queue, d.Event+" ("+why+")"),
		contract.WebhookDeliveryWorkflow,
		contract.WebhookDeliveryInput{DeliveryID: d.ID, Event: d.Event},
	)
	if err != nil {
		return fmt.Errorf("start the delivery: %w", err)
	}
	return nil
}

// NewPing is the delivery of a ping event to an endpoint: the same signed
// request as a job event, with a body that names the endpoint.
func NewPing(ep *models.WebhookEndpoint, now time.Time, apiVersion string) (*models.WebhookDelivery, error) {
	eventID := ID("evt_", ep.ID, contract.EventPing, now.Format(time.RFC3339Nano))
	body, err := json.Marshal(
		map[string]any{
			"id":          eventID,
			"occurred_at": now.UTC(),
			"event":       contract.EventPing,
			"api_version": apiVersion,
			"endpoint_id": ep.ID,
		},
	)
	if err != nil {
		return nil, err
	}
	return &models.WebhookDelivery{
		ID:         ID("whd_", eventID, ep.ID),
		EventID:    eventID,
		UserID:     ep.UserID,
		EndpointID: ep.ID,
		URL:        ep.URL,
		Event:      contract.EventPing,
		Body:       string(body),
		Status:     models.DeliveryPending,
	}, nil
}
