package api

import (
	"slices"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/api/panelapi"
)

// RouteScope is what one route needs, as GET /v1/meta lists it under
// "scopes".
type RouteScope struct {
	Method string            `json:"method"`
	Path   string            `json:"path"`
	Access middleware.Access `json:"auth"`
	Scope  string            `json:"scope,omitempty"`
}

// route is one row of the route table: the method and path (parameters
// written {name}), what the caller needs, the handler and the OpenAPI
// operation.
type route struct {
	method, path string
	access       middleware.Access
	scope        string
	// handle picks the route's handler; nil leaves the route out of a
	// router whose Deps lack what it serves (metrics, the signer).
	handle func(h *handlers) gin.HandlerFunc
	op     openapi.Operation
}

// handlers are the resource handlers of one router.
type handlers struct {
	d         *Deps
	limits    *middleware.Limiter
	health    *health
	account   *accountHandlers
	jobs      *jobHandlers
	files     *fileHandlers
	catalogue *catalogueHandlers
	panel     *panelapi.Handlers
}

func newHandlers(d *Deps, l *middleware.Limiter) *handlers {
	return &handlers{d: d, limits: l,
		health:  &health{db: d.DB, temporal: d.Temporal, library: d.Library},
		account: &accountHandlers{db: d.DB, now: d.now},
		jobs:    &jobHandlers{d: d},
		files: &fileHandlers{
			db:           d.DB,
			blob:         d.Blob,
			filesBaseURL: d.FilesBaseURL,
			allowPrivate: d.AllowPrivateURLs,
			now:          d.now,
			kinds:        newRecordKinds(d.taskCatalogue().Tasks()),
		},
		catalogue: &catalogueHandlers{d: d},
		panel: &panelapi.Handlers{DB: d.DB, Temporal: d.Temporal, TaskQueue: d.TaskQueue,
			AllowPrivateURLs: d.AllowPrivateURLs, WebhookEvents: d.taskCatalogue().VocabValues("webhook_event"),
			Now: d.now},
	}
}

// routes is the one table of the service's routes. It drives the router
// (register), what each route needs from its caller (authorize, and the
// "scopes" of GET /v1/meta) and the OpenAPI documents. It is built in init
// because handlers in it (meta, the documents) read it.
var routes []route

// scopeIndex finds a route by method and shape (parameter names blanked).
var scopeIndex map[string]route

func init() {
	routes = slices.Concat(
		opsRoutes(),
		catalogueRoutes(),
		taskRoutes(),
		fileRoutes(),
		jobRoutes(),
		batchRoutes(),
		accountRoutes(),
		panelRoutes(),
	)
	scopeIndex = make(map[string]route, len(routes))
	for _, rt := range routes {
		scopeIndex[rt.method+" "+shape(rt.path)] = rt
	}
}

// register adds every route of the table to r.
func register(r *gin.Engine, h *handlers) {
	for _, rt := range routes {
		if fn := rt.handle(h); fn != nil {
			r.Handle(rt.method, ginPath(rt.path), fn)
		}
	}
}

// scopeRows are the routes as GET /v1/meta lists them.
func scopeRows() []RouteScope {
	out := make([]RouteScope, len(routes))
	for i, rt := range routes {
		out[i] = RouteScope{Method: rt.method, Path: rt.path, Access: rt.access, Scope: rt.scope}
	}
	return out
}

// scopeOf is the table row of a matched route (method and Gin full path).
func scopeOf(method, fullPath string) (route, bool) {
	rt, ok := scopeIndex[method+" "+shape(fullPath)]
	return rt, ok
}

// ginPath writes a table path ("{id}") the way Gin routes it (":id").
func ginPath(pattern string) string {
	parts := strings.Split(pattern, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			parts[i] = ":" + p[1:len(p)-1]
		}
	}
	return strings.Join(parts, "/")
}

// shape blanks the parameter names of a table or Gin path.
func shape(path string) string {
	parts := strings.Split(middleware.RoutePattern(path), "/")
	for i, p := range parts {
		if strings.HasPrefix(p, "{") {
			parts[i] = "{}"
		}
	}
	return strings.Join(parts, "/")
}

// ruleOf is what the matched route needs from its caller (middleware.Authorize).
func ruleOf(method, fullPath string) (middleware.Access, string, bool) {
	rt, ok := scopeOf(method, fullPath)
	return rt.access, rt.scope, ok
}
