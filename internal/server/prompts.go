package server

import (
	"context"
	"fmt"
	"hash/maphash"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/cursor"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// Every served skill is an MCP prompt, which hosts offer as a slash command
// (Claude Code: /mcp__skills__<name>). Its name is the skill's catalogue
// name made safe (^[A-Za-z0-9_-]+$), its one optional argument what the user
// wants done; prompts/get answers the skill's instructions, inherited content
// included, as one user message. The get_skill prompt loads any skill by
// path, with completion of its skill_path.
//
// Like the skill:// resources, the skill prompts are answered from the
// current snapshot (prompts/list and prompts/get by middleware), not
// registered one by one with the go-sdk: a reload of 10,000 skills changes
// one pointer. Only get_skill is registered; re-adding it is how a change of
// the prompt set reaches sessions as notifications/prompts/list_changed.

// Prompt argument names and the fixed prompt.
const (
	promptArgRequest   = "request"
	promptArgSkillPath = "skill_path"
	getSkillPrompt     = "get_skill"

	methodPromptsList              = "prompts/list"
	methodPromptsGet               = "prompts/get"
	promptsPageSize                = mcp.DefaultPageSize
	promptRequestArgumentDescr     = "What you want done with this skill (optional)"
	getSkillPromptSkillPathArgDesc = "The skill's path, e.g. \"api/rest\" (completion lists them)"
)

// promptsView is the skill prompts of one snapshot.
type promptsView struct {
	snap   *index.Snapshot
	listed []*mcp.Prompt     // every prompt, get_skill included, sorted by name
	paths  map[string]string // skill prompt name → skill path
}

// promptSet caches the view of the latest snapshot once prompts/list or
// prompts/get asked for it, and remembers the fingerprint of the prompts last
// announced. A server whose clients never ask for prompts keeps no view: at
// 10,000 skills one is about 2.9 MB of live heap (a prompt, its argument and
// a map entry per skill), and a view kept across a reload held the previous
// snapshot alive with it.
type promptSet struct {
	current atomic.Pointer[promptsView] // nil until asked for; dropped when the snapshot changes
	mu      sync.Mutex                  // one view build, one sync at a time
	seed    maphash.Seed
	fp      uint64
}

// promptName makes name a prompt name: every character outside [A-Za-z0-9_-]
// becomes '-' ('/' becomes '_', so that ui/react/auth reads ui_react_auth),
// and a name does not start or end with '-' ("@21risk" reads 21risk: hosts
// and command lines take a leading '-' for an option).
func promptName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		case r == '/':
			b.WriteByte('_')
		default:
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" {
		return "skill"
	}
	return out
}

// getSkillPromptDef is the prompt that loads any skill by path.
func getSkillPromptDef() *mcp.Prompt {
	return &mcp.Prompt{
		Name:        getSkillPrompt,
		Title:       "Load a skill",
		Description: "Load a skill by its path, with what you want done.",
		Arguments: []*mcp.PromptArgument{
			{Name: promptArgSkillPath, Title: "Skill", Description: getSkillPromptSkillPathArgDesc, Required: true},
			{Name: promptArgRequest, Title: "Request", Description: "What you want done (optional)"},
		},
	}
}

// isCategory reports a tree skill that is a category (`_root`, `ui/_index`):
// what its children inherit, not a task a user would ask for by a slash command.
func isCategory(sk *core.Skill) bool {
	return sk.Format != core.FormatAgentSkill && (sk.Path == core.RootPath || path.Base(sk.Path) == core.IndexSegment)
}

// buildPromptsView names the skills of snap as prompts, categories left out
// (get_skill's prompt still loads them by path). Skills are taken in
// path order; a name already taken (by get_skill, or by another skill whose
// name reads the same once made safe, case-insensitively) gets -2, -3, ….
func buildPromptsView(snap *index.Snapshot) *promptsView {
	skills := snap.Skills()
	sort.Slice(skills, func(i, j int) bool { return skills[i].Path < skills[j].Path })
	v := &promptsView{snap: snap, paths: make(map[string]string, len(skills)), listed: make([]*mcp.Prompt, 0, len(skills)+1)}
	v.listed = append(v.listed, getSkillPromptDef())
	taken := map[string]bool{getSkillPrompt: true}
	for _, sk := range skills {
		if isCategory(sk) {
			continue
		}
		base := promptName(catalogName(sk))
		name := base
		for n := 2; taken[strings.ToLower(name)]; n++ {
			name = base + "-" + strconv.Itoa(n)
		}
		taken[strings.ToLower(name)] = true
		v.paths[name] = sk.Path
		v.listed = append(v.listed, &mcp.Prompt{
			Name: name, Title: catalogName(sk), Description: sk.Description,
			Arguments: []*mcp.PromptArgument{{Name: promptArgRequest, Title: "Request", Description: promptRequestArgumentDescr}},
		})
	}
	sort.Slice(v.listed, func(i, j int) bool { return v.listed[i].Name < v.listed[j].Name })
	return v
}

// promptsView returns the view of the current snapshot, building it on first use.
func (s *Server) promptsView() *promptsView {
	snap := s.snapshot()
	if v := s.prompts.current.Load(); v != nil && v.snap == snap {
		return v
	}
	s.prompts.mu.Lock()
	defer s.prompts.mu.Unlock()
	return s.promptsViewLocked()
}

