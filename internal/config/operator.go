package config

import (
	"strings"
)

// operatorSettings are the settings that reach past the content into the
// operator's machine and network and that only a config.yaml the operator
// named may set: where events go (the whole analytics section) and which
// programs run scripts (scripts.runners). Run_script over HTTP and the host
// directories a script sees are never set by a config.yaml (operatorOnly,
// issue 28). Each maps to the reset that puts it back to
// its default. A config.yaml the operator did not name (found in a standard
// location, LoadOptions.Discovered) cannot set them (issue 26, item 5).
var operatorSettings = map[string]func(c *Config, def Config){
	"analytics":       func(c *Config, def Config) { c.Analytics = def.Analytics },
	"scripts.runners": func(c *Config, def Config) { c.Scripts.Runners = def.Scripts.Runners },
}

// ignoredMessage is the warning of each operator setting a discovered
// config.yaml holds.
const ignoredMessage = "ignored: this config.yaml was found in a standard location, not named by SKILLS_DIR or SKILLS_REPO, " +
	"so it cannot set analytics, remote runs, runners or mounts (name its directory in SKILLS_DIR to apply it)"

// underOperatorSetting returns the operator setting key is, or lies under,
// and whether there is one.
func underOperatorSetting(key string) (string, bool) {
	for setting := range operatorSettings {
		if key == setting || strings.HasPrefix(key, setting+".") || strings.HasPrefix(key, setting+"[") {
			return setting, true
		}
	}
	return "", false
}

// ignoreOperatorSettings puts every operator setting the file set back to its
// default, and returns one warning per key it ignored (the keys that hold a
// value, not the sections above them), with its line. errs are the decoding
// errors: those of ignored keys are dropped (their values are not used), the
// others returned.
func (l *Loaded) ignoreOperatorSettings(errs []Problem) (warnings, kept []Problem) {
	def := Default()
	file := displayName(l.Path)
	var keys []string
	for key := range l.lines {
		if setting, ok := underOperatorSetting(key); ok {
			keys = append(keys, key)
			operatorSettings[setting](&l.Config, def)
		}
	}
	warned := map[string]bool{}
	for _, key := range keys {
		if !hasChild(keys, key) {
			warned[key] = true
			warnings = append(warnings, Problem{File: file, Line: l.lines[key], Key: key, Message: ignoredMessage})
		}
	}
	for _, key := range keys {
		delete(l.lines, key)
	}
	for _, p := range errs {
		if _, ok := underOperatorSetting(p.Key); !ok {
			kept = append(kept, p)
		} else if !warned[p.Key] {
			warned[p.Key] = true
			warnings = append(warnings, Problem{File: p.File, Line: p.Line, Key: p.Key, Message: ignoredMessage})
		}
	}
	sortProblems(warnings)
	return warnings, kept
}

// hasChild reports whether keys holds a key below key (key.x or key[i]).
func hasChild(keys []string, key string) bool {
	for _, k := range keys {
		if strings.HasPrefix(k, key+".") || strings.HasPrefix(k, key+"[") {
			return true
		}
	}
	return false
}
