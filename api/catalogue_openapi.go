package api

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/taskplatform/taskplatform/contract"
	"github.com/taskplatform/taskplatform/tasks"
)

// The OpenAPI 3.1 documents are generated from the task definitions, so the
// schemas they embed are the schemas Validate enforces.

type oa = map[string]any

func ref(name string) oa { return oa{"$ref": "#/components/schemas/" + name} }

func jsonBody(schema oa) oa { return oa{"application/json": oa{"schema": schema}} }

func nullable(t string) oa { return oa{"type": []any{t, "null"}} }

// errorResponses are the error answers of an operation, by status.
func errorResponses(statuses ...int) oa {
	r := oa{}
	for _, s := range statuses {
		r[itoa(int64(s))] = oa{"$ref": "#/components/responses/Error"}
	}
	return r
}

func op(id, summary string, keyed bool, responses oa) oa {
	o := oa{"operationId": id, "summary": summary, "responses": responses,
		"parameters": []any{oa{"$ref": "#/components/parameters/ServiceVersion"}}}
	if keyed {
		o["security"] = []any{oa{"apiKey": []any{}}, oa{"xApiKey": []any{}}}
	} else {
		o["security"] = []any{oa{}}
	}
	return o
}

func ok(description string, schema oa) oa {
	return oa{"description": description, "content": jsonBody(schema)}
}

// commonComponents are the shapes every document shares.
func commonComponents() oa {
	str := oa{"type": "string"}
	integer := oa{"type": "integer"}
	progress := oa{"type": "object", "required": []any{"done", "total", "phase"}, "properties": oa{
		"done": integer, "total": nullable("integer"), "phase": str}}
	job := oa{"type": "object", "required": []any{"job_id", "task", "lifecycle", "outcome", "progress", "error"}, "properties": oa{
		"job_id": str, "task": str, "progress": progress, "error": oa{"oneOf": []any{ref("ErrorObject"), oa{"type": "null"}}},
		"lifecycle":  oa{"type": "string", "description": "Vocabulary job_lifecycle."},
		"outcome":    oa{"type": []any{"string", "null"}, "description": "Vocabulary job_outcome; null until terminal."},
		"status_url": str, "result_url": str, "cancel_url": str}}
	file := oa{"type": "object", "required": []any{"file", "url", "media_type", "task", "job_id", "created_at"}, "properties": oa{
		"file": str, "url": str, "media_type": str, "task": str, "job_id": str,
		"created_at": oa{"type": "string", "format": "date-time"}, "data": oa{"type": "object", "description": "Valid against the task's outputSchema."}}}
	summary := oa{"type": "object", "properties": oa{"requested": integer, "delivered": integer, "warnings": oa{"type": "array",
		"items": oa{"type": "object", "required": []any{"code", "field", "message"},
			"properties": oa{"code": str, "field": nullable("string"), "message": str}}}}}
	return oa{
		"schemas": oa{
			"ErrorObject": oa{"type": "object", "required": []any{"code", "type", "message", "field", "retryable", "request_id", "ctx"}, "properties": oa{
				"code": str, "type": oa{"type": "string", "description": "Vocabulary error_type."}, "message": str,
				"field": nullable("string"), "retryable": oa{"type": "boolean"}, "docs": str, "request_id": nullable("string"),
				"ctx":   oa{"type": "object", "properties": oa{"required": integer, "balance": integer, "retry_after": integer}},
				"input": oa{}, "job_id": str, "required": integer, "balance": integer}},
			"Error":      oa{"type": "object", "required": []any{"error"}, "properties": oa{"error": ref("ErrorObject")}},
			"Progress":   progress,
			"Job":        job,
			"ResultFile": file,
			"Summary":    summary,
			"JobResult": oa{"type": "object", "required": []any{"job_id", "files", "has_more"}, "properties": oa{
				"job_id": str, "files": oa{"type": "array", "items": ref("ResultFile")}, "has_more": oa{"type": "boolean"},
				"next_cursor": str, "summary": ref("Summary")}},
			"Estimate": oa{"type": "object", "required": []any{"task", "credits", "credit_type", "outputs"}, "properties": oa{
				"task": str, "credits": integer, "credit_type": str, "outputs": integer, "price_per_output": integer}},
		},
		"responses": oa{"Error": oa{"description": "An error; branch on error.code.",
			"headers": oa{"X-Service-Error-Type": oa{"schema": str}, "X-Request-ID": oa{"schema": str}},
			"content": jsonBody(ref("Error"))}},
		"parameters": oa{
			"ServiceVersion": oa{"name": "Service-Version", "in": "header", "schema": oa{"type": "string", "format": "date"},
				"description": "Contract version; current " + contract.CurrentVersion + "."},
			"JobID":          oa{"name": "job_id", "in": "path", "required": true, "schema": str},
			"Limit":          oa{"name": "limit", "in": "query", "schema": oa{"type": "integer", "minimum": 1, "maximum": 100}},
			"Cursor":         oa{"name": "cursor", "in": "query", "schema": str},
			"Prefer":         oa{"name": "Prefer", "in": "header", "schema": str, "description": "wait=N: answer the result if the job ends within N seconds."},
			"IdempotencyKey": oa{"name": "Idempotency-Key", "in": "header", "schema": str},
			"StartTimeout":   oa{"name": "X-Service-Start-Timeout", "in": "header", "schema": integer},
			"WebhookURL":     oa{"name": "webhook_url", "in": "query", "schema": oa{"type": "string", "format": "uri"}},
		},
		"securitySchemes": oa{
			"apiKey":  oa{"type": "apiKey", "in": "header", "name": "Authorization", "description": "Authorization: Key <API_KEY> (Bearer is accepted too)."},
			"xApiKey": oa{"type": "apiKey", "in": "header", "name": "x-api-key"},
		},
	}
}

