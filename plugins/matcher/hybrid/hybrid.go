package hybrid

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/redact"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/ranked"
)

// Name is the matcher's name in the matcher registry.
const Name = "hybrid"

// Defaults of Options.
const (
	defaultQueryTimeout   = 2 * time.Second
	defaultBatchTimeout   = 30 * time.Second
	defaultBatchSize      = 64
	defaultRetryAfter     = 30 * time.Second
	defaultSemanticWeight = 0.5
)

// ErrNoURL is New's error when Options.URL is empty.
var ErrNoURL = errors.New("no embeddings endpoint URL")

// Options configure a matcher. Only URL is required; a zero field takes its
// default.
type Options struct {
	// URL is the OpenAI-compatible embeddings endpoint: a full endpoint URL
	// (…/embeddings) as it is, a base URL ending in /v1 (/embeddings is
	// appended) or a bare host (/v1/embeddings is appended); http or https.
	URL string
	// Model is sent as the request's "model" (omitted when empty).
	Model string
	// Key, when set, is sent as "Authorization: Bearer KEY". It appears in
	// no log line or error.
	Key string
	// CacheDir keeps skill vectors on disk across restarts ("" keeps them
	// in memory only). It must not be inside a skills directory or clone.
	CacheDir string
	// Logger receives the outage warnings (nil: none).
	Logger hclog.Logger
	// Client makes the requests (nil: a new http.Client).
	Client *http.Client
	// QueryTimeout bounds embedding one request (defaultQueryTimeout).
	QueryTimeout time.Duration
	// BatchTimeout bounds embedding one batch of skills (defaultBatchTimeout).
	BatchTimeout time.Duration
	// BatchSize is how many skills one request embeds (defaultBatchSize).
	BatchSize int
	// RetryAfter is how long, after a failure, requests are routed by ranked
	// alone before the endpoint is tried again (defaultRetryAfter).
	RetryAfter time.Duration
	// SemanticWeight is the share of the similarity in the combined score,
	// the rest being ranked's (0 < w < 1; defaultSemanticWeight).
	SemanticWeight float64
	// Ranked is the lexical matcher combined with the similarity (nil:
	// ranked.New()).
	Ranked core.Matcher
	// Now is the clock (nil: time.Now), for tests of the retry interval.
	Now func() time.Time
}

// matcher is the hybrid core.Matcher. One matcher serves every snapshot of a
// server: its cache and its knowledge of an outage carry over rebuilds.
type matcher struct {
	opts   Options
	client *client
	cache  *vectorCache
	health *health
	log    hclog.Logger
}

var _ core.Matcher = (*matcher)(nil)

