package index

import (
	"reflect"
	"testing"
)

// TestFrontmatterBooleansAreYAML12: only true/false (any case form YAML 1.2
// allows) are booleans; YAML 1.1's y/yes/on/n/no/off stay strings, as in the
// reference implementation's parser. Both the fast path and yaml.v2 agree.
func TestFrontmatterBooleansAreYAML12(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       map[string]any
	}{
		{"inherit no stays a string", "inherit: no\n", map[string]any{"inherit": "no"}},
		{"inherit false is false", "inherit: false\n", map[string]any{"inherit": false}},
		{"True is true", "flag: True\n", map[string]any{"flag": true}},
		{"keywords keep on and off", "keywords: [deploy, on, off, y]\n", map[string]any{"keywords": []any{"deploy", "on", "off", "y"}}},
		{"block list", "keywords:\n  - yes\n  - NO\n", map[string]any{"keywords": []any{"yes", "NO"}}},
		{"description yes", "description: yes\n", map[string]any{"description": "yes"}},
		{"nested", "scripts:\n  - file: a.sh\n    execution: server\n    args:\n      - name: force\n        required: off\n",
			map[string]any{"scripts": []any{map[string]any{"file": "a.sh", "execution": "server",
				"args": []any{map[string]any{"name": "force", "required": "off"}}}}}},
		{"quoted stays quoted", "a: 'yes'\nb: \"true\"\n", map[string]any{"a": "yes", "b": "true"}},
		{"null words", "a: ~\nb: null\n", map[string]any{"a": nil, "b": nil}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			slow, err := yamlFrontmatter([]byte(tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(slow, tt.want) {
				t.Errorf("yaml.v2 path: got %#v, want %#v", slow, tt.want)
			}
			if fast, ok := fastFrontmatter([]byte(tt.yaml)); ok && !reflect.DeepEqual(fast, tt.want) {
				t.Errorf("fast path: got %#v, want %#v", fast, tt.want)
			}
		})
	}
}

// TestInheritNoKeepsInheritance: spec 000 §4.2, inherit is true unless
// explicitly false; "no" is not false.
func TestInheritNoKeepsInheritance(t *testing.T) {
	sk, _, err := parseSkill("x.md", []byte("---\ndescription: d\nkeywords: [k]\ninherit: no\n---\nbody\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sk.Inherit {
		t.Error("inherit: no turned inheritance off")
	}
}
