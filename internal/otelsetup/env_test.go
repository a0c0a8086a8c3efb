package otelsetup_test

import (
	"context"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/otelsetup"
)

func TestEnabled(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    otelsetup.Signals
		wantErr string
	}{
		{"nothing set", nil, otelsetup.Signals{}, ""},
		{"common endpoint", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}, otelsetup.Signals{Traces: true, Metrics: true}, ""},
		{"traces endpoint only", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces"}, otelsetup.Signals{Traces: true}, ""},
		{"metrics endpoint only", map[string]string{"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://c:4318/v1/metrics"}, otelsetup.Signals{Metrics: true}, ""},
		{"SDK disabled", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SDK_DISABLED": "true"}, otelsetup.Signals{}, ""},
		{"SDK disabled, any case", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SDK_DISABLED": "TRUE"}, otelsetup.Signals{}, ""},
		{"metrics exporter none", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_METRICS_EXPORTER": "none"}, otelsetup.Signals{Traces: true}, ""},
		{"exporter otlp", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "otlp"}, otelsetup.Signals{Traces: true, Metrics: true}, ""},
		{"exporter without an endpoint", map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}, otelsetup.Signals{}, ""},
		{"http/protobuf", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"}, otelsetup.Signals{Traces: true, Metrics: true}, ""},
		{"grpc", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, otelsetup.Signals{}, "OTEL_EXPORTER_OTLP_PROTOCOL=grpc"},
		{"signal protocol wins", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/protobuf", "OTEL_METRICS_EXPORTER": "none"}, otelsetup.Signals{Traces: true}, ""},
		{"zipkin", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "zipkin"}, otelsetup.Signals{}, "OTEL_TRACES_EXPORTER=zipkin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := otelsetup.Enabled(func(k string) string { return tt.env[k] })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one naming %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// TestStartOff: with no OTEL_* set, Start builds nothing.
func TestStartOff(t *testing.T) {
	tel, err := otelsetup.Start(context.Background(), otelsetup.Options{Getenv: func(string) string { return "" }})
	if tel != nil || err != nil {
		t.Fatalf("Start = %v, %v; want nil, nil", tel, err)
	}
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Errorf("Shutdown of nil telemetry: %v", err)
	}
}
