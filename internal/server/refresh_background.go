package server

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/core"
)

// RefreshAnswerWait is how long refresh_skills waits for its refresh before
// it answers that the refresh goes on in the background: well under the
// 60 s request timeout of usual MCP clients, so that a hung git remote never
// leaves a client without an answer (issue 26, item 12).
const RefreshAnswerWait = 30 * time.Second

// StatusReporter is a Syncer that tells the state of the content repo
// without syncing it: the commit served and the last sync, which
// refresh_skills reports when it answers before its refresh ends.
type StatusReporter interface {
	Status() SyncStatus
}

// refreshState is what refresh_skills keeps between calls: the refresh that
// outlived its answer, and its outcome until an answer reports it.
type refreshState struct {
	// wait is RefreshAnswerWait when zero; tests lower it.
	wait time.Duration

	mu         sync.Mutex
	background int    // refreshes that outlived their answer and still run
	untold     string // how refreshes that outlived their answer ended, for the next answer
}

// refreshCall is one refresh_skills refresh, answered in time or not.
type refreshCall struct {
	done      chan struct{} // closed when answer is set, if the caller still waits
	answer    refreshAnswer
	abandoned bool // the caller answered without it; guarded by refreshState.mu
}

// refreshWithin runs refresh_skills' refresh and answers with its result
// when it ends within the wait (or before ctx ends); otherwise it answers
// that the refresh goes on in the background. The outcome of such a refresh
// is logged when it ends and reported by the next answer; until it ends a
// refresh_skills call is answered at once that it still runs.
func (s *Server) refreshWithin(ctx context.Context) *mcp.CallToolResult {
	st := &s.refresh
	st.mu.Lock()
	if st.background > 0 {
		st.mu.Unlock()
		return s.refreshRunning("A refresh started by an earlier refresh_skills call is still running in the background; " +
			"its outcome goes to the server log and is reported by the next refresh_skills call after it ends.")
	}
	previous := st.untold
	st.untold = ""
	wait := st.wait
	st.mu.Unlock()
	if wait <= 0 {
		wait = RefreshAnswerWait
	}

	call := &refreshCall{done: make(chan struct{})}
	// The refresh keeps the request's values (its trace) but not its
	// cancellation: it may outlive the answer.
	rctx := context.WithoutCancel(ctx)
	go func() {
		answer := s.refreshNow(rctx)
		st.mu.Lock()
		defer st.mu.Unlock()
		if !call.abandoned {
			call.answer = answer
			close(call.done)
			return
		}
		st.background--
		summary, ok := answer.summary()
		st.untold = joinMessages(st.untold, fmt.Sprintf("The previous refresh, which went on in the background, ended at %s and %s.",
			core.FormatTimestamp(time.Now()), summary))
		if ok {
			s.log.Info("the refresh that went on after its refresh_skills answer has ended", "outcome", summary)
		} else {
			s.log.Warn("the refresh that went on after its refresh_skills answer has ended", "outcome", summary)
		}
	}()

	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-call.done:
	case <-timer.C:
	case <-ctx.Done():
	}
	st.mu.Lock()
	select {
	case <-call.done:
	default:
		call.abandoned = true
		st.background++
	}
	st.mu.Unlock()
	if !call.abandoned {
		return call.answer.result(previous)
	}
	what := "the reindex"
	if s.opts.Syncer != nil {
		what = "git"
	}
	s.log.Warn("refresh_skills answers before its refresh ends; the refresh goes on in the background", "waited", wait)
	return s.refreshRunning(joinMessages(previous, fmt.Sprintf("The refresh is still running after %s (%s has not finished); "+
		"it goes on in the background and the skills served are unchanged until it ends. "+
		"Its outcome goes to the server log and is reported by the next refresh_skills call.", wait, what)))
}

// refreshRunning is the answer while a refresh goes on: spec 000's shape,
// success false, with what is served now.
func (s *Server) refreshRunning(msg string) *mcp.CallToolResult {
	served := s.snapshot().Len()
	if s.opts.Syncer == nil {
		return jsonResult(localRefreshResult{Mode: "local", SkillsReindexed: served, Message: msg, InBackground: true})
	}
	var status SyncStatus
	if r, ok := s.opts.Syncer.(StatusReporter); ok {
		status = r.Status()
	}
	return jsonResult(gitRefreshResult{CommitHash: status.CommitHash, LastSync: status.LastSync, SkillsReindexed: served,
		Message: msg, InBackground: true})
}
