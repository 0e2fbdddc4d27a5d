package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/api"
	"github.com/taskplatform/taskplatform/events"
	"github.com/taskplatform/taskplatform/models"
	"github.com/taskplatform/taskplatform/worker"
)

// webhookPing is `admin webhook ping`: a signed test event to an endpoint,
// sent through the running workers. It prints the delivery id.
func (r *adminRun) webhookPing() *cobra.Command {
	var id string
	return r.command(
		"ping --endpoint-id whe_…",
		"send a signed test event through the running workers; prints the delivery id",
		func(f *pflag.FlagSet) {
			f.StringVar(&id, "endpoint-id", "", "the endpoint, whe_… (required)")
		},
		func(ctx context.Context) (string, error) {
			if id == "" {
				return "", &usageError{"webhook ping needs --endpoint-id whe_…"}
			}
			return r.deliver(
				ctx,
				"webhook ping",
				func(db *gorm.DB) (*models.WebhookDelivery, error) { return pingDelivery(ctx, db, id) },
			)
		},
	)
}

// webhookReplay is `admin webhook replay`: a stored delivery's body again,
// as a new delivery with the same event id. It prints the delivery id.
func (r *adminRun) webhookReplay() *cobra.Command {
	var id string
	return r.command(
		"replay --delivery-id whd_…",
		"send a stored delivery again (new delivery id, same event id); prints the delivery id",
		func(f *pflag.FlagSet) {
			f.StringVar(&id, "delivery-id", "", "the delivery to send again, whd_… (required)")
		},
		func(ctx context.Context) (string, error) {
			if id == "" {
				return "", &usageError{"webhook replay needs --delivery-id whd_…"}
			}
			return r.deliver(
				ctx,
				"webhook replay",
				func(db *gorm.DB) (*models.WebhookDelivery, error) { return replayDelivery(ctx, db, id) },
			)
		},
	)
}

// deliver records the delivery that build makes and hands it to a
// WebhookDeliveryWorkflow on the running workers, so it is signed, retried
// and logged like any event. It returns the delivery id.
func (r *adminRun) deliver(
	ctx context.Context,
	cmd string,
	build func(*gorm.DB) (*models.WebhookDelivery, error),
) (string, error) {
	db, err := r.database(ctx)
	if err != nil {
		return "", err
	}
	d, err := build(db)
	if err != nil {
		return "", err
	}
	c, err := worker.Dial(ctx, r.cfg.TemporalAddress, r.cfg.TemporalNamespace, zap.NewNop(), nil)
	if err != nil {
		return "", fmt.Errorf("%w (is taskplatform dev or a worker running?)", err)
	}
	defer c.Close()
	if err := events.StartDelivery(ctx, c, db, "", d, cmd); err != nil {
		return "", err
	}
	return d.ID, nil
}

// replayDelivery is a new delivery of a stored one (events.ReplayOf).
func replayDelivery(ctx context.Context, db *gorm.DB, id string) (*models.WebhookDelivery, error) {
	return events.ReplayOf(ctx, db, id)
}

// pingDelivery is a ping event to an endpoint.
func pingDelivery(ctx context.Context, db *gorm.DB, id string) (*models.WebhookDelivery, error) {
	var ep models.WebhookEndpoint
	if err := db.WithContext(ctx).Take(&ep, "id = ?", id).Error; errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("endpoint %s: %w", id, models.ErrNotFound)
	} else if err != nil {
		return nil, err
	}
	return events.PingOf(ctx, db, &ep, time.Now(), api.CurrentVersion)
}
