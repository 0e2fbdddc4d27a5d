package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/models"
)

// jobRoutes read and cancel the account's jobs.
func jobRoutes() []route {
	jobID := pathParam("job_id", "The job's id (j_…).", str())
	listed := pageParams(20, 100)
	listed = append(listed, query("api_key_id", "Only the jobs started with this key (key_…).", str()))
	read := jsonAnswer(http.StatusOK, "The job.", ref("Job"))
	read.headers = oa{"X-Service-Start-Timeout-Type": describe(str(), "user when the job failed its start deadline.")}
	result := jsonAnswer(http.StatusOK, "The files of a succeeded job, paged.", perTask("result", ref("JobResult")))
	cancelled := object(oa{"job_id": str(), "lifecycle": lifecycle(), "outcome": outcome(), "status_url": str()},
		"job_id", "lifecycle", "outcome", "status_url")
	return tagged(
		"jobs",
		route{
			method: http.MethodGet,
			path:   "/v1/jobs",
			access: middleware.AccessKey,
			scope:  models.ScopeJobsRead,
			handle: jobs((*jobHandlers).list),
			op: operation{
				id:      "jobs_list",
				summary: "The account's jobs, newest first, whichever key or the app started them",
				params:  listed,
				answers: []response{
					jsonAnswer(http.StatusOK, "One page of jobs.", page(ref("Job"))),
				},
				errors: []int{http.StatusUnprocessableEntity},
			},
		},
		route{
			method: http.MethodGet,
			path:   "/v1/jobs/{job_id}",
			access: middleware.AccessKey,
			scope:  models.ScopeJobsRead,
			handle: jobs((*jobHandlers).get),
			op: operation{
				id:      "job_read",
				summary: "A job's lifecycle, outcome, progress and error; cheap to poll",
				params:  []oa{jobID},
				answers: []response{read},
				errors:  []int{http.StatusNotFound},
			},
		},
		route{
			method: http.MethodGet,
			path:   "/v1/jobs/{job_id}/result",
			access: middleware.AccessKey,
			scope:  models.ScopeJobsRead,
			handle: jobs((*jobHandlers).result),
			op: operation{
				id:      "job_result",
				summary: "The result of a succeeded job; 409 while it runs or when it failed or was cancelled",
				params:  append([]oa{jobID}, pageParams(50, 100)...),
				answers: []response{result},
				errors:  []int{http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
			},
		},
		route{
			method: http.MethodGet,
			path:   "/v1/jobs/{job_id}/files",
			access: middleware.AccessKey,
			scope:  models.ScopeJobsRead,
			handle: jobs((*jobHandlers).files),
			op: operation{id: "job_files", summary: "The outputs a job delivered so far, whatever its outcome",
				description: "A cancelled or failed job's delivered outputs were charged and stay readable here (its result " +
					"answers 409); " +
					"a running job's list grows as it delivers. In the task's order, the same file objects as the result.",
				params: append(
					[]oa{jobID},
					pageParams(
						50,
						100,
					)...), answers: []response{jsonAnswer(http.StatusOK, "One page of files.", page(ref("ResultFile")))},
				errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity}},
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
			op: operation{id: "job_manifest", summary: "A signed proof of what an ended job delivered and was charged",
				description: "A JWS (RFC 7515) signed EdDSA with the webhook key named by its kid, verifiable against " +
					"/.well-known/jwks.json; its payload is a JobManifest: the task and the version it ran under, the " +
					"SHA-256 of the input, of every delivered output (the sha256 of its file), and the credits charged. " +
					"The flattened JSON serialization, or the compact one with Accept: application/jose. 409 " +
					"result_not_ready until the job has ended and its credits are settled.",
				params: []oa{jobID},
				answers: []response{{status: http.StatusOK, description: "The manifest's JWS.", content: oa{
					"application/json": oa{"schema": ref("ManifestJWS")},
					joseMediaType:      oa{"schema": describe(str(), "The compact serialization: header.payload.signature.")},
				}}},
				errors: []int{http.StatusNotFound, http.StatusConflict}},
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
			op: operation{
				id:      "job_cancel",
				summary: "Ask a job to stop; 400 job_already_ended when it has ended",
				params:  []oa{jobID},
				answers: []response{
					jsonAnswer(
						http.StatusAccepted,
						"Cancellation was asked; the lifecycle at that moment. The job read says how it ended.",
						cancelled,
					),
				},
				errors: []int{http.StatusNotFound},
			},
		},
	)
}
