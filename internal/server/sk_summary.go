package server

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/textsafe"
)

// ToolSetSk is the tool set of file 001 under host-safe names: skills_list,
// skills_search and skills_show, each with structured output.
const ToolSetSk = "sk"

func (s *Server) addSkTools() {
	s.addSkillsList()
	s.addSkillsSearch()
	s.addSkillsShow()
}

// skillMeta is file 001's `meta`.
type skillMeta struct {
	Name        string `json:"name" jsonschema:"Skill name from the frontmatter"`
	Description string `json:"description" jsonschema:"Skill description from the frontmatter"`
}

// skillSummary is file 001's SkillSummary.
type skillSummary struct {
	// InstallName is an Agent Skill's folder name, a tree skill's skill path.
	InstallName string    `json:"installName" jsonschema:"Folder name of an Agent Skill, skill path of a skill-tree skill"`
	Meta        skillMeta `json:"meta"`
	// SkillPath is the skill folder (Agent Skill) or the skill path (tree),
	// relative to its root.
	SkillPath string `json:"skillPath" jsonschema:"Skill folder (Agent Skill) or skill path (skill tree), relative to its skills directory"`
	// SkillFile is the Markdown file relative to its root.
	SkillFile string `json:"skillFile" jsonschema:"Markdown file of the skill, relative to its skills directory"`
	// Body is the Markdown without its frontmatter, when asked for.
	Body *string `json:"body,omitempty" jsonschema:"Markdown body without the frontmatter (only when asked for)"`
}

// installName is file 001's installName (index.InstallName).
func installName(s *core.Skill) string { return index.InstallName(s) }

// summarize is the summary of s; with withBody its body too, read through
// snap (whose error it returns).
func summarize(snap *index.Snapshot, s *core.Skill, withBody bool) (skillSummary, error) {
	out := skillSummary{
		InstallName: installName(s),
		Meta:        skillMeta{Name: s.Name, Description: s.Description},
		SkillPath:   s.Path,
		SkillFile:   s.FilePath,
	}
	if withBody {
		body, err := snap.Body(s)
		if err != nil {
			return out, err
		}
		out.Body = &body
	}
	return out, nil
}

// sortByInstallName orders skills by installName (index.SortByInstallName).
func sortByInstallName(skills []*core.Skill) { index.SortByInstallName(skills) }

// fold lowercases rune by rune, so that rune offsets in the result are the rune
// offsets of the input (strings.ToLower may change the rune count).
func fold(s string) string { return strings.Map(unicode.ToLower, s) }

// summaryLines renders one line per summary for a result's text: each
// field on one line (textLine), so that no name or description can end the
// line and forge another.
func summaryLines(b *strings.Builder, skills []skillSummary) {
	for _, sk := range skills {
		b.WriteString("\n- " + textLine(sk.InstallName) + " (" + textLine(sk.SkillFile) + "): " + textLine(sk.Meta.Description))
	}
}

// textLine is s for one line of a tool's text: white space collapsed
// (oneLine), and any other control character escaped (a terminal's escape
// sequence, NUL).
func textLine(s string) string { return textsafe.Escape(oneLine(s)) }

// oneLine collapses every run of whitespace to one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// countNoun is "1 skill" or "N skills".
func countNoun(n int) string {
	if n == 1 {
		return "1 skill"
	}
	return strconv.Itoa(n) + " skills"
}

// structuredResult is a successful result with structured content and its
// human-readable summary as the one text content.
func structuredResult(text string, v any) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: v}
}
