package server

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/corpus"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/search"
	"github.com/skills-mcp/skills-mcp/internal/testenv"
	rankedmatcher "github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

// corpusSkills is the size of the generated corpus the request-limit tests
// search and complete over.
const corpusSkills = 2000

// newCorpusServer is a server (sk tool set, ranked matcher) over a corpus of
// corpusSkills skills generated in a temporary directory, with the word index
// of skills_search built.
func newCorpusServer(t *testing.T) *Server {
	t.Helper()
	dir := t.TempDir()
	if _, _, err := corpus.Generate(dir, corpus.Options{Skills: corpusSkills}); err != nil {
		t.Fatal(err)
	}
	idx := index.New(index.Options{Roots: []index.Root{{Dir: dir, Source: index.SourceSkillsDir, Required: true}}, Matcher: rankedmatcher.New()})
	if _, err := idx.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := New(Options{Index: idx, Config: config.Default(), ToolSets: []string{"core", "sk"}})
	if _, _, err := s.search.Search(context.Background(), s.snapshot(), "warm", search.Tokens("warm"), 1); err != nil {
		t.Fatal(err) // the word index built, as the first search builds it
	}
	return s
}

// TestRequestBoundsOverACorpus runs the tests of the bounds on one request's
// work and answer over one generated corpus. It does not run in parallel
// with other tests: it compares times and counts allocations (process-wide),
// which tests running beside it would disturb.
func TestRequestBoundsOverACorpus(t *testing.T) {
	s := newCorpusServer(t)
	for _, tt := range []struct {
		name string
		test func(*testing.T, *Server)
	}{
		{"SkillsSearchQueryWordCap", testSkillsSearchQueryWordCap},
		{"SkillsSearchStopsWhenCancelled", testSkillsSearchStopsWhenCancelled},
		{"CompletionValueCap", testCompletionValueCap},
		{"CompletionStopsWhenCancelled", testCompletionStopsWhenCancelled},
		{"SkillsListPages", testSkillsListPages},
		{"SkillsListStopsWhenCancelled", testSkillsListStopsWhenCancelled},
		{"ListSkillsUnchangedWhenItFits", testListSkillsUnchangedWhenItFits},
		{"ListSkillsPages", testListSkillsPages},
		{"PagesBoundMemoryUnderConcurrency", testPagesBoundMemoryUnderConcurrency},
	} {
		t.Run(tt.name, func(t *testing.T) { tt.test(t, s) })
	}
}

// vocabulary returns n distinct words of the skills' bodies, chosen at
// random (seeded) so that each token of a query does real work.
func vocabulary(t *testing.T, s *Server, n int) []string {
	t.Helper()
	seen := map[string]bool{}
	var words []string
	snap := s.snapshot()
	for _, sk := range snap.Skills() {
		body, err := snap.Body(sk)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range search.Tokens(body) {
			if !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	if len(words) < n {
		t.Fatalf("the bodies hold %d words, want at least %d", len(words), n)
	}
	slices.Sort(words)
	rng := rand.New(rand.NewPCG(26, 3))
	rng.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
	return words[:n]
}

// fastest runs f rounds times and returns its smallest CPU time on its
// thread: a cost other processes on the shared machine do not inflate (wall
// time under a load of 13 on 2 cores once read a ratio of 24.7 here).
func fastest(rounds int, f func()) time.Duration {
	best := time.Duration(1<<63 - 1)
	for range rounds {
		best = min(best, testenv.ThreadCPU(f))
	}
	return best
}

// searchText calls the skills_search handler and returns its text and isError.
func searchText(t *testing.T, s *Server, ctx context.Context, query string) (string, bool) {
	t.Helper()
	res, err := callArgs(ctx, t, s, "skills_search", map[string]any{"query": query, "limit": 25})
	if err != nil {
		t.Fatalf("skills_search: %v", err)
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

// testSkillsSearchQueryWordCap: a query of more than search.MaxQueryWords
// words is refused with an error naming the limit, before any search; one at
// the limit is answered.
func testSkillsSearchQueryWordCap(t *testing.T, s *Server) {
	words := vocabulary(t, s, search.MaxQueryWords+1)
	for _, tt := range []struct {
		name    string
		query   string
		wantErr string
	}{
		{"at the cap", strings.Join(words[:search.MaxQueryWords], " "), ""},
		{"one over the cap", strings.Join(words, " "), fmt.Sprintf("query has %d words, over the limit of %d words", search.MaxQueryWords+1, search.MaxQueryWords)},
		{"100,000 words", strings.Repeat("w ", 100000), fmt.Sprintf("query has 100000 words, over the limit of %d words", search.MaxQueryWords)},
		{"the cap of words repeated", strings.Repeat(words[0]+" ", search.MaxQueryWords), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text, isErr := searchText(t, s, context.Background(), tt.query)
			if isErr != (tt.wantErr != "") || !strings.Contains(text, tt.wantErr) {
				t.Errorf("got isError %v %q, want an error holding %q", isErr, clipText(text), tt.wantErr)
			}
		})
	}
}

// testSkillsSearchStopsWhenCancelled: a search whose request is cancelled
// stops: the handler and the engine each return the context's error instead
// of hits (internal/search's TestSearchStopsWhenCancelled: the index's search
// and the reference).
func testSkillsSearchStopsWhenCancelled(t *testing.T, s *Server) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	query := strings.Join(vocabulary(t, s, 3), " ")
	tokens := search.Tokens(query)
	if _, _, err := s.handleSkillsSearch(ctx, nil, skillsSearchArgs{Query: query, Limit: searchLimitDefault}); !errors.Is(err, context.Canceled) {
		t.Errorf("handler: got %v, want context.Canceled", err)
	}
	if _, _, err := s.search.Search(ctx, s.snapshot(), query, tokens, 10); !errors.Is(err, context.Canceled) {
		t.Errorf("Search: got %v, want context.Canceled", err)
	}
}

// completeValue calls the completion handler for get_skill's skill_path.
func completeValue(s *Server, ctx context.Context, value string) (*mcp.CompleteResult, error) {
	return s.complete(ctx, &mcp.CompleteRequest{Params: &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: getSkillPrompt},
		Argument: mcp.CompleteParamsArgument{Name: promptArgSkillPath, Value: value},
	}})
}

