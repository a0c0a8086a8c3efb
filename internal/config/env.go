package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Environment variables that override config.yaml (spec 000 §11.1, §11.3).
const (
	EnvAnalyticsEndpoint = "ANALYTICS_ENDPOINT"
	EnvRefreshInterval   = "REFRESH_INTERVAL_MINUTES"
	EnvGitTimeout        = "SKILLS_GIT_TIMEOUT_SECONDS"
)

// applyEnv applies §11.3: ANALYTICS_ENDPOINT enables analytics with that
// endpoint; REFRESH_INTERVAL_MINUTES enables the periodic refresh with that
// interval; SKILLS_GIT_TIMEOUT_SECONDS sets refresh.git_timeout_seconds. It
// returns the dotted keys it set, each with the variable that set it
// (Loaded.Origin).
func applyEnv(c *Config, getenv func(string) string) (map[string]string, error) {
	set := map[string]string{}
	if getenv == nil {
		return set, nil
	}
	if ep := strings.TrimSpace(getenv(EnvAnalyticsEndpoint)); ep != "" {
		c.Analytics.Enabled = true
		c.Analytics.Endpoint = ep
		set["analytics.enabled"], set["analytics.endpoint"] = EnvAnalyticsEndpoint, EnvAnalyticsEndpoint
	}
	if s := strings.TrimSpace(getenv(EnvRefreshInterval)); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return set, fmt.Errorf("%s=%q: want a whole number of minutes, at least 1", EnvRefreshInterval, s)
		}
		c.Refresh.Enabled = true
		c.Refresh.IntervalMinutes = n
		set["refresh.enabled"], set["refresh.interval_minutes"] = EnvRefreshInterval, EnvRefreshInterval
	}
	if s := strings.TrimSpace(getenv(EnvGitTimeout)); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return set, fmt.Errorf("%s=%q: want a whole number of seconds, at least 1", EnvGitTimeout, s)
		}
		c.Refresh.GitTimeoutSeconds = n
		set["refresh.git_timeout_seconds"] = EnvGitTimeout
	}
	return set, nil
}
