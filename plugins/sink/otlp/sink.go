package otlp

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/otlpwire"
)

// Name is the sink's name in the sink registry.
const Name = "otlp"

// scopeName is the instrumentation scope of the log records.
const scopeName = "github.com/skills-mcp/skills-mcp/analytics"

// Attribute keys of the event envelope; the data fields keep their own names.
const (
	attrEventID   = "skills_mcp.event_id"
	attrServerID  = "skills_mcp.server_id"
	attrTimestamp = "skills_mcp.timestamp"
)

// Options configures New.
type Options struct {
	// Getenv reads the OTEL_* environment; nil means none is set.
	Getenv func(string) string
	// Version is the service.version resource attribute.
	Version string
}

// sink posts events as OTLP log records. It is safe for concurrent use.
type sink struct {
	client   *otlpwire.Client
	resource []otlpwire.KeyValue
	version  string
}

var _ core.Sink = (*sink)(nil)

// New returns a sink configured by the OTEL_EXPORTER_OTLP_* environment; a
// malformed setting is an error naming the variable.
func New(opts Options) (core.Sink, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	c, err := otlpwire.NewClient(getenv, "logs")
	if err != nil {
		return nil, err
	}
	res, err := resource(getenv, opts.Version)
	if err != nil {
		return nil, err
	}
	return &sink{client: c, resource: res, version: opts.Version}, nil
}

// resource is service.name and service.version, then OTEL_RESOURCE_ATTRIBUTES
// (which may override them), then OTEL_SERVICE_NAME (which wins).
func resource(getenv func(string) string, version string) ([]otlpwire.KeyValue, error) {
	attrs := map[string]string{"service.name": "skills-mcp"}
	if version != "" {
		attrs["service.version"] = version
	}
	order := []string{"service.name", "service.version"}
	if raw := strings.TrimSpace(getenv("OTEL_RESOURCE_ATTRIBUTES")); raw != "" {
		for _, pair := range strings.Split(raw, ",") {
			k, v, ok := strings.Cut(pair, "=")
			k = strings.TrimSpace(k)
			if !ok || k == "" {
				return nil, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES: %q is not key=value", pair)
			}
			if dec, err := url.PathUnescape(strings.TrimSpace(v)); err == nil {
				v = dec
			}
			if _, seen := attrs[k]; !seen {
				order = append(order, k)
			}
			attrs[k] = v
		}
	}
	if name := strings.TrimSpace(getenv("OTEL_SERVICE_NAME")); name != "" {
		attrs["service.name"] = name
	}
	var out []otlpwire.KeyValue
	for _, k := range order {
		if v, ok := attrs[k]; ok {
			out = append(out, otlpwire.KeyValue{Key: k, Value: v})
		}
	}
	return out, nil
}

// Emit posts events as one OTLP logs request. A transport error, a timeout or
// a non-2xx answer is an error: none of the batch may be assumed delivered.
// An empty batch sends nothing.
func (s *sink) Emit(ctx context.Context, events []core.Event) error {
	if len(events) == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	now := time.Now()
	records := make([]otlpwire.LogRecord, len(events))
	for i, ev := range events {
		records[i] = record(ev, now)
	}
	if err := s.client.Post(ctx, otlpwire.Logs(s.resource, scopeName, s.version, records, now)); err != nil {
		return fmt.Errorf("posting %d events: %w", len(events), err)
	}
	return nil
}

// record is the log record of ev; now stands for an unparsable timestamp.
func record(ev core.Event, now time.Time) otlpwire.LogRecord {
	at, err := time.Parse(core.TimestampLayout, ev.Timestamp)
	if err != nil {
		if at, err = time.Parse(time.RFC3339Nano, ev.Timestamp); err != nil {
			at = now
		}
	}
	attrs := make([]otlpwire.KeyValue, 0, len(ev.Data)+3)
	if ev.ID != "" {
		attrs = append(attrs, otlpwire.KeyValue{Key: attrEventID, Value: ev.ID})
	}
	attrs = append(attrs, otlpwire.KeyValue{Key: attrServerID, Value: ev.ServerID}, otlpwire.KeyValue{Key: attrTimestamp, Value: ev.Timestamp})
	for _, k := range slices.Sorted(maps.Keys(ev.Data)) {
		attrs = append(attrs, otlpwire.KeyValue{Key: k, Value: ev.Data[k]})
	}
	return otlpwire.LogRecord{Time: at, EventName: ev.Type, Attributes: attrs}
}

// Endpoint is the URL events are posted to, without credentials or query.
func (s *sink) Endpoint() string { return s.client.Endpoint() }

// EndpointOrigin is the variable that set Endpoint, or "default".
func (s *sink) EndpointOrigin() string { return s.client.EndpointOrigin() }

// Close releases idle connections.
func (s *sink) Close(context.Context) error {
	s.client.Close()
	return nil
}
