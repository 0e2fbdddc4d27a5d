package workflows

import (
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/contract"
)

// WebhookBackoff is the retry schedule of a delivery: seconds apart first,
// minutes apart later, at most webhook.max_attempts attempts.
var WebhookBackoff = temporal.RetryPolicy{
	InitialInterval:    2 * time.Second,
	BackoffCoefficient: 3,
	MaximumInterval:    15 * time.Minute,
}

// WebhookDeliveryWorkflow delivers one signed event to one receiver with
// Temporal's retry policy; it outlives the job that emitted it.
func WebhookDeliveryWorkflow(
	ctx workflow.Context,
	in contract.WebhookDeliveryInput,
) (contract.WebhookDeliveryResult, error) {
	ctx = workflow.WithActivityOptions(ctx, deliverOptions(in.Event))
	err := workflow.ExecuteActivity(ctx, contract.ActivityDeliver, in.DeliveryID).Get(ctx, nil)
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) {
		// Every attempt is in the delivery log; the result stays readable.
		workflow.GetLogger(ctx).Warn("webhook not delivered", "delivery_id", in.DeliveryID, "error", err)
		return contract.WebhookDeliveryResult{}, nil
	}
	return contract.WebhookDeliveryResult{Delivered: err == nil}, err
}
