// Command mcp-floor is the floor of the stack that skills-mcp is measured
// against (issue 19): an MCP server over stdio that does nothing but answer
// one tool, "constant", with a constant text. It runs the same go-sdk server
// and, by default, the same stdio transport as `skills-mcp serve`
// (internal/stdio.LineTransport); -sdk-stdio takes the go-sdk's own
// StdioTransport instead. What it spends per tools/call is what the JSON-RPC
// layer, the transport and the kernel cost before any skill is looked at.
// cmd/skills-bench builds and measures it beside skills-mcp.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/internal/stdio"
)

func main() {
	sdkStdio := flag.Bool("sdk-stdio", false, "use the go-sdk's StdioTransport instead of skills-mcp's line transport")
	answerBytes := flag.Int("answer-bytes", 64, "length of the constant text answered")
	flag.Parse()
	if err := run(*sdkStdio, *answerBytes); err != nil {
		fmt.Fprintln(os.Stderr, "mcp-floor:", err)
		os.Exit(1)
	}
}

// constantArgs is the (empty) input of the constant tool.
type constantArgs struct{}

func run(sdkStdio bool, answerBytes int) error {
	answer := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", max(answerBytes, 0))}}}
	s := mcp.NewServer(&mcp.Implementation{Name: "mcp-floor", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "constant", Description: "Answers a constant text."},
		func(context.Context, *mcp.CallToolRequest, constantArgs) (*mcp.CallToolResult, any, error) {
			return answer, nil, nil
		})
	var t mcp.Transport = &stdio.LineTransport{In: os.Stdin, Out: os.Stdout}
	if sdkStdio {
		t = &mcp.StdioTransport{}
	}
	return s.Run(context.Background(), t)
}
