package openapi

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

// Route is what a document reads of a row of the route table.
type Route struct {
	Method, Path string
	Access       middleware.Access
	Scope        string
	Op           Operation
}

// PathParams are the parameter names of a table path, in order.
func PathParams(pattern string) []string {
	var out []string
	for _, p := range strings.Split(pattern, "/") {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			out = append(out, p[1:len(p)-1])
		}
	}
	return out
}

// operationOf writes a route's operation; d names the task when the route
// is written under one task's path.
func operationOf(rt Route, d *tasks.Definition) M {
	op := rt.Op
	o := M{"operationId": op.ID, "summary": op.Summary, "tags": []any{op.Tag}, "x-access": string(rt.Access)}
	if op.Description != "" {
		o["description"] = op.Description
	}
	switch rt.Access {
	case middleware.AccessKey:
		o["security"] = []any{M{"bearerAuth": []any{rt.Scope}}, M{"xApiKey": []any{rt.Scope}}}
		o["x-scope"] = rt.Scope
	case middleware.AccessSession:
		o["security"] = []any{M{"panelSession": []any{}}}
	default:
		o["security"] = []any{M{}}
	}
	params := []any{M{"$ref": "#/components/parameters/ServiceVersion"}}
	for _, name := range PathParams(rt.Path) {
		p := PathParam(name, "", Str())
		delete(p, "description")
		for _, q := range op.Params {
			if q["in"] == "path" && q["name"] == name {
				p = q
			}
		}
		if d == nil || name != "name" {
			params = append(params, p)
		}
	}
	for _, q := range op.Params {
		if q["in"] != "path" {
			params = append(params, q)
		}
	}
	o["parameters"] = params
	if op.Body != nil {
		o["requestBody"] = M{"required": true, "content": op.Body}
	}
	responses := M{}
	for _, a := range op.Answers {
		r := M{"description": a.Description}
		if a.Content != nil {
			content := M{}
			for m, media := range a.Content {
				content[m] = M{"schema": media.(M)["schema"]}
			}
			r["content"] = content
		}
		if a.Headers != nil {
			h := M{}
			for name, s := range a.Headers {
				h[name] = M{"schema": s}
			}
			r["headers"] = h
		}
		responses[strconv.Itoa(a.Status)] = r
	}
	for _, s := range ErrorStatuses(op) {
		key := strconv.Itoa(s)
		if r, ok := responses[key].(M); ok { // an answer that can also be an error
			for _, m := range r["content"].(M) {
				m.(M)["schema"] = M{"oneOf": []any{m.(M)["schema"], Ref("Error")}}
			}
			continue
		}
		responses[key] = M{"$ref": "#/components/responses/Error"}
	}
	o["responses"] = responses
	if d != nil {
		o = taskOperation(o, op, d)
	}
	describeOperation(o, rt)
	return forTask(o, d).(M)
}

// ErrorStatuses are the error statuses a route documents, in order.
func ErrorStatuses(op Operation) []int {
	out := slices.Concat(commonErrors, op.Errors)
	slices.Sort(out)
	return slices.Compact(out)
}

// taskOperation names an operation for one task.
func taskOperation(o M, op Operation, d *tasks.Definition) M {
	id := strings.ReplaceAll(d.Name, ".", "_")
	o["operationId"] = id + "_" + strings.TrimPrefix(op.ID, "task_")
	switch op.ID {
	case "task_submit":
		o["summary"], o["description"] = d.Title, d.Description
		o["deprecated"] = d.Status == "deprecated"
	case "task_estimate":
		o["summary"] = "Estimate " + d.Name
	case "task_read":
		o["summary"] = "Read the " + d.Name + " catalogue entry"
	}
	if op.Body != nil {
		if media, ok := op.Body["application/json"].(M); ok {
			if s, ok := media["schema"].(M); ok && s["x-task"] == "input" {
				o["requestBody"] = M{"$ref": "#/components/requestBodies/" + d.Name + ".input"}
			}
		}
	}
	return o
}

// TaskRows are the table rows a task's own document holds.
var TaskRows = []string{
	"GET /v1/tasks/{name}",
	"POST /v1/tasks/{name}",
	"POST /v1/tasks/{name}/estimate",
	"GET /v1/jobs/{job_id}",
	"GET /v1/jobs/{job_id}/result",
}

// AddRoute adds a route's operation to doc at path.
func AddRoute(doc M, path string, rt Route, d *tasks.Definition) {
	paths := doc["paths"].(M)
	item, _ := paths[path].(M)
	if item == nil {
		item = M{}
		paths[path] = item
	}
	item[strings.ToLower(rt.Method)] = operationOf(rt, d)
}

