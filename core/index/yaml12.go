package index

import (
	"go.yaml.in/yaml/v2"
)

// yaml12 decodes a YAML value with yaml.v2 (the library under goldmark-meta)
// but resolves booleans as YAML 1.2's core schema does, as the reference
// implementation's parser (js-yaml) does: only true/True/TRUE and
// false/False/FALSE are booleans. yaml.v2 follows YAML 1.1, where y, yes, on,
// n, no and off are booleans too, so `inherit: no` would turn inheritance off
// and `keywords: [deploy, on]` would index "true". Those plain scalars are kept
// as the strings they are written as.
//
// Mappings decode to yaml.MapSlice (file order kept), sequences to []any.
// Mapping keys keep yaml.v2's resolution (rare in frontmatter).
type yaml12 struct{ v any }

// UnmarshalYAML implements yaml.Unmarshaler.
func (y *yaml12) UnmarshalYAML(unmarshal func(any) error) error {
	var raw any
	if err := unmarshal(&raw); err != nil {
		return err
	}
	switch raw.(type) {
	case map[any]any:
		var order yaml.MapSlice
		if err := unmarshal(&order); err != nil {
			return err
		}
		values := map[any]yaml12{}
		if err := unmarshal(&values); err != nil {
			return err
		}
		for i := range order {
			order[i].Value = values[order[i].Key].v
		}
		y.v = order
	case []any:
		var seq []yaml12
		if err := unmarshal(&seq); err != nil {
			return err
		}
		out := make([]any, len(seq))
		for i := range seq {
			out[i] = seq[i].v
		}
		y.v = out
	case bool:
		var text string
		if err := unmarshal(&text); err == nil && !yaml12Bools[text] {
			y.v = text // a YAML 1.1-only boolean word: a string in YAML 1.2
			return nil
		}
		y.v = raw
	default:
		y.v = raw
	}
	return nil
}

// yaml12Bools are the plain scalars YAML 1.2's core schema reads as booleans.
var yaml12Bools = map[string]bool{
	"true": true, "True": true, "TRUE": true,
	"false": true, "False": true, "FALSE": true,
}

// decodeYAML12 decodes a document with yaml12's rules.
func decodeYAML12(data []byte) (any, error) {
	var doc yaml12
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	return doc.v, nil
}
