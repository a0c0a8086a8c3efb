package skillscmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

// echoRunner prints the script's file name: enough to see which runner ran.
type echoRunner struct{}

func (echoRunner) Run(_ context.Context, req core.RunRequest) (core.RunResult, error) {
	return core.RunResult{Stdout: "echo " + req.File + "\n"}, nil
}

// memSink keeps what it receives.
type memSink struct {
	mu     sync.Mutex
	events []core.Event
	closed bool
}

func (s *memSink) Emit(_ context.Context, evs []core.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, evs...)
	return nil
}

func (s *memSink) Close(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}

// pluginTree writes a skill with a server script of extension ext and a
// config.yaml with extra lines.
func pluginTree(t *testing.T, ext, config string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"config.yaml": config,
		"tools/echo.md": "---\ndescription: Echo a file\nkeywords: [echo]\nscripts:\n" +
			"  - { file: scripts/hello" + ext + ", execution: server }\n---\n# Echo\n",
		"tools/echo/scripts/hello" + ext: "hello\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runWith(t *testing.T, c *Command, stdin string, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	getenv := func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		if k == "HOME" {
			return t.TempDir()
		}
		return ""
	}
	code = c.Run(context.Background(), args, io.NopCloser(strings.NewReader(stdin)), &out, &errb, getenv)
	return out.String(), errb.String(), code
}

func TestRunnerPluginRunsOnlyAllowedExtensions(t *testing.T) {
	t.Parallel()
	cmd := New(&Options{Runners: []RunnerPlugin{{Extension: ".echo", New: func(PluginContext) (core.Runner, error) { return echoRunner{}, nil }}}})
	tests := []struct {
		name     string
		config   string
		wantCode int
		want     string
	}{
		{"allowed", "scripts:\n  allowed_extensions: [.echo]\n", exitOK, "echo scripts/hello.echo"},
		{"not in the allow-list", "scripts:\n  allowed_extensions: [.sh]\n", exitFailed, ".echo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := pluginTree(t, ".echo", tt.config)
			stdout, stderr, code := runWith(t, cmd, "", map[string]string{"SKILLS_DIR": dir, "SKILLS_STATE_DIR": t.TempDir()},
				"run", "tools/echo", "scripts/hello.echo")
			if code != tt.wantCode || !strings.Contains(stdout+stderr, tt.want) {
				t.Errorf("run: exit %d, want %d; output %q, want it to contain %q", code, tt.wantCode, stdout+stderr, tt.want)
			}
		})
	}
	// The built-in command has no .echo runner.
	dir := pluginTree(t, ".echo", "scripts:\n  allowed_extensions: [.echo]\n")
	if _, stderr, code := runWith(t, New(nil), "", map[string]string{"SKILLS_DIR": dir, "SKILLS_STATE_DIR": t.TempDir()},
		"run", "tools/echo", "scripts/hello.echo"); code == exitOK {
		t.Errorf("run without the plugin: exit 0, want a failure (%s)", stderr)
	}
}

func TestSinkPluginSelectedByName(t *testing.T) {
	t.Parallel()
	sink := &memSink{}
	cmd := New(&Options{Sinks: []SinkPlugin{{Name: "mem", New: func(PluginContext) (core.Sink, error) { return sink, nil }}}})
	session := initializeLine + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_skill","arguments":{"context":"echo"}}}` + "\n"
	tests := []struct {
		name   string
		config string
		env    string
	}{
		{"analytics.sink", "analytics:\n  enabled: true\n  sink: mem\n", ""},
		{"SKILLS_ANALYTICS_SINK over analytics.sink", "analytics:\n  enabled: true\n  sink: log\n", "mem"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			*sink = memSink{}
			dir := pluginTree(t, ".sh", tt.config)
			_, stderr, code := runWith(t, cmd, session, map[string]string{"SKILLS_DIR": dir, "SKILLS_STATE_DIR": t.TempDir(), "SKILLS_ANALYTICS_SINK": tt.env})
			if code != exitOK {
				t.Fatalf("serve: exit %d\n%s", code, stderr)
			}
			sink.mu.Lock()
			defer sink.mu.Unlock()
			var types []string
			for _, ev := range sink.events {
				types = append(types, ev.Type)
			}
			if !strings.Contains(strings.Join(types, " "), "skill_served") || !sink.closed {
				t.Errorf("sink got %v (closed %v), want skill_served delivered at shutdown and the sink closed", types, sink.closed)
			}
		})
	}
}

