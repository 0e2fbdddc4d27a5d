package api

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/apierr"
	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

// The OpenAPI 3.1 documents are written from the route table, and the task
// schemas they embed are the schemas Validate enforces.

// operationOf writes a route's operation; d names the task when the route
// is written under one task's path.
func operationOf(rt route, d *tasks.Definition) oa {
	op := rt.op
	o := oa{"operationId": op.id, "summary": op.summary, "tags": []any{op.tag}, "x-access": string(rt.access)}
	if op.description != "" {
		o["description"] = op.description
	}
	switch rt.access {
	case middleware.AccessKey:
		o["security"] = []any{oa{"bearerAuth": []any{rt.scope}}, oa{"xApiKey": []any{rt.scope}}}
		o["x-scope"] = rt.scope
	case middleware.AccessSession:
		o["security"] = []any{oa{"panelSession": []any{}}}
	default:
		o["security"] = []any{oa{}}
	}
	params := []any{oa{"$ref": "#/components/parameters/ServiceVersion"}}
	for _, name := range pathParams(rt.path) {
		p := pathParam(name, "", str())
		delete(p, "description")
		for _, q := range op.params {
			if q["in"] == "path" && q["name"] == name {
				p = q
			}
		}
		if d == nil || name != "name" {
			params = append(params, p)
		}
	}
	for _, q := range op.params {
		if q["in"] != "path" {
			params = append(params, q)
		}
	}
	o["parameters"] = params
	if op.body != nil {
		o["requestBody"] = oa{"required": true, "content": op.body}
	}
	responses := oa{}
	for _, a := range op.answers {
		r := oa{"description": a.description}
		if a.content != nil {
			content := oa{}
			for m, media := range a.content {
				content[m] = oa{"schema": media.(oa)["schema"]}
			}
			r["content"] = content
		}
		if a.headers != nil {
			h := oa{}
			for name, s := range a.headers {
				h[name] = oa{"schema": s}
			}
			r["headers"] = h
		}
		responses[strconv.Itoa(a.status)] = r
	}
	for _, s := range errorStatuses(op) {
		key := strconv.Itoa(s)
		if r, ok := responses[key].(oa); ok { // an answer that can also be an error
			for _, m := range r["content"].(oa) {
				m.(oa)["schema"] = oa{"oneOf": []any{m.(oa)["schema"], ref("Error")}}
			}
			continue
		}
		responses[key] = oa{"$ref": "#/components/responses/Error"}
	}
	o["responses"] = responses
	if d != nil {
		o = taskOperation(o, op, d)
	}
	describeOperation(o, rt)
	return forTask(o, d).(oa)
}

// errorStatuses are the error statuses a route documents, in order.
func errorStatuses(op operation) []int {
	out := slices.Concat(commonErrors, op.errors)
	slices.Sort(out)
	return slices.Compact(out)
}

// taskOperation names an operation for one task.
func taskOperation(o oa, op operation, d *tasks.Definition) oa {
	id := strings.ReplaceAll(d.Name, ".", "_")
	o["operationId"] = id + "_" + strings.TrimPrefix(op.id, "task_")
	switch op.id {
	case "task_submit":
		o["summary"], o["description"] = d.Title, d.Description
		o["deprecated"] = d.Status == "deprecated"
	case "task_estimate":
		o["summary"] = "Estimate " + d.Name
	case "task_read":
		o["summary"] = "Read the " + d.Name + " catalogue entry"
	}
	if op.body != nil {
		if media, ok := op.body["application/json"].(oa); ok {
			if s, ok := media["schema"].(oa); ok && s["x-task"] == "input" {
				o["requestBody"] = oa{"$ref": "#/components/requestBodies/" + d.Name + ".input"}
			}
		}
	}
	return o
}

// taskRows are the table rows a task's own document holds.
var taskRows = []string{
	"GET /v1/tasks/{name}",
	"POST /v1/tasks/{name}",
	"POST /v1/tasks/{name}/estimate",
	"GET /v1/jobs/{job_id}",
	"GET /v1/jobs/{job_id}/result",
}

// addRoute adds a route's operation to doc at path.
func addRoute(doc oa, path string, rt route, d *tasks.Definition) {
	paths := doc["paths"].(oa)
	item, _ := paths[path].(oa)
	if item == nil {
		item = oa{}
		paths[path] = item
	}
	item[strings.ToLower(rt.method)] = operationOf(rt, d)
}

