// Package middleware is the API's front door: what runs before a route's
// handler, in the order api.NewRouter installs it — request ids, the access
// log and panic recovery, the one error renderer (Fail), a key sent in the
// URL, the size of the headers, the transport (TLS behind trusted proxies),
// unreadable headers, bodies and text, who is calling (Identify: a key;
// Sessions: the panel's signed-in session), the rate limit, the contract
// version (ServiceVersion, ContractOf), what the route's row of the route
// table needs (Authorize) and the request log. Front puts the same rules in
// front of what the process serves beside the API (the panel's pages).
//
// Handlers read the caller with IdentityOf and the contract version with
// ContractOf, and answer errors with Fail. The package knows no route but
// through the Rule api passes it.
package middleware
