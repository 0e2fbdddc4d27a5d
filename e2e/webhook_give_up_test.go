package e2e_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// TestDeliverGivesUpAtTheLastAttempt runs Deliver on the real Temporal
// under a retry policy of two quick attempts (the SDK's test environment
// does not tell an activity its retry policy, so only a server shows the
// last attempt): a receiver still failing then fails the delivery for good
// — no next attempt in the log — and the endpoint counts one failure.
func TestDeliverGivesUpAtTheLastAttempt(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t, http.StatusServiceUnavailable, http.StatusServiceUnavailable, http.StatusServiceUnavailable)
	s := newStack(t, stackOptions{credits: 100, rootCAs: rcv.pool(), noWorker: true})
	ctx := context.Background()
	ep := &models.WebhookEndpoint{
		ID:     models.NewID("whe_"),
		UserID: s.userID,
		URL:    rcv.srv.URL + "/ep",
		Events: contract.EventSucceeded,
	}
	require.NoError(t, s.db.Create(ep).Error)
	d := &models.WebhookDelivery{
		EventID:    models.NewID("evt_"),
		UserID:     s.userID,
		EndpointID: ep.ID,
		URL:        ep.URL,
		Event:      contract.EventSucceeded,
		Body:       `{"id":"evt_give_up","event":"job.succeeded"}`,
	}
	require.NoError(t, models.CreateDelivery(ctx, s.db, d))

	c := temporalClient(t)
	queue := "tq-" + models.NewID("")
	w := sdkworker.New(c, queue, sdkworker.Options{})
	w.RegisterActivity(s.acts)
	w.RegisterWorkflowWithOptions(func(ctx workflow.Context, id string) error {
		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second,
			RetryPolicy: &temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond, MaximumAttempts: 2,
				NonRetryableErrorTypes: []string{contract.ErrTypeWebhookRejected}}})
		return workflow.ExecuteActivity(ctx, contract.ActivityDeliver, id).Get(ctx, nil)
	}, workflow.RegisterOptions{Name: "deliver-twice"})
	require.NoError(t, w.Start())
	t.Cleanup(w.Stop)

	wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	run, err := c.ExecuteWorkflow(
		wctx,
		client.StartWorkflowOptions{ID: "deliver-" + d.ID, TaskQueue: queue},
		"deliver-twice",
		d.ID,
	)
	require.NoError(t, err)
	err = run.Get(wctx, nil)
	var ae *temporal.ApplicationError
	require.ErrorAs(t, err, &ae)
	require.Equal(t, contract.ErrTypeWebhookRejected, ae.Type(), "the last attempt fails for good")

	require.Len(t, rcv.deliveries(), 2, "exactly the policy's attempts")
	row, err := models.DeliveryByID(ctx, s.db, d.ID)
	require.NoError(t, err)
	require.Equal(t, models.DeliveryFailed, row.Status)
	require.Equal(t, 2, row.Attempts)
	require.Nil(t, row.NextAttemptAt, "no next attempt is announced")
	var endpoint models.WebhookEndpoint
	require.NoError(t, s.db.Take(&endpoint, "id = ?", ep.ID).Error)
	require.Equal(t, 1, endpoint.Failures, "one failed delivery counts against the endpoint")
}