// addTask adds a task's schemas, and its rows of the table under the
// task's own path; all adds the job rows too (for its own document).
//
// The input schema is a request body component, written in place rather
// than as a reference to a schema component: a field with a default is
// optional in a request and always present in an answer, and generators
// read a schema component as both (openapi-typescript's default options
// make every field with a default required there, and optional under
// requestBodies).
func addTask(doc oa, d *tasks.Definition, all bool) {
	components := doc["components"].(oa)
	schemas := components["schemas"].(oa)
	in, out := d.Name+".input", d.Name+".output"
	bodies, _ := components["requestBodies"].(oa)
	if bodies == nil {
		bodies = oa{}
		components["requestBodies"] = bodies
	}
	bodies[in] = oa{"required": true, "description": "The input of " + d.Name + ".",
		"content": oa{"application/json": oa{"schema": json.RawMessage(d.InputSchema)}}}
	schemas[out] = json.RawMessage(d.OutputSchema)
	if len(d.OutputSchema) == 0 {
		schemas[out] = oa{"type": "null"}
	}
	schemas[d.Name+".result"] = oa{"allOf": []any{ref("JobResult"), oa{"properties": oa{"files": oa{"type": "array",
		"items": oa{"allOf": []any{ref("ResultFile"), oa{"properties": oa{"data": ref(out)}}}}}}}}}
	for _, key := range taskRows {
		method, path, _ := strings.Cut(key, " ")
		rt := scopeIndex[method+" "+shape(path)]
		switch {
		case strings.Contains(rt.path, "{name}"):
			addRoute(doc, strings.Replace(rt.path, "{name}", d.Name, 1), rt, d)
		case all:
			addRoute(doc, rt.path, rt, d)
		}
	}
}

func newDoc(title, description, base string) oa {
	if base == "" {
		base = "/"
	}
	types := make([]apierr.Type, len(apierr.Types))
	for i, t := range apierr.Types {
		types[i] = t.Type
	}
	return oa{
		"openapi": "3.1.0",
		"info":    oa{"title": title, "description": description, "version": contract.CurrentVersion},
		"tags":    docTags,
		"servers": []any{oa{"url": base}}, "jsonSchemaDialect": tasks.SchemaDialect,
		"paths": oa{},
		"components": oa{
			"schemas": componentSchemas(),
			"responses": oa{"Error": oa{"description": "An error; branch on error.code.",
				"headers": oa{"X-Service-Error-Type": oa{"schema": enum(types)}, "X-Request-ID": oa{"schema": str()},
					"Retry-After": oa{"schema": integer(), "description": "Seconds to wait; on 429 and 503."}},
				"content": oa{"application/json": oa{"schema": ref("Error")}}}},
			"parameters": oa{
				"ServiceVersion": oa{
					"name":        "Service-Version",
					"in":          "header",
					"schema":      oa{"type": "string", "format": "date"},
					"description": "Contract version; current " + contract.CurrentVersion + ".",
				},
			},
			"securitySchemes": oa{
				"bearerAuth": oa{"type": "http", "scheme": "bearer",
					"description": "Authorization: Bearer <API_KEY>. The spec's own form, Authorization: Key <API_KEY>, is the " +
						"same key."},
				"xApiKey": oa{
					"type":        "apiKey",
					"in":          "header",
					"name":        "x-api-key",
					"description": "The API key in the x-api-key header.",
				},
				"panelSession": oa{"type": "apiKey", "in": "cookie", "name": middleware.SessionCookie,
					"description": "A signed-in account panel session (sign in at /app/sign-in); state-changing requests must come " +
						"from the panel's own origin."},
			},
		},
	}
}

// TaskOpenAPI is the OpenAPI document of one task: its catalogue entry,
// submit, estimate, job and result operations with its schemas embedded.
func TaskOpenAPI(d *tasks.Definition, base string) map[string]any {
	doc := newDoc(d.Title, d.Description, base)
	addTask(doc, d, true)
	return pruned(doc)
}

