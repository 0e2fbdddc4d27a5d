// Package events is the use case of telling the world what happened:
// the deliveries of an event to its subscribers (recorded, then handed
// to a delivery workflow each), the spend.threshold events a hold or a
// refused batch recorded, and the deliveries an operator or the panel
// replays or pings. HTTP, the CLI and the activities call it; it imports
// no workflow or activity package.
package events

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"strings"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"gorm.io/gorm"

	"github.com/taskplatform/taskplatform/contract"
)

// Starter is the part of a Temporal client that starts delivery
// workflows.
type Starter interface {
	ExecuteWorkflow(ctx context.Context, options client.StartWorkflowOptions, workflow any,
		args ...any) (client.WorkflowRun, error)
}

// Emitter records events' deliveries in DB and starts their workflows
// with Temporal.
type Emitter struct {
	DB       *gorm.DB
	Temporal Starter
}

// Delivery names one delivery an event made.
type Delivery struct {
	DeliveryID string
	EndpointID string
	// UserID is the account the delivery is of (its fairness key).
	UserID uint64
}

// ID derives an id from parts, so a retried emit makes the same rows.
func ID(prefix string, parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return prefix + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:])[:24])
}

// Start starts one delivery workflow per delivery of event on
// queue (workflow id = delivery id, so a repeat starts none twice).
func (e *Emitter) Start(ctx context.Context, deliveries []Delivery, event, summary,
	queue string) error {
	if len(deliveries) == 0 {
		return nil
	}
	if e.Temporal == nil {
		return errors.New("emit: no Temporal client to start deliveries with")
	}
	for _, d := range deliveries {
		_, err := e.Temporal.ExecuteWorkflow(ctx, DeliveryStart(ctx, e.DB, d.UserID, d.DeliveryID, queue, summary),
			contract.WebhookDeliveryWorkflow, contract.WebhookDeliveryInput{DeliveryID: d.DeliveryID, Event: event})
		var started *serviceerror.WorkflowExecutionAlreadyStarted
		if err != nil && !errors.As(err, &started) {
			return fmt.Errorf("start delivery %s: %w", d.DeliveryID, err)
		}
	}
	return nil
}
