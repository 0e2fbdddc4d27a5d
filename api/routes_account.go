package api

import (
	"maps"
	"net/http"
	"slices"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/models"
)

// account adapts an account handler method to the route table.
func account(f func(*accountHandlers, *gin.Context)) func(*handlers) gin.HandlerFunc {
	return func(h *handlers) gin.HandlerFunc { return func(c *gin.Context) { f(h.account, c) } }
}

// accountRoutes are the account reads (scope account:read).
func accountRoutes() []route {
	window := []oa{
		openapi.Query(
			"start",
			"Inclusive ISO-8601 date-time; no zone means UTC; default 30 days before end.",
			openapi.Str(),
		),
		openapi.Query("end", "Exclusive ISO-8601 date-time; no zone means UTC; default now.", openapi.Str()),
	}
	groups := slices.Sorted(maps.Keys(groupFields))
	read := func(path, id, summary string, handle func(*handlers) gin.HandlerFunc, params []oa, body oa,
		errs ...int) route {
		return route{
			method: http.MethodGet,
			path:   path,
			access: middleware.AccessKey,
			scope:  models.ScopeAccountRead,
			handle: handle,
			op: openapi.Operation{
				ID:      id,
				Summary: summary,
				Params:  params,
				Answers: []openapi.Response{openapi.JSONAnswer(http.StatusOK, summary+".", body)},
				Errors:  errs,
			},
		}
	}
	return tagged(
		"account",
		read(
			"/v1/account/balance",
			"account_balance",
			"Balances per credit type, the whole account's",
			account((*accountHandlers).balance),
			nil,
			openapi.Object(
				oa{"balances": openapi.ArrayOf(openapi.Ref("Balance")), "as_of": openapi.DateTime()},
				"balances",
				"as_of",
			),
		),
		read(
			"/v1/account/limits",
			"account_limits",
			"Request-rate limits",
			func(h *handlers) gin.HandlerFunc { return h.limits.Answer(h.d.now) },
			nil,
			openapi.Object(
				oa{"rate_limits": openapi.ArrayOf(openapi.Ref("RateLimit")), "as_of": openapi.DateTime()},
				"rate_limits",
				"as_of",
			),
		),
		read(
			"/v1/account/usage",
			"account_usage",
			"Spend in [start, end) per task, key and credit type",
			account((*accountHandlers).usage),
			window,
			openapi.Object(
				oa{
					"as_of": openapi.DateTime(),
					"start": openapi.DateTime(),
					"end":   openapi.DateTime(),
					"items": openapi.ArrayOf(openapi.Ref("UsageRow")),
				},
				"as_of",
				"start",
				"end",
				"items",
			),
			http.StatusUnprocessableEntity,
		),
		read(
			"/v1/account/requests",
			"account_requests",
			"Calls made by the account's keys, newest first",
			account((*accountHandlers).requests),
			append(
				append(
					openapi.PageParams(20, 100),
					openapi.Query("api_key_id", "Only the calls of this key (key_…).", openapi.Str()),
				),
				window...),
			openapi.Page(openapi.Ref("RequestLogEntry")),
			http.StatusUnprocessableEntity,
		),
		read(
			"/v1/account/metrics",
			"account_metrics",
			"Jobs and calls per day, task, key or error code",
			account((*accountHandlers).metrics),
			append(
				[]oa{openapi.Query("group_by", "What one row covers; default day.", openapi.Enum(groups))},
				window...),
			openapi.Object(
				oa{
					"as_of":    openapi.DateTime(),
					"start":    openapi.DateTime(),
					"end":      openapi.DateTime(),
					"group_by": openapi.Enum(groups),
					"items":    openapi.ArrayOf(openapi.Ref("MetricsRow")),
				},
				"as_of",
				"start",
				"end",
				"group_by",
				"items",
			),
			http.StatusUnprocessableEntity,
		),
	)
}
