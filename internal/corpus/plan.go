package corpus

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// DefaultSeed is the seed used when Options.Seed is zero.
const DefaultSeed = 0x5EED_000

// Formats of a planned skill, spelled as core.Format spells them.
const (
	// FormatTree is a spec-000 Markdown file.
	FormatTree = "tree"
	// FormatAgentSkill is an Agent Skills folder holding a SKILL.md.
	FormatAgentSkill = "agentskill"
)

// Options says what corpus to plan.
type Options struct {
	// Skills is the number of skills, at least 1. One in ten is an Agent
	// Skills folder; the rest form the spec-000 tree.
	Skills int
	// Seed selects the corpus; zero means DefaultSeed.
	Seed uint64
}

// Skill is one planned skill: what the index must find once Write has run.
type Skill struct {
	// Path is the skill path (`backend/api/retry-cache`, `_root`, `data/kits/etl-spark`).
	Path string
	// File is the Markdown file relative to the corpus root, `/` separators.
	File string
	// Format is FormatTree or FormatAgentSkill.
	Format string
	// Name is the Agent Skills name, or the last non-`_index` segment of Path.
	Name string
	// Description is the frontmatter description.
	Description string
	// Keywords are the declared keywords; nil for an Agent Skill that declares none.
	Keywords []string
	// Priority is the declared priority (0 when not declared).
	Priority int
	// Inherit is false for the few tree skills that declare `inherit: false`
	// and for every Agent Skill.
	Inherit bool
	// Parent is the skill path the index must resolve as parent ("" for none).
	Parent string
	// Assets are the files of the resource directory served as assets,
	// relative to it (declared ones for tree skills).
	Assets []string
	// Scripts are the files of the resource directory declared as scripts (tree
	// skills) or lying under scripts/ (Agent Skills).
	Scripts []string

	seed uint64 // renders the body and the resource files
}

// Corpus is a planned corpus: every skill it holds, sorted by path.
type Corpus struct {
	// Options are the options it was planned from (Seed filled in).
	Options Options
	// Skills are the planned skills, sorted by Path.
	Skills []Skill
}

// Plan lays out a corpus of opts.Skills skills in memory. The same options
// always give the same plan. Nothing is written: see Write.
func Plan(opts Options) (*Corpus, error) {
	if opts.Skills < 1 {
		return nil, errors.New("planning a corpus: Options.Skills must be at least 1")
	}
	if opts.Seed == 0 {
		opts.Seed = DefaultSeed
	}
	p := newPlanner(opts)
	p.plan()
	slices.SortFunc(p.skills, func(a, b Skill) int { return strings.Compare(a.Path, b.Path) })
	return &Corpus{Options: opts, Skills: p.skills}, nil
}

// planner holds the random state of one Plan.
type planner struct {
	opts   Options
	rng    *rand.Rand
	zipf   *rand.Zipf
	used   map[string]bool // skill names taken, so compound names stay unique
	skills []Skill
}

func newPlanner(opts Options) *planner {
	rng := rand.New(rand.NewPCG(opts.Seed, uint64(opts.Skills)))
	return &planner{
		opts: opts,
		rng:  rng,
		zipf: rand.NewZipf(rng, 1.07, 8, uint64(len(techWords)-1)),
		used: map[string]bool{},
	}
}

// category is one top-level directory and the words its skills share.
type category struct {
	dir   string
	theme []string
	subs  []*subcategory
}

// subcategory is one second-level directory; indexed is false when it has no
// `_index.md` (its leaves then inherit from the category).
type subcategory struct {
	cat     *category
	dir     string
	theme   []string
	indexed bool
}

