package e2e_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/taskplatform/taskplatform/activities"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// batchItems are n cheap pattern jobs of one output each; bad names items
// whose input a submit refuses.
func batchItems(n int, bad ...int) []any {
	items := make([]any, n)
	for i := range items {
		input := map[string]any{"kind": "stripes", "colors": []string{"#1F3A5F", "#F2C14E"}, "count": 1, "seed": i}
		items[i] = map[string]any{"task": "pattern.generate", "input": input}
	}
	for _, i := range bad {
		items[i] = map[string]any{"task": "pattern.generate", "input": map[string]any{"colors": "red"}}
	}
	return items
}

// TestBatchOfTwoHundred: a 200-item batch with one refused item starts
// nothing and holds nothing (422 batch_refused naming the item by index);
// 200 valid items that the balance covers only 199 of answer 402 and hold
// nothing; in partial mode the 199 valid items are held in one go and
// started, their job ids in item order; its progress is read until every
// job has ended, charged what was held; a retry with the same
// Idempotency-Key answers the same batch and holds nothing more; and
// batch.completed arrives once, signed.
func TestBatchOfTwoHundred(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t)
	s := newStack(t, stackOptions{credits: 1, rootCAs: rcv.pool()})
	require.NoError(t, s.db.Create(&models.WebhookEndpoint{ID: models.NewID("whe_"), UserID: s.userID,
		URL: rcv.srv.URL + "/ep", Events: "job.succeeded,batch.completed"}).Error)
	check := s.asDocumented(t)
	est := s.do(http.MethodPost, "/v1/tasks/pattern.generate/estimate", pattern(1))
	require.Equal(t, http.StatusOK, est.status, "%s", est.body)
	price := int64(est.json(t)["credits"].(float64))
	require.Positive(t, price)
	_, err := models.Grant(context.Background(), s.db, s.userID, "service_credits", 199*price-1, nil, "test")
	require.NoError(t, err)
	const bad = 137

	res := check(http.MethodPost, "/v1/batches", "/v1/batches", map[string]any{"items": batchItems(200, bad)},
		http.StatusUnprocessableEntity)
	e := res.json(t)["error"].(map[string]any)
	require.Equal(t, "batch_refused", e["code"])
	refused := e["ctx"].(map[string]any)["items"].([]any)
	require.Len(t, refused, 1)
	require.EqualValues(t, bad, refused[0].(map[string]any)["index"])
	require.Equal(t, "colors", refused[0].(map[string]any)["error"].(map[string]any)["field"])
	require.Equal(t, 199*price, s.balance(), "nothing held")

	res = check(http.MethodPost, "/v1/batches", "/v1/batches", map[string]any{"items": batchItems(200)},
		http.StatusPaymentRequired)
	require.Equal(t, "insufficient_credits", res.errorCode(t))
	require.Equal(t, 199*price, s.balance(), "nothing held")
	require.Empty(t, s.do(http.MethodGet, "/v1/jobs", nil).json(t)["items"], "no job was made")

	body := map[string]any{"mode": "partial", "items": batchItems(200, bad)}
	start := time.Now()
	res = s.do(http.MethodPost, "/v1/batches", body, "Idempotency-Key", "cat-1")
	// 201 once every job's workflow started within the call, else 202 (a
	// loaded machine): the jobs go on starting either way.
	require.Contains(t, []int{http.StatusCreated, http.StatusAccepted}, res.status, "%s", res.body)
	t.Logf("200 items written, held and started in %s (%d)", time.Since(start), res.status)
	batch := res.json(t)
	id := batch["batch_id"].(string)
	jobs := batch["jobs"].([]any)
	require.Len(t, jobs, 199)
	for i, j := range jobs {
		want := i
		if i >= bad {
			want = i + 1
		}
		require.EqualValues(t, want, j.(map[string]any)["index"], "job ids in item order")
	}
	require.EqualValues(t, bad, batch["refused"].([]any)[0].(map[string]any)["index"])
	require.Zero(t, s.balance(), "199 holds taken at once")

	var rec map[string]any
	seen := map[string]bool{}
	require.Eventually(t, func() bool {
		rec = check(http.MethodGet, "/v1/batches/{batch_id}", "/v1/batches/"+id, nil, http.StatusOK).json(t)
		counts := rec["counts"].(map[string]any)
		sum := counts["queued"].(float64) + counts["running"].(float64) + counts["succeeded"].(float64) +
			counts["failed"].(float64) + counts["cancelled"].(float64)
		require.EqualValues(t, 199, sum, "every job is counted once")
		out := rec["outputs"].(map[string]any)
		require.LessOrEqual(t, out["done"].(float64), out["total"].(float64))
		seen[rec["status"].(string)] = true
		return rec["status"] == "completed"
	}, 3*time.Minute, 200*time.Millisecond)
	require.Equal(t, map[string]any{"jobs": 199.0, "queued": 0.0, "running": 0.0, "succeeded": 199.0, "failed": 0.0,
		"cancelled": 0.0}, rec["counts"])
	require.Equal(t, map[string]any{"done": 199.0, "total": 199.0}, rec["outputs"])
	require.Equal(t, []any{map[string]any{"credit_type": "service_credits", "held": float64(199 * price),
		"charged": float64(199 * price)}}, rec["credits"])
	require.NotNil(t, rec["completed_at"])

	again := check(http.MethodPost, "/v1/batches", "/v1/batches", body, http.StatusCreated, "Idempotency-Key", "cat-1")
	require.Equal(t, id, again.json(t)["batch_id"], "the same batch")
	require.Zero(t, s.balance(), "nothing held or charged twice")
	require.Equal(t, s.balance(), s.ledgerSum())

	completed := func() []delivery {
		var out []delivery
		for _, d := range rcv.deliveries() {
			if d.event["event"] == "batch.completed" {
				out = append(out, d)
			}
		}
		return out
	}
	require.Eventually(t, func() bool { return len(completed()) == 1 }, patience, 50*time.Millisecond)
	require.Eventually(t, func() bool { return len(rcv.deliveries()) == 200 }, patience, 50*time.Millisecond,
		"199 job.succeeded and one batch.completed")
	time.Sleep(time.Second)
	require.Len(t, completed(), 1, "batch.completed is sent once")
	d := completed()[0]
	verify(t, s.jwks(t), d)
	b := d.event["batch"].(map[string]any)
	require.Equal(t, id, b["batch_id"])
	require.Equal(t, "completed", b["status"])
	require.Equal(t, rec["counts"], b["counts"])
}

