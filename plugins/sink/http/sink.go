package http

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	nethttp "net/http"
	"net/url"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
)

// Name is the sink's name in the sink registry.
const Name = "http"

// defaultTimeout bounds one POST when Options.Timeout is zero.
const defaultTimeout = 10 * time.Second

// maxDrainBytes is how much of a response body is read so the connection can be reused.
const maxDrainBytes = 64 << 10

// Options configures New.
type Options struct {
	// Endpoint is the URL batches are POSTed to (analytics.endpoint).
	Endpoint string
	// Timeout bounds one POST, response included; zero means 10 seconds.
	Timeout time.Duration
	// Client sends the requests; nil means a client owned by the sink.
	Client *nethttp.Client
}

// sink POSTs batches of events to an HTTP endpoint. It is safe for concurrent use.
type sink struct {
	endpoint  string
	redacted  string
	timeout   time.Duration
	client    *nethttp.Client
	ownClient bool
}

var _ core.Sink = (*sink)(nil)

// New returns a sink posting to opts.Endpoint. A malformed endpoint is reported
// by Emit.
func New(opts Options) core.Sink {
	s := &sink{
		endpoint: opts.Endpoint,
		redacted: redact(opts.Endpoint),
		timeout:  opts.Timeout,
		client:   opts.Client,
	}
	if s.timeout <= 0 {
		s.timeout = defaultTimeout
	}
	if s.client == nil {
		s.client = &nethttp.Client{}
		s.ownClient = true
	}
	return s
}

// Endpoint is the URL batches are POSTed to, without credentials, query or
// fragment.
func (s *sink) Endpoint() string { return s.redacted }

// payload is the request body of spec 000 §10.3.
type payload struct {
	Events []core.Event `json:"events"`
}

// Emit POSTs {"events":[...]} with Content-Type application/json. A transport
// error, a timeout (errors.Is context.DeadlineExceeded) or a non-2xx status is
// an error naming the endpoint. An empty batch sends nothing.
func (s *sink) Emit(ctx context.Context, events []core.Event) error {
	if len(events) == 0 {
		return nil
	}
	body, err := json.Marshal(payload{Events: events})
	if err != nil {
		return fmt.Errorf("encoding %d events for %s: %w", len(events), s.redacted, err)
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	req, err := nethttp.NewRequestWithContext(ctx, nethttp.MethodPost, s.endpoint, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("posting events to %s: %w", s.redacted, unwrapURLError(err))
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return fmt.Errorf("posting %d events to %s: %w", len(events), s.redacted, unwrapURLError(err))
	}
	defer resp.Body.Close()
	_, _ = io.CopyN(io.Discard, resp.Body, maxDrainBytes)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("posting %d events to %s: status %s", len(events), s.redacted, resp.Status)
	}
	return nil
}

// Close releases idle connections of a client the sink created itself.
func (s *sink) Close(context.Context) error {
	if s.ownClient {
		s.client.CloseIdleConnections()
	}
	return nil
}

// unwrapURLError drops *url.Error's wrapper, whose message repeats the full
// URL (username and query included).
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// redact renders endpoint as scheme://host/path: no userinfo, query or fragment.
func redact(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return "analytics endpoint (unparsable URL)"
	}
	clean := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}
	return clean.String()
}
