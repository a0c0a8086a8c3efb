package hybrid

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/internal/redact"
)

// maxResponseBytes bounds one answer of the endpoint: a batch of
// maxBatch vectors of maxDimension float32s written as JSON numbers
// (~20 bytes each) fits well within it.
const maxResponseBytes = 256 << 20

// maxDimension is the largest vector the matcher accepts.
const maxDimension = 16384

// maxInputRunes bounds each text sent: models take a few thousand tokens, and
// a hostile request must not become a megabyte POST.
const maxInputRunes = 4000

// client calls one OpenAI-compatible embeddings endpoint.
type client struct {
	endpoint string // the full URL POSTed to
	shown    string // endpoint without its userinfo, for messages
	model    string
	key      string
	http     *http.Client
	redactor *redact.Redactor
}

// endpointURL returns the URL to POST to for what the operator named: a
// full endpoint URL (…/embeddings) as it is, a base URL ending in /v1 with
// /embeddings appended, a bare host with /v1/embeddings. Only http and https
// are accepted.
func endpointURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("embeddings URL: %w", errors.New(redact.URLUserinfo(err.Error())))
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return "", fmt.Errorf("embeddings URL %q: want an http:// or https:// URL of an OpenAI-compatible /v1/embeddings endpoint", redact.URLUserinfo(raw))
	}
	switch p := strings.TrimRight(u.Path, "/"); {
	case strings.HasSuffix(p, "/embeddings"):
	case strings.HasSuffix(p, "/v1"):
		u.Path = p + "/embeddings"
	case p == "":
		u.Path = "/v1/embeddings"
	}
	return u.String(), nil
}

// request is the body of POST /v1/embeddings.
type request struct {
	Model string   `json:"model,omitempty"`
	Input []string `json:"input"`
}

// response is the part of the answer the matcher reads.
type response struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	} `json:"data"`
}

// embed returns one vector per text, in order. Every vector has the same
// length, between 1 and maxDimension, and finite values.
func (c *client) embed(ctx context.Context, texts []string) ([][]float32, error) {
	in := make([]string, len(texts))
	for i, t := range texts {
		in[i] = clip(t)
	}
	body, err := json.Marshal(request{Model: c.model, Input: in})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, c.fail(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its message repeats the URL
		}
		return nil, c.fail(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return nil, c.fail(err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, c.fail(fmt.Errorf("status %s: %s", resp.Status, snippet(data)))
	}
	if len(data) > maxResponseBytes {
		return nil, c.fail(fmt.Errorf("answer larger than %d bytes", maxResponseBytes))
	}
	vecs, err := decodeResponse(data, len(texts))
	if err != nil {
		return nil, c.fail(err)
	}
	return vecs, nil
}

// fail wraps err with the endpoint, the key and any URL userinfo redacted.
func (c *client) fail(err error) error {
	return fmt.Errorf("embeddings endpoint %s: %s", c.shown, c.redactor.String(err.Error()))
}

// decodeResponse reads an answer holding n vectors of one length.
func decodeResponse(data []byte, n int) ([][]float32, error) {
	var r response
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("answer is not an embeddings response: %v", err)
	}
	if len(r.Data) != n {
		return nil, fmt.Errorf("answer holds %d vectors for %d inputs", len(r.Data), n)
	}
	out := make([][]float32, n)
	for _, d := range r.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, fmt.Errorf("answer has a bad or repeated index %d", d.Index)
		}
		if len(d.Embedding) == 0 || len(d.Embedding) > maxDimension {
			return nil, fmt.Errorf("vector of %d values (want 1 to %d)", len(d.Embedding), maxDimension)
		}
		if len(d.Embedding) != len(r.Data[0].Embedding) {
			return nil, &dimensionError{got: len(d.Embedding), want: len(r.Data[0].Embedding)}
		}
		v := make([]float32, len(d.Embedding))
		for j, x := range d.Embedding {
			if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > math.MaxFloat32 {
				return nil, fmt.Errorf("vector %d holds a value that is not a finite number", d.Index)
			}
			v[j] = float32(x)
		}
		out[d.Index] = v
	}
	return out, nil
}

// dimensionError is a vector whose length differs from the others'.
type dimensionError struct{ got, want int }

func (e *dimensionError) Error() string {
	return fmt.Sprintf("vectors of the wrong size: %d values where the others have %d", e.got, e.want)
}

// clip cuts s to maxInputRunes and makes it valid UTF-8.
func clip(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if utf8.RuneCountInString(s) <= maxInputRunes {
		return s
	}
	return string([]rune(s)[:maxInputRunes])
}

// snippet is the start of an error answer, on one line, for a message.
func snippet(b []byte) string {
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(b), "")), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}
