// Package otlp is the "otlp" analytics sink: each spec-000 usage event
// becomes one OpenTelemetry log record posted over OTLP/HTTP (protobuf) to
// an existing collector, beside the server's traces and metrics.
//
// A record's event_name is the event type (skill_served, no_match, ...); its
// attributes are the event's data fields under their own names, nested values
// as OTLP maps and arrays, plus skills_mcp.event_id (the same on every
// delivery attempt, so a backend can drop a retried duplicate),
// skills_mcp.server_id and skills_mcp.timestamp (the event's own string,
// kept exactly); its time is the event's timestamp.
// The resource carries service.name (OTEL_SERVICE_NAME, else skills-mcp),
// service.version and OTEL_RESOURCE_ATTRIBUTES.
//
// The endpoint and transport settings are the standard ones:
// OTEL_EXPORTER_OTLP_LOGS_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT plus
// /v1/logs, else http://localhost:4318/v1/logs; headers, timeout, gzip and
// certificates as internal/otlpwire reads them. Emit posts synchronously and
// reports any failure, so the analytics publisher keeps the batch in its
// local buffer and delivers it later: nothing is lost across an outage, as
// with the HTTP sink.
package otlp
