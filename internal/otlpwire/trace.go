package otlpwire

import (
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Spans encodes an ExportTraceServiceRequest of spans, grouped by resource
// and instrumentation scope in the order they first appear.
func Spans(spans []sdktrace.ReadOnlySpan) []byte {
	type group struct {
		res    *resource.Resource
		scopes []instrumentation.Scope
		spans  map[instrumentation.Scope][]sdktrace.ReadOnlySpan
	}
	var groups []*group
	for _, sp := range spans {
		var g *group
		for _, candidate := range groups {
			if candidate.res == sp.Resource() {
				g = candidate
			}
		}
		if g == nil {
			g = &group{res: sp.Resource(), spans: map[instrumentation.Scope][]sdktrace.ReadOnlySpan{}}
			groups = append(groups, g)
		}
		sc := sp.InstrumentationScope()
		if _, ok := g.spans[sc]; !ok {
			g.scopes = append(g.scopes, sc)
		}
		g.spans[sc] = append(g.spans[sc], sp)
	}
	var req buf
	for _, g := range groups {
		var rs buf
		rs = rs.msg(1, resourceMsg(g.res))
		for _, sc := range g.scopes {
			var ss buf
			ss = ss.msg(1, scopeMsg(sc.Name, sc.Version))
			for _, sp := range g.spans[sc] {
				ss = ss.msg(2, span(sp))
			}
			ss = ss.str(3, sc.SchemaURL)
			rs = rs.msg(2, ss)
		}
		if g.res != nil {
			rs = rs.str(3, g.res.SchemaURL())
		}
		req = req.msg(1, rs)
	}
	return req
}

func resourceMsg(r *resource.Resource) []byte {
	var b buf
	if r != nil {
		b = b.attrs(1, r.Attributes())
	}
	return b
}

func scopeMsg(name, version string) []byte {
	var b buf
	return b.str(1, name).str(2, version)
}

// otlpStatus maps codes.Code to the OTLP StatusCode (UNSET 0, OK 1, ERROR 2).
func otlpStatus(c codes.Code) uint64 {
	switch c {
	case codes.Ok:
		return 1
	case codes.Error:
		return 2
	}
	return 0
}

func span(sp sdktrace.ReadOnlySpan) []byte {
	sc := sp.SpanContext()
	tid, sid := sc.TraceID(), sc.SpanID()
	var b buf
	b = b.bytes(1, tid[:]).bytes(2, sid[:]).str(3, sc.TraceState().String())
	if p := sp.Parent(); p.SpanID().IsValid() {
		psid := p.SpanID()
		b = b.bytes(4, psid[:])
	}
	b = b.str(5, sp.Name())
	b = b.varint(6, uint64(sp.SpanKind()))
	b = b.fixed64(7, uint64(sp.StartTime().UnixNano()))
	b = b.fixed64(8, uint64(sp.EndTime().UnixNano()))
	b = b.attrs(9, sp.Attributes())
	b = b.varint(10, uint64(sp.DroppedAttributes()))
	for _, ev := range sp.Events() {
		var e buf
		e = e.fixed64(1, uint64(ev.Time.UnixNano())).str(2, ev.Name).attrs(3, ev.Attributes)
		b = b.msg(11, e)
	}
	b = b.varint(12, uint64(sp.DroppedEvents()))
	for _, l := range sp.Links() {
		ltid, lsid := l.SpanContext.TraceID(), l.SpanContext.SpanID()
		var lb buf
		lb = lb.bytes(1, ltid[:]).bytes(2, lsid[:]).str(3, l.SpanContext.TraceState().String()).attrs(4, l.Attributes)
		b = b.msg(13, lb)
	}
	b = b.varint(14, uint64(sp.DroppedLinks()))
	st := sp.Status()
	var s buf
	s = s.str(2, st.Description).varint(3, otlpStatus(st.Code))
	b = b.msg(15, s)
	flags := uint32(sc.TraceFlags()) | 0x100 // SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE_MASK
	if sp.Parent().IsRemote() {
		flags |= 0x200 // SPAN_FLAGS_CONTEXT_IS_REMOTE_MASK
	}
	return b.fixed32(16, flags)
}
