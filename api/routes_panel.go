package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/events"
	"github.com/taskplatform/taskplatform/models"
)

// panelRoutes are the account panel's: a signed-in session manages keys,
// webhooks and deliveries, starts jobs in the app and manages files, and
// every API key is refused with session_required.
func panelRoutes() []route {
	row := func(method, path, id, summary string, handle func(*handlers) gin.HandlerFunc, body oa, answer response,
		params []oa, errs ...int) route {
		op := operation{
			id:      id,
			summary: summary + " (account panel only)",
			params:  params,
			answers: []response{answer},
			errors:  errs,
			description: "Needs a signed-in panel session (cookie " + SessionCookie + "); every API key is refused with 403 " +
				"session_required, and a state-changing request from another origin with 403.",
		}
		if body != nil {
			op.body = oa{"application/json": oa{"schema": body}}
		}
		return route{method: method, path: path, access: AccessSession, handle: handle, op: op}
	}
	keyID := []oa{pathParam("key_id", "The key, key_….", str())}
	endpointID := []oa{pathParam("endpoint_id", "The endpoint, whe_….", str())}
	items := func(s oa) oa { return object(oa{"items": arrayOf(s)}, "items") }
	endpointBody := object(
		oa{
			"url":    describe(str(), "An https:// address."),
			"events": describe(arrayOf(vocab("webhook_event")), "Default: the terminal events."),
		},
	)
	sent := object(oa{"delivery_id": str(), "event_id": str()}, "delivery_id", "event_id")
	deliveryFilters := append(pageParams(20, 100),
		query("event", "Only this event.", vocab("webhook_event")),
		query("status", "Only deliveries in this status.", enum(deliveryStatuses)),
		query("endpoint_id", "Only deliveries to this endpoint.", str()),
		query("job_id", "Only deliveries of this job.", str()),
		query("start", "Created at or after, ISO-8601.", dateTime()),
		query("end", "Created before, ISO-8601.", dateTime()))
	return tagged(
		"panel",
		row(
			http.MethodGet,
			"/v1/account/keys",
			"keys_list",
			"List the account's API keys",
			panelAPI((*panelHandlers).listKeys),
			nil,
			jsonAnswer(http.StatusOK, "Every key, oldest first; never a secret.", items(schemaOf[KeyView]())),
			nil,
		),
		row(
			http.MethodPost,
			"/v1/account/keys",
			"key_create",
			"Create an API key",
			panelAPI((*panelHandlers).createKey),
			object(
				oa{
					"name":       keyNameSchema(),
					"scopes":     describe(arrayOf(enum(models.AllScopes)), "Default: every scope."),
					"expires_at": nullable(dateTime()),
				},
			),
			jsonAnswer(
				http.StatusCreated,
				"The key with its secret, shown this once.",
				schemaOf[NewKeyView](),
			),
			nil,
			http.StatusUnprocessableEntity,
		),
		row(
			http.MethodPost,
			"/v1/account/keys/{key_id}/roll",
			"key_roll",
			"Roll an API key, keeping the old one for a grace period",
			panelAPI((*panelHandlers).rollKey),
			object(oa{"grace_period_seconds": integer()}, "grace_period_seconds"),
			jsonAnswer(
				http.StatusCreated,
				"The successor with its secret, shown this once.",
				schemaOf[NewKeyView](),
			),
			keyID,
			http.StatusNotFound,
			http.StatusUnprocessableEntity,
		),
		row(
			http.MethodPatch,
			"/v1/account/keys/{key_id}",
			"key_rename",
			"Rename an API key",
			panelAPI((*panelHandlers).renameKey),
			object(oa{"name": keyNameSchema()}, "name"),
			jsonAnswer(http.StatusOK, "The renamed key.", schemaOf[KeyView]()),
			keyID,
			http.StatusNotFound,
			http.StatusUnprocessableEntity,
		),
		row(
			http.MethodDelete,
			"/v1/account/keys/{key_id}",
			"key_revoke",
			"Revoke an API key at once",
			panelAPI((*panelHandlers).revokeKey),
			nil,
			jsonAnswer(http.StatusOK, "The revoked key.", schemaOf[KeyView]()),
			keyID,
			http.StatusNotFound,
		),
		row(
			http.MethodGet,
			"/v1/account/spend-limits",
			"spend_limits_list",
			"List the account's and its keys' spend limits, each with its current period's spend",
			panelAPI((*panelHandlers).listSpendLimits),
			nil,
			jsonAnswer(http.StatusOK, "The account's limits first, then each key's.", items(schemaOf[SpendLimitView]())),
			nil,
		),
		row(
			http.MethodPut,
			"/v1/account/spend-limits",
			"spend_limit_set",
			"Set the spend limit of the account or one of its keys for a day or a month",
			panelAPI((*panelHandlers).setSpendLimit),
			object(
				oa{
					"api_key_id": describe(nullable(str()), "A key of the account (key_…); absent or null: the account's own "+
						"limit, which counts every key's jobs and the app's."),
					"period":      vocab("spend_period"),
					"credit_type": describe(vocab("credit_type"), "Default: service_credits."),
					"credits": describe(oa{"type": "integer", "minimum": 0}, "The most credits the period's jobs may "+
						"hold or be charged; a submit whose hold would pass it answers 402 spend_limit_reached."),
				},
				"period", "credits",
			),
			jsonAnswer(http.StatusOK, "The limit, created or replaced.", schemaOf[SpendLimitView]()),
			nil,
			http.StatusNotFound,
			http.StatusUnprocessableEntity,
		),
		row(
			http.MethodDelete,
			"/v1/account/spend-limits/{limit_id}",
			"spend_limit_clear",
			"Remove a spend limit",
			panelAPI((*panelHandlers).clearSpendLimit),
			nil,
			jsonAnswer(http.StatusOK, "The limit as it was.", schemaOf[SpendLimitView]()),
			[]oa{pathParam("limit_id", "The limit, limit_….", str())},
			http.StatusNotFound,
		),
		row(
			http.MethodGet,
			"/v1/account/webhooks",
			"webhooks_list",
			"List the account's webhook endpoints",
			panelAPI((*panelHandlers).listEndpoints),
			nil,
			jsonAnswer(http.StatusOK, "Every endpoint, oldest first.", items(schemaOf[EndpointView]())),
			nil,
		),
		row(
			http.MethodPost,
			"/v1/account/webhooks",
			"webhook_create",
			"Register a webhook endpoint",
			panelAPI((*panelHandlers).createEndpoint),
			endpointBody,
			jsonAnswer(
				http.StatusCreated,
				"The endpoint.",
				schemaOf[EndpointView](),
			),
			nil,
			http.StatusUnprocessableEntity,
		),
		row(
			http.MethodPatch,
			"/v1/account/webhooks/{endpoint_id}",
			"webhook_update",
			"Change an endpoint's url or events",
			panelAPI((*panelHandlers).updateEndpoint),
			endpointBody,
			jsonAnswer(
				http.StatusOK,
				"The endpoint.",
				schemaOf[EndpointView](),
			),
			endpointID,
			http.StatusNotFound,
			http.StatusUnprocessableEntity,
		),
		row(
			http.MethodDelete,
			"/v1/account/webhooks/{endpoint_id}",
			"webhook_delete",
			"Remove an endpoint",
			panelAPI((*panelHandlers).deleteEndpoint),
			nil,
			jsonAnswer(
				http.StatusOK,
				"Removed.",
				object(oa{"id": str(), "deleted": boolean()}, "id", "deleted"),
			),
			endpointID,
			http.StatusNotFound,
		),
		row(
			http.MethodPost,
			"/v1/account/webhooks/{endpoint_id}/ping",
			"webhook_ping",
			"Send a signed test event: ping, or a sample event of the kind named",
			panelAPI((*panelHandlers).pingEndpoint),
			object(oa{"event": describe(enum(events.SampleKinds()),
				"The kind of the test event (default ping): a sample body of that kind's shape naming made-up "+
					"ids (job_sample, batch_sample), signed and delivered as any event.")}),
			jsonAnswer(
				http.StatusAccepted,
				"The test event's delivery, in the delivery log.",
				sent,
			),
			endpointID,
			http.StatusNotFound,
			http.StatusUnprocessableEntity,
		),
		row(
			http.MethodPost,
			"/v1/account/webhooks/{endpoint_id}/enable",
			"webhook_enable",
			"Re-enable an endpoint, resetting its failure count",
			panelAPI((*panelHandlers).enableEndpoint),
			nil,
			jsonAnswer(http.StatusOK, "The endpoint.", schemaOf[EndpointView]()),
			endpointID,
			http.StatusNotFound,
		),
		row(
			http.MethodGet,
			"/v1/account/webhook-deliveries",
			"webhook_deliveries",
			"The delivery log, newest first, with each delivery's attempts",
			panelAPI((*panelHandlers).listDeliveries),
			nil,
			jsonAnswer(
				http.StatusOK,
				"One page of deliveries.",
				page(schemaOf[DeliveryView]()),
			),
			deliveryFilters,
			http.StatusUnprocessableEntity,
		),
		row(
			http.MethodPost,
			"/v1/account/webhook-deliveries/{delivery_id}/replay",
			"webhook_replay",
			"Send a delivery's stored body again (new delivery id, same event id)",
			panelAPI((*panelHandlers).replayDelivery),
			nil,
			jsonAnswer(http.StatusAccepted, "The new delivery.", sent),
			[]oa{pathParam("delivery_id", "The delivery, whd_….", str())},
			http.StatusNotFound,
		),
		row(
			http.MethodPost,
			"/v1/account/tasks/{name}",
			"app_task_submit",
			"Start a job in the app; registered endpoints never receive its events",
			func(h *handlers) gin.HandlerFunc { return appSubmit(h) },
			freeObject("The task's input, as its inputSchema says."),
			jsonAnswer(
				http.StatusAccepted,
				"The job's handle.",
				ref("Job"),
			),
			[]oa{pathParam("name", "The task's name.", str())},
			http.StatusNotFound,
			http.StatusUnprocessableEntity,
			http.StatusPaymentRequired,
		),
		row(
			http.MethodPost,
			"/v1/account/tasks/{name}/estimate",
			"app_task_estimate",
			"The cost ceiling of a run from the app: checked like a submit, nothing held or written",
			func(h *handlers) gin.HandlerFunc { return appOnly(h, catalogue((*catalogueHandlers).estimate)(h)) },
			freeObject("The task's input, as its inputSchema says."),
			jsonAnswer(http.StatusOK, "Price per output × outputs planned.", ref("Estimate")),
			[]oa{pathParam("name", "The task's name.", str())},
			http.StatusPaymentRequired,
			http.StatusNotFound,
			http.StatusGone,
			http.StatusUnprocessableEntity,
		),
		row(
			http.MethodGet,
			"/v1/account/jobs/{job_id}",
			"app_job_read",
			"One job of the account, whichever key or the app started it",
			func(h *handlers) gin.HandlerFunc { return h.jobs.get },
			nil,
			jsonAnswer(http.StatusOK, "The job.", ref("Job")),
			nil,
			http.StatusNotFound,
		),
		row(
			http.MethodPost,
			"/v1/account/jobs/{job_id}/cancel",
			"app_job_cancel",
			"Cancel a job of the account",
			func(h *handlers) gin.HandlerFunc { return h.jobs.cancel },
			nil,
			jsonAnswer(
				http.StatusAccepted,
				"Cancellation requested.",
				object(
					oa{"job_id": str(), "lifecycle": lifecycle(), "outcome": nullable(outcome()), "status_url": str()},
					"job_id",
				),
			),
			nil,
			http.StatusNotFound,
		),
		row(
			http.MethodGet,
			"/v1/account/refs/{kind}",
			"app_refs_list",
			"The account's reference items of one kind, for the run form's pickers",
			files(
				(*fileHandlers).refs,
			),
			nil,
			jsonAnswer(http.StatusOK, "One page of reference items.", page(ref("RefItem"))),
			append(
				[]oa{pathParam("kind", "The kind of handle.", ref("RefKind"))},
				pageParams(20, 100)...),
			http.StatusNotFound,
			http.StatusUnprocessableEntity,
		),
		route{
			method: http.MethodPost,
			path:   "/v1/account/files",
			access: AccessSession,
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
		},
		row(
			http.MethodDelete,
			"/v1/account/files/{ref}",
			"app_file_delete",
			"Delete a file a job delivered (art: handles only)",
			files(
				(*fileHandlers).delete,
			),
			nil,
			jsonAnswer(http.StatusOK, "Deleted.", object(oa{"file": str(), "deleted": boolean()}, "file", "deleted")),
			[]oa{pathParam("ref", "An art: handle.", str())},
			http.StatusNotFound,
			http.StatusUnprocessableEntity,
		),
	)
}

// appSubmit starts a job from the panel: the same submit as POST
// /v1/tasks/{name}, with no key, after the plan's task permissions.
func appSubmit(h *handlers) gin.HandlerFunc { return appOnly(h, h.jobs.submit) }

// appOnly serves a task's route from the panel with next after the plan's
// task permissions: a task of a category the plan does not run is refused.
func appOnly(h *handlers, next gin.HandlerFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		id := identityOf(c)
		if def, err := h.d.taskCatalogue().Tasks().Lookup(c.Param("name")); err == nil &&
			!models.PlanOf(id.user.Plan).AllowsCategory(def.Category) {
			fail(
				c,
				apierr.Newf(
					apierr.PermissionDenied,
					"The account's plan does not run %s tasks such as %s.",
					def.Category,
					def.Name,
				),
			)
			return
		}
		next(c)
	}
}

// keyNameSchema is a key's name in a request body.
func keyNameSchema() oa {
	s := describe(str(), "The key's label, trimmed; may be empty.")
	s["maxLength"] = models.MaxKeyNameLen
	return s
}
