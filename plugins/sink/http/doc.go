// Package http owns the HTTP analytics sink of spec 000 §10.3: it POSTs each
// batch of events as {"events":[...]} to the configured endpoint. Errors name
// the endpoint without its userinfo or query, so credentials embedded in a
// webhook URL never reach the logs.
package http
