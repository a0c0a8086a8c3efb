package core

// Format tells which on-disk layout a skill came from.
type Format string

const (
	// FormatTree is a spec-000 Markdown file (`ui/react/auth.md`, `_root.md`, `_index.md`).
	FormatTree Format = "tree"
	// FormatAgentSkill is an Agent Skills folder holding a SKILL.md file.
	FormatAgentSkill Format = "agentskill"
)

// Execution modes of a script (spec 000 §4.2, §8.4).
const (
	// ExecutionClaude means the client fetches the script with get_asset and runs it itself.
	ExecutionClaude = "claude"
	// ExecutionServer means run_script may execute the script on the server.
	ExecutionServer = "server"
	// NeedNetwork, in a script's needs, says it reaches the network: under a
	// confinement that denies it (SKILLS_SCRIPTS_NETWORK=deny) it is refused.
	NeedNetwork = "network"
)

// RootPath is the skill path of `_root.md`, the top of every inheritance chain.
const RootPath = "_root"

// IndexSegment is the last path segment of a category file (`ui/_index.md`).
const IndexSegment = "_index"

// Skill is one indexed skill. It is immutable once an index snapshot holds it.
type Skill struct {
	// Path is the skill path (spec 000 §4.3): `ui/react/auth`, `ui/_index`, `_root`;
	// for an Agent Skills folder, the folder path relative to its root.
	Path string
	// FilePath is the file's path relative to its root with `/` separators
	// (`ui/react/auth.md`), used in the `(from …)` headers of §6.2.
	FilePath string
	// AbsPath is the absolute path of the Markdown file.
	AbsPath string
	// Root is the absolute skills directory the skill was found under.
	Root string
	// Source labels the root for people and for the `skill` tool's <location>
	// ("project", "global", "SKILLS_DIR", …; files 002/003 `source`).
	Source string
	// Format is the layout the skill came from.
	Format Format
	// Name is the Agent Skills `name`, or the last non-`_index` segment of Path for tree skills.
	Name string
	// Description is the frontmatter `description`.
	Description string
	// Keywords are the frontmatter `keywords`, as declared (matching lowercases them).
	Keywords []string
	// Priority is the frontmatter `priority` (default 0), a tiebreaker worth priority*0.001.
	Priority float64
	// Inherit is the frontmatter `inherit` (default true).
	Inherit bool
	// Assets are the declared assets, resolved against ResourceDir (§7.1).
	Assets []Asset
	// Scripts are the declared scripts, resolved against ResourceDir (§7.1).
	Scripts []Script
	// Body describes the Markdown body after the frontmatter block. The body
	// itself is not held in memory: an index reads it from AbsPath on demand.
	Body BodyInfo
	// Headings are the body's Markdown headings (outside code blocks), at
	// most index.MaxHeadings of them, for the matchers: an index hands them
	// to its matcher (MatchEntry.Headings) and its snapshots keep none.
	Headings []string
	// ResourceDir is the absolute resource directory (§4.5), or "" when it does not exist.
	ResourceDir string
	// Parent is the resolved parent skill path (§4.4), or "" for none.
	Parent string
}

// BodyInfo describes a skill's Markdown body as it was when the skill was
// indexed, so that sizes and change fingerprints need not keep the text.
type BodyInfo struct {
	// Size is the length of the body in bytes.
	Size int
	// TrimmedSize is the length of the body without its leading and trailing
	// white space (what get_skill serves of it).
	TrimmedSize int
	// Digest is a 64-bit hash of the body, stable within one process: it
	// changes when the body does, for fingerprints that must notice edits.
	Digest uint64
}

// Asset is a file attached to a skill (spec 000 §7.1).
type Asset struct {
	// File is the path relative to the skill's resource directory, as declared.
	File string `json:"file"`
	// Description is the declared description ("" when absent).
	Description string `json:"description"`
	// Type is the declared type, default "other".
	Type string `json:"type"`
	// AbsPath is the absolute path on disk (resourceDir joined with File).
	AbsPath string `json:"-"`
	// IsBinary reports a binary extension (§7.2).
	IsBinary bool `json:"-"`
}

// Arg is one declared script argument.
type Arg struct {
	// Name is the argument name; it reaches the script as SKILL_ARG_{UPPERCASE_NAME}.
	Name string `json:"name"`
	// Description is the declared description ("" when absent).
	Description string `json:"description"`
	// Required is the declared `required`, default true.
	Required bool `json:"required"`
}

// Script is an executable file attached to a skill (spec 000 §7.1, §8.4).
type Script struct {
	// File is the path relative to the skill's resource directory, as declared.
	File string `json:"file"`
	// Description is the declared description ("" when absent).
	Description string `json:"description"`
	// Execution is "claude" (default) or "server".
	Execution string `json:"execution"`
	// Args are the declared arguments (default none).
	Args []Arg `json:"args"`
	// Needs are what the script says it needs beyond a confined run's
	// defaults (NeedNetwork); a run whose needs the operator does not grant
	// is refused before it starts.
	Needs []string `json:"needs,omitempty"`
	// AbsPath is the absolute path on disk.
	AbsPath string `json:"-"`
}
