package config

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// configHelp explains each config.yaml key; Reference fails loudly (in
// its test) when a key of config.Config has no line here.
var configHelp = map[string]string{
	"matching":                         "routing get_skill contexts to skills (spec 000 §5)",
	"matching.min_score":               "keyword matcher (spec 000 §5): skills scoring below this are excluded (0.0-1.0)",
	"matching.max_results":             "how many ambiguous candidates get_skill returns",
	"matching.ambiguity_threshold":     "a gap between the top two scores below this is ambiguous (0.0-1.0)",
	"matching.min_confidence":          "under the ranked matcher, whose scores are confidences (the share of the request a skill covers), no_match below this; ambiguous candidates, within ambiguity_threshold of the best, reach half of it (0.0-1.0; min_score applies to keyword only)",
	"matching.matcher":                 "the matcher by name: auto (default: keyword when every skill declares keywords, ranked when most do not, both otherwise), keyword (spec 000 §5), ranked, hybrid (ranked plus an embeddings endpoint: SKILLS_EMBEDDINGS_URL), or a custom build's own; SKILLS_MATCHER overrides",
	"refresh":                          "periodic git refresh",
	"refresh.enabled":                  "pull the content repo periodically",
	"refresh.git_timeout_seconds":      "bound of every git network operation (clone, fetch, credential helper); SKILLS_GIT_TIMEOUT_SECONDS overrides",
	"refresh.interval_minutes":         "minutes between pulls",
	"scripts":                          "run_script",
	"scripts.enabled":                  "global kill switch for every runner",
	"scripts.timeout_seconds":          "wall-clock limit per run (SIGTERM, then SIGKILL 5 s later)",
	"scripts.max_output_bytes":         "stdout and stderr are each cut at this size",
	"scripts.allowed_extensions":       "only these extensions may run",
	"scripts.runners":                  "extension → command (split into program and arguments, never a shell)",
	"scripts.allow_remote":             "the operator's: SKILLS_SCRIPTS_ALLOW_REMOTE=true allows run_script over the HTTP transport; ignored here, with a warning, unless false",
	"scripts.sandbox":                  "the operator's: SKILLS_SCRIPTS_SANDBOX (confined, or none: unconfined); ignored here, with a warning",
	"scripts.network":                  "deny narrows the operator's SKILLS_SCRIPTS_NETWORK; allow is ignored, with a warning",
	"scripts.max_concurrent":           "lower the operator's bound of script runs at once (SKILLS_SCRIPTS_MAX_CONCURRENT); 0 keeps it, a higher value is ignored",
	"scripts.read_roots":               "the operator's: SKILLS_SCRIPTS_READ_ROOTS, absolute directories every confined script may read; ignored here, with a warning",
	"scripts.memory_mb":                "lower the operator's data-size bound of each confined script process in MiB (SKILLS_SCRIPTS_MEMORY_MB, default 1024); 0 keeps it",
	"scripts.env":                      "the operator's: SKILLS_SCRIPTS_ENV, the server's variables passed through to scripts; ignored here, with a warning",
	"assets":                           "get_asset",
	"assets.max_size_bytes":            "largest file get_asset serves",
	"assets.inline_text_max_bytes":     "kept for compatibility with spec 000 §11.2",
	"analytics":                        "usage events (spec 000 §10)",
	"analytics.enabled":                "record and publish events",
	"analytics.endpoint":               "HTTP endpoint events are POSTed to every 30 s",
	"analytics.max_buffer_bytes":       "bound of the local fallback buffer (oldest events dropped first)",
	"analytics.flush_interval_seconds": "seconds between deliveries to the endpoint (spec 000 §10.3)",
	"analytics.timeout_seconds":        "bound of one POST; a later answer is a failure and the same events (same ids) are sent again",
	"analytics.sink":                   "primary sink by name (http, jsonl: every event kept in $SKILLS_STATE_DIR/analytics-events.jsonl for eval --events, log, otlp, or a custom build's own); SKILLS_ANALYTICS_SINK overrides",
	"wasm":                             ".wasm scripts run in the wazero sandbox",
	"wasm.memory_limit_mb":             "linear memory limit of a module",
	"wasm.mounts":                      "the operator's: SKILLS_WASM_MOUNTS=/guest=/host:… adds read-only directories; ignored here, with a warning",
	"wasm.cwd_roots":                   "the operator's write roots (SKILLS_SCRIPTS_WRITE_ROOTS), where cwd may be mounted read-write at /cwd; ignored here, with a warning",
	"catalog":                          "skill catalogue in tool descriptions",
	"catalog.max_description_chars":    "bound of the skill tool's description",
	"index":                            "what the index reads of the skills directories",
	"index.max_skill_file_bytes":       "largest skill file (SKILL.md or tree .md); a larger one is skipped with a warning naming it",
	"http":                             "serve --http: what clients may hold (docs/SECURITY.md)",
	"http.read_timeout_seconds":        "a request's head, then its body, must each arrive within this",
	"http.write_timeout_seconds":       "each write of an answer must complete within this",
	"http.idle_timeout_seconds":        "keep-alive connections idle this long are closed",
	"http.max_connections":             "open connections; more wait to be accepted",
	"http.max_body_bytes":              "largest request body (413 beyond it, refused before it is read)",
	"http.max_body_memory_bytes":       "request bodies held at once, all requests together (503 beyond it)",
	"http.max_sessions":                "live sessions; a new one evicts the least recently used (its id then gets 404)",
	"http.session_idle_seconds":        "a session without requests this long is closed (its id then gets 404)",
}

