package api

import (
	"slices"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/api/panelapi"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/models"
)

// panelRoutes are the account panel's: a signed-in session manages keys,
// spend limits, webhooks and deliveries, starts jobs in the app and manages
// files, and every API key is refused with session_required. Each area's
// rows are data in its own file: routes_panel_keys.go,
// routes_panel_webhooks.go, routes_panel_app.go.
func panelRoutes() []route {
	return tagged("panel", slices.Concat(panelKeyRoutes(), panelSpendRoutes(), panelWebhookRoutes(),
		panelAppRoutes())...)
}

// panelRows are rows of the route table.
func panelRows(rows ...panelRow) []route {
	out := make([]route, len(rows))
	for i, r := range rows {
		out[i] = r.route()
	}
	return out
}

// panelRow is one row of the panel's part of the route table: what
// panelRoutes needs to say of a route whose caller is a signed-in session
// and whose one answer is JSON.
type panelRow struct {
	method, path, ID, Summary string
	handle                    func(*handlers) gin.HandlerFunc
	// Body is the JSON request body's schema; nil takes none.
	Body   oa
	answer openapi.Response
	// Params are the path and query parameters that say more than a string.
	Params []oa
	// Errors are the error statuses beyond the common ones.
	Errors []int
}

// route is the row of the route table p says.
func (p panelRow) route() route {
	op := openapi.Operation{
		ID:      p.ID,
		Summary: p.Summary + " (account panel only)",
		Params:  p.Params,
		Answers: []openapi.Response{p.answer},
		Errors:  p.Errors,
		Description: "Needs a signed-in panel session (cookie " + middleware.SessionCookie + "); every API key is " +
			"refused with 403 session_required, and a state-changing request from another origin with 403.",
	}
	if p.Body != nil {
		op.Body = oa{"application/json": oa{"schema": p.Body}}
	}
	return route{method: p.method, path: p.path, access: middleware.AccessSession, handle: p.handle, op: op}
}

// items is a list answer's schema: {"items": [s...]}.
func items(s oa) oa { return openapi.Object(oa{"items": openapi.ArrayOf(s)}, "items") }

// appSubmit starts a job from the panel: the same submit as POST
// /v1/tasks/{name}, with no key, after the plan's task permissions.
func appSubmit(h *handlers) gin.HandlerFunc { return appOnly(h, h.jobs.submit) }

// appOnly serves a task's route from the panel with next after the plan's
// task permissions: a task of a category the plan does not run is refused.
func appOnly(h *handlers, next gin.HandlerFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		id := middleware.IdentityOf(c)
		if def, err := h.d.taskCatalogue().Tasks().Lookup(c.Param("name")); err == nil &&
			!models.PlanOf(id.User.Plan).AllowsCategory(def.Category) {
			middleware.Fail(
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
	s := openapi.Describe(openapi.Str(), "The key's label, trimmed; may be empty.")
	s["maxLength"] = models.MaxKeyNameLen
	return s
}

// panelAPI adapts a method of the panel's JSON API to the route table.
func panelAPI(f func(*panelapi.Handlers, *gin.Context)) func(*handlers) gin.HandlerFunc {
	return func(h *handlers) gin.HandlerFunc {
		return func(c *gin.Context) { f(h.panel, c) }
	}
}