func TestUnknownPluginNameStopsStartup(t *testing.T) {
	t.Parallel()
	cmd := New(&Options{Sinks: []SinkPlugin{{Name: "custom", New: func(PluginContext) (core.Sink, error) { return &memSink{}, nil }}}})
	for _, tt := range []struct{ name, config, env string }{
		{"env, analytics off", "", "nope"},
		{"config, analytics on", "analytics:\n  enabled: true\n  sink: nope\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := pluginTree(t, ".sh", tt.config)
			_, stderr, code := runWith(t, cmd, "", map[string]string{"SKILLS_DIR": dir, "SKILLS_STATE_DIR": t.TempDir(), "SKILLS_ANALYTICS_SINK": tt.env})
			if want := `sink "nope": not found (known: custom, http, jsonl, log, otlp)`; code != exitUsage || !strings.Contains(stderr, want) {
				t.Errorf("serve: exit %d, stderr %q; want exit %d and %q", code, stderr, exitUsage, want)
			}
		})
	}
}

func TestDuplicatePluginPanics(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts *Options
	}{
		{"runner for .wasm", &Options{Runners: []RunnerPlugin{{Extension: ".wasm", New: func(PluginContext) (core.Runner, error) { return echoRunner{}, nil }}}}},
		{"sink named log", &Options{Sinks: []SinkPlugin{{Name: "log", New: func(PluginContext) (core.Sink, error) { return &memSink{}, nil }}}}},
		{"empty extension", &Options{Runners: []RunnerPlugin{{New: func(PluginContext) (core.Runner, error) { return echoRunner{}, nil }}}}},
		{"nil New", &Options{Sinks: []SinkPlugin{{Name: "x"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("New(%s): no panic, want one", tt.name)
				}
			}()
			New(tt.opts)
		})
	}
}

// firstMatcher matches every skill whose keywords include the context's first word.
type firstMatcher struct{}

func (firstMatcher) Build(entries []core.MatchEntry) core.Searcher {
	return firstSearcher(slices.Clone(entries))
}

type firstSearcher []core.MatchEntry

func (s firstSearcher) Search(context string) []core.Match {
	word, _, _ := strings.Cut(strings.TrimSpace(context), " ")
	var out []core.Match
	for _, e := range s {
		if slices.Contains(e.Keywords, word) {
			out = append(out, core.Match{Path: e.Path, Score: 1})
		}
	}
	return out
}

