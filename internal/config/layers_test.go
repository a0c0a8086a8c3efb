package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// write puts body in dir/name and returns its path.
func write(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLayerOrder: the same key set at each layer, the highest wins:
// defaults < the content's config.yaml < the operator's file < environment.
func TestLayerOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name              string
		content, operator string // refresh.git_timeout_seconds in each file, "" for none
		env               string
		want              int
		wantOrigin        string // "content", "operator", the variable, or "default"
	}{
		{name: "default", want: 20, wantOrigin: "default"},
		{name: "content over default", content: "30", want: 30, wantOrigin: "content"},
		{name: "operator over content", content: "30", operator: "40", want: 40, wantOrigin: "operator"},
		{name: "operator alone", operator: "40", want: 40, wantOrigin: "operator"},
		{name: "environment over operator", content: "30", operator: "40", env: "50", want: 50, wantOrigin: EnvGitTimeout},
		{name: "environment over content", content: "30", env: "50", want: 50, wantOrigin: EnvGitTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir, opDir := t.TempDir(), t.TempDir()
			if tt.content != "" {
				write(t, dir, FileName, "refresh:\n  git_timeout_seconds: "+tt.content+"\n")
			}
			opts := LoadOptions{Content: []string{dir}}
			if tt.operator != "" {
				opts.OperatorFile = write(t, opDir, "operator.yaml", "# the operator's\nrefresh:\n  git_timeout_seconds: "+tt.operator+"\n")
			}
			got, err := LoadWith(dir, func(k string) string {
				if k == EnvGitTimeout {
					return tt.env
				}
				return ""
			}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if g := got.Config.Refresh.GitTimeoutSeconds; g != tt.want {
				t.Errorf("refresh.git_timeout_seconds = %d, want %d", g, tt.want)
			}
			want := map[string]string{
				"content":  filepath.Join(dir, FileName) + ":2",
				"operator": opts.OperatorFile + ":3",
			}[tt.wantOrigin]
			if want == "" {
				want = tt.wantOrigin
			}
			if o := got.Origin("refresh.git_timeout_seconds"); o != want {
				t.Errorf("Origin = %q, want %q", o, want)
			}
		})
	}
}

// TestOperatorFileSetsOperatorOnlyKeys: what the content may not set, the
// operator's file does, without a warning; the same keys in the content
// are ignored with one warning each, naming the operator's setting.
func TestOperatorFileSetsOperatorOnlyKeys(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	content := write(t, dir, FileName, "scripts:\n  sandbox: none\n  allow_remote: true\nwasm:\n  mounts:\n    /data: /srv\n")
	op := write(t, t.TempDir(), "skills-mcp.yaml", "scripts:\n  sandbox: none\n  allow_remote: true\n  network: allow\nwasm:\n  mounts:\n    /data: /srv/data\n")
	got, err := LoadWith(dir, nil, LoadOptions{OperatorFile: op, Content: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	c := got.Config
	if c.Scripts.Sandbox != "none" || !c.Scripts.AllowRemote || c.Scripts.Network != "allow" || c.Wasm.Mounts["/data"] != "/srv/data" {
		t.Errorf("the operator's file not applied: %+v %+v", c.Scripts, c.Wasm)
	}
	if got.Content.Scripts.Sandbox != "confined" || got.Content.Scripts.AllowRemote || len(got.Content.Wasm.Mounts) != 0 {
		t.Errorf("the content's layer kept operator-only values: %+v %+v", got.Content.Scripts, got.Content.Wasm)
	}
	want := []string{
		content + ":2: scripts.sandbox: ignored: the operator sets this, not the content's config.yaml: set SKILLS_SCRIPTS_SANDBOX in the server's environment instead, or scripts.sandbox in the operator's settings file (SKILLS_CONFIG)",
		content + ":3: scripts.allow_remote: ignored",
		content + ":5: wasm.mounts: ignored",
	}
	if len(got.Warnings) != len(want) {
		t.Fatalf("warnings %q, want one per ignored key: %q", got.Warnings, want)
	}
	for i, w := range want {
		if !strings.HasPrefix(got.Warnings[i], w) {
			t.Errorf("warning %d = %q, want it to start %q", i, got.Warnings[i], w)
		}
	}
	if !got.ByOperator("scripts.sandbox") || got.InContent("scripts.sandbox") {
		t.Errorf("ByOperator/InContent(scripts.sandbox) = %v/%v, want true/false", got.ByOperator("scripts.sandbox"), got.InContent("scripts.sandbox"))
	}
}

// TestContentNarrowsTheOperator: the content's narrowing values are kept
// apart (Loaded.Content), so that they narrow the operator's grant.
func TestContentNarrowsTheOperator(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, dir, FileName, "scripts:\n  network: deny\n  max_concurrent: 2\n")
	op := write(t, t.TempDir(), "op.yaml", "scripts:\n  network: allow\n  max_concurrent: 6\n")
	got, err := LoadWith(dir, nil, LoadOptions{OperatorFile: op})
	if err != nil {
		t.Fatal(err)
	}
	if got.Config.Scripts.Network != "allow" || got.Config.Scripts.MaxConcurrent != 6 {
		t.Errorf("the operator's grant = %+v, want allow and 6", got.Config.Scripts)
	}
	if !got.InContent("scripts.network") || got.Content.Scripts.MaxConcurrent != 2 {
		t.Errorf("the content's narrowing lost: %+v", got.Content.Scripts)
	}
	if len(got.Warnings) != 0 {
		t.Errorf("warnings %q, want none", got.Warnings)
	}
}

// TestOperatorFileRefused: SKILLS_CONFIG that is missing, unreadable, a
// directory or inside the content stops the load, naming it.
func TestOperatorFileRefused(t *testing.T) {
	t.Parallel()
	skills := t.TempDir()
	outside := t.TempDir()
	unreadable := write(t, outside, "locked.yaml", "scripts:\n  sandbox: none\n")
	if err := os.Chmod(unreadable, 0); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(outside, "link.yaml")
	if err := os.Symlink(write(t, skills, "sub/op.yaml", "{}\n"), link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(outside, "nope.yaml"), "cannot be read"},
		{"a directory", outside, "not a regular file"},
		{"inside the skills", write(t, skills, "operator.yaml", "{}\n"), "lies inside the content (" + skills + ")"},
		{"a link into the skills", link, "lies inside the content"},
		{"invalid", write(t, outside, "bad.yaml", "scripts:\n  sandbox: maybe\n"), "scripts.sandbox: want confined or none"},
	}
	if os.Geteuid() != 0 { // root reads a file of mode 0
		tests = append(tests, struct{ name, path, want string }{"unreadable", unreadable, "permission denied"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadWith(skills, nil, LoadOptions{OperatorFile: tt.path, Content: []string{skills}})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error with %q", err, tt.want)
			}
			if tt.name != "invalid" && !strings.Contains(err.Error(), EnvOperatorFile+"="+tt.path) {
				t.Errorf("got %v, want it to name %s=%s", err, EnvOperatorFile, tt.path)
			}
			if tt.name == "invalid" && !strings.Contains(err.Error(), tt.path+":2:") {
				t.Errorf("got %v, want the operator file's line", err)
			}
		})
	}
}

