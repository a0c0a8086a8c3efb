package server

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/skillsext"
	"github.com/skills-mcp/skills-mcp/internal/textsafe"
)

// Locations of a catalogue entry (file 002's <location>).
const (
	locationProject = "project"
	locationGlobal  = "global"
)

// catalogEntry is one skill as the `skill` tool names it.
type catalogEntry struct {
	// Name is what `skill` accepts: the frontmatter name of an Agent Skill, the
	// skill path of a tree skill.
	Name        string
	Description string
	Location    string
	// Path is the skill path, for ordering by relevance (catalog_order.go).
	Path string
	// Priority is the skill's priority, for a grouped catalogue's order
	// (catalog_groups.go).
	Priority float64
}

// catalogName is the name the `skill` tool lists and loads s by: Agent Skills by
// their frontmatter name, tree skills by their skill path (their last segment
// alone is not unique: `ui/react/auth` and `api/auth`).
func catalogName(s *core.Skill) string {
	if s.Format == core.FormatAgentSkill && s.Name != "" {
		return s.Name
	}
	return s.Path
}

// baseDirectory is file 003's baseDirectory: the folder of an Agent Skill; for a
// tree skill its resource directory, or the directory of its file when it has none.
func baseDirectory(s *core.Skill) string {
	if s.Format != core.FormatAgentSkill && s.ResourceDir != "" {
		return s.ResourceDir
	}
	return filepath.Dir(s.AbsPath)
}

// remoteBaseDirectory is the base directory a client over HTTP gets: the
// skill's folder in the skill:// namespace (`skill://ui/react/auth`), where
// resources/read serves the files its instructions name. File 003 wants an
// absolute path because its client shares the server's file system; a remote
// client does not, and the server's path would only disclose its layout.
func remoteBaseDirectory(s *core.Skill) string { return skillsext.URI(s) }

// skillBaseDirectory is the base directory a caller can use: the folder's
// path on disk for a local client, its skill:// URI for a remote one.
func skillBaseDirectory(s *core.Skill, remote bool) string {
	if remote {
		return remoteBaseDirectory(s)
	}
	return baseDirectory(s)
}

// location maps a skill's source label to file 002's project|global.
func location(s *core.Skill) string {
	switch strings.ToLower(s.Source) {
	case "global", "user":
		return locationGlobal
	default:
		return locationProject
	}
}

// catalog returns every skill `skill` can load, sorted by name
// (case-insensitive, then byte order). A skill is listed by its name when the
// name loads it; when several skills share a name, the others (or all of them,
// when the name is ambiguous) are listed by their paths, which `skill` loads too.
func catalog(snap *index.Snapshot) []catalogEntry {
	var out []catalogEntry
	for _, s := range snap.Skills() {
		name := catalogName(s)
		if !snap.Resolves(s) {
			name = s.Path
		}
		out = append(out, catalogEntry{Name: name, Description: s.Description, Location: location(s), Path: s.Path, Priority: s.Priority})
	}
	sort.SliceStable(out, func(i, j int) bool {
		li, lj := strings.ToLower(out[i].Name), strings.ToLower(out[j].Name)
		if li != lj {
			return li < lj
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// skillToolPreamble is file 002's description template up to the list. The
// examples name the `name` argument (the template's `command:` is not an argument
// of this tool) and a tree skill path instead of a plugin-qualified name.
const skillToolPreamble = `Execute a skill within the main conversation

<skills_instructions>
When users ask you to perform tasks, check if any of the available skills below can help complete the task more effectively. Skills provide specialized capabilities and domain knowledge.

How to use skills:
- Invoke skills using this tool with the skill name only (no arguments)
- When you invoke a skill, you will see <command-message>The "{name}" skill is loading</command-message>
- The skill's prompt will expand and provide detailed instructions on how to complete the task
- Examples:
  - ` + "`name: \"pdf\"`" + ` - invoke the pdf skill
  - ` + "`name: \"xlsx\"`" + ` - invoke the xlsx skill
  - ` + "`name: \"ui/react/auth\"`" + ` - invoke a skill of the skill tree by its path

Important:
- Only use skills listed in <available_skills> below
- Do not invoke a skill that is already running
- Do not use this tool for built-in CLI commands (like /help, /clear, etc.)
</skills_instructions>

<available_skills>
`

const skillToolClosing = "\n</available_skills>"

// skillEntryXML renders one <skill> element, every text XML-escaped and its
// control characters escaped (a description keeps its newlines and tabs).
func skillEntryXML(e catalogEntry) string {
	return "<skill>\n<name>" + xmlName(e.Name) + "</name>\n<description>" + xmlEscape(textsafe.EscapeKeepLines(e.Description)) +
		"</description>\n<location>" + e.Location + "</location>\n</skill>"
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")

// xmlEscape escapes the five XML special characters; newlines stay as they are.
func xmlEscape(s string) string { return xmlEscaper.Replace(s) }

// xmlName is a name as a <name> element holds it: XML-escaped, on one line.
func xmlName(s string) string { return xmlEscape(textsafe.Escape(s)) }

// omittedLine is the comment standing for n skills the description has no room for.
func omittedLine(n int, hint string) string {
	noun := "skills"
	if n == 1 {
		noun = "skill"
	}
	return fmt.Sprintf("<!-- %d more %s not listed: %s -->", n, noun, hint)
}

// omittedHint tells where the skills left out of the description can be found,
// depending on the tool sets served.
func omittedHint(sets map[string]bool) string {
	switch {
	case sets[ToolSetSk]:
		return "use the skills_search tool to find them"
	case sets[ToolSetCore]:
		return "use get_skill to find them"
	default:
		return "call skill with a name; an unknown name answers with the closest ones"
	}
}

// ambiguousText is the answer for a bare name that several skills bear, none
// in a folder of that name alone: it lists their paths, each of which loads
// one of them.
func ambiguousText(requested string, cands []*core.Skill) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Skill name '%s' is ambiguous: %d skills have it. Call skill again with one of these paths:\n", requested, len(cands))
	for _, s := range cands {
		b.WriteString("- " + s.Path + " (" + s.FilePath + " in " + s.Root + ")\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