func (s *Server) promptsViewLocked() *promptsView {
	snap := s.snapshot()
	if v := s.prompts.current.Load(); v != nil && v.snap == snap {
		return v
	}
	v := buildPromptsView(snap)
	s.prompts.current.Store(v)
	return v
}

// promptsFingerprint hashes what prompts/list shows.
func promptsFingerprint(seed maphash.Seed, v *promptsView) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	for _, p := range v.listed {
		for _, part := range []string{p.Name, p.Title, p.Description} {
			h.WriteString(part)
			h.WriteByte(0)
		}
	}
	return h.Sum64()
}

// registerPrompts registers get_skill and records the fingerprint of the
// prompts served from the start.
func (s *Server) registerPrompts() {
	s.prompts.seed = maphash.MakeSeed()
	s.mcp.AddPrompt(getSkillPromptDef(), s.getSkillPromptHandler)
	s.prompts.fp = promptsFingerprint(s.prompts.seed, buildPromptsView(s.snapshot()))
}

// syncPrompts tells sessions when the prompt set changed since it was last
// announced (notifications/prompts/list_changed, through re-adding get_skill).
// The first build of a pending index announces nothing: no client could list
// the prompts before it. The view the fingerprint is taken from is kept only
// when a client had asked for the prompts of the previous snapshot (one that
// asked once likely asks again); otherwise it is left to the collector.
func (s *Server) syncPrompts() {
	s.prompts.mu.Lock()
	defer s.prompts.mu.Unlock()
	snap := s.snapshot()
	v := s.prompts.current.Load()
	if v == nil || v.snap != snap {
		asked := v != nil
		v = buildPromptsView(snap)
		if asked {
			s.prompts.current.Store(v)
		}
	}
	fp := promptsFingerprint(s.prompts.seed, v)
	if fp == s.prompts.fp {
		return
	}
	s.prompts.fp = fp
	select {
	case <-s.loaded:
		s.mcp.AddPrompt(getSkillPromptDef(), s.getSkillPromptHandler)
		s.log.Debug("skill prompts changed; prompts/list_changed sent")
	default: // the first build of a pending index
	}
}

// servePrompts answers prompts/list, and prompts/get of a skill prompt, from
// the current snapshot; get_skill and unknown names go to the go-sdk.
func (s *Server) servePrompts(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch r := req.(type) {
		case *mcp.ListPromptsRequest:
			if method != methodPromptsList {
				break
			}
			after := ""
			if r.Params != nil {
				after = r.Params.Cursor
			}
			page, nextCursor, err := cursor.Page(s.promptsView().listed, func(p *mcp.Prompt) string { return p.Name }, methodPromptsList, after, promptsPageSize)
			if err != nil {
				return nil, invalidParams(err.Error())
			}
			// cacheScope public: the list is the same for every caller (2026-07-28 requires one).
			return &mcp.ListPromptsResult{Prompts: append(make([]*mcp.Prompt, 0, len(page)), page...), NextCursor: nextCursor,
				Cacheable: mcp.Cacheable{CacheScope: "public"}}, nil
		case *mcp.GetPromptRequest:
			if method != methodPromptsGet || r.Params == nil {
				break
			}
			if path, ok := s.promptsView().paths[r.Params.Name]; ok {
				return s.promptFor(path, r.Params.Arguments[promptArgRequest], overHTTP(r.Extra))
			}
		}
		return next(ctx, method, req)
	}
}

func (s *Server) getSkillPromptHandler(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	path := strings.TrimSpace(req.Params.Arguments[promptArgSkillPath])
	if path == "" {
		return nil, invalidParams("get_skill: missing argument " + promptArgSkillPath + ": give a skill path (completion/complete lists them)")
	}
	return s.promptFor(path, req.Params.Arguments[promptArgRequest], overHTTP(req.Extra))
}

// promptFor is the prompt of the skill at path: its base directory (where
// the files its text names are; a skill:// URI for a remote caller), its
// instructions with what it inherits, then the user's request when there is one.
func (s *Server) promptFor(path, request string, remote bool) (*mcp.GetPromptResult, error) {
	snap := s.snapshot()
	sk, ok := snap.Get(path)
	if !ok {
		return nil, invalidParams("skill not found: " + path + " (prompts/list has the current skills)")
	}
	content, err := snap.Content(sk)
	if err != nil {
		return nil, fmt.Errorf("prompt of skill %s: %w", path, err)
	}
	s.opts.Tracker.Track(core.EventSkillServed, map[string]any{
		"context": request, "skill_path": sk.Path, "score": 1.0, "matched_keywords": []string{}, "was_ambiguous": false,
	})
	text := "Base directory: " + skillBaseDirectory(sk, remote) + "\n\n" + content
	if r := strings.TrimSpace(request); r != "" {
		text += "\n\n---\n\nApply this skill to: " + r
	}
	return &mcp.GetPromptResult{
		Description: sk.Description,
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}},
	}, nil
}

// invalidParams is a JSON-RPC -32602 error.
func invalidParams(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}