// addTask adds a task's schemas and its submit, estimate and read operations.
func addTask(doc oa, d *tasks.Definition) {
	schemas := doc["components"].(oa)["schemas"].(oa)
	in, out := d.Name+".input", d.Name+".output"
	schemas[in] = json.RawMessage(d.InputSchema)
	schemas[out] = json.RawMessage(d.OutputSchema)
	schemas[d.Name+".result"] = oa{"allOf": []any{ref("JobResult"), oa{"properties": oa{"files": oa{"type": "array",
		"items": oa{"allOf": []any{ref("ResultFile"), oa{"properties": oa{"data": ref(out)}}}}}}}}}
	id := strings.ReplaceAll(d.Name, ".", "_")
	submit := op(id+"_submit", d.Title, true, errorResponses(400, 401, 402, 403, 409, 410, 413, 415, 422, 429, 500, 503))
	submit["description"] = d.Description
	submit["deprecated"] = d.Status == "deprecated"
	submit["requestBody"] = oa{"required": true, "content": jsonBody(ref(in))}
	submit["parameters"] = append(submit["parameters"].([]any), oa{"$ref": "#/components/parameters/Prefer"},
		oa{"$ref": "#/components/parameters/IdempotencyKey"}, oa{"$ref": "#/components/parameters/StartTimeout"},
		oa{"$ref": "#/components/parameters/WebhookURL"})
	accepted := ok("The job was accepted; follow it at status_url.", ref("Job"))
	accepted["headers"] = oa{"X-Service-Credits": oa{"schema": oa{"type": "integer"}}, "X-Service-Credit-Type": oa{"schema": oa{"type": "string"}}}
	submit["responses"].(oa)["202"] = accepted
	submit["responses"].(oa)["200"] = ok("With Prefer: wait, the result of a job that ended in time.", ref(d.Name+".result"))
	estimate := op(id+"_estimate", "Estimate "+d.Name, true, errorResponses(400, 401, 403, 410, 413, 415, 422, 429, 500))
	estimate["requestBody"] = oa{"required": true, "content": jsonBody(ref(in))}
	estimate["responses"].(oa)["200"] = ok("The cost ceiling: price per output × outputs planned.", ref("Estimate"))
	read := op(id+"_read", "Read the "+d.Name+" catalogue entry", false, errorResponses(404, 410, 429, 500))
	read["responses"].(oa)["200"] = ok("The Task object.", oa{"type": "object"})
	paths := doc["paths"].(oa)
	paths["/v1/tasks/"+d.Name] = oa{"post": submit, "get": read}
	paths["/v1/tasks/"+d.Name+"/estimate"] = oa{"post": estimate}
}

