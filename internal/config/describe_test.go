package config

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestDescribeNode: the one description of a YAML value, null included.
func TestDescribeNode(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"[1]", "a list"},
		{"{a: 1}", "a mapping"},
		{"x", `the string "x"`},
		{"true", "the boolean true"},
		{"2.5", "the number 2.5"},
		{"2024-01-02", "the date 2024-01-02"},
		{"~", "no value"},
		{"null", "no value"},
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(tt.in), &doc); err != nil {
			t.Fatal(err)
		}
		if got := DescribeNode(doc.Content[0]); got != tt.want {
			t.Errorf("DescribeNode(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
