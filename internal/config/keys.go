package config

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Access says who may set a key: the content (its config.yaml) or only the
// operator (the settings file SKILLS_CONFIG names, the environment, flags).
type Access int

const (
	// ContentMay: the content's config.yaml sets it, like the operator.
	ContentMay Access = iota
	// ContentNamed: only a config.yaml the operator named (SKILLS_DIR,
	// SKILLS_REPO) sets it; one found in a standard location (a project
	// being worked on, LoadOptions.Discovered) does not.
	ContentNamed
	// ContentNarrows: the content may only narrow what the operator grants
	// (deny the network, lower the bound of runs at once); a value that would
	// widen it is ignored. Loaded.Content keeps the content's value apart.
	ContentNarrows
	// OperatorOnly: never the content's; only a value that grants nothing
	// (the default) passes without a warning.
	OperatorOnly
)

// String is how the table of keys in the README says it.
func (a Access) String() string {
	switch a {
	case ContentNamed:
		return "named only"
	case ContentNarrows:
		return "narrow only"
	case OperatorOnly:
		return "no"
	default:
		return "yes"
	}
}

// Key is one row of the table of settings that are not simply the content's:
// a dotted key (a section covers every key below it), who may set it, and
// the operator's variable and flag for it.
type Key struct {
	// Name is the dotted key ("scripts.sandbox") or section ("analytics").
	Name string
	// Access says who may set it.
	Access Access
	// Env is the environment variable the operator sets it with, "" if none.
	Env string
	// Flag is the command-line flag, "" if none.
	Flag string
	// narrows reports whether the content's value only narrows what the
	// operator grants (ContentNarrows, OperatorOnly): such a value stays
	// without a warning. Nil: every value is ignored.
	narrows func(c Config) bool
	// strict: a wrong type stays an error, as for a ContentMay key, rather
	// than ignored with the key.
	strict bool
}

// keys is the one table of who sets what. A key not listed here (nor below
// a listed section) is the content's to set (ContentMay); every key is the
// operator's too, in the settings file, and the plugins' sections
// (plugins.*) are the operator's only.
var keys = []Key{
	{Name: "analytics", Access: ContentNamed},
	{Name: "analytics.enabled", Access: ContentNamed, Env: EnvAnalyticsEndpoint},
	{Name: "analytics.endpoint", Access: ContentNamed, Env: EnvAnalyticsEndpoint},
	{Name: "analytics.sink", Access: ContentNamed, Env: "SKILLS_ANALYTICS_SINK"},
	{Name: "matching.matcher", Access: ContentMay, Env: "SKILLS_MATCHER"},
	{Name: "plugins", Access: OperatorOnly},
	{Name: "refresh.git_timeout_seconds", Access: ContentMay, Env: EnvGitTimeout},
	{Name: "refresh.interval_minutes", Access: ContentMay, Env: EnvRefreshInterval},
	{Name: "scripts.allow_remote", Access: OperatorOnly, Env: "SKILLS_SCRIPTS_ALLOW_REMOTE",
		narrows: func(c Config) bool { return !c.Scripts.AllowRemote }},
	{Name: "scripts.max_concurrent", Access: ContentNarrows, Env: "SKILLS_SCRIPTS_MAX_CONCURRENT",
		narrows: func(Config) bool { return true }, strict: true}, // a higher bound than the operator's is ignored where both are known
	{Name: "scripts.network", Access: ContentNarrows, Env: "SKILLS_SCRIPTS_NETWORK", Flag: "--scripts-network",
		narrows: func(c Config) bool { return c.Scripts.Network == "deny" }},
	{Name: "scripts.env", Access: OperatorOnly, Env: "SKILLS_SCRIPTS_ENV", Flag: "--scripts-env",
		narrows: func(c Config) bool { return len(c.Scripts.Env) == 0 }},
	{Name: "scripts.memory_mb", Access: ContentNarrows, Env: "SKILLS_SCRIPTS_MEMORY_MB", Flag: "--scripts-memory-mb",
		narrows: func(Config) bool { return true }, strict: true}, // a higher bound is ignored where both are known
	{Name: "scripts.read_roots", Access: OperatorOnly, Env: "SKILLS_SCRIPTS_READ_ROOTS", Flag: "--scripts-read-roots",
		narrows: func(c Config) bool { return len(c.Scripts.ReadRoots) == 0 }},
	{Name: "scripts.runners", Access: ContentNamed, Env: "SKILLS_SCRIPTS_RUNNERS"},
	{Name: "scripts.sandbox", Access: OperatorOnly, Env: "SKILLS_SCRIPTS_SANDBOX", Flag: "--scripts-sandbox",
		narrows: func(c Config) bool { return c.Scripts.Sandbox == "confined" }},
	{Name: "wasm.cwd_roots", Access: OperatorOnly, Env: "SKILLS_SCRIPTS_WRITE_ROOTS",
		narrows: func(c Config) bool { return len(c.Wasm.CwdRoots) == 0 }},
	{Name: "wasm.mounts", Access: OperatorOnly, Env: "SKILLS_WASM_MOUNTS",
		narrows: func(c Config) bool { return len(c.Wasm.Mounts) == 0 }},
}

// Keys returns the table of who sets what, sorted by name.
func Keys() []Key { return slices.Clone(keys) }

