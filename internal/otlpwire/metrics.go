package otlpwire

import (
	"math"

	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// Metrics encodes an ExportMetricsServiceRequest of rm. Histograms, sums and
// gauges are written; the kinds skills-mcp does not record (exponential
// histograms, summaries) are left out.
func Metrics(rm *metricdata.ResourceMetrics) []byte {
	var rb buf
	rb = rb.msg(1, resourceMsg(rm.Resource))
	for _, sm := range rm.ScopeMetrics {
		var sb buf
		sb = sb.msg(1, scopeMsg(sm.Scope.Name, sm.Scope.Version))
		for _, m := range sm.Metrics {
			if body := metric(m); body != nil {
				sb = sb.msg(2, body)
			}
		}
		sb = sb.str(3, sm.Scope.SchemaURL)
		rb = rb.msg(2, sb)
	}
	if rm.Resource != nil {
		rb = rb.str(3, rm.Resource.SchemaURL())
	}
	var req buf
	return req.msg(1, rb)
}

// temporality maps to the OTLP AggregationTemporality (DELTA 1, CUMULATIVE 2).
func temporality(t metricdata.Temporality) uint64 {
	switch t {
	case metricdata.DeltaTemporality:
		return 1
	case metricdata.CumulativeTemporality:
		return 2
	}
	return 0
}

func metric(m metricdata.Metrics) []byte {
	var b buf
	b = b.str(1, m.Name).str(2, m.Description).str(3, m.Unit)
	switch d := m.Data.(type) {
	case metricdata.Histogram[float64]:
		return b.msg(9, histogram(d.DataPoints, d.Temporality))
	case metricdata.Histogram[int64]:
		return b.msg(9, histogram(d.DataPoints, d.Temporality))
	case metricdata.Sum[float64]:
		return b.msg(7, sum(d.DataPoints, d.Temporality, d.IsMonotonic))
	case metricdata.Sum[int64]:
		return b.msg(7, sum(d.DataPoints, d.Temporality, d.IsMonotonic))
	case metricdata.Gauge[float64]:
		return b.msg(5, numberPoints(d.DataPoints))
	case metricdata.Gauge[int64]:
		return b.msg(5, numberPoints(d.DataPoints))
	}
	return nil
}

func histogram[N int64 | float64](points []metricdata.HistogramDataPoint[N], t metricdata.Temporality) []byte {
	var b buf
	for _, p := range points {
		var pb buf
		pb = pb.attrs(9, p.Attributes.ToSlice())
		pb = pb.fixed64(2, uint64(p.StartTime.UnixNano())).fixed64(3, uint64(p.Time.UnixNano()))
		pb = pb.fixed64(4, p.Count)
		pb = pb.double(5, float64(p.Sum))
		pb = pb.packedFixed64(6, p.BucketCounts)
		bounds := make([]uint64, len(p.Bounds))
		for i, v := range p.Bounds {
			bounds[i] = math.Float64bits(v)
		}
		pb = pb.packedFixed64(7, bounds)
		if v, ok := p.Min.Value(); ok {
			pb = pb.double(11, float64(v))
		}
		if v, ok := p.Max.Value(); ok {
			pb = pb.double(12, float64(v))
		}
		b = b.msg(1, pb)
	}
	return b.varint(2, temporality(t))
}

func sum[N int64 | float64](points []metricdata.DataPoint[N], t metricdata.Temporality, monotonic bool) []byte {
	b := buf(numberPoints(points)).varint(2, temporality(t))
	if monotonic {
		b = b.varint(3, 1)
	}
	return b
}

func numberPoints[N int64 | float64](points []metricdata.DataPoint[N]) []byte {
	var b buf
	for _, p := range points {
		var pb buf
		pb = pb.attrs(7, p.Attributes.ToSlice())
		pb = pb.fixed64(2, uint64(p.StartTime.UnixNano())).fixed64(3, uint64(p.Time.UnixNano()))
		switch v := any(p.Value).(type) {
		case float64:
			pb = pb.double(4, v)
		case int64:
			pb = appendTagFixed64(pb, 6, uint64(v))
		}
		b = b.msg(1, pb)
	}
	return b
}
