// Package skillscmd is the whole skills-mcp command as an importable package:
// flags, environment, config loading, building the plugin registries, signals,
// the transports and every subcommand. A main package calls Main; tests and
// embedders call New(opts).Run with their own streams and environment.
package skillscmd
