package hybrid_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/hybrid"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

// corpus is twenty skills of distinct topics; finops/cloud-costs says
// "spending" and "costs", never "bill".
func corpus() []core.MatchEntry {
	topics := [][2]string{
		{"finops/cloud-costs", "Reduce spending on infrastructure and cut costs of idle resources"},
		{"legal/data-erasure", "Handle requests to erase personal data under GDPR"},
		{"api/rest", "Design REST endpoints with pagination and versioning"},
		{"ops/deploy", "Roll out a service to the Kubernetes cluster"},
		{"ops/incident", "Run an incident review after an outage"},
		{"ui/react/auth", "Sign-in screens and session handling in React"},
		{"ui/vue/forms", "Form inputs and their validation in Vue"},
		{"docs/release-notes", "Write release notes from merged pull requests"},
		{"docs/adr", "Record architecture decisions"},
		{"data/sql-tuning", "Speed up slow SQL queries with indexes"},
		{"data/etl", "Build extract transform load pipelines"},
		{"sec/secrets", "Rotate leaked tokens and passwords"},
		{"sec/threat-model", "Threat modelling of a new feature"},
		{"test/flaky", "Find and fix flaky tests in CI"},
		{"test/fuzz", "Write fuzz targets for parsers"},
		{"mobile/ios", "Ship an iOS app to the App Store"},
		{"mobile/android", "Publish an Android app on Google Play"},
		{"git/rebase", "Rebase a branch and resolve conflicts"},
		{"git/bisect", "Find the commit that introduced a regression"},
		{"pdf", "Extract text and tables from PDF documents"},
	}
	out := make([]core.MatchEntry, len(topics))
	for i, tp := range topics {
		out[i] = core.MatchEntry{Path: tp[0], Name: tp[0][strings.LastIndexByte(tp[0], '/')+1:], Description: tp[1]}
	}
	return out
}

// newHybrid returns a hybrid matcher on f with test timeouts: requests far
// above what the fake needs on a loaded machine, a one-hour retry so that
// only the first failure of a test calls the endpoint.
func newHybrid(t *testing.T, f *fakeEndpoint, mod func(*hybrid.Options)) (core.Matcher, *testlog.Buffer) {
	t.Helper()
	logs := &testlog.Buffer{}
	opts := hybrid.Options{URL: f.url(), Model: "fake-model", Key: "sk-test-secret-key-0123456789",
		Logger:       hclog.New(&hclog.LoggerOptions{Output: logs, Level: hclog.Debug}),
		QueryTimeout: 30 * time.Second, BatchTimeout: 30 * time.Second, RetryAfter: time.Hour, BatchSize: 8}
	if mod != nil {
		mod(&opts)
	}
	m, err := hybrid.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return m, logs
}

func paths(ms []core.Match) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Path
	}
	return out
}

func warnings(logs *testlog.Buffer) int { return strings.Count(logs.String(), "[WARN]") }

// A request in words no skill uses routes to the skill of its meaning, where
// ranked alone answers no_match.
func TestVocabularyMissRoutesRight(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	m, logs := newHybrid(t, f, nil)
	cfg := config.Default().Matching.Rank()
	for _, tc := range []struct{ query, want string }{
		{"why is our monthly bill so large", "finops/cloud-costs"},
		{"a customer wants us to delete everything we hold about them", "legal/data-erasure"},
	} {
		lexical := core.SearchRank(ranked.New().Build(corpus()), tc.query, cfg)
		if lexical.Outcome == core.SingleMatch && lexical.Matches[0].Path == tc.want {
			t.Fatalf("ranked alone already routes %q to %s: the case proves nothing", tc.query, tc.want)
		}
		got := core.SearchRank(m.Build(corpus()), tc.query, cfg)
		if got.Outcome != core.SingleMatch || got.Matches[0].Path != tc.want {
			t.Errorf("hybrid: %q = outcome %v %v, want a single match %s (ranked alone: %v %v)",
				tc.query, got.Outcome, paths(got.Matches), tc.want, lexical.Outcome, paths(lexical.Matches))
		}
	}
	if n := warnings(logs); n != 0 {
		t.Errorf("%d warnings with a healthy endpoint:\n%s", n, logs)
	}
}

