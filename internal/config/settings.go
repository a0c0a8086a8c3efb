package config

import "github.com/skills-mcp/skills-mcp/core"

// Config is the whole of config.yaml (spec 000 §11.2) plus the sections later
// issues add. Field tags name the YAML keys; DefaultConfig holds every default.
type Config struct {
	Matching  MatchingConfig  `yaml:"matching" json:"matching"`
	Refresh   RefreshConfig   `yaml:"refresh" json:"refresh"`
	Scripts   ScriptsConfig   `yaml:"scripts" json:"scripts"`
	Assets    AssetsConfig    `yaml:"assets" json:"assets"`
	Analytics AnalyticsConfig `yaml:"analytics" json:"analytics"`
	Wasm      WasmConfig      `yaml:"wasm" json:"wasm"`
	Catalog   CatalogConfig   `yaml:"catalog" json:"catalog"`
	HTTP      HTTPConfig      `yaml:"http" json:"http"`
	Index     IndexConfig     `yaml:"index" json:"index"`
}

// IndexConfig bounds what the index reads of the skills directories.
type IndexConfig struct {
	// MaxSkillFileBytes bounds a skill file (SKILL.md or a tree skill's .md):
	// a larger one is skipped with a warning naming it (issue 16, item 13).
	MaxSkillFileBytes int64 `yaml:"max_skill_file_bytes" json:"max_skill_file_bytes"`
}

// MatchingConfig tunes routing (spec 000 §5.3): the ranking rule's
// parameters (Rank) and the matcher by name.
type MatchingConfig struct {
	// MinScore excludes skills scoring below it.
	MinScore float64 `yaml:"min_score" json:"min_score"`
	// MaxResults caps the ambiguous candidates.
	MaxResults int `yaml:"max_results" json:"max_results"`
	// AmbiguityThreshold: a gap between the top two scores below it is ambiguous.
	AmbiguityThreshold float64 `yaml:"ambiguity_threshold" json:"ambiguity_threshold"`
	// MinConfidence is the least confidence of an answer under a matcher
	// whose scores are confidences (core.Calibrated: the ranked matcher):
	// no skill reaching it is no_match, and only skills reaching half of it
	// (core.RunnerUpShare) are ambiguous candidates. MinScore does not apply
	// to such matchers.
	MinConfidence float64 `yaml:"min_confidence" json:"min_confidence"`
	// Matcher names the matcher among the registered ones (SKILLS_MATCHER
	// overrides it); empty means "auto" ("keyword" for content that
	// declares keywords, "ranked" for the rest).
	Matcher string `yaml:"matcher" json:"matcher"`
}

// Rank returns the parameters of the ranking rule (core.Rank, core.RankFor).
func (m MatchingConfig) Rank() core.RankOptions {
	return core.RankOptions{MinScore: m.MinScore, MaxResults: m.MaxResults, AmbiguityThreshold: m.AmbiguityThreshold, MinConfidence: m.MinConfidence}
}

// RefreshConfig drives the periodic git refresh (spec 000 §9.3).
type RefreshConfig struct {
	// Enabled turns the periodic refresh on.
	Enabled bool `yaml:"enabled" json:"enabled"`
	// IntervalMinutes is the period.
	IntervalMinutes int `yaml:"interval_minutes" json:"interval_minutes"`
	// GitTimeoutSeconds bounds every git network operation (a clone, a fetch,
	// the credential helper); SKILLS_GIT_TIMEOUT_SECONDS overrides it and also
	// bounds the first sync, which runs before config.yaml is read (issue 16,
	// item 5). Default 20: a hung remote fails a refresh well inside the
	// 60 s request timeout of usual MCP clients (issue 26, item 12).
	GitTimeoutSeconds int `yaml:"git_timeout_seconds" json:"git_timeout_seconds"`
}

