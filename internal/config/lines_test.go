package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestLoadReportsEveryProblemWithItsLine: a file's type errors, duplicate keys
// and out-of-range values are all reported at once, each at the line of its
// key, in line order.
func TestLoadReportsEveryProblemWithItsLine(t *testing.T) {
	tests := []struct {
		name string
		yml  string
		want []string // "line key: message fragment"
	}{
		{
			name: "types and ranges together",
			yml: `# a comment
matching:
  min_score: 1.5
  max_results: lots
scripts:
  enabled: maybe
  timeout_seconds: -3
  allowed_extensions: [.sh, py]
  runners:
    .rb: [ruby]
    .py: "  "
`,
			want: []string{
				"3 matching.min_score: must be between 0 and 1",
				"4 matching.max_results: want a whole number, got the string \"lots\"",
				"6 scripts.enabled: want true or false, got the string \"maybe\"",
				"7 scripts.timeout_seconds: must be at least 1",
				"8 scripts.allowed_extensions[1]: \"py\" must look like \".sh\"",
				"10 scripts.runners..rb: want a string, got a list",
				"11 scripts.runners..py: the command is empty",
			},
		},
		{
			name: "range errors only",
			yml:  "wasm:\n  memory_limit_mb: 0\n\nmatching:\n  max_results: 0\n",
			want: []string{"2 wasm.memory_limit_mb: must be between 1 and 4096", "5 matching.max_results: must be at least 1"},
		},
		{
			name: "duplicate key",
			yml:  "scripts:\n  timeout_seconds: 5\n  timeout_seconds: 9\n",
			want: []string{"3 scripts.timeout_seconds: defined twice (first at line 2)"},
		},
		{
			name: "syntax error",
			yml:  "matching:\n  min_score: 0.2\n  max_results: [1,\n",
			want: []string{"3 : invalid YAML: did not find expected node content"},
		},
		{
			name: "mapping expected",
			yml:  "refresh:\n  - 5\nanalytics: on-ish\n",
			want: []string{"1 refresh: want a mapping, got a list", "3 analytics: want a mapping, got the string \"on-ish\""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, FileName), []byte(tt.yml), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(dir, func(string) string { return "" })
			var invalid *Error
			if !errors.As(err, &invalid) {
				t.Fatalf("got %v, want an *Error", err)
			}
			if len(invalid.Problems) != len(tt.want) {
				t.Fatalf("got %d problems, want %d:\n%v", len(invalid.Problems), len(tt.want), err)
			}
			for i, p := range invalid.Problems {
				line, rest, _ := strings.Cut(tt.want[i], " ")
				key, msg, _ := strings.Cut(rest, ": ")
				if got := p.String(); p.Line != atoi(line) || p.Key != strings.TrimSpace(key) && key != "" || !strings.Contains(p.Message, msg) {
					t.Errorf("problem %d: got %q (line %d, key %q), want line %s, key %q, message containing %q", i, got, p.Line, p.Key, line, key, msg)
				}
				if p.File != filepath.Join(dir, FileName) {
					t.Errorf("problem %d: file = %q, want the config file", i, p.File)
				}
			}
			if !strings.HasPrefix(err.Error(), filepath.Join(dir, FileName)+":"+line0(tt.want)+": ") {
				t.Errorf("error text %q does not start with file:line", err)
			}
		})
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func line0(want []string) string {
	line, _, _ := strings.Cut(want[0], " ")
	return line
}

func TestParseWarningsCarryLines(t *testing.T) {
	got, err := parseStrict("config.yaml", []byte("refresh:\n  enabled: yes\n  interval_minutes: 5\nextra: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Problem{
		{File: "config.yaml", Line: 2, Key: "refresh.enabled", Message: `"yes" is a boolean only in YAML 1.1; write true`},
		{File: "config.yaml", Line: 4, Key: "extra", Message: "unknown key (ignored)"},
	}
	if !reflect.DeepEqual(got.Problems, want) {
		t.Errorf("got %+v, want %+v", got.Problems, want)
	}
	if !got.Config.Refresh.Enabled {
		t.Error("refresh.enabled: yes was not taken as true")
	}
}

func TestParseQuotedYesIsNotABoolean(t *testing.T) {
	_, err := parseStrict("config.yaml", []byte("scripts:\n  enabled: \"yes\"\n"))
	if err == nil || !strings.Contains(err.Error(), `config.yaml:2: scripts.enabled: want true or false, got the string "yes"`) {
		t.Errorf("got %v, want an error at line 2", err)
	}
}

func TestParseAliasesAndEmptyDocuments(t *testing.T) {
	for _, in := range []string{"", "# only a comment\n", "~\n", "---\n"} {
		got, err := parseStrict("config.yaml", []byte(in))
		if err != nil || len(got.Problems) != 0 {
			t.Errorf("parseStrict(%q) = %+v, %v; want the defaults", in, got.Problems, err)
		}
	}
	got, err := parseStrict("config.yaml", []byte("base: &t 7\nscripts:\n  timeout_seconds: *t\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Config.Scripts.TimeoutSeconds != 7 {
		t.Errorf("timeout through an alias = %d, want 7", got.Config.Scripts.TimeoutSeconds)
	}
}