func TestMatcherPluginSelectedByName(t *testing.T) {
	t.Parallel()
	cmd := New(&Options{Matchers: []MatcherPlugin{{Name: "first", New: func(PluginContext) (core.Matcher, error) { return firstMatcher{}, nil }}}})
	tests := []struct {
		name, config, env string
		wantCode          int
		want              string
	}{
		// "echo zzz" has one unknown word of two: keyword scores it 0.5, "first" 1.
		{"default keyword", "", "", exitOK, "tools/echo"},
		{"matching.matcher", "matching:\n  matcher: first\n", "", exitOK, "tools/echo"},
		{"SKILLS_MATCHER over matching.matcher", "matching:\n  matcher: nope\n", "first", exitOK, "tools/echo"},
		{"unknown", "", "nope", exitUsage, `matcher "nope": not found (known: auto, first, hybrid, keyword, ranked)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := pluginTree(t, ".sh", tt.config)
			stdout, stderr, code := runWith(t, cmd, "", map[string]string{"SKILLS_DIR": dir, "SKILLS_MATCHER": tt.env}, "search", "--json", "echo zzz")
			if code != tt.wantCode || !strings.Contains(stdout+stderr, tt.want) {
				t.Errorf("search: exit %d, want %d; output %q, want %q", code, tt.wantCode, stdout+stderr, tt.want)
			}
		})
	}
	// Only the named matcher decides: "first" ignores every word but the first.
	dir := pluginTree(t, ".sh", "matching:\n  matcher: first\n")
	if stdout, _, _ := runWith(t, cmd, "", map[string]string{"SKILLS_DIR": dir}, "search", "--json", "zzz echo"); strings.Contains(stdout, "tools/echo") {
		t.Errorf("search with the first-word matcher found tools/echo for %q: %s", "zzz echo", stdout)
	}
}

// A plugin's own section of the operator's settings reaches its constructor
// through SettingsOf, decoded into its struct over the defaults it declared.
func TestPluginReadsItsOwnSettings(t *testing.T) {
	t.Parallel()
	type memSettings struct {
		Label string `yaml:"label"`
		Batch int    `yaml:"batch"`
	}
	got := make(chan memSettings, 1)
	cmd := New(&Options{Sinks: []SinkPlugin{{
		Name:     "mem",
		Settings: func() any { return &memSettings{Batch: 10} },
		New: func(pc PluginContext) (core.Sink, error) {
			got <- *SettingsOf[memSettings](pc)
			return &memSink{}, nil
		},
	}}})
	operator := filepath.Join(t.TempDir(), "settings.yaml")
	if err := os.WriteFile(operator, []byte("plugins:\n  sinks:\n    mem:\n      label: team-a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	session := initializeLine + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	dir := pluginTree(t, ".sh", "analytics:\n  enabled: true\n  sink: mem\n")
	if _, stderr, code := runWith(t, cmd, session, map[string]string{"SKILLS_DIR": dir, "SKILLS_STATE_DIR": t.TempDir(), "SKILLS_CONFIG": operator}); code != exitOK {
		t.Fatalf("serve: exit %d\n%s", code, stderr)
	}
	select {
	case s := <-got:
		if want := (memSettings{Label: "team-a", Batch: 10}); s != want {
			t.Errorf("the sink's settings = %+v, want %+v (the file's label over the declared default batch)", s, want)
		}
	default:
		t.Fatal("the sink plugin was never built")
	}
}

// SettingsOf asked for a type other than the one the plugin's Settings
// returns, or asked by a plugin that declares none, is a programming error:
// it panics naming both types instead of handing back nil.
func TestSettingsOfPanicsOnAnotherType(t *testing.T) {
	t.Parallel()
	type lineSettings struct{ File string }
	type otherSettings struct{ File string }
	for _, tt := range []struct {
		name     string
		settings any
		want     []string // in the panic; nil: no panic
	}{
		{"its own type", &lineSettings{File: "f"}, nil},
		{"another struct", &otherSettings{File: "f"}, []string{"*skillscmd.otherSettings", "*skillscmd.lineSettings"}},
		{"the struct, not a pointer", lineSettings{File: "f"}, []string{"are skillscmd.lineSettings", "*skillscmd.lineSettings"}},
		{"no Settings declared", nil, []string{"declares no Settings", "*skillscmd.lineSettings"}},
		{"a nil pointer of its type", (*lineSettings)(nil), []string{"*skillscmd.lineSettings"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got *lineSettings
			msg := func() (msg string) {
				defer func() {
					if r := recover(); r != nil {
						msg = fmt.Sprint(r)
					}
				}()
				got = SettingsOf[lineSettings](PluginContext{Settings: tt.settings})
				return ""
			}()
			if tt.want == nil {
				if msg != "" || got == nil || got.File != "f" {
					t.Fatalf("SettingsOf = %v, panic %q; want the plugin's settings", got, msg)
				}
				return
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("panic %q does not name %q", msg, w)
				}
			}
		})
	}
}
