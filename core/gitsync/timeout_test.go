package gitsync

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
)

// silentRemote is a TCP listener that accepts every connection and never
// writes a byte (a git remote that hangs); it returns an http URL to it.
func silentRemote(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String() + "/skills.git"
}

// TestSilentRemoteTimesOut points a syncer at a remote that never answers
// (issue 16, item 5): before, Initialize and ForceRefresh never returned;
// now each fails after the timeout, with an error naming it, and a cached
// clone is still served.
func TestSilentRemoteTimesOut(t *testing.T) {
	const timeout = 500 * time.Millisecond
	url := silentRemote(t)

	t.Run("clone", func(t *testing.T) {
		f := newFixture(t)
		opts := f.options()
		opts.URL, opts.Timeout = url, timeout
		s := f.syncer(opts)
		start := time.Now()
		_, err := s.Initialize(t.Context())
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Initialize = %v, want a timeout", err)
		}
		if took := time.Since(start); took > 20*timeout {
			t.Errorf("Initialize took %v with a %v timeout", took, timeout)
		}
		t.Logf("clone of a silent remote failed after %v: %v", time.Since(start).Round(time.Millisecond), err)
	})

	t.Run("fetch into a cached clone", func(t *testing.T) {
		f := newFixture(t)
		f.initialized()
		// The cache now points at the silent remote.
		repo, err := git.PlainOpen(f.dir)
		if err != nil {
			t.Fatal(err)
		}
		cfg, _ := repo.Config()
		cfg.Remotes["origin"].URLs = []string{url}
		if err := repo.SetConfig(cfg); err != nil {
			t.Fatal(err)
		}
		opts := f.options()
		opts.URL, opts.Timeout = url, timeout
		s := f.syncer(opts)
		res, err := s.Initialize(t.Context())
		if !errors.Is(err, ErrUsingCache) || !errors.Is(err, context.DeadlineExceeded) || res.CommitHash == "" {
			t.Fatalf("Initialize = %+v, %v; want the cache served after a timeout", res, err)
		}
		start := time.Now()
		if _, err := s.ForceRefresh(t.Context()); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("ForceRefresh = %v, want a timeout", err)
		}
		t.Logf("refresh against a silent remote failed after %v", time.Since(start).Round(time.Millisecond))
	})
}
