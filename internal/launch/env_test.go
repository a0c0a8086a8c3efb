package launch_test

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/launch"
)

// setHostEnv sets (or, for a nil value, unsets) server variables for one test.
func setHostEnv(t *testing.T, vars map[string]*string) {
	t.Helper()
	for name, value := range vars {
		t.Setenv(name, "") // registers the restore
		if value == nil {
			if err := os.Unsetenv(name); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Setenv(name, *value)
	}
}

func ptr(s string) *string { return &s }

// tmpDefault stands for TMPDIR set to os.TempDir() under the test's environment.
const tmpDefault = "TMPDIR=<default>"

func TestMinimalEnv(t *testing.T) {
	secrets := map[string]*string{
		"GITHUB_TOKEN":          ptr("ghp-secret"),
		"SKILLS_MCP_GIT_TOKEN":  ptr("another-secret"),
		"HTTPS_PROXY":           ptr("http://proxy.invalid"),
		"LD_PRELOAD":            ptr("/tmp/evil.so"),
		"SKILL_ARG_INJECTED":    ptr("from-the-server"),
		"SKILL_DIR":             ptr("/not/the/skill"),
		"BASH_ENV":              ptr("/tmp/evil.sh"),
		"AWS_SECRET_ACCESS_KEY": ptr("aws-secret"),
	}
	for _, tc := range []struct {
		name string
		host map[string]*string
		args map[string]string
		want []string
	}{
		{
			name: "server values are kept, nothing else",
			host: map[string]*string{"PATH": ptr("/opt/bin:/usr/bin"), "HOME": ptr("/home/srv"),
				"LANG": ptr("fr_FR.UTF-8"), "TMPDIR": ptr("/var/tmp/srv")},
			args: map[string]string{"target": "prod"},
			want: []string{"HOME=/home/srv", "LANG=fr_FR.UTF-8", "PATH=/opt/bin:/usr/bin",
				"SKILL_ARG_TARGET=prod", "SKILL_DIR=/skills/deploy", "TMPDIR=/var/tmp/srv"},
		},
		{
			name: "defaults when the server has none",
			host: map[string]*string{"PATH": nil, "HOME": nil, "LANG": nil, "TMPDIR": nil},
			want: []string{"LANG=C.UTF-8", "PATH=/usr/local/bin:/usr/bin:/bin",
				"SKILL_DIR=/skills/deploy", tmpDefault},
		},
		{
			name: "empty server values count as unset",
			host: map[string]*string{"PATH": ptr(""), "HOME": ptr(""), "LANG": ptr(""), "TMPDIR": ptr("")},
			want: []string{"LANG=C.UTF-8", "PATH=/usr/local/bin:/usr/bin:/bin",
				"SKILL_DIR=/skills/deploy", tmpDefault},
		},
		{
			name: "relative PATH entries never reach the script (they would find programs in its cwd)",
			host: map[string]*string{"PATH": ptr(".::bin:/opt/bin:./x:/usr/bin:"), "HOME": ptr("/h"), "LANG": ptr("C"), "TMPDIR": ptr("/t")},
			want: []string{"HOME=/h", "LANG=C", "PATH=/opt/bin:/usr/bin", "SKILL_DIR=/skills/deploy", "TMPDIR=/t"},
		},
		{
			name: "a PATH of relative entries only gets the default",
			host: map[string]*string{"PATH": ptr(".:bin"), "HOME": ptr("/h"), "LANG": ptr("C"), "TMPDIR": ptr("/t")},
			want: []string{"HOME=/h", "LANG=C", "PATH=/usr/local/bin:/usr/bin:/bin", "SKILL_DIR=/skills/deploy", "TMPDIR=/t"},
		},
		{
			name: "arguments sorted by variable name",
			host: map[string]*string{"PATH": ptr("/bin"), "HOME": ptr("/h"), "LANG": ptr("C"), "TMPDIR": ptr("/t")},
			args: map[string]string{"b": "2", "a_b": "4", "a1": "3", "a": "1"},
			want: []string{"HOME=/h", "LANG=C", "PATH=/bin", "SKILL_ARG_A=1", "SKILL_ARG_A1=3",
				"SKILL_ARG_A_B=4", "SKILL_ARG_B=2", "SKILL_DIR=/skills/deploy", "TMPDIR=/t"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setHostEnv(t, secrets)
			setHostEnv(t, tc.host)
			want := slices.Clone(tc.want)
			if i := slices.Index(want, tmpDefault); i >= 0 {
				want[i] = "TMPDIR=" + os.TempDir() // the OS default, once TMPDIR is unset
			}

			got, err := launch.MinimalEnv("/skills/deploy", tc.args)

			if err != nil {
				t.Fatalf("MinimalEnv: %v", err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("MinimalEnv:\ngot  %q\nwant %q", got, want)
			}
		})
	}
}

func TestArgEnvKeepsValuesVerbatim(t *testing.T) {
	for _, tc := range []struct {
		name, arg, value, want string
	}{
		{"lower-case name is upper-cased", "name", "x", "SKILL_ARG_NAME=x"},
		{"mixed case and digits", "maxRetries2", "3", "SKILL_ARG_MAXRETRIES2=3"},
		{"hyphen becomes underscore", "client-id", "abc", "SKILL_ARG_CLIENT_ID=abc"},
		{"command substitution", "v", "$(touch marker)", "SKILL_ARG_V=$(touch marker)"},
		{"command separator", "v", "; rm -rf x", "SKILL_ARG_V=; rm -rf x"},
		{"quotes and spaces", "v", `a b "c"`, `SKILL_ARG_V=a b "c"`},
		{"newline", "v", "one\ntwo", "SKILL_ARG_V=one\ntwo"},
		{"equals sign", "v", "a=b", "SKILL_ARG_V=a=b"},
		{"empty value", "v", "", "SKILL_ARG_V="},
		{"non-ASCII value", "v", "données ✓", "SKILL_ARG_V=données ✓"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := launch.ArgEnv(map[string]string{tc.arg: tc.value})
			if err != nil {
				t.Fatalf("ArgEnv: %v", err)
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("ArgEnv = %q, want [%q]", got, tc.want)
			}
		})
	}
}

func TestArgEnvRejects(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     map[string]string
		wantText string
	}{
		{"empty name", map[string]string{"": "x"}, "empty name"},
		{"dot", map[string]string{"dry.run": "x"}, `"dry.run"`},
		{"hyphen and underscore collide", map[string]string{"dry-run": "1", "dry_run": "2"}, "SKILL_ARG_DRY_RUN"},
		{"space", map[string]string{"a b": "x"}, `"a b"`},
		{"dollar", map[string]string{"$x": "x"}, `"$x"`},
		{"equals", map[string]string{"a=b": "x"}, `"a=b"`},
		{"non-ASCII letter", map[string]string{"é": "x"}, `"é"`},
		{"NUL in name", map[string]string{"a\x00": "x"}, `"a\x00"`},
		{"NUL in value", map[string]string{"ok": "a\x00b"}, `"ok"`},
		{"names equal once upper-cased", map[string]string{"Name": "1", "NAME": "2"}, "SKILL_ARG_NAME"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := launch.ArgEnv(tc.args)
			if !errors.Is(err, core.ErrInvalidArgument) {
				t.Fatalf("ArgEnv = %q, %v; want an error wrapping %v", got, err, core.ErrInvalidArgument)
			}
			if !strings.Contains(err.Error(), tc.wantText) {
				t.Errorf("error %q does not name %s", err, tc.wantText)
			}
			if _, err := launch.MinimalEnv("/skill", tc.args); !errors.Is(err, core.ErrInvalidArgument) {
				t.Errorf("MinimalEnv error = %v, want one wrapping %v", err, core.ErrInvalidArgument)
			}
		})
	}
}

