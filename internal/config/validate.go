package config

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// Validate checks ranges and shapes that YAML types cannot express. The error
// is an *Error listing every problem, each naming its dotted key (Load adds
// the file and line).
func Validate(c Config) error {
	var problems []Problem
	bad := func(key, format string, args ...any) {
		problems = append(problems, Problem{Key: key, Message: fmt.Sprintf(format, args...)})
	}
	checks := []struct {
		key string
		bad bool
		msg string
	}{
		{"matching.min_score", c.Matching.MinScore < 0 || c.Matching.MinScore > 1, "must be between 0 and 1"},
		{"matching.ambiguity_threshold", c.Matching.AmbiguityThreshold < 0 || c.Matching.AmbiguityThreshold > 1, "must be between 0 and 1"},
		{"matching.max_results", c.Matching.MaxResults < 1, "must be at least 1"},
		{"matching.min_confidence", !(c.Matching.MinConfidence >= 0 && c.Matching.MinConfidence <= 1), "must be between 0 and 1"},
		{"refresh.interval_minutes", c.Refresh.IntervalMinutes < 1, "must be at least 1"},
		{"refresh.git_timeout_seconds", c.Refresh.GitTimeoutSeconds < 1, "must be at least 1"},
		{"scripts.timeout_seconds", c.Scripts.TimeoutSeconds < 1, "must be at least 1"},
		{"scripts.max_output_bytes", c.Scripts.MaxOutputBytes < 1, "must be at least 1"},
		{"scripts.max_concurrent", c.Scripts.MaxConcurrent < 0, "must not be negative (0 keeps the operator's SKILLS_SCRIPTS_MAX_CONCURRENT)"},
		{"scripts.memory_mb", c.Scripts.MemoryMB < 0, "must not be negative (0 keeps the sandbox's default)"},
		{"assets.max_size_bytes", c.Assets.MaxSizeBytes < 1, "must be at least 1"},
		{"assets.inline_text_max_bytes", c.Assets.InlineTextMaxBytes < 0, "must not be negative"},
		{"analytics.max_buffer_bytes", c.Analytics.MaxBufferBytes < 0, "must not be negative"},
		{"analytics.flush_interval_seconds", c.Analytics.FlushIntervalSeconds < 1, "must be at least 1"},
		{"analytics.timeout_seconds", c.Analytics.TimeoutSeconds < 1, "must be at least 1"},
		{"wasm.memory_limit_mb", c.Wasm.MemoryLimitMB < 1 || c.Wasm.MemoryLimitMB > 4096, "must be between 1 and 4096"},
		{"index.max_skill_file_bytes", c.Index.MaxSkillFileBytes < 1, "must be at least 1"},
		{"catalog.max_description_chars", c.Catalog.MaxDescriptionChars < 2000, "must be at least 2000 (the skill tool's fixed text takes about 1000)"},
		{"http.read_timeout_seconds", c.HTTP.ReadTimeoutSeconds < 1, "must be at least 1"},
		{"http.write_timeout_seconds", c.HTTP.WriteTimeoutSeconds < 1, "must be at least 1"},
		{"http.idle_timeout_seconds", c.HTTP.IdleTimeoutSeconds < 1, "must be at least 1"},
		{"http.max_connections", c.HTTP.MaxConnections < 1, "must be at least 1"},
		{"http.max_body_bytes", c.HTTP.MaxBodyBytes < 1, "must be at least 1"},
		{"http.max_body_memory_bytes", c.HTTP.MaxBodyMemoryBytes < c.HTTP.MaxBodyBytes, "must be at least http.max_body_bytes"},
		{"http.max_sessions", c.HTTP.MaxSessions < 1, "must be at least 1"},
		{"http.session_idle_seconds", c.HTTP.SessionIdleSeconds < 1, "must be at least 1"},
	}
	for _, ck := range checks {
		if ck.bad {
			bad(ck.key, "%s", ck.msg)
		}
	}
	for i, ext := range c.Scripts.AllowedExtensions {
		if !validExtension(ext) {
			bad(fmt.Sprintf("scripts.allowed_extensions[%d]", i), "%q must look like \".sh\"", ext)
		}
	}
	exts := make([]string, 0, len(c.Scripts.Runners))
	for ext := range c.Scripts.Runners {
		exts = append(exts, ext)
	}
	sort.Strings(exts)
	for _, ext := range exts {
		if !validExtension(ext) {
			bad("scripts.runners."+ext, "the key must look like \".sh\"")
		}
		if strings.TrimSpace(c.Scripts.Runners[ext]) == "" {
			bad("scripts.runners."+ext, "the command is empty")
		}
	}
	if c.Scripts.Sandbox != "confined" && c.Scripts.Sandbox != "none" {
		bad("scripts.sandbox", "want confined or none, got %q", c.Scripts.Sandbox)
	}
	if c.Scripts.Network != "deny" && c.Scripts.Network != "allow" {
		bad("scripts.network", "want deny or allow, got %q", c.Scripts.Network)
	}
	for i, dir := range c.Scripts.ReadRoots {
		if !filepath.IsAbs(dir) {
			bad(fmt.Sprintf("scripts.read_roots[%d]", i), "%q must be an absolute directory", dir)
		}
	}
	for i, dir := range c.Wasm.CwdRoots {
		if !filepath.IsAbs(dir) {
			bad(fmt.Sprintf("wasm.cwd_roots[%d]", i), "%q must be an absolute directory", dir)
		}
	}
	guests := make([]string, 0, len(c.Wasm.Mounts))
	for guest := range c.Wasm.Mounts {
		guests = append(guests, guest)
	}
	sort.Strings(guests)
	for _, guest := range guests {
		if !strings.HasPrefix(guest, "/") || c.Wasm.Mounts[guest] == "" {
			bad("wasm.mounts."+guest, "want an absolute guest path mapped to a host directory")
		}
	}
	if len(problems) > 0 {
		return &Error{Problems: problems}
	}
	return nil
}

func validExtension(ext string) bool {
	return len(ext) >= 2 && ext[0] == '.' && !strings.ContainsAny(ext[1:], "./\\ ")
}