// plan fills p.skills: _root, categories, subcategories, leaves round-robin
// over the subcategories, and Agent Skills folders spread over the categories.
func (p *planner) plan() {
	agents := p.opts.Skills / 10
	tree := p.opts.Skills - agents
	side := math.Sqrt(float64(tree))
	cats := p.categories(max(1, int(math.Round(side/4))), max(1, int(math.Round(side/5))))

	budget := tree
	add := func(s Skill) bool {
		if budget == 0 {
			return false
		}
		budget--
		p.skills = append(p.skills, s)
		return true
	}
	add(p.rootSkill())
	for _, c := range cats {
		add(p.categorySkill(c))
	}
	var subs []*subcategory
	for _, c := range cats {
		for _, sc := range c.subs {
			subs = append(subs, sc)
			if sc.indexed && !add(p.subcategorySkill(sc)) {
				sc.indexed = false // no room left: the leaves (if any) inherit from the category
			}
		}
	}
	for i := 0; budget > 0; i++ {
		add(p.leafSkill(subs[i%len(subs)]))
	}
	for i := range agents {
		p.skills = append(p.skills, p.agentSkill(cats[i%len(cats)]))
	}
}

// categories draws n categories of m subcategories each; one subcategory in
// ten has no `_index.md`.
func (p *planner) categories(n, m int) []*category {
	cats := make([]*category, n)
	dirs := map[string]bool{}
	for i := range cats {
		dir := categoryTopics[i%len(categoryTopics)]
		for i >= len(categoryTopics) && (dirs[dir] || !strings.Contains(dir, "-")) {
			dir = categoryTopics[i%len(categoryTopics)] + "-" + p.asciiWord()
		}
		dirs[dir] = true
		c := &category{dir: dir, theme: p.distinctWords([]string{strings.SplitN(dir, "-", 2)[0]}, 5)}
		taken := map[string]bool{}
		for range m {
			sub := p.asciiWord()
			for taken[sub] {
				sub = p.asciiWord() + "-" + p.asciiWord()
			}
			taken[sub] = true
			c.subs = append(c.subs, &subcategory{
				cat: c, dir: sub, theme: p.distinctWords([]string{sub}, 4), indexed: p.rng.IntN(10) != 0,
			})
		}
		cats[i] = c
	}
	return cats
}

func (p *planner) rootSkill() Skill {
	return Skill{
		Path: "_root", File: "_root.md", Format: FormatTree, Name: "_root",
		Description: "Global engineering rules every skill inherits.",
		Keywords:    []string{"conventions", "engineering", "standards"},
		Inherit:     true, Assets: []string{"conventions.md"}, seed: p.rng.Uint64(),
	}
}

func (p *planner) categorySkill(c *category) Skill {
	return Skill{
		Path: c.dir + "/_index", File: c.dir + "/_index.md", Format: FormatTree, Name: c.dir,
		Description: fmt.Sprintf("Rules shared by every %s skill.", c.dir),
		Keywords:    slices.Clone(c.theme[:3]), Inherit: true, Parent: "_root", seed: p.rng.Uint64(),
	}
}

func (p *planner) subcategorySkill(sc *subcategory) Skill {
	s := Skill{
		Path: sc.cat.dir + "/" + sc.dir + "/_index", File: sc.cat.dir + "/" + sc.dir + "/_index.md",
		Format: FormatTree, Name: sc.dir,
		Description: fmt.Sprintf("Rules for %s work in %s.", sc.dir, sc.cat.dir),
		Keywords:    p.distinctWords(slices.Clone(sc.theme[:2]), 3),
		Inherit:     true, Parent: sc.cat.dir + "/_index", seed: p.rng.Uint64(),
	}
	if p.rng.IntN(5) == 0 {
		s.Assets = []string{"checklist.md"}
	}
	return s
}