// linesSettings is a plugin's own settings type, as a custom sink declares it.
type linesSettings struct {
	File     string `yaml:"file"`
	MaxBytes int64  `yaml:"max_bytes"`
}

// TestPluginSections: a plugin's section is decoded into its own type from
// the operator's file, over its defaults; an unknown key is warned about
// and a wrong type refused at its line; an undeclared section is warned
// about; the content's plugins section is ignored with one warning.
func TestPluginSections(t *testing.T) {
	t.Parallel()
	sections := []Section{{Key: "plugins.sinks.lines", New: func() any { return &linesSettings{MaxBytes: 100} }}}
	tests := []struct {
		name, content, operator string
		wantFile                string
		wantWarn, wantErr       string // fragments, with the line
	}{
		{name: "decoded", operator: "plugins:\n  sinks:\n    lines:\n      file: /var/log/e.jsonl\n", wantFile: "/var/log/e.jsonl"},
		{name: "unknown key at its line", operator: "plugins:\n  sinks:\n    lines:\n      file: /x\n      fiel: /y\n",
			wantFile: "/x", wantWarn: ":5: plugins.sinks.lines.fiel: unknown key (ignored)"},
		{name: "wrong type at its line", operator: "plugins:\n  sinks:\n    lines:\n      max_bytes: lots\n",
			wantErr: ":4: plugins.sinks.lines.max_bytes: want a whole number, got the string \"lots\""},
		{name: "undeclared section", operator: "plugins:\n  sinks:\n    liens: {}\n",
			wantWarn: ":3: plugins.sinks.liens: unknown plugin section"},
		{name: "in the content", content: "plugins:\n  sinks:\n    lines:\n      file: /etc/passwd\n",
			wantWarn: ":1: plugins: ignored: the operator sets this, not the content's config.yaml: set plugins in the operator's settings file (SKILLS_CONFIG) instead"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			opts := LoadOptions{Sections: sections}
			if tt.content != "" {
				write(t, dir, FileName, tt.content)
			}
			if tt.operator != "" {
				opts.OperatorFile = write(t, t.TempDir(), "op.yaml", tt.operator)
			}
			got, err := LoadWith(dir, nil, opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s, _ := got.Plugin("plugins.sinks.lines").(*linesSettings)
			if s == nil || s.File != tt.wantFile || s.MaxBytes != 100 {
				t.Errorf("settings = %+v, want file %q over the default max_bytes 100", s, tt.wantFile)
			}
			warned := strings.Join(got.Warnings, "\n")
			if tt.wantWarn == "" && warned != "" || !strings.Contains(warned, tt.wantWarn) {
				t.Errorf("warnings %q, want %q", warned, tt.wantWarn)
			}
		})
	}
}
