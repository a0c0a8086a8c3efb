// Package otlptest is an OTLP/HTTP receiver for tests: a real HTTP server in
// the test process that decodes what OpenTelemetry exporters post to
// /v1/traces, /v1/metrics and /v1/logs (protobuf, optionally gzipped), keeps
// it, and can be switched into an outage that answers 503.
package otlptest

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	colmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// Receiver is a running OTLP/HTTP receiver.
type Receiver struct {
	// URL is the base URL: set OTEL_EXPORTER_OTLP_ENDPOINT to it.
	URL string

	mu       sync.Mutex
	down     bool
	refused  int
	spans    []*tracepb.ResourceSpans
	metrics  []*metricspb.ResourceMetrics
	logs     []*logspb.ResourceLogs
	received chan struct{}
}

// Start starts a receiver closed when t ends.
func Start(t testing.TB) *Receiver {
	r := &Receiver{received: make(chan struct{}, 1024)}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

// SetDown starts (true) or ends an outage: while down every export is
// answered 503 and nothing is kept.
func (r *Receiver) SetDown(down bool) {
	r.mu.Lock()
	r.down = down
	r.mu.Unlock()
}

// Refused counts the exports answered 503.
func (r *Receiver) Refused() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.refused
}

// Received is signalled after each export that was kept.
func (r *Receiver) Received() <-chan struct{} { return r.received }

// ServeHTTP implements http.Handler.
func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	var body io.Reader = req.Body
	if req.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	raw, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.down {
		r.refused++
		http.Error(w, "outage", http.StatusServiceUnavailable)
		return
	}
	var resp proto.Message
	switch req.URL.Path {
	case "/v1/traces":
		var m coltrace.ExportTraceServiceRequest
		if err = proto.Unmarshal(raw, &m); err == nil {
			r.spans = append(r.spans, m.ResourceSpans...)
		}
		resp = &coltrace.ExportTraceServiceResponse{}
	case "/v1/metrics":
		var m colmetrics.ExportMetricsServiceRequest
		if err = proto.Unmarshal(raw, &m); err == nil {
			r.metrics = append(r.metrics, m.ResourceMetrics...)
		}
		resp = &colmetrics.ExportMetricsServiceResponse{}
	case "/v1/logs":
		var m collogs.ExportLogsServiceRequest
		if err = proto.Unmarshal(raw, &m); err == nil {
			r.logs = append(r.logs, m.ResourceLogs...)
		}
		resp = &collogs.ExportLogsServiceResponse{}
	default:
		http.NotFound(w, req)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	out, _ := proto.Marshal(resp)
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
	select {
	case r.received <- struct{}{}:
	default:
	}
}

// Span is one received span with the resource and scope it came under.
type Span struct {
	*tracepb.Span
	Resource map[string]string
	Scope    string
}

// Spans returns every span received so far.
func (r *Receiver) Spans() []Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Span
	for _, rs := range r.spans {
		res := Attrs(rs.GetResource().GetAttributes())
		for _, ss := range rs.ScopeSpans {
			for _, sp := range ss.Spans {
				out = append(out, Span{Span: sp, Resource: res, Scope: ss.GetScope().GetName()})
			}
		}
	}
	return out
}

// MetricNames returns the names of every metric received so far, sorted, once each.
func (r *Receiver) MetricNames() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var names []string
	for _, rm := range r.metrics {
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				names = append(names, m.Name)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// Histogram returns the data points of the histogram named name.
func (r *Receiver) Histogram(name string) []*metricspb.HistogramDataPoint {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*metricspb.HistogramDataPoint
	for _, rm := range r.metrics {
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				if m.Name == name && m.GetHistogram() != nil {
					out = append(out, m.GetHistogram().DataPoints...)
				}
			}
		}
	}
	return out
}

// Logs returns every log record received so far, in arrival order.
func (r *Receiver) Logs() []*logspb.LogRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*logspb.LogRecord
	for _, rl := range r.logs {
		for _, sl := range rl.ScopeLogs {
			out = append(out, sl.LogRecords...)
		}
	}
	return out
}

// Attrs renders attributes whose values are strings, booleans or numbers as
// strings (enough to compare them in a test).
func Attrs(kvs []*commonpb.KeyValue) map[string]string {
	out := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		out[kv.Key] = String(kv.Value)
	}
	return out
}

// String renders a scalar any-value as a string; "" for other kinds.
func String(v *commonpb.AnyValue) string {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_BoolValue:
		if x.BoolValue {
			return "true"
		}
		return "false"
	case *commonpb.AnyValue_IntValue:
		return strconv.FormatInt(x.IntValue, 10)
	case *commonpb.AnyValue_DoubleValue:
		return strconv.FormatFloat(x.DoubleValue, 'g', -1, 64)
	}
	return ""
}

// Any decodes an any-value into Go's JSON-like values: string, bool, int64,
// float64, []any, map[string]any, []byte, and nil for an empty value.
func Any(v *commonpb.AnyValue) any {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_BoolValue:
		return x.BoolValue
	case *commonpb.AnyValue_IntValue:
		return x.IntValue
	case *commonpb.AnyValue_DoubleValue:
		return x.DoubleValue
	case *commonpb.AnyValue_BytesValue:
		return x.BytesValue
	case *commonpb.AnyValue_ArrayValue:
		out := make([]any, 0, len(x.ArrayValue.GetValues()))
		for _, e := range x.ArrayValue.GetValues() {
			out = append(out, Any(e))
		}
		return out
	case *commonpb.AnyValue_KvlistValue:
		out := make(map[string]any, len(x.KvlistValue.GetValues()))
		for _, kv := range x.KvlistValue.GetValues() {
			out[kv.Key] = Any(kv.Value)
		}
		return out
	}
	return nil
}

// LogResources returns the resource attributes of every logs request received.
func (r *Receiver) LogResources() []map[string]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []map[string]string
	for _, rl := range r.logs {
		out = append(out, Attrs(rl.GetResource().GetAttributes()))
	}
	return out
}
