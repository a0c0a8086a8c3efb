package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/skills-mcp/skills-mcp/core"
	"gopkg.in/yaml.v2"
)

// FileName is the configuration file looked up at the content root.
const FileName = "config.yaml"

// Loaded is a configuration with what was noticed while loading it.
type Loaded struct {
	// Config is the effective configuration.
	Config core.Config
	// Path is the file that was read, or "" when none existed.
	Path string
	// Warnings are non-fatal remarks (unknown keys), each naming the file and key.
	Warnings []string
}

// Load reads dir/config.yaml (absent is fine: defaults), applies the environment
// overrides of §11.3 through getenv, and validates the result.
func Load(dir string, getenv func(string) string) (Loaded, error) {
	path := filepath.Join(dir, FileName)
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		path, data = "", nil
	case err != nil:
		return Loaded{}, fmt.Errorf("reading %s: %w", path, err)
	}
	loaded, err := Parse(path, data)
	if err != nil {
		return Loaded{}, err
	}
	if err := ApplyEnv(&loaded.Config, getenv); err != nil {
		return Loaded{}, err
	}
	if err := Validate(loaded.Config); err != nil {
		return Loaded{}, fmt.Errorf("%s: %w", displayName(path), err)
	}
	return loaded, nil
}

// Parse decodes YAML bytes over the defaults. name labels messages. Empty data
// yields the defaults. Wrong types are errors naming the key; unknown keys are warnings.
func Parse(name string, data []byte) (Loaded, error) {
	cfg := core.DefaultConfig()
	out := Loaded{Config: cfg, Path: name}
	var raw any
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return Loaded{}, fmt.Errorf("%s: invalid YAML: %w", displayName(name), err)
	}
	if raw == nil {
		return out, nil
	}
	d := decoder{file: displayName(name)}
	if err := d.into(&out.Config, raw, ""); err != nil {
		return Loaded{}, err
	}
	out.Warnings = d.warnings
	return out, nil
}

func displayName(path string) string {
	if path == "" {
		return FileName
	}
	return path
}
