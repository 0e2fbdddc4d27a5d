package api

import (
	"reflect"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/tasks"
)

// The OpenAPI 3.1 documents the API serves are written by api/openapi from
// the route table, with the component schemas of the API's answer types
// (openapi_components.go), the webhooks and the record kinds; the task
// schemas they embed are the schemas Validate enforces.

// oa is a JSON object of an OpenAPI document.
type oa = openapi.M

// The reflection of the answer types into schemas reads what it cannot
// see from their Go types here, before the route table is built.
var _ = func() bool {
	openapi.Overrides.Names = func() map[reflect.Type]string { return componentNames() }
	openapi.Overrides.Types = func() map[reflect.Type]oa { return typeSchemas() }
	openapi.Overrides.Fields = func() map[reflect.Type]oa { return fieldSchemas() }
	return true
}()

// doc is what the documents read of the row.
func (rt route) doc() openapi.Route {
	return openapi.Route{Method: rt.method, Path: rt.path, Access: rt.access, Scope: rt.scope, Op: rt.op}
}

// docRoutes are the rows of the table as the documents read them.
func docRoutes() []openapi.Route {
	out := make([]openapi.Route, len(routes))
	for i, rt := range routes {
		out[i] = rt.doc()
	}
	return out
}

// TaskOpenAPI is the OpenAPI document of one task: its catalogue entry,
// submit, estimate, job and result operations with its schemas embedded.
func TaskOpenAPI(d *tasks.Definition, base string) map[string]any {
	doc := openapi.NewDoc(d.Title, d.Description, base, componentSchemas())
	openapi.AddTask(doc, docRoutes(), d, true)
	return openapi.Pruned(doc)
}

// ServiceOpenAPI is the OpenAPI document of the whole service: every route
// an API key or no key can call, each runnable task's rows under its own
// path, and the job events under webhooks. The panel's session-only routes
// are in PanelOpenAPI.
func ServiceOpenAPI(reg *tasks.Registry, base string) map[string]any {
	doc := openapi.NewDoc("Task Platform API", "Named tasks on images and designs, run as durable jobs.", base,
		componentSchemas())
	all := docRoutes()
	for _, rt := range all {
		if rt.Access != middleware.AccessSession {
			openapi.AddRoute(doc, rt.Path, rt, nil)
		}
	}
	for _, d := range reg.Runnable() {
		openapi.AddTask(doc, all, d, false)
	}
	doc["webhooks"] = webhooks()
	addRecordKinds(doc, newRecordKinds(reg))
	return openapi.Pruned(doc)
}

// PanelOpenAPI is the OpenAPI document of the account panel's session-only
// routes (/v1/account/… with a panel session); reg's record kinds are the
// kinds its reference lists take.
func PanelOpenAPI(reg *tasks.Registry, base string) map[string]any {
	doc := openapi.NewDoc(
		"Task Platform account panel API",
		"The session-only operations the account panel's pages call.",
		base,
		componentSchemas(),
	)
	for _, rt := range docRoutes() {
		if rt.Access == middleware.AccessSession {
			openapi.AddRoute(doc, rt.Path, rt, nil)
		}
	}
	addRecordKinds(doc, newRecordKinds(reg))
	return openapi.Pruned(doc)
}

// tagged sets the tag of routes.
func tagged(tag string, rows ...route) []route {
	for i := range rows {
		rows[i].op.Tag = tag
	}
	return rows
}
