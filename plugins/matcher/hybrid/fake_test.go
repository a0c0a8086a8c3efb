package hybrid_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"
)

// fakeDim is the size of the fake endpoint's vectors.
const fakeDim = 1024

// concepts stand in for what an embedding model knows and a lexical matcher
// does not: words of one meaning share a concept, so "bill" is near "costs".
var concepts = map[string]string{
	"bill": "money", "invoice": "money", "costs": "money", "cost": "money", "spending": "money",
	"expensive": "money", "price": "money", "budget": "money",
	"erase": "privacy", "delete": "privacy", "personal": "privacy", "gdpr": "privacy", "privacy": "privacy",
}

// fakeStop are words the fake ignores, as a model gives them little weight.
var fakeStop = map[string]bool{"the": true, "a": true, "and": true, "of": true, "our": true, "is": true, "so": true,
	"why": true, "to": true, "in": true, "for": true, "with": true, "on": true, "their": true, "we": true}

// fakeVector is a hashed bag of concepts: deterministic, and similar for
// texts that share words or meanings.
func fakeVector(text string, dim int) []float64 {
	v := make([]float64, dim)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if fakeStop[w] {
			continue
		}
		if c, ok := concepts[w]; ok {
			w = "concept:" + c
		}
		h := sha256.Sum256([]byte(w))
		v[binary.BigEndian.Uint64(h[:8])%uint64(dim)]++
	}
	return v
}

// fakeEndpoint is an OpenAI-compatible /v1/embeddings server that counts
// what it is asked and can be made slow, failing or of the wrong size.
type fakeEndpoint struct {
	srv      *httptest.Server
	requests atomic.Int64 // POSTs received
	inputs   atomic.Int64 // texts embedded
	queries  atomic.Int64 // POSTs of one text (a request's context)
	status   atomic.Int64 // when non-zero, every answer has this status
	slow     atomic.Bool  // when set, answers wait until the caller gives up
	queryDim atomic.Int64 // when non-zero, one-text answers have this size
	mixed    atomic.Bool  // when set, the first vector of a batch is half the size of the others
	mu       sync.Mutex
	auth     []string // Authorization headers seen
}

func newFake(t *testing.T) *fakeEndpoint {
	t.Helper()
	f := &fakeEndpoint{}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// url is the endpoint's full URL.
func (f *fakeEndpoint) url() string { return f.srv.URL + "/v1/embeddings" }

func (f *fakeEndpoint) serve(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	f.mu.Lock()
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	f.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.inputs.Add(int64(len(req.Input)))
	if len(req.Input) == 1 {
		f.queries.Add(1)
	}
	if f.slow.Load() {
		select { // far slower than any timeout the tests set
		case <-r.Context().Done():
		case <-time.After(60 * time.Second):
		}
		return
	}
	if s := f.status.Load(); s != 0 {
		// An echo of the credentials, as a careless proxy might answer.
		http.Error(w, `{"error": "overloaded", "auth": "`+r.Header.Get("Authorization")+`"}`, int(s))
		return
	}
	dim := fakeDim
	if d := f.queryDim.Load(); d != 0 && len(req.Input) == 1 {
		dim = int(d)
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	}
	out := struct {
		Object string `json:"object"`
		Data   []item `json:"data"`
		Model  string `json:"model"`
	}{Object: "list", Model: req.Model}
	for i := len(req.Input) - 1; i >= 0; i-- { // out of order: the index says which
		d := dim
		if i == 0 && f.mixed.Load() && len(req.Input) > 1 {
			d = dim / 2
		}
		out.Data = append(out.Data, item{Object: "embedding", Index: i, Embedding: fakeVector(req.Input[i], d)})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}
