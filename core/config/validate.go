package config

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
)

// Validate checks ranges and shapes that YAML types cannot express. The error
// names the dotted key.
func Validate(c core.Config) error {
	checks := []struct {
		key string
		bad bool
		msg string
	}{
		{"matching.min_score", c.Matching.MinScore < 0 || c.Matching.MinScore > 1, "must be between 0 and 1"},
		{"matching.ambiguity_threshold", c.Matching.AmbiguityThreshold < 0 || c.Matching.AmbiguityThreshold > 1, "must be between 0 and 1"},
		{"matching.max_results", c.Matching.MaxResults < 1, "must be at least 1"},
		{"refresh.interval_minutes", c.Refresh.IntervalMinutes < 1, "must be at least 1"},
		{"scripts.timeout_seconds", c.Scripts.TimeoutSeconds < 1, "must be at least 1"},
		{"scripts.max_output_bytes", c.Scripts.MaxOutputBytes < 1, "must be at least 1"},
		{"assets.max_size_bytes", c.Assets.MaxSizeBytes < 1, "must be at least 1"},
		{"assets.inline_text_max_bytes", c.Assets.InlineTextMaxBytes < 0, "must not be negative"},
		{"analytics.max_buffer_bytes", c.Analytics.MaxBufferBytes < 0, "must not be negative"},
		{"wasm.memory_limit_mb", c.Wasm.MemoryLimitMB < 1 || c.Wasm.MemoryLimitMB > 4096, "must be between 1 and 4096"},
		{"catalog.max_description_chars", c.Catalog.MaxDescriptionChars < 2000, "must be at least 2000 (the skill tool's fixed text takes about 1000)"},
	}
	for _, ck := range checks {
		if ck.bad {
			return fmt.Errorf("%s: %s", ck.key, ck.msg)
		}
	}
	for i, ext := range c.Scripts.AllowedExtensions {
		if !validExtension(ext) {
			return fmt.Errorf("scripts.allowed_extensions[%d]: %q must look like \".sh\"", i, ext)
		}
	}
	exts := make([]string, 0, len(c.Scripts.Runners))
	for ext := range c.Scripts.Runners {
		exts = append(exts, ext)
	}
	sort.Strings(exts)
	for _, ext := range exts {
		if !validExtension(ext) {
			return fmt.Errorf("scripts.runners.%s: the key must look like \".sh\"", ext)
		}
		if strings.TrimSpace(c.Scripts.Runners[ext]) == "" {
			return fmt.Errorf("scripts.runners.%s: the command is empty", ext)
		}
	}
	for i, dir := range c.Wasm.CwdRoots {
		if !filepath.IsAbs(dir) {
			return fmt.Errorf("wasm.cwd_roots[%d]: %q must be an absolute directory", i, dir)
		}
	}
	for guest, host := range c.Wasm.Mounts {
		if !strings.HasPrefix(guest, "/") || host == "" {
			return fmt.Errorf("wasm.mounts.%s: want an absolute guest path mapped to a host directory", guest)
		}
	}
	return nil
}

func validExtension(ext string) bool {
	return len(ext) >= 2 && ext[0] == '.' && !strings.ContainsAny(ext[1:], "./\\ ")
}
