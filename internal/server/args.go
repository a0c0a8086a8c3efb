package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addTool registers a typed tool: its input schema is inferred from In (the
// `json` tags name the arguments, `omitempty` makes one optional, the
// `jsonschema` tag is its description), and its output schema from Out
// unless t sets one. The go-sdk checks every call's arguments against the
// input schema before h runs, refusing an unknown argument, a missing or
// mistyped one, and validates h's output; an error h returns is an isError
// result, which typedToolCalls words as the spec asks. t.InputSchema may be
// set beforehand to add what a tag cannot say (inputSchema).
func addTool[In, Out any](s *Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	if t.InputSchema == nil {
		t.InputSchema = inputSchema[In](nil)
	}
	s.inputSchemas.Store(t.Name, t.InputSchema.(*jsonschema.Schema))
	mcp.AddTool(s.mcp, t, h)
}

// inputSchema is the schema jsonschema-go infers for In, as the go-sdk would,
// with adjust (when not nil) given its properties to add the bounds and
// defaults a struct tag cannot express.
func inputSchema[In any](adjust func(props map[string]*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("inferring an input schema: %v", err)) // a programming error, seen by every test
	}
	if adjust != nil {
		adjust(s.Properties)
	}
	return s
}

// nonEmpty is an inputSchema adjustment: the named string arguments must
// not be empty (minLength 1).
func nonEmpty(names ...string) func(props map[string]*jsonschema.Schema) {
	return func(props map[string]*jsonschema.Schema) {
		for _, name := range names {
			props[name].MinLength = jsonschema.Ptr(1)
		}
	}
}

// outputSchema is the schema jsonschema-go infers for Out, for a tool whose
// handler encodes its structured content itself (and the go-sdk does not
// validate it).
func outputSchema[Out any]() *jsonschema.Schema {
	s, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("inferring an output schema: %v", err))
	}
	return s
}

// argumentsPrefix starts the error the go-sdk sets on a tool result when the
// call's arguments do not match the tool's input schema (mcp.ToolHandlerFor).
const argumentsPrefix = `validating "arguments": `

// typedToolCalls is the middleware around the go-sdk's typed tools. Before
// a call it drops the arguments given as null (nullArgs): a null argument is
// one left out, as it always was here, and the go-sdk panics on null
// arguments for a tool with a default (docs/UPSTREAM.md). After it, it gives
// every failed call the text of the spec's error table,
// {"error":true,"message":"…"}: the go-sdk sets an error a handler returns,
// or its refusal of the arguments, as the result's plain text. A refusal of
// the arguments is worded from the tool's input schema and the arguments
// given (argumentsMessage), naming every unknown and missing one.
func (s *Server) typedToolCalls(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || call.Params == nil {
			return next(ctx, method, req)
		}
		if args, changed := nullArgs(call.Params.Arguments); changed {
			params := *call.Params
			params.Arguments = args
			c := *call
			c.Params = &params
			req = &c
		}
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		ctr, ok := res.(*mcp.CallToolResult)
		if !ok || ctr == nil || !ctr.IsError || ctr.GetError() == nil {
			return res, err
		}
		msg := ctr.GetError().Error()
		if rest, ok := strings.CutPrefix(msg, argumentsPrefix); ok {
			var schema *jsonschema.Schema
			if v, ok := s.inputSchemas.Load(call.Params.Name); ok {
				schema = v.(*jsonschema.Schema)
			}
			msg = call.Params.Name + ": " + argumentsMessage(schema, call.Params.Arguments, rest)
		}
		out := *ctr
		out.Content = []mcp.Content{&mcp.TextContent{Text: errorText(msg)}}
		out.StructuredContent = nil
		return &out, nil
	}
}

// nullArgs drops the members of raw (a call's arguments) whose value is
// null, and null arguments as a whole; changed is false when there was none.
func nullArgs(raw json.RawMessage) (json.RawMessage, bool) {
	if !bytes.Contains(raw, []byte("null")) {
		return raw, false
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, true
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil {
		return raw, false // not an object: the go-sdk refuses it
	}
	changed := false
	for name, v := range members {
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			delete(members, name)
			changed = true
		}
	}
	if !changed {
		return raw, false
	}
	out, err := json.Marshal(members)
	if err != nil {
		return raw, false
	}
	return out, true
}

