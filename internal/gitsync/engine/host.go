package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/internal/childproc"
	"github.com/skills-mcp/skills-mcp/internal/gitsync"
)

// Host is the whole of the helper executable skills-mcp-git (see
// internal/gitsync, the server's side): it reads one gitsync.Request from stdin,
// refuses it unless its Hello is this helper's (childproc.CheckServer: a
// server of another build), makes a syncer of it, runs the operation,
// writes the gitsync.Response, with this helper's Hello, to stdout and
// logs, as JSON lines, to stderr. SIGINT cancels the operation, as a
// cancelled context does. It returns the exit code: 0 once a response is
// written, 2 when the request cannot be read.
func Host(stdin io.Reader, stdout, stderr io.Writer) int {
	var req gitsync.Request
	if err := json.NewDecoder(stdin).Decode(&req); err != nil {
		fmt.Fprintf(stderr, "%s: reading the request: %v\n", gitsync.HelperName, err)
		return 2
	}
	log := childproc.Logger("git", req.LogLevel, stderr)
	own := childproc.NewHello(gitsync.Protocol)
	resp := gitsync.Response{Hello: &own}
	if err := childproc.CheckServer(gitsync.HelperName, own, req.Hello); err != nil {
		log.Error("refusing the request of another build's server", "error", err)
		return answer(stdout, resp, err, log)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	s, err := newSyncer(options{Source: req.Source, Logger: log})
	if err == nil {
		switch req.Op {
		case gitsync.OpCheck:
		case gitsync.OpInitialize:
			resp.Result, err = s.Initialize(ctx)
		case gitsync.OpRefresh:
			resp.Result, err = s.ForceRefresh(ctx)
		case gitsync.OpVerifyCache:
			resp.Result, err = s.VerifyCache(ctx)
		default:
			err = fmt.Errorf("%s: unknown operation %q", gitsync.HelperName, req.Op)
		}
		resp.Head, resp.LastSync = s.Head(), s.LastSync()
	}
	return answer(stdout, resp, err, log)
}

// answer writes resp with err, the operation's error, on stdout.
func answer(stdout io.Writer, resp gitsync.Response, err error, log hclog.Logger) int {
	resp.Fault = childproc.FaultOf(err, gitsync.Kinds())
	if err := json.NewEncoder(stdout).Encode(resp); err != nil {
		log.Error("writing the response", "error", err)
	}
	return 0
}