// refuseAdmits is an API's Temporal client that cannot send an admit, as
// when the process stops right after writing a batch.
type refuseAdmits struct{ client.Client }

func (refuseAdmits) UpdateWithStartWorkflow(context.Context,
	client.UpdateWithStartWorkflowOptions) (client.WorkflowUpdateHandle, error) {
	return nil, context.DeadlineExceeded
}

// TestBatchLeftUnstartedIsStartedByTheSweep: a batch whose API process
// could not start its jobs answers 202 starting with its credits held; the
// workers' sweep starts them, each job runs once and is charged what was
// held, and the batch completes.
func TestBatchLeftUnstartedIsStartedByTheSweep(t *testing.T) {
	t.Parallel()
	s := newStack(t, stackOptions{credits: 100, lateAdmits: activities.LateAdmitOptions{BatchAfter: time.Second},
		temporal: func(c client.Client) client.Client { return refuseAdmits{c} }})
	_, per := priceOf(t, pattern(1))
	res := s.do(http.MethodPost, "/v1/batches", map[string]any{"items": batchItems(5)})
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	rec := res.json(t)
	require.Equal(t, "starting", rec["status"])
	require.Equal(t, 100-5*per, s.balance(), "held at once")
	id := rec["batch_id"].(string)
	require.Eventually(t, func() bool {
		rec = s.do(http.MethodGet, "/v1/batches/"+id, nil).json(t)
		return rec["status"] == "completed"
	}, 2*time.Minute, 200*time.Millisecond)
	require.EqualValues(t, 5, rec["counts"].(map[string]any)["succeeded"])
	require.Equal(t, 100-5*per, s.balance(), "charged what was held, once")
	require.Equal(t, s.balance(), s.ledgerSum())
}

// refuseAdmitsWhile is an API's Temporal client that cannot send an admit
// while refuse is set.
type refuseAdmitsWhile struct {
	client.Client
	refuse *atomic.Bool
}

func (r refuseAdmitsWhile) UpdateWithStartWorkflow(ctx context.Context,
	o client.UpdateWithStartWorkflowOptions) (client.WorkflowUpdateHandle, error) {
	if r.refuse.Load() {
		return nil, context.DeadlineExceeded
	}
	return r.Client.UpdateWithStartWorkflow(ctx, o)
}

// TestCancelABatchJobBeforeItStarts: a batch job cancelled before its
// batch started its workflow ends cancelled at once, having delivered and
// charged nothing, its hold released; the batch's other job is untouched.
func TestCancelABatchJobBeforeItStarts(t *testing.T) {
	t.Parallel()
	refuse := &atomic.Bool{}
	refuse.Store(true)
	s := newStack(t, stackOptions{credits: 100, stepDelay: 5 * time.Second, noInline: true,
		lateAdmits: activities.LateAdmitOptions{BatchAfter: time.Hour},
		temporal:   func(c client.Client) client.Client { return refuseAdmitsWhile{c, refuse} }})
	_, per := priceOf(t, pattern(1))
	res := s.do(http.MethodPost, "/v1/batches", map[string]any{"items": batchItems(2)})
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	jobs := res.json(t)["jobs"].([]any)
	first, second := jobs[0].(map[string]any)["job_id"].(string), jobs[1].(map[string]any)["job_id"].(string)
	require.Equal(t, 100-2*per, s.balance(), "both held")
	refuse.Store(false)

	res = s.do(http.MethodPut, "/v1/jobs/"+first+"/cancel", nil)
	require.Equal(t, http.StatusAccepted, res.status, "%s", res.body)
	s.requireCancelledUncharged(first)
	require.Equal(t, 100-per, s.balance(), "the cancelled job's hold is released, nothing charged")
	require.Equal(t, s.balance(), s.ledgerSum())
	other := s.do(http.MethodGet, "/v1/jobs/"+second, nil).json(t)
	require.Equal(t, "queued", other["lifecycle"], "the batch's other job still waits for its start")
}

