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
// `additionalProperties: false`: an argument not in allowed is an error naming
// it. An unknown argument is named even when a required one is missing too
// (`script` given for `file`), since it is most often the missing one misnamed.
func decodeStrictArgs(raw json.RawMessage, dst any, allowed []string, required ...string) error {
	unknown := unknownArgs(raw, allowed)
	if err := decodeArgs(raw, dst, required...); err != nil {
		if unknown != nil {
			return fmt.Errorf("%w; %w", unknown, err)
		}
		return err
	}
	return unknown
}

// unknownArgs is the error naming the arguments of raw (a JSON object) that
// are not in allowed, with the allowed ones; nil when there is none or raw is
// not an object (decodeArgs says so).
func unknownArgs(raw json.RawMessage, allowed []string) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil
	}
	var unknown []string
	for name := range fields {
		if !slices.Contains(allowed, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	known := append([]string(nil), allowed...)
	sort.Strings(known)
	if len(known) == 0 {
		return fmt.Errorf("unknown argument(s): %s (this tool takes none)", strings.Join(unknown, ", "))
	}
	return fmt.Errorf("unknown argument(s): %s (allowed: %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
}
