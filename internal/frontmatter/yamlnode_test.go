package frontmatter

import (
	"reflect"
	"testing"
)

// TestFrontmatterBooleansAreYAML12: only true/false (any case form YAML 1.2
// allows) are booleans; YAML 1.1's y/yes/on/n/no/off stay strings, as in the
// reference implementation's parser. Text fields keep their text, keys are
// as written, merge keys are merged (issue 15, item 4). Both the fast path
// and the full decoder agree.
func TestFrontmatterBooleansAreYAML12(t *testing.T) {
	t.Parallel()
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
		{"text fields as written", "description: 1.10\nname: 42\nlicense: 2024-01-01\nkeywords: [1.0, true]\n",
			map[string]any{"description": "1.10", "name": "42", "license": "2024-01-01", "keywords": []any{"1.0", "true"}}},
		{"quoted null and tilde are text", "description: \"null\"\nname: '~'\n", map[string]any{"description": "null", "name": "~"}},
		{"keys as written", "metadata:\n  00: a\n  0: b\n  on: c\n  yes: d\n",
			map[string]any{"metadata": map[string]any{"00": "a", "0": "b", "on": "c", "yes": "d"}}},
		{"merge keys merged, explicit keys win", "b: &b\n  x: 1\n  y: 2\nm:\n  <<: *b\n  y: 3\n",
			map[string]any{"b": map[string]any{"x": 1, "y": 2}, "m": map[string]any{"x": 1, "y": 3}}},
		{"numbers outside text fields stay numbers", "priority: 1.5\n", map[string]any{"priority": 1.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			slow, err := yamlFrontmatter([]byte(tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(slow, tt.want) {
				t.Errorf("full decoder: got %#v, want %#v", slow, tt.want)
			}
			if fast, ok := fastFrontmatter([]byte(tt.yaml)); ok && !reflect.DeepEqual(fast, tt.want) {
				t.Errorf("fast path: got %#v, want %#v", fast, tt.want)
			}
		})
	}
}