// Requests ranked already answers keep their answer: an exact name is not
// outvoted, and a request sharing nothing with any skill stays no_match.
func TestKeepsRankedAnswers(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	m, _ := newHybrid(t, f, nil)
	s := m.Build(corpus())
	cfg := config.Default().Matching.Rank()
	for _, tc := range []struct{ query, want string }{
		{"pdf", "pdf"},
		{"ops/deploy", "ops/deploy"},
		{"rebase my branch onto main and resolve the conflicts", "git/rebase"},
		{"zzqx vrrkt plomf", ""},
	} {
		got := core.SearchRank(s, tc.query, cfg)
		switch {
		case tc.want == "" && got.Outcome != core.NoMatch:
			t.Errorf("%q = %v %v, want no_match", tc.query, got.Outcome, paths(got.Matches))
		case tc.want != "" && (got.Outcome != core.SingleMatch || got.Matches[0].Path != tc.want):
			t.Errorf("%q = %v %v, want a single match %s", tc.query, got.Outcome, paths(got.Matches), tc.want)
		}
	}
	before := f.queries.Load()
	s.Search("pdf")
	if f.queries.Load() != before {
		t.Errorf("an exact name was embedded: want ranked's answer without a call")
	}
}

// fallbackCase breaks the endpoint one way and checks that hybrid answers as
// ranked alone, with one warning however many requests.
func TestFallbackToRanked(t *testing.T) {
	t.Parallel()
	queries := []string{"why is our monthly bill so large", "rebase my branch", "deploy to kubernetes", "erase personal data"}
	for _, tc := range []struct {
		name string
		// breakIt breaks f before (atIndex) or after the skills are embedded.
		breakIt func(f *fakeEndpoint)
		atIndex bool
		// wantQueryCalls is how many requests the endpoint sees after the break:
		// the first failure only, then nothing for RetryAfter.
		wantQueryCalls int64
	}{
		{"timeout on requests", func(f *fakeEndpoint) { f.slow.Store(true) }, false, 1},
		{"500 on requests", func(f *fakeEndpoint) { f.status.Store(500) }, false, 1},
		{"wrong dimension on requests", func(f *fakeEndpoint) { f.queryDim.Store(fakeDim / 2) }, false, 1},
		{"timeout at index time", func(f *fakeEndpoint) { f.slow.Store(true) }, true, 0},
		{"500 at index time", func(f *fakeEndpoint) { f.status.Store(503) }, true, 0},
		{"wrong dimension at index time", func(f *fakeEndpoint) { f.mixed.Store(true) }, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			m, logs := newHybrid(t, f, func(o *hybrid.Options) {
				o.QueryTimeout, o.BatchTimeout = time.Second, time.Second // the fake waits 60 s
			})
			if tc.atIndex {
				tc.breakIt(f)
			}
			s := m.Build(corpus())
			if !tc.atIndex {
				tc.breakIt(f)
			}
			calls := f.requests.Load()
			want := ranked.New().Build(corpus())
			for _, q := range queries {
				for range 3 {
					got, w := s.Search(q), want.Search(q)
					if strings.Join(paths(got), ",") != strings.Join(paths(w), ",") {
						t.Errorf("%q = %v, want ranked's %v", q, paths(got), paths(w))
					}
				}
			}
			if n := f.requests.Load() - calls; n != tc.wantQueryCalls {
				t.Errorf("endpoint called %d times for %d requests, want %d: an outage must not cost every request a call", n, 3*len(queries), tc.wantQueryCalls)
			}
			if n := warnings(logs); n != 1 {
				t.Errorf("%d warnings, want exactly 1:\n%s", n, logs)
			}
			if strings.Contains(logs.String(), "sk-test-secret-key") {
				t.Errorf("the key is in the log:\n%s", logs)
			}
		})
	}
}

// After RetryAfter one request probes the endpoint again; once it answers,
// hybrid routing resumes and the end of the outage is logged once.
func TestRecoversAfterRetry(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	clock := time.Unix(1_000_000, 0)
	m, logs := newHybrid(t, f, func(o *hybrid.Options) {
		o.RetryAfter = time.Minute
		o.Now = func() time.Time { return clock }
	})
	s := m.Build(corpus())
	q := "why is our monthly bill so large"
	f.status.Store(500)
	if got := s.Search(q); len(got) != 0 {
		t.Fatalf("during the outage %q = %v, want ranked's no match", q, paths(got))
	}
	f.status.Store(0)
	calls := f.requests.Load()
	s.Search(q) // within RetryAfter: no call
	if f.requests.Load() != calls {
		t.Fatalf("the endpoint was called before RetryAfter")
	}
	clock = clock.Add(time.Minute)
	if got := s.Search(q); len(got) == 0 || got[0].Path != "finops/cloud-costs" {
		t.Fatalf("after RetryAfter %q = %v, want finops/cloud-costs first", q, paths(got))
	}
	if n := strings.Count(logs.String(), "answers again: hybrid"); n != 1 {
		t.Errorf("%d recovery lines, want 1:\n%s", n, logs)
	}
}

