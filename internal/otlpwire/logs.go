package otlpwire

import "time"

// LogRecord is one OTLP log record.
type LogRecord struct {
	// Time is when the event happened.
	Time time.Time
	// EventName names the event (the LogRecord event_name field).
	EventName string
	// Attributes are the record's attributes, in order.
	Attributes []KeyValue
}

// Logs encodes an ExportLogsServiceRequest: records under one resource and
// one instrumentation scope. observed is the observed time of every record.
func Logs(resource []KeyValue, scopeName, scopeVersion string, records []LogRecord, observed time.Time) []byte {
	var res buf
	for _, kv := range resource {
		res = res.kv(1, kv.Key, kv.Value)
	}
	var sl buf
	sl = sl.msg(1, scopeMsg(scopeName, scopeVersion))
	for _, r := range records {
		var lr buf
		lr = lr.fixed64(1, uint64(r.Time.UnixNano()))
		lr = lr.varint(2, 9) // SEVERITY_NUMBER_INFO
		lr = lr.str(3, "INFO")
		for _, kv := range r.Attributes {
			lr = lr.kv(6, kv.Key, kv.Value)
		}
		lr = lr.fixed64(11, uint64(observed.UnixNano()))
		lr = lr.str(12, r.EventName)
		sl = sl.msg(2, lr)
	}
	var rl buf
	rl = rl.msg(1, res).msg(2, sl)
	var req buf
	return req.msg(1, rl)
}