// testCompletionValueCap: a value over MaxCompletionValueBytes gets -32602
// naming the limit; one at the limit is answered, at a cost comparable to a
// short value's (the fastest of several runs of each, in the same process).
// Before, each candidate built a copy of the value: a value of the cap cost
// 12 times a short one here, and 2 MB 3.9 s (7-11 s over 10,000 skills).
func testCompletionValueCap(t *testing.T, s *Server) {
	for _, tt := range []struct {
		name  string
		value string
		want  string
	}{
		{"one byte over", strings.Repeat("a", MaxCompletionValueBytes+1), fmt.Sprintf("the argument value is %d bytes, over the limit of %d bytes", MaxCompletionValueBytes+1, MaxCompletionValueBytes)},
		{"2 MB", strings.Repeat("b", 2<<20), fmt.Sprintf("the argument value is %d bytes, over the limit of %d bytes", 2<<20, MaxCompletionValueBytes)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := completeValue(s, context.Background(), tt.value)
			var wire *jsonrpc.Error
			if !errors.As(err, &wire) || wire.Code != jsonrpc.CodeInvalidParams || !strings.Contains(wire.Message, tt.want) {
				t.Errorf("got %v, want -32602 holding %q", err, tt.want)
			}
		})
	}
	atCap := strings.Repeat("d", MaxCompletionValueBytes)
	if res, err := completeValue(s, context.Background(), atCap); err != nil || res.Completion.Total != 0 {
		t.Fatalf("at the cap: got %+v, %v, want an empty completion", res, err)
	}
	cost := func(value string) time.Duration {
		return fastest(15, func() {
			if _, err := completeValue(s, context.Background(), value); err != nil {
				t.Fatal(err)
			}
		})
	}
	cost(atCap)
	tShort, tCap := cost("zzq"), cost(atCap)
	ratio := float64(tCap) / float64(tShort)
	t.Logf("3 bytes: %v, %d bytes: %v, ratio %.1f", tShort, MaxCompletionValueBytes, tCap, ratio)
	if ratio > 4 {
		t.Errorf("a value of %d bytes cost %.1f times a short one, want at most 4", MaxCompletionValueBytes, ratio)
	}
}

// testCompletionStopsWhenCancelled: a completion whose request is cancelled
// returns the context's error instead of values.
func testCompletionStopsWhenCancelled(t *testing.T, s *Server) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := completeValue(s, ctx, "a"); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// clipText shortens a long text for a failure message.
func clipText(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
