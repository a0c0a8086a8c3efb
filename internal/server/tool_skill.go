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

// skillLoaded is the `skill` tool's structured output: the skill it loaded.
// An unknown or ambiguous name is an error result (issue 15, item 5), which
// carries no structuredContent.
type skillLoaded struct {
	Found         bool   `json:"found"`
	Name          string `json:"name,omitempty" jsonschema:"The skill's name"`
	BaseDirectory string `json:"base_directory,omitempty" jsonschema:"The directory its relative paths start from"`
	Content       string `json:"content,omitempty" jsonschema:"What the skill says: an Agent Skill's SKILL.md, a tree skill's content with what it inherits"`
}

// skillArgs are the `skill` tool's arguments.
type skillArgs struct {
	Name string `json:"name" jsonschema:"Name of the skill to load (case-insensitive)"`
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
	addTool(s, skillTool(desc), s.handleSkill)
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
		Name:         "skill",
		Title:        "Load Skill",
		Description:  description,
		InputSchema:  inputSchema[skillArgs](nonEmpty("name")),
		OutputSchema: outputSchema[skillLoaded](),
		Annotations:  &mcp.ToolAnnotations{Title: "Load Skill", ReadOnlyHint: true, DestructiveHint: &f, IdempotentHint: true, OpenWorldHint: &f},
	}
}

// handleSkill answers `skill`. Its structured content is handed to the
// go-sdk as a value (Out is any): the go-sdk's check of a typed output
// encodes, decodes and encodes it again, which cost 18 times the rest of the
// call (docs/UPSTREAM.md); TestStructuredResults holds it
// to the schema inferred from skillLoaded.
func (s *Server) handleSkill(_ context.Context, req *mcp.CallToolRequest, a skillArgs) (*mcp.CallToolResult, any, error) {
	name := strings.TrimSpace(a.Name)
	if name == "" {
		return nil, nil, fail("skill: name must not be empty: give the name of one of the skills listed in the tool description")
	}
	snap := s.snapshot()
	sk, cands := snap.Lookup(name)
	if len(cands) > 0 {
		return nil, nil, fail(ambiguousText(name, cands))
	}
	if sk == nil {
		entries := catalog(snap)
		return nil, nil, fail(notFoundMessage(snap, a.Name, entries, namesFit(entries, s.catalogBudget()), notFoundHint(servedToolSets(s.opts.ToolSets))))
	}
	content, err := skillFileContent(snap, sk)
	if err != nil {
		return nil, nil, domainError(err)
	}
	s.usage.add(sk.Path)
	base := skillBaseDirectory(sk, overHTTP(req.Extra))
	loaded := skillLoaded{Found: true, Name: catalogName(sk), BaseDirectory: base, Content: content}
	return structuredResult("Loading: "+loaded.Name+"\nBase directory: "+loaded.BaseDirectory+"\n\n"+content, loaded), nil, nil
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