func TestCheckArgName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"a", true}, {"Z", true}, {"_", true}, {"snake_case_9", true}, {"0", true},
		{"a-b", true}, {"", false}, {"a.b", false}, {"a b", false}, {"ß", false}, {"a\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := launch.CheckArgName(tc.name)
			if got := err == nil; got != tc.ok {
				t.Errorf("CheckArgName(%q) = %v, want ok %v", tc.name, err, tc.ok)
			}
		})
	}
}

// FuzzArgEnv checks that any argument either becomes exactly one
// SKILL_ARG_[A-Z0-9_]+ entry holding the value verbatim, or is refused as an
// invalid argument.
func FuzzArgEnv(f *testing.F) {
	for _, seed := range [][2]string{{"name", "value"}, {"a-b", "x"}, {"v", "$(id)"}, {"", ""}, {"x", "a\x00b"}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, name, value string) {
		env, err := launch.ArgEnv(map[string]string{name: value})
		if err != nil {
			if !errors.Is(err, core.ErrInvalidArgument) {
				t.Fatalf("ArgEnv(%q, %q) error %v does not wrap %v", name, value, err, core.ErrInvalidArgument)
			}
			return
		}
		if len(env) != 1 {
			t.Fatalf("ArgEnv(%q) = %q, want one entry", name, env)
		}
		key, got, _ := strings.Cut(env[0], "=")
		suffix, ok := strings.CutPrefix(key, launch.ArgEnvPrefix)
		if !ok || suffix == "" || strings.Trim(suffix, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != "" {
			t.Fatalf("ArgEnv(%q) variable name %q, want SKILL_ARG_[A-Z0-9_]+", name, key)
		}
		if got != value {
			t.Fatalf("ArgEnv(%q) value %q, want %q", name, got, value)
		}
	})
}