func newDoc(title, description, base string) oa {
	if base == "" {
		base = "/"
	}
	return oa{
		"openapi": "3.1.0",
		"info":    oa{"title": title, "description": description, "version": contract.CurrentVersion},
		"servers": []any{oa{"url": base}}, "jsonSchemaDialect": tasks.SchemaDialect,
		"components": commonComponents(), "paths": oa{},
	}
}

func jobPaths(doc oa, resultSchema oa) {
	get := op("job_read", "Read a job", true, errorResponses(401, 403, 404, 429, 500))
	get["parameters"] = append(get["parameters"].([]any), oa{"$ref": "#/components/parameters/JobID"})
	get["responses"].(oa)["200"] = ok("The job.", ref("Job"))
	res := op("job_result", "Read a job's result", true, errorResponses(401, 403, 404, 409, 429, 500))
	res["parameters"] = append(res["parameters"].([]any), oa{"$ref": "#/components/parameters/JobID"},
		oa{"$ref": "#/components/parameters/Limit"}, oa{"$ref": "#/components/parameters/Cursor"})
	res["responses"].(oa)["200"] = ok("The files of a succeeded job.", resultSchema)
	paths := doc["paths"].(oa)
	paths["/v1/jobs/{job_id}"] = oa{"get": get}
	paths["/v1/jobs/{job_id}/result"] = oa{"get": res}
}

// TaskOpenAPI is the OpenAPI document of one task: its submit, estimate,
// job and result operations with its schemas embedded.
func TaskOpenAPI(d *tasks.Definition, base string) map[string]any {
	doc := newDoc(d.Title, d.Description, base)
	addTask(doc, d)
	jobPaths(doc, ref(d.Name+".result"))
	return doc
}

func (h *catalogueHandlers) taskOpenAPI(c *gin.Context) {
	d, err := h.d.taskCatalogue().Tasks().Lookup(c.Param("name"))
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, TaskOpenAPI(d, h.d.BaseURL))
}

func (h *catalogueHandlers) serviceOpenAPI(c *gin.Context) {
	c.JSON(http.StatusOK, ServiceOpenAPI(h.d.taskCatalogue().Tasks(), h.d.BaseURL))
}

