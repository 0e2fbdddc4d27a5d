// Package panelapi is the account panel's JSON API: the session-only
// routes under /v1/account/ that manage API keys, spend limits, webhook
// endpoints and their deliveries (documented in /v1/panel/openapi.json).
// The route table in package api names each route's method of Handlers;
// the front door (api/middleware) has admitted the signed-in session, and
// refused every API key, before one runs. Handlers call the model functions
// the admin commands call and the use cases' doors (spendlimits, events).
package panelapi