// KeyOf returns the row that governs the dotted key: its own or its
// section's; a key of no row is the content's (ContentMay).
func KeyOf(key string) Key {
	best := Key{Name: key}
	found := false
	for _, k := range keys {
		if under(key, k.Name) && (!found || len(k.Name) > len(best.Name)) {
			best, found = k, true
		}
	}
	return best
}

// operatorSetting says how the operator sets key: its variable, and the
// same key in the settings file.
func (k Key) operatorSetting() string {
	if k.Env == "" {
		return fmt.Sprintf("%s in the operator's settings file (SKILLS_CONFIG) instead", k.Name)
	}
	return fmt.Sprintf("%s in the server's environment instead, or %s in the operator's settings file (SKILLS_CONFIG)", k.Env, k.Name)
}

// discoveredMessage is the warning of each key a discovered config.yaml
// holds that only a named one sets (ContentNamed).
const discoveredMessage = "ignored: this config.yaml was found in a standard location, not named by SKILLS_DIR or SKILLS_REPO, " +
	"so it cannot set analytics or runners (name its directory in SKILLS_DIR to apply it, or set it in the operator's settings file, SKILLS_CONFIG)"

// applyAccess holds the content's layer l to the table: each key the
// content may not set goes back to its default, with warnings — one per
// key the operator alone sets (naming the operator's setting), one per
// value a discovered file held of a ContentNamed section. errs are the
// decoding errors: those under an ignored key are dropped (the value is
// not used), the others returned.
func (l *layer) applyAccess(discovered bool, errs []Problem) (warnings, kept []Problem) {
	def := Default()
	var ignored []string
	for _, k := range keys {
		failed := slices.IndexFunc(errs, func(p Problem) bool { return under(p.Key, k.Name) })
		if k.strict {
			failed = -1
		}
		var set []string
		for key := range l.lines {
			if under(key, k.Name) {
				set = append(set, key)
			}
		}
		if len(set) == 0 && failed < 0 {
			continue
		}
		switch k.Access {
		case ContentMay:
			continue
		case ContentNamed:
			if !discovered {
				continue
			}
			for _, key := range set {
				if !hasChild(set, key) {
					warnings = append(warnings, Problem{File: l.file, Line: l.lines[key], Key: key, Message: discoveredMessage})
				}
			}
			for _, p := range errs {
				if under(p.Key, k.Name) && !slices.Contains(set, p.Key) {
					warnings = append(warnings, Problem{File: p.File, Line: p.Line, Key: p.Key, Message: discoveredMessage})
				}
			}
		case ContentNarrows, OperatorOnly:
			if failed < 0 && k.narrows != nil && k.narrows(l.cfg) {
				continue
			}
			line, ok := l.lines[k.Name]
			if !ok {
				line = errs[failed].Line
			}
			warnings = append(warnings, Problem{File: l.file, Line: line, Key: k.Name,
				Message: "ignored: the operator sets this, not the content's config.yaml: set " + k.operatorSetting()})
		}
		ignored = append(ignored, k.Name)
		resetKey(&l.cfg, def, k.Name)
		for _, key := range set {
			delete(l.lines, key)
		}
	}
	for _, p := range errs {
		if !slices.ContainsFunc(ignored, func(k string) bool { return under(p.Key, k) }) {
			kept = append(kept, p)
		}
	}
	sortProblems(warnings)
	return warnings, kept
}

// resetKey puts the value of the dotted key (a field path of yaml names)
// in c back to def's, a copy of it.
func resetKey(c *Config, def Config, key string) {
	dst, src := reflect.ValueOf(c).Elem(), reflect.ValueOf(&def).Elem()
	for _, name := range strings.Split(key, ".") {
		i := fieldByYAML(dst.Type(), name)
		if i < 0 {
			return // not a field (a plugin section): nothing of Config to reset
		}
		dst, src = dst.Field(i), src.Field(i)
	}
	dst.Set(deepCopy(src))
}

// fieldByYAML is the index of the field of struct type t whose yaml name is
// name, -1 if none.
func fieldByYAML(t reflect.Type, name string) int {
	if t.Kind() != reflect.Struct {
		return -1
	}
	for i := 0; i < t.NumField(); i++ {
		if strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0] == name {
			return i
		}
	}
	return -1
}

// deepCopy copies v with its maps and slices, so that a layer decoded over
// the copy leaves the original as it was.
func deepCopy(v reflect.Value) reflect.Value {
	out := reflect.New(v.Type()).Elem()
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			out.Field(i).Set(deepCopy(v.Field(i)))
		}
	case reflect.Map:
		if v.IsNil() {
			return out
		}
		out.Set(reflect.MakeMapWithSize(v.Type(), v.Len()))
		for _, k := range v.MapKeys() {
			out.SetMapIndex(k, deepCopy(v.MapIndex(k)))
		}
	case reflect.Slice:
		if v.IsNil() {
			return out
		}
		out.Set(reflect.MakeSlice(v.Type(), v.Len(), v.Len()))
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(deepCopy(v.Index(i)))
		}
	default:
		out.Set(v)
	}
	return out
}

// clone is a deep copy of c.
func (c Config) clone() Config { return deepCopy(reflect.ValueOf(c)).Interface().(Config) }

// under reports whether key is setting or lies below it.
func under(key, setting string) bool {
	return key == setting || strings.HasPrefix(key, setting+".") || strings.HasPrefix(key, setting+"[")
}

// hasChild reports whether keys holds a key below key (key.x or key[i]).
func hasChild(keys []string, key string) bool {
	for _, k := range keys {
		if k != key && under(k, key) {
			return true
		}
	}
	return false
}
