package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// decodeStrictArgs is decodeArgs for tools whose input schema says
// `additionalProperties: false`: an argument not in allowed is an error naming it.
func decodeStrictArgs(raw json.RawMessage, dst any, allowed []string, required ...string) error {
	if err := decodeArgs(raw, dst, required...); err != nil {
		return err
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return fmt.Errorf("arguments must be a JSON object")
	}
	var unknown []string
	for name := range fields {
		if !slices.Contains(allowed, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		known := append([]string(nil), allowed...)
		sort.Strings(known)
		if len(known) == 0 {
			return fmt.Errorf("unknown argument(s): %s (this tool takes none)", strings.Join(unknown, ", "))
		}
		return fmt.Errorf("unknown argument(s): %s (allowed: %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	return nil
}
