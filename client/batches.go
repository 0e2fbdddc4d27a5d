package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/taskplatform/taskplatform/wire"
)

// BatchItem is one submission of a batch: a task, its input (any value
// that marshals to the task's JSON body) and, optionally, a webhook_url
// for its job's terminal events.
type BatchItem struct {
	Task       string `json:"task"`
	Input      any    `json:"input"`
	WebhookURL string `json:"webhook_url,omitempty"`
}

// BatchOptions tune a batch.
type BatchOptions struct {
	// Partial starts the valid items and lists the refused ones in the
	// batch's Refused; without it one refused item refuses the batch
	// (*Error batch_refused, its Ctx.Items naming each by index) and
	// nothing is held or started.
	Partial bool
	// WebhookURL receives the batch's batch.completed event (https).
	WebhookURL string
	// IdempotencyKey makes a resubmit land on the same batch; empty
	// generates one, reused for every retry of this call.
	IdempotencyKey string
	// StartTimeout and MaxCredits apply to each job, as a submit's.
	StartTimeout time.Duration
	MaxCredits   int64
}

// SubmitBatch submits up to limits.batches.max_items tasks in one call
// (POST /v1/batches): every job's credits are held or none (*Error
// insufficient_credits), and the batch answers its jobs' ids in item
// order. Follow it with Batch until its Status is wire.BatchCompleted.
func (c *Client) SubmitBatch(ctx context.Context, items []BatchItem, opts *BatchOptions) (*wire.Batch, error) {
	if opts == nil {
		opts = &BatchOptions{}
	}
	type item struct {
		Task       string          `json:"task"`
		Input      json.RawMessage `json:"input"`
		WebhookURL string          `json:"webhook_url,omitempty"`
	}
	body := struct {
		Mode       string `json:"mode"`
		WebhookURL string `json:"webhook_url,omitempty"`
		Items      []item `json:"items"`
	}{Mode: "all", WebhookURL: opts.WebhookURL, Items: make([]item, len(items))}
	if opts.Partial {
		body.Mode = "partial"
	}
	for i, it := range items {
		in, err := marshalInput(it.Input)
		if err != nil {
			return nil, err
		}
		body.Items[i] = item{Task: it.Task, Input: in, WebhookURL: it.WebhookURL}
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	key := opts.IdempotencyKey
	if key == "" {
		key = newKey()
	}
	h := http.Header{}
	h.Set("Idempotency-Key", key)
	if opts.StartTimeout > 0 {
		h.Set("X-Service-Start-Timeout", strconv.Itoa(int((opts.StartTimeout+time.Second-1)/time.Second)))
	}
	if opts.MaxCredits > 0 {
		h.Set("X-Service-Max-Credits", strconv.FormatInt(opts.MaxCredits, 10))
	}
	a, err := c.do(ctx, request{method: http.MethodPost, path: "/v1/batches", body: raw,
		contentType: "application/json", headers: h})
	if err != nil {
		return nil, err
	}
	var b wire.Batch
	return &b, decode(a, &b)
}

// Batch reads a batch: its status, jobs by state, outputs, credits and
// every job's state in item order.
func (c *Client) Batch(ctx context.Context, batchID string) (*wire.Batch, error) {
	var b wire.Batch
	return &b, c.getJSON(ctx, "/v1/batches/"+url.PathEscape(batchID), &b)
}
