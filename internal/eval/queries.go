package eval

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/index"
)

// Query is one line of a queries file: a context and the skill paths that
// are right answers for it (any of them); an empty expect means the query has
// no answer and get_skill should say no_match.
type Query struct {
	Query  string   `json:"query"`
	Expect []string `json:"expect"`
}

// ReadQueries reads a queries file: one JSON object per line; blank lines and
// lines starting with # are skipped. lines holds each query's line number.
func ReadQueries(path string) (queries []Query, lines []int, _ error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var q Query
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&q); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %v (want {\"query\": \"…\", \"expect\": [\"skill/path\"]})", path, n, err)
		}
		if strings.TrimSpace(q.Query) == "" {
			return nil, nil, fmt.Errorf("%s:%d: query is empty", path, n)
		}
		queries, lines = append(queries, q), append(lines, n)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(queries) == 0 {
		return nil, nil, fmt.Errorf("%s holds no query", path)
	}
	return queries, lines, nil
}

// CheckExpected fails on an expected path no skill has: a renamed skill must
// not pass as a miss nobody reads.
func CheckExpected(snap *index.Snapshot, file string, queries []Query, lines []int) error {
	var bad []string
	for i, q := range queries {
		for _, p := range q.Expect {
			if _, ok := snap.Get(p); !ok {
				bad = append(bad, fmt.Sprintf("%s:%d: no skill has the path %q", file, lines[i], p))
			}
		}
	}
	if len(bad) > 0 {
		return errors.New(strings.Join(bad, "\n"))
	}
	return nil
}
