// Command skills-mcp serves Markdown skills to AI coding agents over the Model
// Context Protocol. With no arguments it is a stdio MCP server.
package main

import (
	"os"

	skillscmd "github.com/skills-mcp/skills-mcp/cmd/skillscmd"
)

func main() { os.Exit(skillscmd.Main()) }
