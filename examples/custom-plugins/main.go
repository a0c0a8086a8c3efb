// Command custom-plugins is skills-mcp with plugins of its own: runners
// for .upper scripts (in-process) and .awk scripts (awk through the core's
// launcher), a "lines" analytics sink and an "exact-name" matcher. It is
// the whole server (every subcommand, stdio and HTTP, git mode) built from
// the public package skillscmd, as a company would build its own.
package main

import (
	"os"

	skillscmd "github.com/skills-mcp/skills-mcp/cmd/skillscmd"
	"github.com/skills-mcp/skills-mcp/core"
)

func main() { os.Exit(command().Main()) }

// command is the server with the plugins registered; tests run it too.
func command() *skillscmd.Command {
	return skillscmd.New(&skillscmd.Options{
		// Served only where config.yaml lists ".upper" (".awk") in scripts.allowed_extensions.
		Runners: []skillscmd.RunnerPlugin{{
			Extension: ".upper",
			New:       func(skillscmd.PluginContext) (core.Runner, error) { return upperRunner{}, nil },
		}, {
			Extension: ".awk",
			New:       func(pc skillscmd.PluginContext) (core.Runner, error) { return newAwkRunner(pc.Program) },
		}},
		// Chosen with SKILLS_ANALYTICS_SINK=lines or analytics.sink: lines;
		// its file from the operator's settings (SKILLS_CONFIG):
		//   plugins: {sinks: {lines: {file: /var/log/skills-events.jsonl}}}
		Sinks: []skillscmd.SinkPlugin{{
			Name:     "lines",
			Settings: func() any { return &linesSettings{} },
			New: func(pc skillscmd.PluginContext) (core.Sink, error) {
				return newLinesSink(skillscmd.SettingsOf[linesSettings](pc).File)
			},
		}},
		// Chosen with SKILLS_MATCHER=exact-name or matching.matcher: exact-name.
		Matchers: []skillscmd.MatcherPlugin{{
			Name: "exact-name",
			New:  func(skillscmd.PluginContext) (core.Matcher, error) { return exactName{}, nil },
		}},
	})
}
