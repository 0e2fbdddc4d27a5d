package api

import (
	"maps"
	"net/http"
	"slices"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/models"
)

// account adapts an account handler method to the route table.
func account(f func(*accountHandlers, *gin.Context)) func(*handlers) gin.HandlerFunc {
	return func(h *handlers) gin.HandlerFunc { return func(c *gin.Context) { f(h.account, c) } }
}

// accountRoutes are the account reads (scope account:read).
func accountRoutes() []route {
	window := []oa{
		query("start", "Inclusive ISO-8601 date-time; no zone means UTC; default 30 days before end.", str()),
		query("end", "Exclusive ISO-8601 date-time; no zone means UTC; default now.", str()),
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
			op: operation{
				id:      id,
				summary: summary,
				params:  params,
				answers: []response{jsonAnswer(http.StatusOK, summary+".", body)},
				errors:  errs,
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
			object(oa{"balances": arrayOf(ref("Balance")), "as_of": dateTime()}, "balances", "as_of"),
		),
		read("/v1/account/limits", "account_limits", "Request-rate limits",
			func(h *handlers) gin.HandlerFunc { return h.limits.Answer(h.d.now) }, nil,
			object(oa{"rate_limits": arrayOf(ref("RateLimit")), "as_of": dateTime()}, "rate_limits", "as_of")),
		read(
			"/v1/account/usage",
			"account_usage",
			"Spend in [start, end) per task, key and credit type",
			account((*accountHandlers).usage),
			window,
			object(
				oa{"as_of": dateTime(), "start": dateTime(), "end": dateTime(), "items": arrayOf(ref("UsageRow"))},
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
				append(pageParams(20, 100), query("api_key_id", "Only the calls of this key (key_…).", str())),
				window...),
			page(ref("RequestLogEntry")),
			http.StatusUnprocessableEntity,
		),
		read(
			"/v1/account/metrics",
			"account_metrics",
			"Jobs and calls per day, task, key or error code",
			account((*accountHandlers).metrics),
			append([]oa{query("group_by", "What one row covers; default day.", enum(groups))}, window...),
			object(
				oa{
					"as_of":    dateTime(),
					"start":    dateTime(),
					"end":      dateTime(),
					"group_by": enum(groups),
					"items":    arrayOf(ref("MetricsRow")),
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
