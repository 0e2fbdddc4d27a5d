package api

import (
	"net/http"
	"slices"

	"github.com/gin-gonic/gin"
	"github.com/taskplatform/taskplatform/api/middleware"
)

// panelAppRoutes run tasks, read and cancel jobs and manage files from the
// app, as the API's routes do with a key.
func panelAppRoutes() []route {
	return slices.Concat(
		panelRows(
			panelRow{
				method:  http.MethodPost,
				path:    "/v1/account/tasks/{name}",
				id:      "app_task_submit",
				summary: "Start a job in the app; registered endpoints never receive its events",
				handle:  func(h *handlers) gin.HandlerFunc { return appSubmit(h) },
				body:    freeObject("The task's input, as its inputSchema says."),
				answer: jsonAnswer(
					http.StatusAccepted,
					"The job's handle.",
					ref("Job"),
				),
				params: []oa{pathParam("name", "The task's name.", str())},
				errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity, http.StatusPaymentRequired},
			},
			panelRow{
				method:  http.MethodPost,
				path:    "/v1/account/tasks/{name}/estimate",
				id:      "app_task_estimate",
				summary: "The cost ceiling of a run from the app: checked like a submit, nothing held or written",
				handle:  func(h *handlers) gin.HandlerFunc { return appOnly(h, catalogue((*catalogueHandlers).estimate)(h)) },
				body:    freeObject("The task's input, as its inputSchema says."),
				answer:  jsonAnswer(http.StatusOK, "Price per output × outputs planned.", ref("Estimate")),
				params:  []oa{pathParam("name", "The task's name.", str())},
				errors:  []int{http.StatusPaymentRequired, http.StatusNotFound, http.StatusGone, http.StatusUnprocessableEntity},
			},
			panelRow{
				method:  http.MethodGet,
				path:    "/v1/account/jobs/{job_id}",
				id:      "app_job_read",
				summary: "One job of the account, whichever key or the app started it",
				handle:  func(h *handlers) gin.HandlerFunc { return h.jobs.get },
				answer:  jsonAnswer(http.StatusOK, "The job.", ref("Job")),
				errors:  []int{http.StatusNotFound},
			},
			panelRow{
				method:  http.MethodPost,
				path:    "/v1/account/jobs/{job_id}/cancel",
				id:      "app_job_cancel",
				summary: "Cancel a job of the account",
				handle:  func(h *handlers) gin.HandlerFunc { return h.jobs.cancel },
				answer: jsonAnswer(
					http.StatusAccepted,
					"Cancellation requested.",
					object(
						oa{"job_id": str(), "lifecycle": lifecycle(), "outcome": nullable(outcome()), "status_url": str()},
						"job_id",
					),
				),
				errors: []int{http.StatusNotFound},
			},
			panelRow{
				method:  http.MethodGet,
				path:    "/v1/account/refs/{kind}",
				id:      "app_refs_list",
				summary: "The account's reference items of one kind, for the run form's pickers",
				handle: files(
					(*fileHandlers).refs,
				),
				answer: jsonAnswer(http.StatusOK, "One page of reference items.", page(ref("RefItem"))),
				params: append(
					[]oa{pathParam("kind", "The kind of handle.", ref("RefKind"))},
					pageParams(20, 100)...),
				errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
			},
		),
		[]route{appUploadRoute()},
		panelRows(
			panelRow{
				method:  http.MethodDelete,
				path:    "/v1/account/files/{ref}",
				id:      "app_file_delete",
				summary: "Delete a file a job delivered (art: handles only)",
				handle: files(
					(*fileHandlers).delete,
				),
				answer: jsonAnswer(http.StatusOK, "Deleted.", object(oa{"file": str(), "deleted": boolean()}, "file", "deleted")),
				params: []oa{pathParam("ref", "An art: handle.", str())},
				errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
			},
		),
	)
}

// appUploadRoute is POST /v1/account/files: an upload's body is multipart,
// not JSON.
func appUploadRoute() route {
	return route{
		method: http.MethodPost,
		path:   "/v1/account/files",
		access: middleware.AccessSession,
		handle: files((*fileHandlers).create),
		op: operation{id: "app_file_create", summary: "Upload a file from the app (account panel only)",
			description: "Needs a signed-in panel session; every API key is refused with 403 session_required.",
			body: oa{
				"multipart/form-data": oa{
					"schema": object(oa{"file": oa{"type": "string", "format": "binary"}}, "file"),
				},
			},
			answers: []response{
				jsonAnswer(http.StatusCreated, "The file's record and handle (file:<id>).", ref("FileRecord")),
			},
			errors: []int{http.StatusUnprocessableEntity}},
	}
}
