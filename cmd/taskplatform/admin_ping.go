package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"go.temporal.io/sdk/client"
	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/worker"
)

// adminDeliver runs the admin commands that send a delivery through the
// running workers: ping (a signed test event to an endpoint) and replay (a
// stored body again, as a new delivery with the same event id). The
// delivery is recorded and handed to a WebhookDeliveryWorkflow, so it is
// signed, retried and logged like any event. It prints the delivery id.
func adminDeliver(ctx context.Context, cfg config, db *gorm.DB, cmd string, args []string, stderr io.Writer) (string, error) {
	var (
		d   *models.WebhookDelivery
		err error
	)
	switch cmd {
	case "webhook ping":
		d, err = pingDelivery(ctx, db, args, stderr)
	default:
		d, err = replayDelivery(ctx, db, args, stderr)
	}
	if err != nil {
		return "", err
	}
	c, err := worker.Dial(ctx, cfg.TemporalAddress, cfg.TemporalNamespace, zap.NewNop(), nil)
	if err != nil {
		return "", fmt.Errorf("%w (is taskplatform dev or a worker running?)", err)
	}
	defer c.Close()
	if err := models.CreateDelivery(ctx, db, d); err != nil {
		return "", err
	}
	_, err = c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: d.ID, TaskQueue: contract.TaskQueue, StaticSummary: d.Event + " (" + cmd + ")"},
		contract.WebhookDeliveryWorkflow, contract.WebhookDeliveryInput{DeliveryID: d.ID, Event: d.Event})
	if err != nil {
		return "", fmt.Errorf("start the delivery: %w", err)
	}
	return d.ID, nil
}

// replayDelivery is a new delivery of a stored one: same body, same event
// id, same receiver, its own delivery id.
func replayDelivery(ctx context.Context, db *gorm.DB, args []string, stderr io.Writer) (*models.WebhookDelivery, error) {
	fs := flag.NewFlagSet("webhook replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	id := fs.String("delivery-id", "", "delivery id (whd_…)")
	if err := fs.Parse(args); err != nil || *id == "" || fs.NArg() > 0 {
		return nil, &usageError{"webhook replay needs --delivery-id whd_…"}
	}
	old, err := models.DeliveryByID(ctx, db, *id)
	if err != nil {
		return nil, err
	}
	return &models.WebhookDelivery{ID: models.NewID("whd_"), EventID: old.EventID, UserID: old.UserID, EndpointID: old.EndpointID,
		URL: old.URL, Event: old.Event, JobID: old.JobID, Body: old.Body, Status: models.DeliveryPending}, nil
}

// pingDelivery is a ping event to an endpoint.
func pingDelivery(ctx context.Context, db *gorm.DB, args []string, stderr io.Writer) (*models.WebhookDelivery, error) {
	fs := flag.NewFlagSet("webhook ping", flag.ContinueOnError)
	fs.SetOutput(stderr)
	id := fs.String("endpoint-id", "", "endpoint id (whe_…)")
	if err := fs.Parse(args); err != nil || *id == "" || fs.NArg() > 0 {
		return nil, &usageError{"webhook ping needs --endpoint-id whe_…"}
	}
	var ep models.WebhookEndpoint
	if err := db.WithContext(ctx).Take(&ep, "id = ?", *id).Error; errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("endpoint %s: %w", *id, models.ErrNotFound)
	} else if err != nil {
		return nil, err
	}
	u, err := models.UserByID(ctx, db, ep.UserID)
	if err != nil {
		return nil, err
	}
	version := u.ServiceVersion
	if version == "" {
		version = api.CurrentVersion
	}
	return activities.NewPing(&ep, time.Now(), version)
}
