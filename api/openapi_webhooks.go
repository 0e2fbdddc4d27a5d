package api

import (
	"maps"
	"net/http"
	"strings"

	"github.com/taskplatform/taskplatform/api/middleware"
	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/contract"
)

// webhookHeaders are the headers every signed delivery carries.
func webhookHeaders() []any {
	h := func(name, description string, schema oa) oa {
		p := openapi.Header(name, description, schema)
		p["required"] = true
		return p
	}
	return []any{
		h("X-Service-Request-Id", "The delivery id (whd_…), the first line of the signed message.", openapi.Str()),
		h("X-Service-User-Id", "The account id, the second line of the signed message.", openapi.Str()),
		h(
			"X-Service-Timestamp",
			"Unix seconds, the third line of the signed message; refuse it outside your window.",
			openapi.Str(),
		),
		h("X-Service-Signature", "Base64 Ed25519 signature of the four-line message; verify it with a key of "+
			"/.well-known/jwks.json.", openapi.Str()),
	}
}

// webhooks are the job events a webhook endpoint receives, as OpenAPI 3.1's
// webhooks section declares them, so generated clients have their types.
// The body's schema is JobEvent's written in place rather than referenced:
// oapi-codegen drops component schemas that only webhooks reference, and
// the client it generates then names a type it never declares.
func webhooks() oa {
	event := webhookEvent(componentSchemas()["JobEvent"])
	out := oa{}
	for _, ev := range contract.JobEvents {
		id := "webhook_" + strings.ReplaceAll(ev, ".", "_")
		out[ev] = oa{"post": oa{
			"operationId": id, "summary": "The " + ev + " event",
			"description": "A signed delivery of the " + ev + " event to an endpoint that subscribed to it. Answer 2xx " +
				"within the timeout; other answers are retried as GET /v1/meta's webhook policy says. Deliveries are " +
				"at least once and unordered: dedupe by the body's id.",
			"tags":       []any{"webhooks"},
			"parameters": webhookHeaders(),
			"requestBody": oa{"required": true,
				"content": oa{"application/json": oa{"schema": event}}},
			"responses": oa{"2XX": oa{"description": "Received."}},
		}}
	}
	out[contract.EventSpendThreshold] = oa{"post": oa{
		"operationId": "webhook_spend_threshold", "summary": "The " + contract.EventSpendThreshold + " event",
		"description": "An account-level event, signed like a job event: the spend of a day or month limit (the " +
			"account's or a key's) reached 50, 80 or 100 % of it when a job's hold was admitted. Sent once per " +
			"limit, period and threshold to the endpoints subscribed to it by name (not a default event). " +
			"Deliveries are at least once and unordered: dedupe by the body's id.",
		"tags":       []any{"webhooks"},
		"parameters": webhookHeaders(),
		"requestBody": oa{"required": true,
			"content": oa{"application/json": oa{"schema": componentSchemas()["SpendThresholdEvent"]}}},
		"responses": oa{"2XX": oa{"description": "Received."}},
	}}
	ev := contract.EventBatchCompleted
	out[ev] = oa{"post": oa{
		"operationId": "webhook_batch_completed", "summary": "The " + ev + " event",
		"description": "A signed delivery of a batch's " + ev + " event, sent once when every job of the batch has " +
			"ended, to the endpoints subscribed to it and the batch's webhook_url. Signed, retried and deduplicated " +
			"like a job event.",
		"tags":       []any{"webhooks"},
		"parameters": webhookHeaders(),
		"requestBody": oa{"required": true,
			"content": oa{"application/json": oa{"schema": componentSchemas()["BatchEvent"]}}},
		"responses": oa{"2XX": oa{"description": "Received."}},
	}}
	return out
}

// webhookEvent is the JobEvent schema as webhooks send it: the stream-only
// kinds (contract.StreamEvents) and their queue field left out.
func webhookEvent(schema any) oa {
	src, _ := schema.(oa)
	props, _ := src["properties"].(oa)
	out, outProps := maps.Clone(src), maps.Clone(props)
	if out == nil || outProps == nil {
		return src
	}
	delete(outProps, "queue")
	if ev, ok := outProps["event"].(oa); ok {
		ev = maps.Clone(ev)
		ev["enum"] = openapi.Enum(contract.JobEvents)["enum"]
		ev["description"] = "Vocabulary webhook_event."
		outProps["event"] = ev
	}
	out["properties"] = outProps
	return out
}

// panelDocRoute is the route of the panel's own OpenAPI document.
func panelDocRoute(document oa) route {
	return route{method: http.MethodGet, path: "/v1/panel/openapi.json", access: middleware.AccessPublic,
		handle: catalogue((*catalogueHandlers).panelOpenAPI),
		op: openapi.Operation{
			ID:      "panel_openapi",
			Summary: "The OpenAPI document of the account panel's session-only operations",
			Description: "The panel's own operations, kept out of /v1/openapi.json so that clients generated from " +
				"that document hold only what an API key can call.",
			Answers: []openapi.Response{openapi.JSONAnswer(http.StatusOK, "The document.", document)},
		}}
}
