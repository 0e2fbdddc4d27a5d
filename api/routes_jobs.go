package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/models"
)

// jobRoutes read and cancel the account's jobs.
func jobRoutes() []route {
	jobID := openapi.PathParam("job_id", "The job's id (j_…).", openapi.Str())
	listed := openapi.PageParams(20, 100)
	listed = append(listed, openapi.Query("api_key_id", "Only the jobs started with this key (key_…).", openapi.Str()))
	read := openapi.JSONAnswer(http.StatusOK, "The job.", openapi.Ref("Job"))
	read.Headers = oa{
		"X-Service-Start-Timeout-Type": openapi.Describe(openapi.Str(), "user when the job failed its start deadline."),
	}
	result := openapi.JSONAnswer(
		http.StatusOK,
		"The files of a succeeded job, paged.",
		openapi.PerTask("result", openapi.Ref("JobResult")),
	)
	cancelled := openapi.Object(
		oa{"job_id": openapi.Str(), "lifecycle": lifecycle(), "outcome": outcome(), "status_url": openapi.Str()},
		"job_id",
		"lifecycle",
		"outcome",
		"status_url",
	)
	return tagged(
		"jobs",
		route{
			method: http.MethodGet,
			path:   "/v1/jobs",
			access: middleware.AccessKey,
			scope:  models.ScopeJobsRead,
			handle: jobs((*jobHandlers).list),
			op: openapi.Operation{
				ID:      "jobs_list",
				Summary: "The account's jobs, newest first, whichever key or the app started them",
				Params:  listed,
				Answers: []openapi.Response{
					openapi.JSONAnswer(http.StatusOK, "One page of jobs.", openapi.Page(openapi.Ref("Job"))),
				},
				Errors: []int{http.StatusUnprocessableEntity},
			},
		},
		route{
			method: http.MethodGet,
			path:   "/v1/jobs/{job_id}",
			access: middleware.AccessKey,
			scope:  models.ScopeJobsRead,
			handle: jobs((*jobHandlers).get),
			op: openapi.Operation{
				ID:      "job_read",
				Summary: "A job's lifecycle, outcome, progress and error; cheap to poll",
				Params:  []oa{jobID},
				Answers: []openapi.Response{read},
				Errors:  []int{http.StatusNotFound},
			},
		},
		route{
			method: http.MethodGet,
			path:   "/v1/jobs/{job_id}/result",
			access: middleware.AccessKey,
			scope:  models.ScopeJobsRead,
			handle: jobs((*jobHandlers).result),
			op: openapi.Operation{
				ID:      "job_result",
				Summary: "The result of a succeeded job; 409 while it runs or when it failed or was cancelled",
				Params:  append([]oa{jobID}, openapi.PageParams(50, 100)...),
				Answers: []openapi.Response{result},
				Errors:  []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
			},
		},
		route{
			method: http.MethodGet,
			path:   "/v1/jobs/{job_id}/files",
			access: middleware.AccessKey,
			scope:  models.ScopeJobsRead,
			handle: jobs((*jobHandlers).files),
			op: openapi.Operation{ID: "job_files", Summary: "The outputs a job delivered so far, whatever its outcome",
				Description: "A cancelled or failed job's delivered outputs were charged and stay readable here (its result " +
					"answers 409); " +
					"a running job's list grows as it delivers. In the task's order, the same file objects as the result.",
				Params: append(
					[]oa{jobID},
					openapi.PageParams(
						50,
						100,
					)...),
				Answers: []openapi.Response{
					openapi.JSONAnswer(http.StatusOK, "One page of files.", openapi.Page(openapi.Ref("ResultFile"))),
				},
				Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity}},
		},
		route{
			method: http.MethodGet,
			path:   "/v1/jobs/{job_id}/manifest",
			access: middleware.AccessKey,
			scope:  models.ScopeJobsRead,
			handle: func(h *handlers) gin.HandlerFunc {
				if h.d.Signer == nil {
					return nil
				}
				return jobs((*jobHandlers).manifest)(h)
			},
			op: openapi.Operation{
				ID:      "job_manifest",
				Summary: "A signed proof of what an ended job delivered and was charged",
				Description: "A JWS (RFC 7515) signed EdDSA with the webhook key named by its kid, verifiable against " +
					"/.well-known/jwks.json; its payload is a JobManifest: the task and the version it ran under, the " +
					"SHA-256 of the input, of every delivered output (the sha256 of its file), and the credits charged. " +
					"The flattened JSON serialization, or the compact one with Accept: application/jose. 409 " +
					"result_not_ready until the job has ended and its credits are settled.",
				Params: []oa{jobID},
				Answers: []openapi.Response{{Status: http.StatusOK, Description: "The manifest's JWS.", Content: oa{
					"application/json": oa{"schema": openapi.Ref("ManifestJWS")},
					joseMediaType: oa{
						"schema": openapi.Describe(
							openapi.Str(),
							"The compact serialization: header.payload.signature.",
						),
					},
				}}},
				Errors: []int{http.StatusNotFound, http.StatusConflict},
			},
		},
		route{
			method: http.MethodGet,
			path:   "/v1/jobs/{job_id}/events",
			access: middleware.AccessKey,
			scope:  models.ScopeJobsRead,
			handle: jobs((*jobHandlers).events),
			op:     eventStreamOperation(jobID),
		},
		listenRoute(),
		route{
			method: http.MethodPut,
			path:   "/v1/jobs/{job_id}/cancel",
			access: middleware.AccessKey,
			scope:  models.ScopeJobsCancel,
			handle: jobs((*jobHandlers).cancel),
			op: openapi.Operation{
				ID:      "job_cancel",
				Summary: "Ask a job to stop; 400 job_already_ended when it has ended",
				Params:  []oa{jobID},
				Answers: []openapi.Response{
					openapi.JSONAnswer(
						http.StatusAccepted,
						"Cancellation was asked; the lifecycle at that moment. The job read says how it ended.",
						cancelled,
					),
				},
				Errors: []int{http.StatusNotFound},
			},
		},
	)
}
