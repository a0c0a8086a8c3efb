package gitsync

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/skills-mcp/skills-mcp/core/gitproc"
	"github.com/skills-mcp/skills-mcp/internal/childproc"
)

// Host is the whole of the helper executable skills-mcp-git (see
// core/gitproc, the server's side): it reads one gitproc.Request from stdin,
// makes a syncer of it, runs the operation, writes the gitproc.Response to
// stdout and logs, as JSON lines, to stderr. SIGINT cancels the operation,
// as a cancelled context does. It returns the exit code: 0 once a response
// is written, 2 when the request cannot be read.
func Host(stdin io.Reader, stdout, stderr io.Writer) int {
	var req gitproc.Request
	if err := json.NewDecoder(stdin).Decode(&req); err != nil {
		fmt.Fprintf(stderr, "%s: reading the request: %v\n", gitproc.HelperName, err)
		return 2
	}
	log := childproc.Logger("git", req.LogLevel, stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var resp gitproc.Response
	s, err := newSyncer(options{URL: req.URL, Branch: req.Branch, Ref: req.Ref, Verify: req.Verify, AllowedSigners: req.AllowedSigners, Token: req.Token, Dir: req.Dir, StateDir: req.StateDir, Logger: log, Timeout: req.Timeout})
	if err == nil {
		switch req.Op {
		case gitproc.OpCheck:
		case gitproc.OpInitialize:
			resp.Result, err = s.Initialize(ctx)
		case gitproc.OpRefresh:
			resp.Result, err = s.ForceRefresh(ctx)
		case gitproc.OpVerifyCache:
			resp.Result, err = s.VerifyCache(ctx)
		default:
			err = fmt.Errorf("%s: unknown operation %q", gitproc.HelperName, req.Op)
		}
		resp.Head, resp.LastSync = s.Head(), s.LastSync()
	}
	resp.Fault = childproc.FaultOf(err, gitproc.Kinds)
	if err := json.NewEncoder(stdout).Encode(resp); err != nil {
		log.Error("writing the response", "error", err)
	}
	return 0
}
