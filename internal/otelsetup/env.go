package otelsetup

import (
	"fmt"
	"strings"
)

// Signals says which signals the environment turns on.
type Signals struct {
	// Traces and Metrics are exported over OTLP/HTTP.
	Traces, Metrics bool
}

// Any reports whether any signal is on.
func (s Signals) Any() bool { return s.Traces || s.Metrics }

// Enabled reads the standard OpenTelemetry environment: a signal is on when an
// OTLP endpoint is set for it (OTEL_EXPORTER_OTLP_ENDPOINT, or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / _METRICS_ENDPOINT) and
// OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER is not "none";
// OTEL_SDK_DISABLED=true turns everything off. An exporter other than otlp,
// or an OTLP protocol other than http/protobuf, is an error: this build
// carries only the OTLP/HTTP exporters, and a collector listening for gRPC
// would otherwise receive nothing without a word.
func Enabled(getenv func(string) string) (Signals, error) {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return Signals{}, nil
	}
	common := getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != ""
	var s Signals
	for _, sig := range []struct {
		name string
		on   *bool
	}{{"TRACES", &s.Traces}, {"METRICS", &s.Metrics}} {
		exporter := strings.TrimSpace(getenv("OTEL_" + sig.name + "_EXPORTER"))
		switch exporter {
		case "", "otlp":
		case "none":
			continue
		default:
			return Signals{}, fmt.Errorf("OTEL_%s_EXPORTER=%s: only otlp (or none) is built in", sig.name, exporter)
		}
		if !common && getenv("OTEL_EXPORTER_OTLP_"+sig.name+"_ENDPOINT") == "" {
			continue
		}
		for _, key := range []string{"OTEL_EXPORTER_OTLP_" + sig.name + "_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
			if p := strings.TrimSpace(getenv(key)); p != "" {
				if p != "http/protobuf" {
					return Signals{}, fmt.Errorf("%s=%s: only http/protobuf is built in", key, p)
				}
				break
			}
		}
		*sig.on = true
	}
	return s, nil
}
