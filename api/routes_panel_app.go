package api

import (
	"net/http"
	"slices"

	"github.com/gin-gonic/gin"
	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
)

// panelAppRoutes run tasks, read and cancel jobs and manage files from the
// app, as the API's routes do with a key.
func panelAppRoutes() []route {
	return slices.Concat(
		panelRows(
			panelRow{
				method:  http.MethodPost,
				path:    "/v1/account/tasks/{name}",
				ID:      "app_task_submit",
				Summary: "Start a job in the app; registered endpoints never receive its events",
				handle:  func(h *handlers) gin.HandlerFunc { return appSubmit(h) },
				Body:    openapi.FreeObject("The task's input, as its inputSchema says."),
				answer: openapi.JSONAnswer(
					http.StatusAccepted,
					"The job's handle.",
					openapi.Ref("Job"),
				),
				Params: []oa{openapi.PathParam("name", "The task's name.", openapi.Str())},
				Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity, http.StatusPaymentRequired},
			},
			panelRow{
				method:  http.MethodPost,
				path:    "/v1/account/tasks/{name}/estimate",
				ID:      "app_task_estimate",
				Summary: "The cost ceiling of a run from the app: checked like a submit, nothing held or written",
				handle:  func(h *handlers) gin.HandlerFunc { return appOnly(h, catalogue((*catalogueHandlers).estimate)(h)) },
				Body:    openapi.FreeObject("The task's input, as its inputSchema says."),
				answer: openapi.JSONAnswer(
					http.StatusOK,
					"Price per output × outputs planned.",
					openapi.Ref("Estimate"),
				),
				Params: []oa{openapi.PathParam("name", "The task's name.", openapi.Str())},
				Errors: []int{
					http.StatusPaymentRequired,
					http.StatusNotFound,
					http.StatusGone,
					http.StatusUnprocessableEntity,
				},
			},
			panelRow{
				method:  http.MethodGet,
				path:    "/v1/account/jobs/{job_id}",
				ID:      "app_job_read",
				Summary: "One job of the account, whichever key or the app started it",
				handle:  func(h *handlers) gin.HandlerFunc { return h.jobs.get },
				answer:  openapi.JSONAnswer(http.StatusOK, "The job.", openapi.Ref("Job")),
				Errors:  []int{http.StatusNotFound},
			},
			panelRow{
				method:  http.MethodPost,
				path:    "/v1/account/jobs/{job_id}/cancel",
				ID:      "app_job_cancel",
				Summary: "Cancel a job of the account",
				handle:  func(h *handlers) gin.HandlerFunc { return h.jobs.cancel },
				answer: openapi.JSONAnswer(
					http.StatusAccepted,
					"Cancellation requested.",
					openapi.Object(
						oa{
							"job_id":     openapi.Str(),
							"lifecycle":  lifecycle(),
							"outcome":    openapi.Nullable(outcome()),
							"status_url": openapi.Str(),
						},
						"job_id",
					),
				),
				Errors: []int{http.StatusNotFound},
			},
			panelRow{
				method:  http.MethodGet,
				path:    "/v1/account/refs/{kind}",
				ID:      "app_refs_list",
				Summary: "The account's reference items of one kind, for the run form's pickers",
				handle: files(
					(*fileHandlers).refs,
				),
				answer: openapi.JSONAnswer(
					http.StatusOK,
					"One page of reference items.",
					openapi.Page(openapi.Ref("RefItem")),
				),
				Params: append(
					[]oa{openapi.PathParam("kind", "The kind of handle.", openapi.Ref("RefKind"))},
					openapi.PageParams(20, 100)...),
				Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
			},
		),
		[]route{appUploadRoute()},
		panelRows(
			panelRow{
				method:  http.MethodDelete,
				path:    "/v1/account/files/{ref}",
				ID:      "app_file_delete",
				Summary: "Delete a file a job delivered (art: handles only)",
				handle: files(
					(*fileHandlers).delete,
				),
				answer: openapi.JSONAnswer(
					http.StatusOK,
					"Deleted.",
					openapi.Object(oa{"file": openapi.Str(), "deleted": openapi.Boolean()}, "file", "deleted"),
				),
				Params: []oa{openapi.PathParam("ref", "An art: handle.", openapi.Str())},
				Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
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
		op: openapi.Operation{ID: "app_file_create", Summary: "Upload a file from the app (account panel only)",
			Description: "Needs a signed-in panel session; every API key is refused with 403 session_required.",
			Body: oa{
				"multipart/form-data": oa{
					"schema": openapi.Object(oa{"file": oa{"type": "string", "format": "binary"}}, "file"),
				},
			},
			Answers: []openapi.Response{
				openapi.JSONAnswer(
					http.StatusCreated,
					"The file's record and handle (file:<id>).",
					openapi.Ref("FileRecord"),
				),
			},
			Errors: []int{http.StatusUnprocessableEntity}},
	}
}
