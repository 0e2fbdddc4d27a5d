package api

import (
	"net/http"

	"github.com/taskplatform/taskplatform/api/openapi"
	"github.com/taskplatform/taskplatform/api/panelapi"
	"github.com/taskplatform/taskplatform/events"
)

// panelWebhookRoutes manage the webhook endpoints and read and replay their
// deliveries.
func panelWebhookRoutes() []route {
	endpointID := []oa{openapi.PathParam("endpoint_id", "The endpoint, whe_….", openapi.Str())}
	endpointBody := openapi.Object(
		oa{
			"url":    openapi.Describe(openapi.Str(), "An https:// address."),
			"events": openapi.Describe(openapi.ArrayOf(vocab("webhook_event")), "Default: the terminal events."),
		},
	)
	sent := openapi.Object(oa{"delivery_id": openapi.Str(), "event_id": openapi.Str()}, "delivery_id", "event_id")
	deliveryFilters := append(openapi.PageParams(20, 100),
		openapi.Query("event", "Only this event.", vocab("webhook_event")),
		openapi.Query("status", "Only deliveries in this status.", openapi.Enum(panelapi.DeliveryStatuses)),
		openapi.Query("endpoint_id", "Only deliveries to this endpoint.", openapi.Str()),
		openapi.Query("job_id", "Only deliveries of this job.", openapi.Str()),
		openapi.Query("start", "Created at or after, ISO-8601.", openapi.DateTime()),
		openapi.Query("end", "Created before, ISO-8601.", openapi.DateTime()))
	return panelRows(
		panelRow{
			method:  http.MethodGet,
			path:    "/v1/account/webhooks",
			ID:      "webhooks_list",
			Summary: "List the account's webhook endpoints",
			handle:  panelAPI((*panelapi.Handlers).ListEndpoints),
			answer: openapi.JSONAnswer(
				http.StatusOK,
				"Every endpoint, oldest first.",
				items(openapi.SchemaOf[panelapi.EndpointView]()),
			),
		},
		panelRow{
			method:  http.MethodPost,
			path:    "/v1/account/webhooks",
			ID:      "webhook_create",
			Summary: "Register a webhook endpoint",
			handle:  panelAPI((*panelapi.Handlers).CreateEndpoint),
			Body:    endpointBody,
			answer: openapi.JSONAnswer(
				http.StatusCreated,
				"The endpoint.",
				openapi.SchemaOf[panelapi.EndpointView](),
			),
			Errors: []int{http.StatusUnprocessableEntity},
		},
		panelRow{
			method:  http.MethodPatch,
			path:    "/v1/account/webhooks/{endpoint_id}",
			ID:      "webhook_update",
			Summary: "Change an endpoint's url or events",
			handle:  panelAPI((*panelapi.Handlers).UpdateEndpoint),
			Body:    endpointBody,
			answer: openapi.JSONAnswer(
				http.StatusOK,
				"The endpoint.",
				openapi.SchemaOf[panelapi.EndpointView](),
			),
			Params: endpointID,
			Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
		},
		panelRow{
			method:  http.MethodDelete,
			path:    "/v1/account/webhooks/{endpoint_id}",
			ID:      "webhook_delete",
			Summary: "Remove an endpoint",
			handle:  panelAPI((*panelapi.Handlers).DeleteEndpoint),
			answer: openapi.JSONAnswer(
				http.StatusOK,
				"Removed.",
				openapi.Object(oa{"id": openapi.Str(), "deleted": openapi.Boolean()}, "id", "deleted"),
			),
			Params: endpointID,
			Errors: []int{http.StatusNotFound},
		},
		panelRow{
			method:  http.MethodPost,
			path:    "/v1/account/webhooks/{endpoint_id}/ping",
			ID:      "webhook_ping",
			Summary: "Send a signed test event: ping, or a sample event of the kind named",
			handle:  panelAPI((*panelapi.Handlers).PingEndpoint),
			Body: openapi.Object(oa{"event": openapi.Describe(openapi.Enum(events.SampleKinds()),
				"The kind of the test event (default ping): a sample body of that kind's shape naming made-up "+
					"ids (job_sample, batch_sample), signed and delivered as any event.")}),
			answer: openapi.JSONAnswer(
				http.StatusAccepted,
				"The test event's delivery, in the delivery log.",
				sent,
			),
			Params: endpointID,
			Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
		},
		panelRow{
			method:  http.MethodPost,
			path:    "/v1/account/webhooks/{endpoint_id}/enable",
			ID:      "webhook_enable",
			Summary: "Re-enable an endpoint, resetting its failure count",
			handle:  panelAPI((*panelapi.Handlers).EnableEndpoint),
			answer:  openapi.JSONAnswer(http.StatusOK, "The endpoint.", openapi.SchemaOf[panelapi.EndpointView]()),
			Params:  endpointID,
			Errors:  []int{http.StatusNotFound},
		},
		panelRow{
			method:  http.MethodGet,
			path:    "/v1/account/webhook-deliveries",
			ID:      "webhook_deliveries",
			Summary: "The delivery log, newest first, with each delivery's attempts",
			handle:  panelAPI((*panelapi.Handlers).ListDeliveries),
			answer: openapi.JSONAnswer(
				http.StatusOK,
				"One page of deliveries.",
				openapi.Page(openapi.SchemaOf[panelapi.DeliveryView]()),
			),
			Params: deliveryFilters,
			Errors: []int{http.StatusUnprocessableEntity},
		},
		panelRow{
			method:  http.MethodPost,
			path:    "/v1/account/webhook-deliveries/{delivery_id}/replay",
			ID:      "webhook_replay",
			Summary: "Send a delivery's stored body again (new delivery id, same event id)",
			handle:  panelAPI((*panelapi.Handlers).ReplayDelivery),
			answer:  openapi.JSONAnswer(http.StatusAccepted, "The new delivery.", sent),
			Params:  []oa{openapi.PathParam("delivery_id", "The delivery, whd_….", openapi.Str())},
			Errors:  []int{http.StatusNotFound},
		},
	)
}