// New returns a matcher for opts; an empty URL is ErrNoURL, a URL that is
// not http(s) an error saying so.
func New(opts Options) (core.Matcher, error) {
	if strings.TrimSpace(opts.URL) == "" {
		return nil, ErrNoURL
	}
	endpoint, err := endpointURL(opts.URL)
	if err != nil {
		return nil, err
	}
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	if opts.Client == nil {
		opts.Client = &http.Client{}
	}
	if opts.QueryTimeout <= 0 {
		opts.QueryTimeout = defaultQueryTimeout
	}
	if opts.BatchTimeout <= 0 {
		opts.BatchTimeout = defaultBatchTimeout
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = defaultBatchSize
	}
	if opts.RetryAfter <= 0 {
		opts.RetryAfter = defaultRetryAfter
	}
	if opts.SemanticWeight <= 0 || opts.SemanticWeight >= 1 {
		opts.SemanticWeight = defaultSemanticWeight
	}
	if opts.Ranked == nil {
		opts.Ranked = ranked.New()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	r := redact.New(opts.Key)
	m := &matcher{
		opts: opts,
		client: &client{endpoint: endpoint, shown: redact.URLUserinfo(endpoint), model: opts.Model, key: opts.Key,
			http: opts.Client, redactor: r},
		cache:  newVectorCache(opts.CacheDir),
		health: &health{log: opts.Logger, retry: opts.RetryAfter, now: opts.Now},
		log:    opts.Logger,
	}
	return m, nil
}

// Build implements core.Matcher: ranked's searcher over entries, plus each
// skill's vector (from the cache, else embedded in batches). When the
// vectors cannot all be had, the searcher answers as ranked alone.
func (m *matcher) Build(entries []core.MatchEntry) core.Searcher {
	s := &searcher{m: m, ranked: m.opts.Ranked.Build(entries), n: len(entries)}
	s.exact, s.paths = exactKeys(entries)
	if len(entries) < minSkills {
		return s
	}
	vecs, err := m.skillVectors(entries)
	if err != nil {
		m.health.failed("embedding skills", err)
		return s
	}
	m.health.ok()
	s.dim = len(vecs[0])
	s.vecs = make([]float32, 0, len(vecs)*s.dim)
	for _, v := range vecs {
		s.vecs = append(s.vecs, normalized(v)...)
	}
	return s
}

// skillVectors returns one vector per entry, of one length: cached ones as
// they are, the others embedded in batches of BatchSize.
func (m *matcher) skillVectors(entries []core.MatchEntry) ([][]float32, error) {
	keys := make([]string, len(entries))
	vecs := make([][]float32, len(entries))
	keep := make(map[string]bool, len(entries))
	var missTexts, missKeys []string
	queued := map[string]bool{}
	for i, e := range entries {
		text := skillText(e)
		keys[i] = digest(m.client.endpoint, m.opts.Model, text)
		keep[keys[i]] = true
		if v, ok := m.cache.get(keys[i]); ok {
			vecs[i] = v
		} else if !queued[keys[i]] {
			queued[keys[i]] = true
			missTexts, missKeys = append(missTexts, text), append(missKeys, keys[i])
		}
	}
	var writeErr error
	for start := 0; start < len(missTexts); start += m.opts.BatchSize {
		end := min(start+m.opts.BatchSize, len(missTexts))
		ctx, cancel := context.WithTimeout(context.Background(), m.opts.BatchTimeout)
		got, err := m.client.embed(ctx, missTexts[start:end])
		cancel()
		if err != nil {
			return nil, err
		}
		for j, v := range got {
			if err := m.cache.put(missKeys[start+j], v); err != nil && writeErr == nil {
				writeErr = err
			}
		}
	}
	if writeErr != nil {
		m.log.Warn("embeddings cache: cannot write to disk; vectors kept in memory only", "dir", m.opts.CacheDir, "error", writeErr)
	}
	for i := range vecs {
		if vecs[i] == nil {
			v, _ := m.cache.get(keys[i])
			vecs[i] = v
		}
		if len(vecs[i]) != len(vecs[0]) {
			return nil, &dimensionError{got: len(vecs[i]), want: len(vecs[0])}
		}
	}
	m.cache.forget(keep)
	return vecs, nil
}

// embedQuery embeds one request within QueryTimeout.
func (m *matcher) embedQuery(q string) ([]float32, error) {
	ctx, cancel := context.WithTimeout(context.Background(), m.opts.QueryTimeout)
	defer cancel()
	got, err := m.client.embed(ctx, []string{q})
	if err != nil {
		return nil, err
	}
	return got[0], nil
}

// skillText is what a skill is embedded from: its name, description,
// keywords and headings, one per line.
func skillText(e core.MatchEntry) string {
	var b strings.Builder
	b.WriteString(e.Name)
	if e.Description != "" {
		b.WriteString(": " + e.Description)
	}
	if len(e.Keywords) > 0 {
		b.WriteString("\nKeywords: " + strings.Join(e.Keywords, ", "))
	}
	for _, h := range e.Headings {
		b.WriteString("\n" + h)
	}
	return b.String()
}
