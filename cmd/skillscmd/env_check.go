package skillscmd

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// knownEnv are the environment variables skills-mcp reads, each checked the
// same way when set: a value it cannot use stops with a usage error naming
// the variable (checkEnvValues), and a variable of the project's prefix that
// is none of them but close to one gets a warning naming it (misspelledEnv).
var knownEnv = []string{
	"SKILLS_ANALYTICS_SINK", "SKILLS_BRANCH", "SKILLS_CACHE_DIR", "SKILLS_CONFIG", "SKILLS_DIR",
	"SKILLS_EMBEDDINGS_KEY", "SKILLS_EMBEDDINGS_KEY_FILE", "SKILLS_EMBEDDINGS_MODEL", "SKILLS_EMBEDDINGS_URL",
	"SKILLS_GIT_TIMEOUT_SECONDS", "SKILLS_HTTP_ADDR", "SKILLS_HTTP_STATELESS", "SKILLS_HTTP_TOKEN",
	"SKILLS_HTTP_TOKEN_FILE", "SKILLS_LOG_LEVEL", "SKILLS_MATCHER", "SKILLS_REPO", "SKILLS_SCRIPTS_MAX_CONCURRENT",
	"SKILLS_SCRIPTS_WRITE_ROOTS", "SKILLS_STATE_DIR", "SKILLS_TOOLS",
	// the operator's script settings (each also a key of SKILLS_CONFIG's file)
	"SKILLS_SCRIPTS_ALLOW_REMOTE", "SKILLS_SCRIPTS_ENV", "SKILLS_SCRIPTS_MEMORY_MB", "SKILLS_SCRIPTS_NETWORK",
	"SKILLS_SCRIPTS_READ_ROOTS", "SKILLS_SCRIPTS_RUNNERS", "SKILLS_SCRIPTS_SANDBOX", "SKILLS_WASM_MOUNTS",
	// set by others: the benchmark's corpora, a script run's id
	"SKILLS_BENCH_CORPORA", "SKILLS_RUN_ID",
	// read by the signed-content settings
	"SKILLS_ALLOWED_SIGNERS", "SKILLS_LOCK", "SKILLS_REF", "SKILLS_VERIFY",
}

// logLevels are the values of SKILLS_LOG_LEVEL.
var logLevels = []string{"trace", "debug", "info", "warn", "error"}

// checkEnvValues refuses a value of SKILLS_LOG_LEVEL or SKILLS_HTTP_STATELESS
// that would otherwise be read as the default without a word, as a wrong
// SKILLS_MATCHER or SKILLS_TOOLS is refused.
func checkEnvValues(getenv func(string) string) error {
	if v := strings.TrimSpace(getenv("SKILLS_LOG_LEVEL")); v != "" && logLevel(v) == "" {
		hint := ""
		if near := closest(v, logLevels); near != "" {
			hint = fmt.Sprintf("did you mean %s? ", near)
		}
		return usagef("SKILLS_LOG_LEVEL=%q is not a log level: %sit is one of %s", v, hint, strings.Join(logLevels, ", "))
	}
	if v := strings.TrimSpace(getenv("SKILLS_HTTP_STATELESS")); v != "" {
		if _, err := strconv.ParseBool(v); err != nil {
			return usagef("SKILLS_HTTP_STATELESS=%q: want true or false (1 or 0)", v)
		}
	}
	return nil
}

// logLevel is the hclog level SKILLS_LOG_LEVEL names (case aside; "warning"
// is "warn"), "" for none.
func logLevel(v string) string {
	v = strings.ToLower(strings.TrimSpace(v))
	if v == "warning" {
		return "warn"
	}
	for _, l := range logLevels {
		if v == l {
			return l
		}
	}
	return ""
}

// misspelledEnv returns one warning for each variable of environ (KEY=VALUE
// lines) that starts like the project's (SKILLS_, SKILL_) without being one
// skills-mcp reads, when it is close to one that is not set: SKILLS_TOOL for
// SKILLS_TOOLS, SKILL_DIR for SKILLS_DIR. Sorted.
func misspelledEnv(environ []string, getenv func(string) string) []string {
	known := make(map[string]bool, len(knownEnv))
	for _, k := range knownEnv {
		known[k] = true
	}
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		if known[name] || !(strings.HasPrefix(upper, "SKILLS_") || strings.HasPrefix(upper, "SKILL_")) {
			continue
		}
		near := closest(name, knownEnv)
		if near == "" || getenv(near) != "" {
			continue
		}
		out = append(out, fmt.Sprintf("%s is set, but skills-mcp reads no such variable: did you mean %s?", name, near))
	}
	sort.Strings(out)
	return out
}