func (p *planner) leafSkill(sc *subcategory) Skill {
	name := p.uniqueName(sc.theme[p.rng.IntN(len(sc.theme))], p.asciiWord())
	dir := sc.cat.dir + "/" + sc.dir
	keywords := []string{name}
	keywords = appendDistinct(keywords, sc.theme[p.rng.IntN(len(sc.theme))])
	if p.rng.IntN(2) == 0 {
		keywords = appendDistinct(keywords, sc.cat.theme[p.rng.IntN(len(sc.cat.theme))])
	}
	for want := 3 + p.rng.IntN(5); len(keywords) < want; {
		keywords = appendDistinct(keywords, p.word())
	}
	switch p.rng.IntN(20) {
	case 0:
		keywords = appendDistinct(keywords, accentedWords[p.rng.IntN(len(accentedWords))])
	case 1, 2:
		i := 1 + p.rng.IntN(len(keywords)-1)
		keywords[i] = strings.ToUpper(keywords[i][:1]) + keywords[i][1:] // declared as "React"
	}
	parent := sc.cat.dir + "/_index"
	if sc.indexed {
		parent = dir + "/_index"
	}
	s := Skill{
		Path: dir + "/" + name, File: dir + "/" + name + ".md", Format: FormatTree, Name: name,
		Description: p.description(keywords, sc.cat.dir),
		Keywords:    keywords, Priority: p.priority(), Inherit: p.rng.IntN(20) != 0, Parent: parent,
		seed: p.rng.Uint64(),
	}
	if p.rng.IntN(10) < 3 {
		s.Assets, s.Scripts = p.leafResources(name)
	}
	return s
}

// leafResources draws the declared resource files of a leaf with a resource directory.
func (p *planner) leafResources(name string) (assets, scripts []string) {
	assets = []string{"templates/" + name + ".md"}
	if p.rng.IntN(2) == 0 {
		assets = append(assets, "examples/sample.json")
	}
	if p.rng.IntN(2) == 0 {
		scripts = []string{"scripts/check.sh"}
	}
	return assets, scripts
}

func (p *planner) agentSkill(c *category) Skill {
	name := p.uniqueName(p.asciiWord(), p.asciiWord())
	dir := c.dir + "/kits/" + name
	var keywords []string
	if p.rng.IntN(2) == 0 {
		keywords = p.distinctWords([]string{strings.SplitN(name, "-", 2)[0]}, 3+p.rng.IntN(3))
	}
	words := p.distinctWords(nil, 4)
	return Skill{
		Path: dir, File: dir + "/SKILL.md", Format: FormatAgentSkill, Name: name,
		Description: fmt.Sprintf("%s %s: %s, %s and %s for %s teams.", verbs[p.rng.IntN(len(verbs))],
			strings.ReplaceAll(name, "-", " "), words[0], words[1], words[2], c.dir),
		Keywords: keywords, Priority: p.priority(),
		Assets:  []string{"assets/template.json", "references/guide.md"},
		Scripts: []string{"scripts/run.sh"},
		seed:    p.rng.Uint64(),
	}
}

// description is one sentence naming a few of the keywords and the category.
func (p *planner) description(keywords []string, cat string) string {
	n := min(len(keywords), 2+p.rng.IntN(2))
	return fmt.Sprintf("%s %s in the %s area.", verbs[p.rng.IntN(len(verbs))],
		strings.Join(keywords[:n], ", "), cat)
}

// priority is 0 for most skills, a small tiebreaker for some.
func (p *planner) priority() int {
	switch r := p.rng.IntN(20); {
	case r < 16:
		return 0
	case r < 19:
		return 1 + p.rng.IntN(3)
	default:
		return 5 + p.rng.IntN(6)
	}
}

// word draws a shared keyword, common words far more often than rare ones.
func (p *planner) word() string { return techWords[p.zipf.Uint64()] }

// asciiWord draws, uniformly, a shared keyword usable in an Agent Skills name
// and a directory.
func (p *planner) asciiWord() string {
	for {
		w := techWords[p.rng.IntN(len(techWords))]
		if len(w) >= 2 && !strings.Contains(w, "-") {
			return w
		}
	}
}

// distinctWords extends seed with drawn words until it holds n distinct ones.
func (p *planner) distinctWords(seed []string, n int) []string {
	out := seed
	for len(out) < n {
		out = appendDistinct(out, p.word())
	}
	return out
}

// uniqueName joins two words into a skill name never used before in this corpus.
func (p *planner) uniqueName(a, b string) string {
	name := a + "-" + b
	if a == b {
		name = a
	}
	for i := 2; p.used[name]; i++ {
		name = fmt.Sprintf("%s-%s-%d", a, b, i)
	}
	p.used[name] = true
	return name
}

func appendDistinct(list []string, w string) []string {
	if slices.Contains(list, w) {
		return list
	}
	return append(list, w)
}
