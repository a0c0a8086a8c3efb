package http

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	nethttp "net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skills-mcp/skills-mcp/core"
)

func sampleEvents() []core.Event {
	return []core.Event{
		{Type: core.EventSkillServed, Timestamp: "2026-02-18T14:30:00.000Z", ServerID: "dev-a", Data: map[string]any{"skill_path": "data/sql", "score": 0.5}},
		{Type: core.EventRefresh, Timestamp: "2026-02-18T14:30:01.000Z", ServerID: "dev-a", Data: map[string]any{"mode": "force"}},
	}
}

func TestEmitPostsEvents(t *testing.T) {
	type request struct {
		method, contentType string
		body                []byte
	}
	got := make(chan request, 1)
	srv := httptest.NewTLSServer(nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- request{r.Method, r.Header.Get("Content-Type"), body}
	}))
	defer srv.Close()

	// The TLS server is reachable only through its own client: this also checks Options.Client is used.
	s := New(Options{Endpoint: srv.URL + "/hook", Client: srv.Client()})
	want := sampleEvents()
	if err := s.Emit(context.Background(), want); err != nil {
		t.Fatalf("Emit: %v", err)
	}
	req := <-got
	if req.method != nethttp.MethodPost {
		t.Errorf("method = %s, want POST", req.method)
	}
	if req.contentType != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", req.contentType)
	}
	var body map[string][]core.Event
	if err := json.Unmarshal(req.body, &body); err != nil {
		t.Fatalf("body %q: %v", req.body, err)
	}
	if len(body) != 1 || !reflect.DeepEqual(body["events"], want) {
		t.Errorf("body = %s, want {\"events\": %v}", req.body, want)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestEmitEmptyBatchSendsNothing(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(nethttp.HandlerFunc(func(nethttp.ResponseWriter, *nethttp.Request) { requests.Add(1) }))
	defer srv.Close()
	if err := New(Options{Endpoint: srv.URL}).Emit(context.Background(), nil); err != nil {
		t.Fatalf("Emit: %v", err)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("got %d requests, want 0", n)
	}
}

func TestEmitStatus(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		wantErr string // "" means success
	}{
		{name: "200", status: 200},
		{name: "202", status: 202},
		{name: "204", status: 204},
		{name: "400", status: 400, wantErr: "status 400 Bad Request"},
		{name: "404", status: 404, wantErr: "status 404 Not Found"},
		{name: "500", status: 500, wantErr: "status 500 Internal Server Error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(nethttp.HandlerFunc(func(w nethttp.ResponseWriter, _ *nethttp.Request) {
				w.WriteHeader(tt.status)
			}))
			defer srv.Close()
			err := New(Options{Endpoint: srv.URL + "/hook"}).Emit(context.Background(), sampleEvents())
			if tt.wantErr == "" {
				if err != nil {
					t.Errorf("Emit: %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Emit: nil error, want %q", tt.wantErr)
			}
			for _, want := range []string{tt.wantErr, srv.URL + "/hook"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not name %q", err, want)
				}
			}
		})
	}
}

func TestEmitErrorsHideCredentials(t *testing.T) {
	up := httptest.NewServer(nethttp.HandlerFunc(func(w nethttp.ResponseWriter, _ *nethttp.Request) {
		w.WriteHeader(nethttp.StatusServiceUnavailable)
	}))
	defer up.Close()
	down := httptest.NewServer(nethttp.HandlerFunc(func(nethttp.ResponseWriter, *nethttp.Request) {}))
	down.Close()

	tests := []struct {
		name string
		base string
	}{
		{name: "error status", base: up.URL},
		{name: "connection refused", base: down.URL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			endpoint := strings.Replace(tt.base, "http://", "http://alice:s3cret@", 1) + "/hook?token=t0ken"
			err := New(Options{Endpoint: endpoint}).Emit(context.Background(), sampleEvents())
			if err == nil {
				t.Fatal("Emit: nil error, want one")
			}
			for _, secret := range []string{"alice", "s3cret", "t0ken"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error %q reveals %q", err, secret)
				}
			}
			if want := tt.base + "/hook"; !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not name %q", err, want)
			}
		})
	}
}

func TestEmitTimeoutAndCancel(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(nethttp.HandlerFunc(func(_ nethttp.ResponseWriter, r *nethttp.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		timeout time.Duration
		ctx     context.Context
		want    error
	}{
		{name: "sink timeout", timeout: 50 * time.Millisecond, ctx: context.Background(), want: context.DeadlineExceeded},
		{name: "caller cancelled", ctx: cancelled, want: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := New(Options{Endpoint: srv.URL, Timeout: tt.timeout}).Emit(tt.ctx, sampleEvents())
			if !errors.Is(err, tt.want) {
				t.Errorf("Emit error = %v, want errors.Is %v", err, tt.want)
			}
		})
	}
}

func TestEmitMalformedEndpoint(t *testing.T) {
	err := New(Options{Endpoint: "http://alice:s3cret@[::1"}).Emit(context.Background(), sampleEvents())
	if err == nil {
		t.Fatal("Emit: nil error, want one")
	}
	if strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error %q reveals the password", err)
	}
}
