package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// jobs adapts a job handler method to the route table.
func jobs(f func(*jobHandlers, *gin.Context)) func(*handlers) gin.HandlerFunc {
	return func(h *handlers) gin.HandlerFunc { return func(c *gin.Context) { f(h.jobs, c) } }
}

// taskRoutes run and estimate a task. Each task's own document (and the
// service document, under the task's path) repeats them with the task's
// schemas in place of the perTask ones.
func taskRoutes() []route {
	lim := contract.DefaultLimits()
	name := openapi.PathParam("name", "The task to run, such as pattern.generate.", openapi.Str())
	input := oa{
		"application/json": oa{
			"schema": openapi.PerTask("input", openapi.FreeObject("The task's input, valid against its inputSchema.")),
		},
	}
	held := oa{
		"X-Service-Credits": openapi.Describe(
			openapi.Integer(),
			"Credits held for the job; only when the task costs credits.",
		),
		"X-Service-Credit-Type": vocab("credit_type"),
		"Preference-Applied":    openapi.Describe(openapi.Str(), "wait=N when Prefer: wait was honoured."),
	}
	accepted := openapi.JSONAnswer(
		http.StatusAccepted,
		"The job was accepted; follow it at status_url.",
		openapi.Ref("Job"),
	)
	accepted.Headers = held
	waited := openapi.JSONAnswer(
		http.StatusOK,
		"With Prefer: wait, the result of a job that succeeded in time.",
		openapi.PerTask("result", openapi.Ref("JobResult")),
	)
	waited.Headers = held
	return tagged(
		"tasks",
		route{
			method: http.MethodPost,
			path:   "/v1/tasks/{name}",
			access: middleware.AccessKey,
			scope:  models.ScopeTasksRun,
			handle: jobs((*jobHandlers).submit),
			op: openapi.Operation{
				ID:      "task_submit",
				Summary: "Run a task: a job starts and its handle is answered at once",
				Description: "A failed wait answers the job's error (cancelled: 409); credits that do not cover the job answer " +
					"402 insufficient_credits, a hold above X-Service-Max-Credits 402 max_credits_exceeded, a hold that " +
					"would pass a spend limit of the account or the key 402 spend_limit_reached (ctx names the limit, " +
					"its period and scope and when it resets); nothing is held on any 402.",
				Params: []oa{name,
					openapi.Header(
						"Prefer",
						"wait=N: answer the result if the job ends within N seconds (clipped to limits.prefer_wait.max_seconds).",
						openapi.Str(),
					),
					openapi.Header(
						"Idempotency-Key",
						"Same key and body answer the same job; remembered for limits.idempotency_key.ttl_seconds.",
						oa{"type": "string", "maxLength": 255},
					),
					openapi.Header(
						"X-Service-Start-Timeout",
						"Seconds the job may wait to start; past it the job fails start_timeout.",
						oa{
							"type":    "integer",
							"minimum": lim.StartTimeout.MinSeconds,
							"maximum": lim.StartTimeout.MaxSeconds,
						},
					),
					openapi.Header(
						maxCreditsHeader,
						"The most credits the job may hold: a job whose hold (the estimate's credits) would be above it "+
							"answers 402 max_credits_exceeded before anything is held.",
						oa{"type": "integer", "minimum": 0},
					),
					openapi.Query(
						"webhook_url",
						"An https URL that receives the job's terminal events.",
						oa{"type": "string", "format": "uri"},
					),
				},
				Body:    input,
				Answers: []openapi.Response{accepted, waited},
				Errors: []int{
					http.StatusPaymentRequired,
					http.StatusNotFound,
					http.StatusConflict,
					http.StatusGone,
					http.StatusUnprocessableEntity,
				},
			},
		},
		route{
			method: http.MethodPost,
			path:   "/v1/tasks/{name}/estimate",
			access: middleware.AccessKey,
			scope:  models.ScopeTasksRun,
			handle: catalogue((*catalogueHandlers).estimate),
			op: openapi.Operation{
				ID:      "task_estimate",
				Summary: "The cost ceiling of a request: checked like a submit, nothing held or written",
				Description: "The submit's headers are read as a submit reads them: a hold above X-Service-Max-Credits " +
					"answers 402 max_credits_exceeded, a header that is not a plain whole number 422.",
				Params: []oa{name,
					openapi.Header(
						maxCreditsHeader,
						"The most credits the job may hold: above it the estimate answers 402 max_credits_exceeded, "+
							"as the submit would.",
						oa{"type": "integer", "minimum": 0},
					),
				},
				Body: input,
				Answers: []openapi.Response{
					openapi.JSONAnswer(http.StatusOK, "Price per output × outputs planned.", openapi.Ref("Estimate")),
				},
				Errors: []int{http.StatusPaymentRequired, http.StatusNotFound, http.StatusGone,
					http.StatusUnprocessableEntity},
			},
		},
	)
}
