// Package otlpwire writes OTLP/HTTP requests (spans, metrics, log records) in
// the protobuf encoding with google.golang.org/protobuf/encoding/protowire,
// and posts them. It exists so the binary does not link the OpenTelemetry
// OTLP exporters: through the generated OTLP service packages they bring in
// gRPC, grpc-gateway and the protobuf registry, whose package initialisation
// alone raised the resident memory of an idle server by 6.6 MB (15.4 to
// 22.0 MB on examples/skills) whether telemetry was on or off. Encoding the
// few messages skills-mcp sends costs a few hundred lines and no memory at
// start-up. Tests decode the output with the official generated types.
package otlpwire