// ServiceOpenAPI is the OpenAPI document of the whole service: every route
// an API key or no key can call, each runnable task's rows under its own
// path, and the job events under webhooks. The panel's session-only routes
// are in PanelOpenAPI.
func ServiceOpenAPI(reg *tasks.Registry, base string) map[string]any {
	doc := newDoc("Task Platform API", "Named tasks on images and designs, run as durable jobs.", base)
	for _, rt := range routes {
		if rt.access != middleware.AccessSession {
			addRoute(doc, rt.path, rt, nil)
		}
	}
	for _, d := range reg.Runnable() {
		addTask(doc, d, false)
	}
	doc["webhooks"] = webhooks()
	addRecordKinds(doc, newRecordKinds(reg))
	return pruned(doc)
}

// PanelOpenAPI is the OpenAPI document of the account panel's session-only
// routes (/v1/account/… with a panel session); reg's record kinds are the
// kinds its reference lists take.
func PanelOpenAPI(reg *tasks.Registry, base string) map[string]any {
	doc := newDoc(
		"Task Platform account panel API",
		"The session-only operations the account panel's pages call.",
		base,
	)
	for _, rt := range routes {
		if rt.access == middleware.AccessSession {
			addRoute(doc, rt.path, rt, nil)
		}
	}
	addRecordKinds(doc, newRecordKinds(reg))
	return pruned(doc)
}

// usedTags are the document's tags that some operation or webhook names.
func usedTags(doc oa) []oa {
	named := map[string]bool{}
	for _, section := range []string{"paths", "webhooks"} {
		items, _ := doc[section].(oa)
		for _, item := range items {
			for _, o := range item.(oa) {
				for _, tag := range o.(oa)["tags"].([]any) {
					named[tag.(string)] = true
				}
			}
		}
	}
	tags, _ := doc["tags"].([]oa)
	return slices.DeleteFunc(slices.Clone(tags), func(t oa) bool { return !named[t["name"].(string)] })
}

// pruned drops the component schemas no operation reaches, and the tags no
// operation names.
func pruned(doc oa) oa {
	schemas := doc["components"].(oa)["schemas"].(oa)
	used := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case oa:
			if r, ok := x["$ref"].(string); ok {
				name, found := strings.CutPrefix(r, "#/components/schemas/")
				if found && !used[name] {
					used[name] = true
					walk(schemas[name])
				}
			}
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(doc["paths"])
	walk(doc["webhooks"])
	walk(doc["components"].(oa)["responses"])
	for name := range schemas {
		if !used[name] {
			delete(schemas, name)
		}
	}
	doc["tags"] = usedTags(doc)
	return doc
}

// docTags are the document's global tags, in the order a reader meets them.
var docTags = []oa{
	{
		"name":        "tasks",
		"description": "Submit a named task as a job, or estimate its price; each task also has its own path.",
	},
	{"name": "jobs", "description": "Read, list, wait on, stream and cancel jobs, and read their results."},
	{"name": "batches", "description": "Submit up to limits.batches.max_items tasks in one call and follow them."},
	{"name": "files", "description": "Upload files, read and delete file and art handles, download delivered files."},
	{"name": "account", "description": "The calling key's account: balance, usage, metrics and request log."},
	{
		"name": "catalogue",
		"description": "The public reference: tasks, vocabularies, concepts, recipes, errors, prices, " +
			"the changelog and these documents. No key needed.",
	},
	{"name": "operations", "description": "Health, readiness, metrics and the webhook signing keys."},
	{
		"name":        "panel",
		"description": "The account panel's own operations, for a signed-in session only (GET /v1/panel/openapi.json).",
	},
	{"name": "webhooks", "description": "The signed job events a webhook endpoint receives."},
}

// accessText is what an operation's description says about its caller.
func accessText(rt route) string {
	switch rt.access {
	case middleware.AccessKey:
		return "Needs an API key holding the `" + rt.scope + "` scope."
	case middleware.AccessSession:
		return "Needs a signed-in panel session; API keys are refused with `session_required`."
	default:
		return "Needs no key; a key that is sent is still checked."
	}
}

// describeOperation completes an operation's description: the route's own
// text, or its summary, then who may call it.
func describeOperation(o oa, rt route) {
	text, _ := o["description"].(string)
	if text == "" {
		text = strings.TrimSuffix(rt.op.summary, ".") + "."
	}
	o["description"] = text + "\n\n" + accessText(rt)
}