// ServiceOpenAPI is the OpenAPI document of the whole service.
func ServiceOpenAPI(reg *tasks.Registry, base string) map[string]any {
	doc := newDoc("Task Platform API", "Named tasks on images and designs, run as durable jobs.", base)
	for _, d := range reg.Runnable() {
		addTask(doc, d)
	}
	jobPaths(doc, ref("JobResult"))
	paths := doc["paths"].(oa)
	obj := oa{"type": "object"}
	page := oa{"type": "object", "required": []any{"items", "has_more"}, "properties": oa{
		"items": oa{"type": "array", "items": obj}, "has_more": oa{"type": "boolean"}, "next_cursor": oa{"type": "string"}}}
	for _, r := range []struct {
		method, path, id, summary string
		keyed, paged              bool
		errs                      []int
	}{
		{"get", "/v1/tasks", "tasks_list", "Every runnable task with its schemas", false, true, []int{422, 429, 500}},
		{"get", "/v1/tasks/{name}", "task_read", "One task; 410 task_removed for removed tasks", false, false, []int{404, 410, 429, 500}},
		{"get", "/v1/tasks/{name}/openapi.json", "task_openapi", "The task's OpenAPI document", false, false, []int{404, 410, 500}},
		{"get", "/v1/tasks/{name}/examples", "task_examples", "The task's examples with the files they delivered", false, false, []int{404, 410, 500}},
		{"get", "/v1/jobs", "jobs_list", "The account's jobs, newest first", true, true, []int{401, 403, 422, 429, 500}},
		{"put", "/v1/jobs/{job_id}/cancel", "job_cancel", "Ask a job to stop; 202 with its lifecycle", true, false, []int{400, 401, 403, 404, 429, 500}},
		{"post", "/v1/files", "file_create", "Upload bytes or register a public https URL", true, false, []int{400, 401, 403, 413, 415, 422, 429, 500}},
		{"get", "/v1/files/{ref}", "file_read", "One file or record by handle", true, false, []int{401, 403, 404, 429, 500}},
		{"delete", "/v1/files/{ref}", "file_delete", "Delete a file a job produced (art: handles)", true, false, []int{401, 403, 404, 422, 429, 500}},
		{"get", "/v1/refs/{kind}", "refs_list", "The account's reference items of one kind", true, true, []int{400, 401, 403, 404, 422, 429, 500}},
		{"get", "/v1/account/balance", "account_balance", "Balances per credit type", true, false, []int{401, 403, 429, 500}},
		{"get", "/v1/account/limits", "account_limits", "Request-rate limits", true, false, []int{401, 403, 429, 500}},
		{"get", "/v1/account/usage", "account_usage", "Spend per task, key and credit type", true, false, []int{401, 403, 422, 429, 500}},
		{"get", "/v1/account/metrics", "account_metrics", "Job and call metrics", true, false, []int{400, 401, 403, 422, 429, 500}},
		{"get", "/v1/account/requests", "account_requests", "Calls made by API keys", true, true, []int{401, 403, 422, 429, 500}},
		{"get", "/v1/vocab", "vocab_list", "All vocabularies", false, true, []int{422, 500}},
		{"get", "/v1/vocab/{name}", "vocab_read", "One vocabulary", false, false, []int{404, 500}},
		{"get", "/v1/concepts", "concepts_list", "All concepts", false, true, []int{422, 500}},
		{"get", "/v1/concepts/{name}", "concept_read", "One concept", false, false, []int{404, 500}},
		{"get", "/v1/recipes", "recipes_list", "Multi-step walk-throughs", false, true, []int{422, 500}},
		{"get", "/v1/errors", "errors_list", "The error catalogue, warning codes included", false, true, []int{422, 500}},
		{"get", "/v1/pricing", "pricing_list", "Every task's prices per option", false, true, []int{422, 500}},
		{"get", "/v1/meta", "meta_read", "Limits, webhook policy and versions", false, false, []int{500}},
		{"get", "/.well-known/jwks.json", "jwks", "Public keys of webhook signatures", false, false, []int{500}},
	} {
		o := op(r.id, r.summary, r.keyed, errorResponses(r.errs...))
		body := obj
		if r.paged {
			body = page
			o["parameters"] = append(o["parameters"].([]any), oa{"$ref": "#/components/parameters/Limit"}, oa{"$ref": "#/components/parameters/Cursor"})
		}
		for _, p := range []string{"name", "job_id", "ref", "kind"} {
			if strings.Contains(r.path, "{"+p+"}") {
				o["parameters"] = append(o["parameters"].([]any), oa{"name": p, "in": "path", "required": true, "schema": oa{"type": "string"}})
			}
		}
		status := map[string]string{"post": "201", "put": "202", "delete": "204"}[r.method]
		if status == "" {
			status = "200"
		}
		o["responses"].(oa)[status] = ok(r.summary+".", body)
		if status == "204" {
			o["responses"].(oa)[status] = oa{"description": "Deleted."}
		}
		if paths[r.path] == nil {
			paths[r.path] = oa{}
		}
		paths[r.path].(oa)[r.method] = o
	}
	text := oa{"description": "Plain text.", "content": oa{"text/plain": oa{"schema": oa{"type": "string"}}}}
	for id, p := range map[string]string{"tasks_llms": "/v1/tasks/llms.txt", "task_llms": "/v1/tasks/{name}/llms.txt"} {
		o := op(id, "Plain-text task pages for language models", false, errorResponses(404, 410, 500))
		o["responses"].(oa)["200"] = text
		if strings.Contains(p, "{name}") {
			o["parameters"] = append(o["parameters"].([]any), oa{"name": "name", "in": "path", "required": true, "schema": oa{"type": "string"}})
		}
		paths[p] = oa{"get": o}
	}
	return doc
}
