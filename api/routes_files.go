package api

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/models"
)

// files adapts a file handler method to the route table.
func files(f func(*fileHandlers, *gin.Context)) func(*handlers) gin.HandlerFunc {
	return func(h *handlers) gin.HandlerFunc { return func(c *gin.Context) { f(h.files, c) } }
}

// fileRoutes upload, register, read and delete files and list reference
// items.
func fileRoutes() []route {
	handle := openapi.PathParam("ref", "A handle, <kind>:<id>, such as file:abc or art:abc.", openapi.Str())
	externalID := oa{
		"type":        "string",
		"maxLength":   maxExternalID,
		"description": "The caller's own id of the file, such as a product code.",
	}
	upload := oa{"schema": openapi.Object(oa{
		"file": oa{"type": "string", "format": "binary",
			"description": "The bytes, at most limits.upload.max_bytes, of one of limits.upload.media_types (" +
				strings.Join(contract.DefaultLimits().Upload.MediaTypes, ", ") + "), read from the bytes themselves."},
		"external_id": externalID}, "file")}
	register := openapi.Object(
		oa{
			"url": oa{
				"type":        "string",
				"format":      "uri",
				"maxLength":   maxSourceURL,
				"description": "A public https:// address.",
			},
			"external_id": openapi.Nullable(externalID),
		},
		"url",
	)
	register["additionalProperties"] = false
	refsParams := append(
		openapi.PageParams(20, 100),
		openapi.Query(
			"q",
			"Free-text filter on names; the file kind and the record kinds searched by name (such as model) only.",
			oa{"type": "string", "maxLength": maxRefsParam},
		),
		openapi.Query(
			"base",
			"The records based on one record of the kind, such as a base model's saved styles (model:<id>); "+
				"the record kinds listed by base only.",
			oa{"type": "string", "maxLength": maxRefsParam},
		),
		openapi.Query("curated", "true lists the service's curated records; "+
			"the record kinds with a curated library (such as moodboard and fabric) only.", openapi.Boolean()),
	)
	return tagged(
		"files",
		route{
			method: http.MethodPost,
			path:   "/v1/files",
			access: middleware.AccessKey,
			scope:  models.ScopeFilesWrite,
			handle: files((*fileHandlers).create),
			op: openapi.Operation{
				ID:      "file_create",
				Summary: "Upload bytes (multipart, part file) or register a public https url",
				Description: "Registering is idempotent on the URL: the same URL answers the same file. Idempotency-Key is " +
					"ignored.",
				Body: oa{"multipart/form-data": upload, "application/json": oa{"schema": register}},
				Answers: []openapi.Response{
					openapi.JSONAnswer(
						http.StatusCreated,
						"The file's record and handle (file:<id>).",
						openapi.Ref("FileRecord"),
					),
				},
				Errors: []int{http.StatusUnprocessableEntity},
			},
		},
		route{
			method: http.MethodGet,
			path:   "/v1/files/{ref}",
			access: middleware.AccessKey,
			scope:  models.ScopeFilesRead,
			handle: files((*fileHandlers).get),
			op: openapi.Operation{ID: "file_read", Summary: "One file or record by handle", Params: []oa{handle},
				Answers: []openapi.Response{
					openapi.JSONAnswer(
						http.StatusOK,
						"An upload or registered URL (file:), a file a job delivered (art:), or a record (any other kind, such as "+
							"moodboard: or fabric:) with its kind's own fields and, where the kind has one, its analysis.",
						oa{"oneOf": []any{openapi.Ref("FileRecord"), openapi.Ref("ArtRecord"), openapi.Ref("Record")}},
					),
				},
				Errors: []int{http.StatusNotFound}},
		},
		route{
			method: http.MethodDelete,
			path:   "/v1/files/{ref}",
			access: middleware.AccessKey,
			scope:  models.ScopeFilesWrite,
			handle: files((*fileHandlers).delete),
			op: openapi.Operation{
				ID:      "file_delete",
				Summary: "Delete a file a job delivered (art: handles only); afterwards it answers 404",
				Params:  []oa{handle},
				Description: "Only the caller's own art: handles are deleted; any other handle (another account's, an unknown " +
					"or malformed one, " +
					"an upload, a record) answers 422 file_not_deletable alike. A handle of the caller's deleted before answers 404.",
				Answers: []openapi.Response{
					openapi.JSONAnswer(
						http.StatusOK,
						"Deleted.",
						openapi.Object(oa{"file": openapi.Str(), "deleted": openapi.Boolean()}, "file", "deleted"),
					),
				},
				Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
			},
		},
		route{
			method: http.MethodGet,
			path:   "/v1/refs/{kind}",
			access: middleware.AccessKey,
			scope:  models.ScopeFilesRead,
			handle: files((*fileHandlers).refs),
			op: openapi.Operation{ID: "refs_list", Summary: "The account's reference items of one kind, newest first",
				Params: append(
					[]oa{openapi.PathParam("kind", "The kind of handle.", openapi.Ref("RefKind"))},
					refsParams...),
				Answers: []openapi.Response{
					openapi.JSONAnswer(
						http.StatusOK,
						"One page of reference items.",
						openapi.Page(openapi.Ref("RefItem")),
					),
				},
				Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity}},
		},
	)
}
