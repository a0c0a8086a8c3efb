package config

import (
	"fmt"
	"slices"
	"strings"
)

// operatorOnly are the settings that decide what a script may reach on the
// operator's machine (issue 28). A config.yaml belongs to the content, so
// it never sets them, wherever it was found: each one it holds is ignored
// with one warning naming the operator's variable, unless its value only
// narrows what the operator grants (narrows reports that).
var operatorOnly = []struct {
	key, env string
	narrows  func(c Config) bool
	reset    func(c *Config, def Config)
}{
	{"scripts.sandbox", "SKILLS_SCRIPTS_SANDBOX", func(c Config) bool { return c.Scripts.Sandbox == "confined" },
		func(c *Config, def Config) { c.Scripts.Sandbox = def.Scripts.Sandbox }},
	{"scripts.network", "SKILLS_SCRIPTS_NETWORK", func(c Config) bool { return c.Scripts.Network == "deny" },
		func(c *Config, def Config) { c.Scripts.Network = def.Scripts.Network }},
	{"scripts.allow_remote", "SKILLS_SCRIPTS_ALLOW_REMOTE", func(c Config) bool { return !c.Scripts.AllowRemote },
		func(c *Config, def Config) { c.Scripts.AllowRemote = def.Scripts.AllowRemote }},
	{"wasm.mounts", "SKILLS_WASM_MOUNTS", func(c Config) bool { return len(c.Wasm.Mounts) == 0 },
		func(c *Config, def Config) { c.Wasm.Mounts = def.Wasm.Mounts }},
	{"wasm.cwd_roots", "SKILLS_SCRIPTS_WRITE_ROOTS", func(c Config) bool { return len(c.Wasm.CwdRoots) == 0 },
		func(c *Config, def Config) { c.Wasm.CwdRoots = def.Wasm.CwdRoots }},
}

// OperatorOnlySettings returns, in order, the dotted keys a config.yaml
// never sets, each with the variable the operator sets it with.
func OperatorOnlySettings() [][2]string {
	out := make([][2]string, len(operatorOnly))
	for i, o := range operatorOnly {
		out[i] = [2]string{o.key, o.env}
	}
	return out
}

// ignoreOperatorOnly puts every operator-only setting the file widened back
// to its default, with one warning each at the setting's line. errs are the
// decoding errors: those under an ignored setting are dropped (the value is
// not used), the others returned.
func (l *Loaded) ignoreOperatorOnly(errs []Problem) (warnings, kept []Problem) {
	def := Default()
	file := displayName(l.Path)
	var ignored []string
	for _, o := range operatorOnly {
		line, set := l.lines[o.key]
		failed := slices.ContainsFunc(errs, func(p Problem) bool { return under(p.Key, o.key) })
		if !set && !failed || set && !failed && o.narrows(l.Config) {
			continue
		}
		o.reset(&l.Config, def)
		ignored = append(ignored, o.key)
		if !set {
			line = errs[slices.IndexFunc(errs, func(p Problem) bool { return under(p.Key, o.key) })].Line
		}
		warnings = append(warnings, Problem{File: file, Line: line, Key: o.key, Message: fmt.Sprintf(
			"ignored: the operator sets this, not the content's config.yaml (issue 28): set %s in the server's environment instead", o.env)})
		for key := range l.lines {
			if under(key, o.key) {
				delete(l.lines, key)
			}
		}
	}
	for _, p := range errs {
		if !slices.ContainsFunc(ignored, func(k string) bool { return under(p.Key, k) }) {
			kept = append(kept, p)
		}
	}
	return warnings, kept
}

// under reports whether key is setting or lies below it.
func under(key, setting string) bool {
	return key == setting || strings.HasPrefix(key, setting+".") || strings.HasPrefix(key, setting+"[")
}
