package workflows

import (
	"errors"
	"slices"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/contract"
)

// WebhookBackoff is the retry schedule of a delivery: seconds apart first,
// minutes apart later, at most webhook.max_attempts attempts.
var WebhookBackoff = temporal.RetryPolicy{InitialInterval: 2 * time.Second, BackoffCoefficient: 3, MaximumInterval: 15 * time.Minute}

// WebhookDeliveryWorkflow delivers one signed event to one receiver with
// Temporal's retry policy; it outlives the job that emitted it.
func WebhookDeliveryWorkflow(ctx workflow.Context, in contract.WebhookDeliveryInput) (contract.WebhookDeliveryResult, error) {
	policy := WebhookBackoff
	policy.MaximumAttempts = int32(contract.DefaultWebhook().MaxAttempts)
	policy.NonRetryableErrorTypes = []string{contract.ErrTypeWebhookRejected}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &policy,
		Summary:             "deliver " + in.Event,
	})
	err := workflow.ExecuteActivity(ctx, contract.ActivityDeliver, in.DeliveryID).Get(ctx, nil)
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) {
		// Every attempt is in the delivery log; the result stays readable.
		workflow.GetLogger(ctx).Warn("webhook not delivered", "delivery_id", in.DeliveryID, "error", err)
		return contract.WebhookDeliveryResult{}, nil
	}
	return contract.WebhookDeliveryResult{Delivered: err == nil}, err
}

// emit sends a job event to its subscribers: the deliveries are recorded by
// an activity, then each gets its own WebhookDeliveryWorkflow, abandoned so
// it outlives the job. Events nobody subscribed to at admit cost nothing.
func (s *jobState) emit(ctx workflow.Context, event string, seq int) {
	if !s.webhooks || !slices.Contains(s.admit.Events, event) {
		return
	}
	log := workflow.GetLogger(ctx)
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		Summary:             "emit " + event,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 30 * time.Second, MaximumAttempts: 10},
	})
	var deliveries []contract.Delivery
	in := contract.EmitInput{JobID: s.in.JobID, Event: event, Seq: seq, OccurredAt: workflow.Now(ctx)}
	if err := workflow.ExecuteActivity(actx, contract.ActivityEmitEvent, in).Get(ctx, &deliveries); err != nil {
		log.Error("event not emitted", "event", event, "error", err)
		return
	}
	for _, d := range deliveries {
		cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
			WorkflowID:            d.DeliveryID,
			ParentClosePolicy:     enumspb.PARENT_CLOSE_POLICY_ABANDON,
			WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
			StaticSummary:         event + " of " + s.in.JobID,
		})
		child := workflow.ExecuteChildWorkflow(cctx, WebhookDeliveryWorkflow, contract.WebhookDeliveryInput{DeliveryID: d.DeliveryID, Event: event})
		if err := child.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
			log.Warn("delivery workflow not started", "delivery_id", d.DeliveryID, "error", err)
		}
	}
}
