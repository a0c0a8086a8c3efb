package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseMergesOverDefaults(t *testing.T) {
	yml := `
matching:
  min_score: 0.5
scripts:
  timeout_seconds: 5
  runners:
    ".rb": "ruby"
analytics:
  enabled: true
  endpoint: "http://127.0.0.1:9/x"
`
	got, err := parseStrict("config.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Matching.MinScore = 0.5
	want.Scripts.TimeoutSeconds = 5
	want.Scripts.Runners[".rb"] = "ruby"
	want.Analytics.Enabled = true
	want.Analytics.Endpoint = "http://127.0.0.1:9/x"
	if !reflect.DeepEqual(got.Config, want) {
		t.Errorf("got %+v,\nwant %+v", got.Config, want)
	}
	if len(got.Warnings) != 0 {
		t.Errorf("got warnings %v, want none", got.Warnings)
	}
}

func TestParseEmptyIsDefaults(t *testing.T) {
	for _, in := range []string{"", "\n", "# only a comment\n"} {
		got, err := parseStrict("config.yaml", []byte(in))
		if err != nil {
			t.Fatalf("parseStrict(%q): %v", in, err)
		}
		if !reflect.DeepEqual(got.Config, Default()) {
			t.Errorf("parseStrict(%q) = %+v, want defaults", in, got.Config)
		}
	}
}

func TestParseErrorsNameTheKey(t *testing.T) {
	tests := []struct {
		name, yml, wantInErr string
	}{
		{"bad yaml", "matching: [", "invalid YAML"},
		{"string for int", "scripts:\n  timeout_seconds: soon\n", "scripts.timeout_seconds: want a whole number"},
		{"float for int", "matching:\n  max_results: 2.5\n", "matching.max_results"},
		{"string for bool", "scripts:\n  enabled: maybe\n", "scripts.enabled: want true or false"},
		{"list for mapping", "matching: [1, 2]\n", "matching: want a mapping"},
		{"top level list", "- a\n", "(top level): want a mapping"},
		{"scalar for list", "scripts:\n  allowed_extensions: .sh\n", "scripts.allowed_extensions: want a list"},
		{"number in string list", "scripts:\n  allowed_extensions: [.sh, 3]\n", "scripts.allowed_extensions[1]: want a string"},
		{"runner not string", "scripts:\n  runners:\n    .sh: [bash]\n", "scripts.runners..sh: want a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseStrict("/x/config.yaml", []byte(tt.yml))
			if err == nil {
				t.Fatalf("got no error, want one containing %q", tt.wantInErr)
			}
			if !strings.Contains(err.Error(), tt.wantInErr) || !strings.Contains(err.Error(), "/x/config.yaml") {
				t.Errorf("got %q, want it to name the file and contain %q", err, tt.wantInErr)
			}
		})
	}
}

func TestParseUnknownKeyWarns(t *testing.T) {
	got, err := parseStrict("config.yaml", []byte("matching:\n  min_scor: 0.3\nextra: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"config.yaml:2: matching.min_scor: unknown key (ignored)", "config.yaml:3: extra: unknown key (ignored)"}
	if !reflect.DeepEqual(got.Warnings, want) {
		t.Errorf("got %q, want %q", got.Warnings, want)
	}
}

func TestValidateRejectsOutOfRange(t *testing.T) {
	tests := []struct {
		name, yml, key string
	}{
		{"negative timeout", "scripts:\n  timeout_seconds: -1\n", "scripts.timeout_seconds"},
		{"negative output", "scripts:\n  max_output_bytes: -5\n", "scripts.max_output_bytes"},
		{"negative max_concurrent", "scripts:\n  max_concurrent: -1\n", "scripts.max_concurrent"},
		{"max_concurrent not a number", "scripts:\n  max_concurrent: many\n", "scripts.max_concurrent"},
		{"negative asset size", "assets:\n  max_size_bytes: -1\n", "assets.max_size_bytes"},
		{"min score above 1", "matching:\n  min_score: 1.5\n", "matching.min_score"},
		{"negative min confidence", "matching:\n  min_confidence: -0.1\n", "matching.min_confidence"},
		{"zero results", "matching:\n  max_results: 0\n", "matching.max_results"},
		{"extension without dot", "scripts:\n  allowed_extensions: [sh]\n", "scripts.allowed_extensions[0]"},
		{"empty runner", "scripts:\n  runners:\n    .sh: \"  \"\n", "scripts.runners..sh"},
		{"memory limit", "wasm:\n  memory_limit_mb: 0\n", "wasm.memory_limit_mb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, FileName), []byte(tt.yml), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(dir, func(string) string { return "" })
			if err == nil || !strings.Contains(err.Error(), tt.key) || !strings.Contains(err.Error(), dir) {
				t.Errorf("got %v, want an error naming %s and the file", err, tt.key)
			}
		})
	}
}

func TestLoadEnvOverrides(t *testing.T) {
	env := map[string]string{EnvAnalyticsEndpoint: "http://127.0.0.1:1/e", EnvRefreshInterval: "3"}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("refresh:\n  enabled: false\n  interval_minutes: 60\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	c := got.Config
	if !c.Analytics.Enabled || c.Analytics.Endpoint != env[EnvAnalyticsEndpoint] {
		t.Errorf("analytics = %+v, want enabled with the env endpoint", c.Analytics)
	}
	if !c.Refresh.Enabled || c.Refresh.IntervalMinutes != 3 {
		t.Errorf("refresh = %+v, want enabled every 3 minutes", c.Refresh)
	}
	if got.Path != filepath.Join(dir, FileName) {
		t.Errorf("path = %q", got.Path)
	}
}

func TestLoadBadEnv(t *testing.T) {
	for _, v := range []string{"0", "-2", "ten", "1.5"} {
		_, err := Load(t.TempDir(), func(k string) string {
			if k == EnvRefreshInterval {
				return v
			}
			return ""
		})
		if err == nil || !strings.Contains(err.Error(), EnvRefreshInterval) {
			t.Errorf("%s=%q: got %v, want an error naming the variable", EnvRefreshInterval, v, err)
		}
	}
}

func TestLoadMissingFileIsDefaults(t *testing.T) {
	got, err := Load(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Path != "" || !reflect.DeepEqual(got.Config, Default()) {
		t.Errorf("got %+v, want defaults and no path", got)
	}
}

// parseStrict is parse as one error: the configuration, or every problem in
// one *Error.
func parseStrict(name string, data []byte) (Loaded, error) {
	l, problems := decodeLayer(name, data, Default(), nil)
	loaded := Loaded{Config: l.cfg, Problems: l.warnings}
	for _, w := range l.warnings {
		loaded.Warnings = append(loaded.Warnings, w.String())
	}
	if len(problems) > 0 {
		return Loaded{}, &Error{Problems: problems, Warnings: loaded.Problems}
	}
	return loaded, nil
}
