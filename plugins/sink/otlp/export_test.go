package otlp

// The envelope's attribute keys, for the external tests that decode records
// back into events.
const (
	AttrEventID   = attrEventID
	AttrServerID  = attrServerID
	AttrTimestamp = attrTimestamp
)
