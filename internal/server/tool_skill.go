package server

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// ToolSetSkill is the tool set of files 002/003: one `skill` tool that loads a
// skill by name and lists every skill in its description.
const ToolSetSkill = "skill"

// defaultMaxDescriptionChars bounds the `skill` description when
// catalog.max_description_chars is not set.
const defaultMaxDescriptionChars = 8000

// skillCatalog remembers the description the `skill` tool was last registered
// with, so that RefreshToolDescriptions re-registers it only on a change.
type skillCatalog struct {
	mu          sync.Mutex
	description string
}

type skillArgs struct {
	Name string `json:"name"`
}

func (s *Server) addSkillTools() {
	s.registerSkillTool()
}

// RefreshToolDescriptions brings the tools that describe skills up to date with
// the current index snapshot; Rebuild calls it. When the `skill` tool's
// description changed, or (with the "sk" set) any skill changed, those tools
// are registered again and the go-sdk tells initialized sessions with
// notifications/tools/list_changed.
func (s *Server) RefreshToolDescriptions() {
	if servedToolSets(s.opts.ToolSets)[ToolSetSkill] {
		s.registerSkillTool()
	}
	s.refreshSkTools()
	s.search.Prepare(s.snapshot())
}

// registerSkillTool (re-)registers `skill` when its description differs from the
// one last registered. The lock is taken before the snapshot is read and held
// while registering, so of two concurrent refreshes the one that read the newer
// snapshot registers last.
func (s *Server) registerSkillTool() {
	s.catalog.mu.Lock()
	defer s.catalog.mu.Unlock()
	entries := catalog(s.snapshot())
	sets := servedToolSets(s.opts.ToolSets)
	desc := skillToolDescription(entries, s.catalogBudget(), omittedHint(sets), searchHint(sets), s.usage.counts())
	if desc == s.catalog.description {
		return
	}
	first := s.catalog.description == ""
	s.catalog.description = desc
	s.mcp.AddTool(skillTool(desc), s.handleSkill)
	if !first {
		s.log.Debug("skill tool description changed; tool re-registered", "skills", len(entries))
	}
}

// catalogBudget is catalog.max_description_chars, or its default.
func (s *Server) catalogBudget() int {
	if max := s.opts.Config.Catalog.MaxDescriptionChars; max > 0 {
		return max
	}
	return defaultMaxDescriptionChars
}

func skillTool(description string) *mcp.Tool {
	f := false
	return &mcp.Tool{
		Name:        "skill",
		Title:       "Load Skill",
		Description: description,
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"name": map[string]any{"type": "string", "minLength": 1, "description": "Name of the skill to load (case-insensitive)"},
			},
			"required":             []string{"name"},
			"additionalProperties": false,
		},
		OutputSchema: skillOutputSchema(),
		Annotations:  &mcp.ToolAnnotations{Title: "Load Skill", ReadOnlyHint: true, DestructiveHint: &f, IdempotentHint: true, OpenWorldHint: &f},
	}
}

func (s *Server) handleSkill(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a skillArgs
	if err := decodeStrictArgs(req.Params.Arguments, &a, []string{"name"}, "name"); err != nil {
		return errorResult("skill: " + err.Error()), nil
	}
	name := strings.TrimSpace(a.Name)
	if name == "" {
		return errorResult("skill: name must not be empty: give the name of one of the skills listed in the tool description"), nil
	}
	snap := s.snapshot()
	sk, cands := snap.Lookup(name)
	if len(cands) > 0 {
		return errorResult(ambiguousText(name, cands)), nil
	}
	if sk == nil {
		entries := catalog(snap)
		return errorResult(notFoundMessage(snap, a.Name, entries, namesFit(entries, s.catalogBudget()), notFoundHint(servedToolSets(s.opts.ToolSets)))), nil
	}
	content, err := skillFileContent(snap, sk)
	if err != nil {
		return domainError(err), nil
	}
	s.usage.add(sk.Path)
	base := skillBaseDirectory(sk, overHTTP(req.Extra))
	loaded := skillLoaded{Found: true, Name: catalogName(sk), BaseDirectory: base, Content: content}
	return structuredResult("Loading: "+loaded.Name+"\nBase directory: "+loaded.BaseDirectory+"\n\n"+content, loaded), nil
}

// skillFileContent is what `skill` serves: an Agent Skill's SKILL.md as it is on
// disk now, frontmatter included (file 003); a tree skill's content resolved
// through its parents (spec 000 §6.2).
func skillFileContent(snap *index.Snapshot, sk *core.Skill) (string, error) {
	if sk.Format != core.FormatAgentSkill {
		return snap.Content(sk)
	}
	data, err := snap.SkillFile(sk) // confined to the skills directory now, and capped
	if err != nil {
		return "", fmt.Errorf("reading skill %s (%s): %w", catalogName(sk), sk.FilePath, err)
	}
	return string(data), nil
}