// ScriptsConfig governs run_script (spec 000 §8.4, §12.2).
type ScriptsConfig struct {
	// Enabled is the global kill switch.
	Enabled bool `yaml:"enabled" json:"enabled"`
	// TimeoutSeconds is the per-run wall-clock limit.
	TimeoutSeconds int `yaml:"timeout_seconds" json:"timeout_seconds"`
	// MaxOutputBytes caps stdout and stderr each.
	MaxOutputBytes int64 `yaml:"max_output_bytes" json:"max_output_bytes"`
	// AllowedExtensions whitelists script extensions (with the dot).
	AllowedExtensions []string `yaml:"allowed_extensions" json:"allowed_extensions"`
	// Runners maps an extension to the command that runs it ("npx tsx").
	Runners map[string]string `yaml:"runners" json:"runners"`
	// AllowRemote lets run_script work over the HTTP transport. The
	// operator's (SKILLS_SCRIPTS_ALLOW_REMOTE): a config.yaml cannot set it.
	AllowRemote bool `yaml:"allow_remote" json:"allow_remote"`
	// Sandbox is how native scripts run: "confined" or "none". The
	// operator's (SKILLS_SCRIPTS_SANDBOX): a config.yaml cannot set it.
	Sandbox string `yaml:"sandbox" json:"sandbox"`
	// Network is whether confined scripts reach the network: "deny" or
	// "allow". The operator's (SKILLS_SCRIPTS_NETWORK); a config.yaml may
	// only narrow it to "deny".
	Network string `yaml:"network" json:"network"`
	// MaxConcurrent bounds the script runs at once, all runners together. The
	// content may only lower the operator's bound (SKILLS_SCRIPTS_MAX_CONCURRENT,
	// default scripts.DefaultMaxConcurrent); 0 keeps it. Once the server has
	// started, it holds the bound in force.
	MaxConcurrent int `yaml:"max_concurrent" json:"max_concurrent"`
	// ReadRoots are absolute directories every confined script may read. The
	// operator's (SKILLS_SCRIPTS_READ_ROOTS): a config.yaml cannot set it.
	ReadRoots []string `yaml:"read_roots" json:"read_roots"`
	// MemoryMB bounds the data size of each confined script process in MiB;
	// 0 is the sandbox's default. The operator's (SKILLS_SCRIPTS_MEMORY_MB);
	// a config.yaml may only lower it.
	MemoryMB int `yaml:"memory_mb" json:"memory_mb"`
	// Env names the server's variables passed through to scripts. The
	// operator's (SKILLS_SCRIPTS_ENV): a config.yaml cannot set it.
	Env []string `yaml:"env" json:"env"`
}

// AssetsConfig limits get_asset (spec 000 §12.3).
type AssetsConfig struct {
	// MaxSizeBytes is the largest asset served.
	MaxSizeBytes int64 `yaml:"max_size_bytes" json:"max_size_bytes"`
	// InlineTextMaxBytes is kept for compatibility with spec 000 §11.2.
	InlineTextMaxBytes int64 `yaml:"inline_text_max_bytes" json:"inline_text_max_bytes"`
}

// AnalyticsConfig enables event publishing (spec 000 §10).
type AnalyticsConfig struct {
	// Enabled turns tracking on.
	Enabled bool `yaml:"enabled" json:"enabled"`
	// Endpoint is the HTTP URL events are POSTed to.
	Endpoint string `yaml:"endpoint" json:"endpoint"`
	// MaxBufferBytes bounds the local JSONL buffer; oldest lines are dropped first.
	MaxBufferBytes int64 `yaml:"max_buffer_bytes" json:"max_buffer_bytes"`
	// FlushIntervalSeconds is the publishing period (spec 000 §10.3: 30 s).
	FlushIntervalSeconds int `yaml:"flush_interval_seconds" json:"flush_interval_seconds"`
	// TimeoutSeconds bounds one POST to the endpoint; a later answer counts as
	// a failure and the same events (same ids) are sent again.
	TimeoutSeconds int `yaml:"timeout_seconds" json:"timeout_seconds"`
	// Sink names the primary sink among the registered ones (SKILLS_ANALYTICS_SINK
	// overrides it); empty means "http" when Endpoint is set, else none.
	Sink string `yaml:"sink" json:"sink"`
}

