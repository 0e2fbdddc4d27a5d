package api

import (
	"net/http"

	"github.com/taskplatform/taskplatform/api/panelapi"
	"github.com/taskplatform/taskplatform/events"
)

// panelWebhookRoutes manage the webhook endpoints and read and replay their
// deliveries.
func panelWebhookRoutes() []route {
	endpointID := []oa{pathParam("endpoint_id", "The endpoint, whe_….", str())}
	endpointBody := object(
		oa{
			"url":    describe(str(), "An https:// address."),
			"events": describe(arrayOf(vocab("webhook_event")), "Default: the terminal events."),
		},
	)
	sent := object(oa{"delivery_id": str(), "event_id": str()}, "delivery_id", "event_id")
	deliveryFilters := append(pageParams(20, 100),
		query("event", "Only this event.", vocab("webhook_event")),
		query("status", "Only deliveries in this status.", enum(panelapi.DeliveryStatuses)),
		query("endpoint_id", "Only deliveries to this endpoint.", str()),
		query("job_id", "Only deliveries of this job.", str()),
		query("start", "Created at or after, ISO-8601.", dateTime()),
		query("end", "Created before, ISO-8601.", dateTime()))
	return panelRows(
		panelRow{
			method:  http.MethodGet,
			path:    "/v1/account/webhooks",
			id:      "webhooks_list",
			summary: "List the account's webhook endpoints",
			handle:  panelAPI((*panelapi.Handlers).ListEndpoints),
			answer:  jsonAnswer(http.StatusOK, "Every endpoint, oldest first.", items(schemaOf[panelapi.EndpointView]())),
		},
		panelRow{
			method:  http.MethodPost,
			path:    "/v1/account/webhooks",
			id:      "webhook_create",
			summary: "Register a webhook endpoint",
			handle:  panelAPI((*panelapi.Handlers).CreateEndpoint),
			body:    endpointBody,
			answer: jsonAnswer(
				http.StatusCreated,
				"The endpoint.",
				schemaOf[panelapi.EndpointView](),
			),
			errors: []int{http.StatusUnprocessableEntity},
		},
		panelRow{
			method:  http.MethodPatch,
			path:    "/v1/account/webhooks/{endpoint_id}",
			id:      "webhook_update",
			summary: "Change an endpoint's url or events",
			handle:  panelAPI((*panelapi.Handlers).UpdateEndpoint),
			body:    endpointBody,
			answer: jsonAnswer(
				http.StatusOK,
				"The endpoint.",
				schemaOf[panelapi.EndpointView](),
			),
			params: endpointID,
			errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
		},
		panelRow{
			method:  http.MethodDelete,
			path:    "/v1/account/webhooks/{endpoint_id}",
			id:      "webhook_delete",
			summary: "Remove an endpoint",
			handle:  panelAPI((*panelapi.Handlers).DeleteEndpoint),
			answer: jsonAnswer(
				http.StatusOK,
				"Removed.",
				object(oa{"id": str(), "deleted": boolean()}, "id", "deleted"),
			),
			params: endpointID,
			errors: []int{http.StatusNotFound},
		},
		panelRow{
			method:  http.MethodPost,
			path:    "/v1/account/webhooks/{endpoint_id}/ping",
			id:      "webhook_ping",
			summary: "Send a signed test event: ping, or a sample event of the kind named",
			handle:  panelAPI((*panelapi.Handlers).PingEndpoint),
			body: object(oa{"event": describe(enum(events.SampleKinds()),
				"The kind of the test event (default ping): a sample body of that kind's shape naming made-up "+
					"ids (job_sample, batch_sample), signed and delivered as any event.")}),
			answer: jsonAnswer(
				http.StatusAccepted,
				"The test event's delivery, in the delivery log.",
				sent,
			),
			params: endpointID,
			errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
		},
		panelRow{
			method:  http.MethodPost,
			path:    "/v1/account/webhooks/{endpoint_id}/enable",
			id:      "webhook_enable",
			summary: "Re-enable an endpoint, resetting its failure count",
			handle:  panelAPI((*panelapi.Handlers).EnableEndpoint),
			answer:  jsonAnswer(http.StatusOK, "The endpoint.", schemaOf[panelapi.EndpointView]()),
			params:  endpointID,
			errors:  []int{http.StatusNotFound},
		},
		panelRow{
			method:  http.MethodGet,
			path:    "/v1/account/webhook-deliveries",
			id:      "webhook_deliveries",
			summary: "The delivery log, newest first, with each delivery's attempts",
			handle:  panelAPI((*panelapi.Handlers).ListDeliveries),
			answer: jsonAnswer(
				http.StatusOK,
				"One page of deliveries.",
				page(schemaOf[panelapi.DeliveryView]()),
			),
			params: deliveryFilters,
			errors: []int{http.StatusUnprocessableEntity},
		},
		panelRow{
			method:  http.MethodPost,
			path:    "/v1/account/webhook-deliveries/{delivery_id}/replay",
			id:      "webhook_replay",
			summary: "Send a delivery's stored body again (new delivery id, same event id)",
			handle:  panelAPI((*panelapi.Handlers).ReplayDelivery),
			answer:  jsonAnswer(http.StatusAccepted, "The new delivery.", sent),
			params:  []oa{pathParam("delivery_id", "The delivery, whd_….", str())},
			errors:  []int{http.StatusNotFound},
		},
	)
}
