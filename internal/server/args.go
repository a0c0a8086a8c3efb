package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// decodeArgs reads a tool call's arguments into dst, checking that every name in
// required is present and not null. Its errors name the argument at fault.
func decodeArgs(raw json.RawMessage, dst any, required ...string) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return fmt.Errorf("arguments must be a JSON object")
	}
	var missing []string
	for _, name := range required {
		if v, ok := fields[name]; !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("missing required argument(s): %s", strings.Join(missing, ", "))
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			if isMapField(dst, te.Field) {
				return fmt.Errorf("argument %q must be an object whose values are strings, got a %s value", te.Field, te.Value)
			}
			return fmt.Errorf("argument %q must be %s, got %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
		}
		return fmt.Errorf("invalid arguments: %v", err)
	}
	return nil
}

// isMapField reports whether the struct dst points to has a map field with that JSON name.
func isMapField(dst any, name string) bool {
	t := reflect.TypeOf(dst)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return false
	}
	for i := 0; i < t.NumField(); i++ {
		if strings.Split(t.Field(i).Tag.Get("json"), ",")[0] == name {
			return t.Field(i).Type.Kind() == reflect.Map
		}
	}
	return false
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "map":
		return "an object of strings"
	default:
		return "a " + goKind
	}
}

// schema builds a JSON Schema object for a tool's input; arguments it does
// not name are refused (decodeStrictArgs).
func schema(props map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func strProp(desc string) map[string]any {
	return map[string]any{"type": "string", "description": desc}
}