// TestBatchIsHeldToTheSpendLimits: a batch whose jobs would take the
// account past its day limit answers 402 spend_limit_reached naming the
// limit (the batch's jobs before the one it refuses count), holds nothing
// and makes no job or batch; the limit's 100 % spend.threshold arrives
// once, signed, naming the refused item's job. A batch within the limit
// is held and sends the thresholds it reaches.
func TestBatchIsHeldToTheSpendLimits(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t)
	s := newStack(t, stackOptions{credits: 1000, rootCAs: rcv.pool()})
	ctx := context.Background()
	require.NoError(t, s.db.Create(&models.WebhookEndpoint{ID: models.NewID("whe_"), UserID: s.userID,
		URL: rcv.srv.URL + "/spend", Events: contract.EventSpendThreshold}).Error)
	hold, _ := priceOf(t, batchItems(1)[0].(map[string]any)["input"].(map[string]any))
	limit := 2*hold + hold/2
	_, err := models.SetSpendLimit(ctx, s.db, models.SpendLimit{UserID: s.userID, CreditType: contract.CreditService,
		Period: contract.SpendDay, Credits: limit})
	require.NoError(t, err)

	res := s.do(http.MethodPost, "/v1/batches", map[string]any{"items": batchItems(3)}, "Idempotency-Key", "b-1")
	require.Equal(t, http.StatusPaymentRequired, res.status, "%s", res.body)
	e := res.json(t)["error"].(map[string]any)
	require.Equal(t, "spend_limit_reached", e["code"])
	c := e["ctx"].(map[string]any)
	require.EqualValues(t, limit, c["limit"])
	require.EqualValues(t, 2*hold, c["spent"], "the batch's first two jobs count")
	require.EqualValues(t, hold, c["required"])
	require.Equal(t, contract.SpendAccount, c["scope"])
	require.Equal(t, contract.SpendDay, c["period"])
	require.Equal(t, contract.CreditService, c["credit_type"])
	resets, err := time.Parse(time.RFC3339, c["resets_at"].(string))
	require.NoError(t, err)
	require.True(t, resets.After(time.Now()))
	require.EqualValues(t, 1000, s.balance(), "nothing held")
	require.Empty(t, s.do(http.MethodGet, "/v1/jobs", nil).json(t)["items"], "no job was made")
	batches, err := models.BatchesOf(ctx, s.db, s.userID, 0, 10)
	require.NoError(t, err)
	require.Empty(t, batches, "no batch was made")
	again := s.do(http.MethodPost, "/v1/batches", map[string]any{"items": batchItems(3)}, "Idempotency-Key", "b-1")
	require.Equal(t, http.StatusPaymentRequired, again.status, "the key was released: refused again, not in progress")

	require.Eventually(t, func() bool { return len(rcv.deliveries()) >= 1 }, patience, 50*time.Millisecond)
	ok := s.do(http.MethodPost, "/v1/batches", map[string]any{"items": batchItems(2)})
	require.Contains(t, []int{http.StatusCreated, http.StatusAccepted}, ok.status, "%s", ok.body)
	require.EqualValues(t, 1000-2*hold, s.balance(), "within the limit: held")
	require.Eventually(t, func() bool { return len(rcv.deliveries()) >= 3 }, patience, 50*time.Millisecond)
	time.Sleep(500 * time.Millisecond) // nothing more arrives
	got := rcv.deliveries()
	require.Len(t, got, 3, "100 % once, then 50 and 80 %")
	set := s.jwks(t)
	var thresholds []any
	for _, d := range got {
		verify(t, set, d)
		require.Equal(t, contract.EventSpendThreshold, d.event["event"])
		thresholds = append(thresholds, d.event["threshold"])
	}
	require.Equal(t, 100.0, thresholds[0], "sent before the second batch")
	require.ElementsMatch(t, []any{50.0, 80.0}, thresholds[1:], "the second batch's second job reached both")
	reached := got[0].event
	require.EqualValues(t, 0, reached["spent"], "what the day had spent when the limit refused the batch")
	jobID := reached["job_id"].(string)
	require.NotEmpty(t, jobID)
	require.Equal(t, http.StatusNotFound, s.do(http.MethodGet, "/v1/jobs/"+jobID, nil).status,
		"the refused item's job was never made")
}