// WasmConfig confines .wasm scripts.
type WasmConfig struct {
	// MemoryLimitMB caps a module's linear memory.
	MemoryLimitMB int `yaml:"memory_limit_mb" json:"memory_limit_mb"`
	// Mounts adds host directories, read-only, as guest path → host path.
	// The operator's (SKILLS_WASM_MOUNTS): a config.yaml cannot set it.
	Mounts map[string]string `yaml:"mounts" json:"mounts"`
	// CwdRoots are the host directories under which run_script's cwd may be
	// mounted read-write at /cwd for a .wasm script; elsewhere cwd is refused.
	// The operator's write roots (SKILLS_SCRIPTS_WRITE_ROOTS): a config.yaml
	// cannot set it.
	CwdRoots []string `yaml:"cwd_roots" json:"cwd_roots"`
}

// CatalogConfig bounds the skill catalogue embedded in tool descriptions.
type CatalogConfig struct {
	// MaxDescriptionChars bounds the `skill` tool's description.
	MaxDescriptionChars int `yaml:"max_description_chars" json:"max_description_chars"`
}

// HTTPConfig bounds what clients of the Streamable HTTP transport (serve
// --http) may hold: time, connections, request bodies and sessions.
type HTTPConfig struct {
	// ReadTimeoutSeconds bounds the arrival of a request's head, then of its body.
	ReadTimeoutSeconds int `yaml:"read_timeout_seconds" json:"read_timeout_seconds"`
	// WriteTimeoutSeconds bounds each write of an answer to the client.
	WriteTimeoutSeconds int `yaml:"write_timeout_seconds" json:"write_timeout_seconds"`
	// IdleTimeoutSeconds closes a keep-alive connection idle for that long.
	IdleTimeoutSeconds int `yaml:"idle_timeout_seconds" json:"idle_timeout_seconds"`
	// MaxConnections caps open connections; more wait to be accepted.
	MaxConnections int `yaml:"max_connections" json:"max_connections"`
	// MaxBodyBytes is the largest request body (413 beyond it).
	MaxBodyBytes int64 `yaml:"max_body_bytes" json:"max_body_bytes"`
	// MaxBodyMemoryBytes bounds the bytes of all request bodies held at once
	// (503 beyond it).
	MaxBodyMemoryBytes int64 `yaml:"max_body_memory_bytes" json:"max_body_memory_bytes"`
	// MaxSessions caps live sessions; a new one evicts the least recently used.
	MaxSessions int `yaml:"max_sessions" json:"max_sessions"`
	// SessionIdleSeconds closes a session that sees no request for that long.
	SessionIdleSeconds int `yaml:"session_idle_seconds" json:"session_idle_seconds"`
}

// Default returns the defaults of spec 000 §11.2 and of later issues. Each
// call returns a fresh copy that the caller may modify.
func Default() Config {
	return Config{
		Matching: MatchingConfig{MinScore: 0.2, MaxResults: 3, AmbiguityThreshold: 0.1, MinConfidence: 0.11},
		Refresh:  RefreshConfig{Enabled: true, IntervalMinutes: 15, GitTimeoutSeconds: 20},
		Scripts: ScriptsConfig{
			Enabled:           true,
			TimeoutSeconds:    60,
			MaxOutputBytes:    1048576,
			AllowedExtensions: []string{".sh", ".ts", ".js", ".py", ".wasm"},
			Runners: map[string]string{
				".sh": "bash",
				".ts": "npx tsx",
				".js": "node",
				".py": "python3",
			},
			Sandbox:   "confined",
			Network:   "deny",
			ReadRoots: []string{},
			Env:       []string{},
		},
		Assets:    AssetsConfig{MaxSizeBytes: 1048576, InlineTextMaxBytes: 10240},
		Analytics: AnalyticsConfig{Enabled: false, Endpoint: "", MaxBufferBytes: 10 << 20, FlushIntervalSeconds: 30, TimeoutSeconds: 10},
		Wasm:      WasmConfig{MemoryLimitMB: 64, Mounts: map[string]string{}, CwdRoots: []string{}},
		Catalog:   CatalogConfig{MaxDescriptionChars: 8000},
		HTTP: HTTPConfig{ReadTimeoutSeconds: 30, WriteTimeoutSeconds: 30, IdleTimeoutSeconds: 30, MaxConnections: 512,
			MaxBodyBytes: 4 << 20, MaxBodyMemoryBytes: 16 << 20, MaxSessions: 1000, SessionIdleSeconds: 1800},
		Index: IndexConfig{MaxSkillFileBytes: 1 << 20},
	}
}