// AddTask adds a task's schemas, and its rows of the table under the
// task's own path; all adds the job rows too (for its own document).
//
// The input schema is a request body component, written in place rather
// than as a reference to a schema component: a field with a default is
// optional in a request and always present in an answer, and generators
// read a schema component as both (openapi-typescript's default options
// make every field with a default required there, and optional under
// requestBodies).
func AddTask(doc M, routes []Route, d *tasks.Definition, all bool) {
	components := doc["components"].(M)
	schemas := components["schemas"].(M)
	in, out := d.Name+".input", d.Name+".output"
	bodies, _ := components["requestBodies"].(M)
	if bodies == nil {
		bodies = M{}
		components["requestBodies"] = bodies
	}
	bodies[in] = M{"required": true, "description": "The input of " + d.Name + ".",
		"content": M{"application/json": M{"schema": json.RawMessage(d.InputSchema)}}}
	schemas[out] = json.RawMessage(d.OutputSchema)
	if len(d.OutputSchema) == 0 {
		schemas[out] = M{"type": "null"}
	}
	schemas[d.Name+".result"] = M{"allOf": []any{Ref("JobResult"), M{"properties": M{"files": M{"type": "array",
		"items": M{"allOf": []any{Ref("ResultFile"), M{"properties": M{"data": Ref(out)}}}}}}}}}
	for _, key := range TaskRows {
		method, path, _ := strings.Cut(key, " ")
		i := slices.IndexFunc(routes, func(rt Route) bool { return rt.Method == method && rt.Path == path })
		if i < 0 {
			continue
		}
		rt := routes[i]
		switch {
		case strings.Contains(rt.Path, "{name}"):
			AddRoute(doc, strings.Replace(rt.Path, "{name}", d.Name, 1), rt, d)
		case all:
			AddRoute(doc, rt.Path, rt, d)
		}
	}
}

// NewDoc is an empty document at base, with schemas as its component
// schemas.
func NewDoc(title, description, base string, schemas M) M {
	if base == "" {
		base = "/"
	}
	types := make([]apierr.Type, len(apierr.Types))
	for i, t := range apierr.Types {
		types[i] = t.Type
	}
	return M{
		"openapi": "3.1.0",
		"info":    M{"title": title, "description": description, "version": contract.CurrentVersion},
		"tags":    docTags,
		"servers": []any{M{"url": base}}, "jsonSchemaDialect": tasks.SchemaDialect,
		"paths": M{},
		"components": M{
			"schemas": schemas,
			"responses": M{"Error": M{"description": "An error; branch on error.code.",
				"headers": M{"X-Service-Error-Type": M{"schema": Enum(types)}, "X-Request-ID": M{"schema": Str()},
					"Retry-After": M{"schema": Integer(), "description": "Seconds to wait; on 429 and 503."}},
				"content": M{"application/json": M{"schema": Ref("Error")}}}},
			"parameters": M{
				"ServiceVersion": M{
					"name":        "Service-Version",
					"in":          "header",
					"schema":      M{"type": "string", "format": "date"},
					"description": "Contract version; current " + contract.CurrentVersion + ".",
				},
			},
			"securitySchemes": M{
				"bearerAuth": M{"type": "http", "scheme": "bearer",
					"description": "Authorization: Bearer <API_KEY>. The spec's own form, Authorization: Key <API_KEY>, is the " +
						"same key."},
				"xApiKey": M{
					"type":        "apiKey",
					"in":          "header",
					"name":        "x-api-key",
					"description": "The API key in the x-api-key header.",
				},
				"panelSession": M{"type": "apiKey", "in": "cookie", "name": middleware.SessionCookie,
					"description": "A signed-in account panel session (sign in at /app/sign-in); state-changing requests must come " +
						"from the panel's own origin."},
			},
		},
	}
}

// usedTags are the document's tags that some operation or webhook names.
func usedTags(doc M) []M {
	named := map[string]bool{}
	for _, section := range []string{"paths", "webhooks"} {
		items, _ := doc[section].(M)
		for _, item := range items {
			for _, o := range item.(M) {
				for _, tag := range o.(M)["tags"].([]any) {
					named[tag.(string)] = true
				}
			}
		}
	}
	tags, _ := doc["tags"].([]M)
	return slices.DeleteFunc(slices.Clone(tags), func(t M) bool { return !named[t["name"].(string)] })
}

// Pruned drops the component schemas no operation reaches, and the tags no
// operation names.
func Pruned(doc M) M {
	schemas := doc["components"].(M)["schemas"].(M)
	used := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case M:
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
	walk(doc["components"].(M)["responses"])
	for name := range schemas {
		if !used[name] {
			delete(schemas, name)
		}
	}
	doc["tags"] = usedTags(doc)
	return doc
}

// docTags are the document's global tags, in the order a reader meets them.
var docTags = []M{
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
func accessText(rt Route) string {
	switch rt.Access {
	case middleware.AccessKey:
		return "Needs an API key holding the `" + rt.Scope + "` scope."
	case middleware.AccessSession:
		return "Needs a signed-in panel session; API keys are refused with `session_required`."
	default:
		return "Needs no key; a key that is sent is still checked."
	}
}

// describeOperation completes an operation's description: the route's own
// text, or its summary, then who may call it.
func describeOperation(o M, rt Route) {
	text, _ := o["description"].(string)
	if text == "" {
		text = strings.TrimSuffix(rt.Op.Summary, ".") + "."
	}
	o["description"] = text + "\n\n" + accessText(rt)
}
