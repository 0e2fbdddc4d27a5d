package api

import (
	"net/http"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// batchRoutes submit many tasks in one call and read a batch.
func batchRoutes() []route {
	lim := contract.DefaultLimits()
	webhook := oa{"type": "string", "format": "uri"}
	item := openapi.Object(oa{
		"task":  openapi.Describe(openapi.Str(), "The task to run, as a submit's path names it (pattern.generate)."),
		"input": openapi.FreeObject("The task's input, valid against its inputSchema, as a submit's body."),
		"webhook_url": openapi.Describe(webhook,
			"An https URL that receives this job's terminal events, as a submit's webhook_url."),
	}, "task", "input")
	body := openapi.Object(oa{
		"mode": openapi.Describe(openapi.Enum([]string{models.BatchAll, models.BatchPartial}),
			"all (the default): any refused item refuses the batch, nothing held or started. partial: the valid "+
				"items start and the refused ones are listed in refused."),
		"webhook_url": openapi.Describe(webhook, "An https URL that receives the batch's batch.completed event."),
		"items": openapi.Describe(oa{"type": "array", "items": item, "minItems": 1, "maxItems": lim.Batches.MaxItems},
			"The submissions, at most limits.batches.max_items; each is checked exactly as its submit would be."),
	}, "items")
	batchID := openapi.PathParam("batch_id", "The batch's id (b_…).", openapi.Str())
	return tagged(
		"batches",
		route{
			method: http.MethodPost,
			path:   "/v1/batches",
			access: middleware.AccessKey,
			scope:  models.ScopeTasksRun,
			handle: jobs((*jobHandlers).createBatch),
			op: openapi.Operation{ID: "batch_create", Summary: "Run many tasks in one call: every hold or none",
				Description: "Each item is checked and priced exactly as its submit (POST /v1/tasks/{name}) would be, " +
					"with the request's X-Service-Start-Timeout and X-Service-Max-Credits applied to each. A refused " +
					"item answers 422 batch_refused with ctx.items naming every refused item by index and the error " +
					"its submit would answer; nothing is held or started (mode partial starts the valid items " +
					"instead). The credits of every job are held in one transaction: a balance that does not cover " +
					"them all answers 402 insufficient_credits and holds nothing. The jobs' ids are in item order. " +
					"When every job's workflow started in the call the answer is 201, else 202 with status starting " +
					"(the service starts the rest). batch.completed is sent once every job has ended.",
				Params: []oa{
					openapi.Header("Idempotency-Key",
						"Same key and body answer the same batch; remembered for limits.idempotency_key.ttl_seconds.",
						oa{"type": "string", "maxLength": 255}),
					openapi.Header("X-Service-Start-Timeout", "Seconds each job may wait to start.",
						oa{"type": "integer", "minimum": lim.StartTimeout.MinSeconds,
							"maximum": lim.StartTimeout.MaxSeconds}),
					openapi.Header(maxCreditsHeader, "The most credits each job may hold; an item above it is refused "+
						"max_credits_exceeded.", oa{"type": "integer", "minimum": 0}),
				},
				Body: oa{"application/json": oa{"schema": body}},
				Answers: []openapi.Response{
					openapi.JSONAnswer(http.StatusCreated, "The batch: its jobs were started.", openapi.Ref("Batch")),
					openapi.JSONAnswer(
						http.StatusAccepted,
						"The batch: its credits are held and some jobs are still being "+
							"started (status starting).",
						openapi.Ref("Batch"),
					),
				},
				Errors: []int{http.StatusPaymentRequired, http.StatusConflict, http.StatusUnprocessableEntity}},
		},
		route{
			method: http.MethodGet,
			path:   "/v1/batches/{batch_id}",
			access: middleware.AccessKey,
			scope:  models.ScopeJobsRead,
			handle: jobs((*jobHandlers).getBatch),
			op: openapi.Operation{
				ID:      "batch_read",
				Summary: "A batch's progress and outcomes: its jobs by state, outputs, credits",
				Params:  []oa{batchID},
				Answers: []openapi.Response{openapi.JSONAnswer(http.StatusOK, "The batch.", openapi.Ref("Batch"))},
				Errors:  []int{http.StatusNotFound},
			},
		},
	)
}
