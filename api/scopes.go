package api

import (
	"strings"

	"github.com/taskplatform/taskplatform/models"
)

// Access says what a route needs from the caller.
type Access string

// The kinds of access a route can need.
const (
	// AccessPublic needs no key; a key that is sent is still checked.
	AccessPublic Access = "none"
	// AccessKey needs a key holding Scope, on a plan with API access.
	AccessKey Access = "key"
	// AccessSession needs a signed-in panel session: every key is refused
	// with session_required.
	AccessSession Access = "session"
)

// RouteScope is one row of the scope table.
type RouteScope struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Access Access `json:"auth"`
	Scope  string `json:"scope,omitempty"`
}

// Scopes is the one table of what every route needs: the router enforces it
// (authorize) and GET /v1/meta serves it under "scopes". Path parameters are
// written {name}; a route missing here is refused with an internal error.
var Scopes = []RouteScope{
	// Operations, outside the API contract.
	{"GET", "/healthz", AccessPublic, ""},
	{"GET", "/readyz", AccessPublic, ""},
	{"GET", "/metrics", AccessPublic, ""},
	{"GET", "/files/{blob}", AccessPublic, ""},
	{"GET", "/.well-known/jwks.json", AccessPublic, ""},

	// Catalogue and reference reads: no key.
	{"GET", "/v1/tasks", AccessPublic, ""},
	{"GET", "/v1/tasks/llms.txt", AccessPublic, ""},
	{"GET", "/v1/tasks/{name}", AccessPublic, ""},
	{"GET", "/v1/tasks/{name}/openapi.json", AccessPublic, ""},
	{"GET", "/v1/tasks/{name}/llms.txt", AccessPublic, ""},
	{"GET", "/v1/tasks/{name}/examples", AccessPublic, ""},
	{"GET", "/v1/tasks/{name}/examples/{example}/files/{index}", AccessPublic, ""},
	{"GET", "/v1/tasks/{name}/examples/{example}/sent/{index}", AccessPublic, ""},
	{"GET", "/v1/openapi.json", AccessPublic, ""},
	{"GET", "/v1/vocab", AccessPublic, ""},
	{"GET", "/v1/vocab/{name}", AccessPublic, ""},
	{"GET", "/v1/concepts", AccessPublic, ""},
	{"GET", "/v1/concepts/{name}", AccessPublic, ""},
	{"GET", "/v1/recipes", AccessPublic, ""},
	{"GET", "/v1/errors", AccessPublic, ""},
	{"GET", "/v1/pricing", AccessPublic, ""},
	{"GET", "/v1/meta", AccessPublic, ""},

	// Running tasks.
	{"POST", "/v1/tasks/{name}", AccessKey, models.ScopeTasksRun},
	{"POST", "/v1/tasks/{name}/estimate", AccessKey, models.ScopeTasksRun},

	// Files and reference records.
	{"POST", "/v1/files", AccessKey, models.ScopeFilesWrite},
	{"GET", "/v1/files/{ref}", AccessKey, models.ScopeFilesRead},
	{"DELETE", "/v1/files/{ref}", AccessKey, models.ScopeFilesWrite},
	{"GET", "/v1/refs/{kind}", AccessKey, models.ScopeFilesRead},

	// Jobs.
	{"GET", "/v1/jobs", AccessKey, models.ScopeJobsRead},
	{"GET", "/v1/jobs/{id}", AccessKey, models.ScopeJobsRead},
	{"GET", "/v1/jobs/{id}/result", AccessKey, models.ScopeJobsRead},
	{"PUT", "/v1/jobs/{id}/cancel", AccessKey, models.ScopeJobsCancel},

	// Account reads.
	{"GET", "/v1/account/balance", AccessKey, models.ScopeAccountRead},
	{"GET", "/v1/account/limits", AccessKey, models.ScopeAccountRead},
	{"GET", "/v1/account/usage", AccessKey, models.ScopeAccountRead},
	{"GET", "/v1/account/requests", AccessKey, models.ScopeAccountRead},
	{"GET", "/v1/account/metrics", AccessKey, models.ScopeAccountRead},

	// Account management: the panel's, never a key's.
	{"GET", "/v1/account/keys", AccessSession, ""},
	{"POST", "/v1/account/keys", AccessSession, ""},
	{"POST", "/v1/account/keys/{id}/roll", AccessSession, ""},
	{"DELETE", "/v1/account/keys/{id}", AccessSession, ""},
	{"GET", "/v1/account/webhooks", AccessSession, ""},
	{"POST", "/v1/account/webhooks", AccessSession, ""},
}

// sessionRoutes are the Scopes rows of AccessSession, registered by the
// router so that keys sent to them answer session_required rather than 404.
func sessionRoutes() []RouteScope {
	var out []RouteScope
	for _, s := range Scopes {
		if s.Access == AccessSession {
			out = append(out, s)
		}
	}
	return out
}

// routePattern writes a Gin route (":id", "*path") the way Scopes does ("{id}").
func routePattern(ginPath string) string {
	parts := strings.Split(ginPath, "/")
	for i, p := range parts {
		if p != "" && (p[0] == ':' || p[0] == '*') {
			parts[i] = "{" + p[1:] + "}"
		}
	}
	return strings.Join(parts, "/")
}

// ginPath writes a Scopes path ("{id}") the way Gin routes it (":id").
func ginPath(pattern string) string {
	parts := strings.Split(pattern, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			parts[i] = ":" + p[1:len(p)-1]
		}
	}
	return strings.Join(parts, "/")
}

// scopeIndex finds a route's row by method and shape; parameter names do
// not matter.
var scopeIndex = func() map[string]RouteScope {
	m := make(map[string]RouteScope, len(Scopes))
	for _, s := range Scopes {
		m[s.Method+" "+shape(s.Path)] = s
	}
	return m
}()

// shape blanks the parameter names of a Scopes or Gin path.
func shape(path string) string {
	parts := strings.Split(routePattern(path), "/")
	for i, p := range parts {
		if strings.HasPrefix(p, "{") {
			parts[i] = "{}"
		}
	}
	return strings.Join(parts, "/")
}

// scopeOf is the Scopes row of a matched route (method and Gin full path).
func scopeOf(method, fullPath string) (RouteScope, bool) {
	s, ok := scopeIndex[method+" "+shape(fullPath)]
	return s, ok
}