// Reference renders every key of the defaults as commented YAML.
func Reference() (string, error) {
	var b strings.Builder
	b.WriteString("# skills-mcp configuration. Every key is optional; the values shown are the defaults.\n")
	if err := writeSection(&b, reflect.ValueOf(Default()), "", 0); err != nil {
		return "", err
	}
	return b.String(), nil
}

// writeSection writes one mapping; each line is "# " followed by valid YAML, so
// removing that prefix gives a config.yaml equal to the defaults.
func writeSection(b *strings.Builder, v reflect.Value, prefix string, depth int) error {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		key := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		full := key
		if prefix != "" {
			full = prefix + "." + key
		}
		help, ok := configHelp[full]
		if !ok {
			return fmt.Errorf("config key %s has no help text in configHelp", full)
		}
		indent := strings.Repeat("  ", depth)
		f := v.Field(i)
		if f.Kind() == reflect.Struct {
			fmt.Fprintf(b, "# %s%s:    # %s\n", indent, key, help)
			if err := writeSection(b, f, full, depth+1); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(b, "# %s%s: %s    # %s\n", indent, key, yamlValue(f), help)
	}
	return nil
}

// yamlValue is a default as YAML: strings quoted, lists and maps in flow style.
func yamlValue(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return fmt.Sprintf("%q", v.String())
	case reflect.Slice:
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = fmt.Sprintf("%q", v.Index(i).String())
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case reflect.Map:
		if v.Len() == 0 {
			return "{}"
		}
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%q: %q", k, v.MapIndex(reflect.ValueOf(k)).String())
		}
		return "{" + strings.Join(parts, ", ") + "}"
	default:
		return fmt.Sprint(v.Interface())
	}
}

// KeysTable renders every key of the settings as the README's table: whether
// the content's config.yaml may set it (config.Keys), and the operator's
// variable and flag for it. Every key may be set in the operator's settings
// file (SKILLS_CONFIG).
func KeysTable() string {
	var b strings.Builder
	b.WriteString("| key | content may set | operator's variable | flag |\n| --- | --- | --- | --- |\n")
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for i := 0; i < t.NumField(); i++ {
			key := prefix + strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
			if t.Field(i).Type.Kind() == reflect.Struct {
				walk(t.Field(i).Type, key+".")
				continue
			}
			k := KeyOf(key)
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", key, k.Access, code(k.Env), code(k.Flag))
		}
	}
	walk(reflect.TypeOf(Config{}), "")
	fmt.Fprintf(&b, "| `plugins.KIND.NAME.*` | %s | — | — |\n", KeyOf("plugins").Access)
	return b.String()
}

// code is each comma-separated name of s in backquotes, or "—" for none.
func code(s string) string {
	if s == "" {
		return "—"
	}
	parts := strings.Split(s, ", ")
	for i, p := range parts {
		parts[i] = "`" + p + "`"
	}
	return strings.Join(parts, ", ")
}