// A rebuild embeds only the skills whose text changed; a new matcher (a
// restart) on the same cache directory embeds nothing; a damaged cache file
// is embedded again.
func TestCacheByContentDigest(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	dir := filepath.Join(t.TempDir(), "embeddings")
	m, _ := newHybrid(t, f, func(o *hybrid.Options) { o.CacheDir = dir })
	entries := corpus()
	m.Build(entries)
	if got := f.inputs.Load(); got != int64(len(entries)) {
		t.Fatalf("first build embedded %d texts, want %d", got, len(entries))
	}
	if got, want := f.requests.Load(), int64((len(entries)+7)/8); got != want {
		t.Errorf("first build made %d requests, want %d batches of 8", got, want)
	}
	m.Build(entries)
	if got := f.inputs.Load(); got != int64(len(entries)) {
		t.Errorf("an unchanged rebuild embedded %d more texts, want 0", got-int64(len(entries)))
	}
	changed := corpus()
	changed[3].Description = "Roll out a service to the Nomad cluster"
	m.Build(changed)
	if got := f.inputs.Load() - int64(len(entries)); got != 1 {
		t.Errorf("a rebuild with one changed skill embedded %d texts, want 1", got)
	}
	restarted, _ := newHybrid(t, f, func(o *hybrid.Options) { o.CacheDir = dir })
	before := f.inputs.Load()
	s := restarted.Build(changed)
	if got := f.inputs.Load() - before; got != 0 {
		t.Errorf("a restart on the same cache embedded %d texts, want 0", got)
	}
	if got := s.Search("why is our monthly bill so large"); len(got) == 0 || got[0].Path != "finops/cloud-costs" {
		t.Errorf("with cached vectors: %v, want finops/cloud-costs first", paths(got))
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.f32"))
	if len(files) != len(entries)+1 {
		t.Fatalf("%d cache files, want %d", len(files), len(entries)+1)
	}
	for _, p := range files {
		if err := os.WriteFile(p, []byte("torn!"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	again, _ := newHybrid(t, f, func(o *hybrid.Options) { o.CacheDir = dir })
	before = f.inputs.Load()
	again.Build(changed)
	if got := f.inputs.Load() - before; got != int64(len(changed)) {
		t.Errorf("damaged cache files: %d texts embedded again, want %d", got, len(changed))
	}
}

// The key goes to the endpoint as a bearer token and nowhere else.
func TestKeySentAsBearer(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	m, _ := newHybrid(t, f, nil)
	m.Build(corpus())
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.auth) == 0 || f.auth[0] != "Bearer sk-test-secret-key-0123456789" {
		t.Errorf("Authorization = %q, want the bearer key", f.auth)
	}
}

func TestNewRefusesBadURLs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ url, want string }{
		{"", "no embeddings endpoint URL"},
		{"   ", "no embeddings endpoint URL"},
		{"ftp://host/v1/embeddings", "want an http:// or https:// URL"},
		{"localhost:11434", "want an http:// or https:// URL"},
		{"http://user:pw-secret@/v1", "want an http:// or https:// URL"},
	} {
		_, err := hybrid.New(hybrid.Options{URL: tc.url})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q) = %v, want an error containing %q", tc.url, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "pw-secret") {
			t.Errorf("New(%q): the error shows the password: %v", tc.url, err)
		}
	}
}

func TestEndpointURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"http://localhost:11434/v1/embeddings":   "http://localhost:11434/v1/embeddings",
		"http://localhost:11434/v1":              "http://localhost:11434/v1/embeddings",
		"http://localhost:11434/v1/":             "http://localhost:11434/v1/embeddings",
		"https://api.example.com":                "https://api.example.com/v1/embeddings",
		"https://gw.example.com/openai/deploy/x": "https://gw.example.com/openai/deploy/x",
	} {
		got, err := hybrid.EndpointURL(in)
		if err != nil || got != want {
			t.Errorf("EndpointURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
