package api

import (
	"net/http"

	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/api/panelapi"
	"github.com/taskplatform/taskplatform/models"
)

// panelKeyRoutes manage the account's API keys.
func panelKeyRoutes() []route {
	keyID := []oa{openapi.PathParam("key_id", "The key, key_….", openapi.Str())}
	return panelRows(
		panelRow{
			method:  http.MethodGet,
			path:    "/v1/account/keys",
			ID:      "keys_list",
			Summary: "List the account's API keys",
			handle:  panelAPI((*panelapi.Handlers).ListKeys),
			answer: openapi.JSONAnswer(
				http.StatusOK,
				"Every key, oldest first; never a secret.",
				items(openapi.SchemaOf[panelapi.KeyView]()),
			),
		},
		panelRow{
			method:  http.MethodPost,
			path:    "/v1/account/keys",
			ID:      "key_create",
			Summary: "Create an API key",
			handle:  panelAPI((*panelapi.Handlers).CreateKey),
			Body: openapi.Object(
				oa{
					"name": keyNameSchema(),
					"scopes": openapi.Describe(
						openapi.ArrayOf(openapi.Enum(models.AllScopes)),
						"Default: every scope.",
					),
					"expires_at": openapi.Nullable(openapi.DateTime()),
				},
			),
			answer: openapi.JSONAnswer(
				http.StatusCreated,
				"The key with its secret, shown this once.",
				openapi.SchemaOf[panelapi.NewKeyView](),
			),
			Errors: []int{http.StatusUnprocessableEntity},
		},
		panelRow{
			method:  http.MethodPost,
			path:    "/v1/account/keys/{key_id}/roll",
			ID:      "key_roll",
			Summary: "Roll an API key, keeping the old one for a grace period",
			handle:  panelAPI((*panelapi.Handlers).RollKey),
			Body:    openapi.Object(oa{"grace_period_seconds": openapi.Integer()}, "grace_period_seconds"),
			answer: openapi.JSONAnswer(
				http.StatusCreated,
				"The successor with its secret, shown this once.",
				openapi.SchemaOf[panelapi.NewKeyView](),
			),
			Params: keyID,
			Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
		},
		panelRow{
			method:  http.MethodPatch,
			path:    "/v1/account/keys/{key_id}",
			ID:      "key_rename",
			Summary: "Rename an API key",
			handle:  panelAPI((*panelapi.Handlers).RenameKey),
			Body:    openapi.Object(oa{"name": keyNameSchema()}, "name"),
			answer:  openapi.JSONAnswer(http.StatusOK, "The renamed key.", openapi.SchemaOf[panelapi.KeyView]()),
			Params:  keyID,
			Errors:  []int{http.StatusNotFound, http.StatusUnprocessableEntity},
		},
		panelRow{
			method:  http.MethodDelete,
			path:    "/v1/account/keys/{key_id}",
			ID:      "key_revoke",
			Summary: "Revoke an API key at once",
			handle:  panelAPI((*panelapi.Handlers).RevokeKey),
			answer:  openapi.JSONAnswer(http.StatusOK, "The revoked key.", openapi.SchemaOf[panelapi.KeyView]()),
			Params:  keyID,
			Errors:  []int{http.StatusNotFound},
		},
	)
}

// panelSpendRoutes set and clear the spend limits of the account and its keys.
func panelSpendRoutes() []route {
	return panelRows(
		panelRow{
			method:  http.MethodGet,
			path:    "/v1/account/spend-limits",
			ID:      "spend_limits_list",
			Summary: "List the account's and its keys' spend limits, each with its current period's spend",
			handle:  panelAPI((*panelapi.Handlers).ListSpendLimits),
			answer: openapi.JSONAnswer(http.StatusOK, "The account's limits first, then each key's.",
				items(openapi.SchemaOf[panelapi.SpendLimitView]())),
		},
		panelRow{
			method:  http.MethodPut,
			path:    "/v1/account/spend-limits",
			ID:      "spend_limit_set",
			Summary: "Set the spend limit of the account or one of its keys for a day or a month",
			handle:  panelAPI((*panelapi.Handlers).SetSpendLimit),
			Body: openapi.Object(
				oa{
					"api_key_id": openapi.Describe(
						openapi.Nullable(openapi.Str()),
						"A key of the account (key_…); absent or null: the account's own "+
							"limit, which counts every key's jobs and the app's.",
					),
					"period":      vocab("spend_period"),
					"credit_type": openapi.Describe(vocab("credit_type"), "Default: service_credits."),
					"credits": openapi.Describe(
						oa{"type": "integer", "minimum": 0},
						"The most credits the period's jobs may "+
							"hold or be charged; a submit whose hold would pass it answers 402 spend_limit_reached.",
					),
				},
				"period", "credits",
			),
			answer: openapi.JSONAnswer(
				http.StatusOK,
				"The limit, created or replaced.",
				openapi.SchemaOf[panelapi.SpendLimitView](),
			),
			Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
		},
		panelRow{
			method:  http.MethodDelete,
			path:    "/v1/account/spend-limits/{limit_id}",
			ID:      "spend_limit_clear",
			Summary: "Remove a spend limit",
			handle:  panelAPI((*panelapi.Handlers).ClearSpendLimit),
			answer: openapi.JSONAnswer(
				http.StatusOK,
				"The limit as it was.",
				openapi.SchemaOf[panelapi.SpendLimitView](),
			),
			Params: []oa{openapi.PathParam("limit_id", "The limit, limit_….", openapi.Str())},
			Errors: []int{http.StatusNotFound},
		},
	)
}
