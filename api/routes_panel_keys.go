package api

import (
	"net/http"

	"github.com/taskplatform/taskplatform/api/panelapi"
	"github.com/taskplatform/taskplatform/models"
)

// panelKeyRoutes manage the account's API keys.
func panelKeyRoutes() []route {
	keyID := []oa{pathParam("key_id", "The key, key_….", str())}
	return panelRows(
		panelRow{
			method:  http.MethodGet,
			path:    "/v1/account/keys",
			id:      "keys_list",
			summary: "List the account's API keys",
			handle:  panelAPI((*panelapi.Handlers).ListKeys),
			answer:  jsonAnswer(http.StatusOK, "Every key, oldest first; never a secret.", items(schemaOf[panelapi.KeyView]())),
		},
		panelRow{
			method:  http.MethodPost,
			path:    "/v1/account/keys",
			id:      "key_create",
			summary: "Create an API key",
			handle:  panelAPI((*panelapi.Handlers).CreateKey),
			body: object(
				oa{
					"name":       keyNameSchema(),
					"scopes":     describe(arrayOf(enum(models.AllScopes)), "Default: every scope."),
					"expires_at": nullable(dateTime()),
				},
			),
			answer: jsonAnswer(
				http.StatusCreated,
				"The key with its secret, shown this once.",
				schemaOf[panelapi.NewKeyView](),
			),
			errors: []int{http.StatusUnprocessableEntity},
		},
		panelRow{
			method:  http.MethodPost,
			path:    "/v1/account/keys/{key_id}/roll",
			id:      "key_roll",
			summary: "Roll an API key, keeping the old one for a grace period",
			handle:  panelAPI((*panelapi.Handlers).RollKey),
			body:    object(oa{"grace_period_seconds": integer()}, "grace_period_seconds"),
			answer: jsonAnswer(
				http.StatusCreated,
				"The successor with its secret, shown this once.",
				schemaOf[panelapi.NewKeyView](),
			),
			params: keyID,
			errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
		},
		panelRow{
			method:  http.MethodPatch,
			path:    "/v1/account/keys/{key_id}",
			id:      "key_rename",
			summary: "Rename an API key",
			handle:  panelAPI((*panelapi.Handlers).RenameKey),
			body:    object(oa{"name": keyNameSchema()}, "name"),
			answer:  jsonAnswer(http.StatusOK, "The renamed key.", schemaOf[panelapi.KeyView]()),
			params:  keyID,
			errors:  []int{http.StatusNotFound, http.StatusUnprocessableEntity},
		},
		panelRow{
			method:  http.MethodDelete,
			path:    "/v1/account/keys/{key_id}",
			id:      "key_revoke",
			summary: "Revoke an API key at once",
			handle:  panelAPI((*panelapi.Handlers).RevokeKey),
			answer:  jsonAnswer(http.StatusOK, "The revoked key.", schemaOf[panelapi.KeyView]()),
			params:  keyID,
			errors:  []int{http.StatusNotFound},
		},
	)
}

// panelSpendRoutes set and clear the spend limits of the account and its keys.
func panelSpendRoutes() []route {
	return panelRows(
		panelRow{
			method:  http.MethodGet,
			path:    "/v1/account/spend-limits",
			id:      "spend_limits_list",
			summary: "List the account's and its keys' spend limits, each with its current period's spend",
			handle:  panelAPI((*panelapi.Handlers).ListSpendLimits),
			answer: jsonAnswer(http.StatusOK, "The account's limits first, then each key's.",
				items(schemaOf[panelapi.SpendLimitView]())),
		},
		panelRow{
			method:  http.MethodPut,
			path:    "/v1/account/spend-limits",
			id:      "spend_limit_set",
			summary: "Set the spend limit of the account or one of its keys for a day or a month",
			handle:  panelAPI((*panelapi.Handlers).SetSpendLimit),
			body: object(
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
			answer: jsonAnswer(http.StatusOK, "The limit, created or replaced.", schemaOf[panelapi.SpendLimitView]()),
			errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
		},
		panelRow{
			method:  http.MethodDelete,
			path:    "/v1/account/spend-limits/{limit_id}",
			id:      "spend_limit_clear",
			summary: "Remove a spend limit",
			handle:  panelAPI((*panelapi.Handlers).ClearSpendLimit),
			answer:  jsonAnswer(http.StatusOK, "The limit as it was.", schemaOf[panelapi.SpendLimitView]()),
			params:  []oa{pathParam("limit_id", "The limit, limit_….", str())},
			errors:  []int{http.StatusNotFound},
		},
	)
}
