package index_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/index"
)

// exactMatcher is a third-party matcher: a skill matches when the context
// holds one of its keywords as a whole word; the score is the share of its
// keywords present.
type exactMatcher struct{}

func (exactMatcher) Build(entries []core.MatchEntry) core.Searcher {
	return exactSearcher(slices.Clone(entries))
}

type exactSearcher []core.MatchEntry

func (s exactSearcher) Search(context string) []core.Match {
	words := strings.Fields(strings.ToLower(context))
	var out []core.Match
	for _, e := range s {
		var hit []string
		for _, kw := range e.Keywords {
			if slices.Contains(words, strings.ToLower(kw)) {
				hit = append(hit, strings.ToLower(kw))
			}
		}
		if len(hit) > 0 {
			out = append(out, core.Match{Path: e.Path, Score: float64(len(hit)) / float64(len(e.Keywords)), MatchedKeywords: hit})
		}
	}
	slices.SortFunc(out, func(a, b core.Match) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Path, b.Path)
	})
	return out
}

// A third party replaces the matcher by implementing core.Matcher and
// passing it to the index (cmd/skillscmd passes the one selected by name, by
// default "auto": keyword or ranked per snapshot; a custom build registers its
// own through skillscmd.Options.Matchers). The index
// calls Build once per snapshot; get_skill then ranks Search's answer with
// core.Rank.
func Example_customMatcher() {
	dir, _ := os.MkdirTemp("", "skills")
	defer os.RemoveAll(dir)
	_ = os.WriteFile(filepath.Join(dir, "deploy.md"), []byte("---\ndescription: Deploying\nkeywords: [deploy, release]\n---\nShip it.\n"), 0o644)
	_ = os.WriteFile(filepath.Join(dir, "docs.md"), []byte("---\ndescription: Docs\nkeywords: [docs]\n---\nWrite it.\n"), 0o644)

	idx := index.New(index.Options{Root: dir, Matcher: exactMatcher{}})
	snap, err := idx.Rebuild(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	ranking := core.Rank(snap.Searcher().Search("please deploy the release"), config.Default().Matching.Rank())
	fmt.Println(ranking.Matches[0].Path, ranking.Matches[0].Score, ranking.Matches[0].MatchedKeywords)
	// Output: deploy 1 [deploy release]
}