// propertyInError finds the argument a jsonschema-go validation error is
// about: the first property of its path.
var propertyInError = regexp.MustCompile(`validating /properties/([^/:]+)`)

// argumentsMessage words the go-sdk's refusal (sdk, its validation error) of
// raw, a call's arguments, against schema: every unknown argument with the
// allowed ones, every missing required one, or the argument of the wrong
// type or out of its bounds. The go-sdk reports only the first problem it
// met, in JSON Schema's terms; this names them as the tool's user knows them.
func argumentsMessage(schema *jsonschema.Schema, raw json.RawMessage, sdk string) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	var given map[string]json.RawMessage
	if err := json.Unmarshal(raw, &given); err != nil {
		return "arguments must be a JSON object"
	}
	if schema == nil {
		return "invalid arguments: " + strings.TrimPrefix(sdk, "validating root: ")
	}
	var problems []string
	if unknown := unknownNames(given, schema); unknown != "" {
		problems = append(problems, unknown)
	}
	var missing []string
	for _, name := range schema.Required {
		if v, ok := given[name]; !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		problems = append(problems, "missing required argument(s): "+strings.Join(missing, ", "))
	}
	if len(problems) > 0 {
		return strings.Join(problems, "; ")
	}
	if m := propertyInError.FindStringSubmatch(sdk); m != nil {
		if prop, ok := schema.Properties[m[1]]; ok {
			return argumentMessage(m[1], prop, given[m[1]])
		}
	}
	return "invalid arguments: " + strings.TrimPrefix(sdk, "validating root: ")
}

// unknownNames is the sentence naming the arguments given that schema does
// not list, with the ones it does; "" when there is none.
func unknownNames(given map[string]json.RawMessage, schema *jsonschema.Schema) string {
	var unknown []string
	for name := range given {
		if _, ok := schema.Properties[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return ""
	}
	sort.Strings(unknown)
	known := make([]string, 0, len(schema.Properties))
	for name := range schema.Properties {
		known = append(known, name)
	}
	sort.Strings(known)
	if len(known) == 0 {
		return fmt.Sprintf("unknown argument(s): %s (this tool takes none)", strings.Join(unknown, ", "))
	}
	return fmt.Sprintf("unknown argument(s): %s (allowed: %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
}

// argumentMessage says what argument name (schema prop, given value) must be.
func argumentMessage(name string, prop *jsonschema.Schema, value json.RawMessage) string {
	typ := schemaType(prop)
	switch {
	case typ == "integer" && prop.Minimum != nil && prop.Maximum != nil:
		return fmt.Sprintf("%s must be an integer from %g to %g, got %s", name, *prop.Minimum, *prop.Maximum, bytes.TrimSpace(value))
	case typ == "object" && prop.AdditionalProperties != nil && schemaType(prop.AdditionalProperties) == "string":
		return fmt.Sprintf("argument %q must be an object whose values are strings", name)
	case typ == "string" && prop.MinLength != nil && jsonKindOf(value) == "string":
		return name + " must not be empty"
	case typ == "string" && prop.MaxLength != nil && jsonKindOf(value) == "string":
		return fmt.Sprintf("argument %q is longer than %d characters", name, *prop.MaxLength)
	}
	return fmt.Sprintf("argument %q must be %s, got %s", name, article(typ), jsonKindOf(value))
}

// schemaType is the one JSON type a schema allows besides null.
func schemaType(s *jsonschema.Schema) string {
	if s.Type != "" {
		return s.Type
	}
	types := slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
	if len(types) == 1 {
		return types[0]
	}
	return strings.Join(types, " or ")
}

// jsonKindOf is the JSON type of a value: string, number, boolean, null,
// array or object.
func jsonKindOf(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	case '[':
		return "array"
	case '{':
		return "object"
	}
	return "number"
}

func article(typ string) string {
	switch typ {
	case "":
		return "a value"
	case "array", "integer", "object":
		return "an " + typ
	}
	return "a " + typ
}
