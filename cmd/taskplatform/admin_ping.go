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
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/worker"
	"github.com/taskplatform/taskplatform/workflows"
)

// adminPing sends a signed ping event to an endpoint: the delivery is
// recorded and handed to a WebhookDeliveryWorkflow on the running workers,
// so it is signed, retried and logged like any event. It prints the
// delivery id.
func adminPing(ctx context.Context, cfg config, db *gorm.DB, args []string, stderr io.Writer) (string, error) {
	fs := flag.NewFlagSet("webhook ping", flag.ContinueOnError)
	fs.SetOutput(stderr)
	id := fs.String("endpoint-id", "", "endpoint id (whe_…)")
	if err := fs.Parse(args); err != nil || *id == "" || fs.NArg() > 0 {
		return "", &usageError{"webhook ping needs --endpoint-id whe_…"}
	}
	var ep models.WebhookEndpoint
	if err := db.WithContext(ctx).Take(&ep, "id = ?", *id).Error; errors.Is(err, gorm.ErrRecordNotFound) {
		return "", fmt.Errorf("endpoint %s: %w", *id, models.ErrNotFound)
	} else if err != nil {
		return "", err
	}
	u, err := models.UserByID(ctx, db, ep.UserID)
	if err != nil {
		return "", err
	}
	version := u.ServiceVersion
	if version == "" {
		version = api.CurrentVersion
	}
	d, err := activities.NewPing(&ep, time.Now(), version)
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
	_, err = c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: d.ID, TaskQueue: workflows.TaskQueue, StaticSummary: "ping of " + ep.ID},
		workflows.WebhookDeliveryWorkflow, workflows.WebhookDeliveryInput{DeliveryID: d.ID, Event: activities.EventPing})
	if err != nil {
		return "", fmt.Errorf("start the delivery: %w", err)
	}
	return d.ID, nil
}
