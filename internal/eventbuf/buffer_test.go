package eventbuf

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

func TestEmitReadAllRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home", ".skills-mcp")
	path := filepath.Join(dir, "analytics-buffer.jsonl")
	b := New(path)
	ctx := context.Background()

	want := []core.Event{
		event(0),
		{Type: core.EventAmbiguous, Timestamp: "2026-02-18T14:30:00.001Z", ServerID: "dev-a", Data: map[string]any{"candidates": []any{"a", "b"}}},
	}
	if err := b.Emit(ctx, want[:1]); err != nil {
		t.Fatalf("Emit: %v", err)
	}
	if err := b.Emit(ctx, want[1:]); err != nil {
		t.Fatalf("Emit: %v", err)
	}
	got, err := b.ReadAll(ctx)
	if err != nil {
		t.Fatalf("ReadAll: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReadAll = %v, want %v", got, want)
	}

	for _, c := range []struct {
		path string
		want os.FileMode
	}{{dir, 0o700}, {path, 0o600}} {
		info, err := os.Stat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != c.want {
			t.Errorf("%s mode = %o, want %o", c.path, got, c.want)
		}
	}
	assertWholeLines(t, path, 2)
}

func TestReadAllMissingFile(t *testing.T) {
	got, err := New(filepath.Join(t.TempDir(), "absent.jsonl")).ReadAll(context.Background())
	if err != nil || len(got) != 0 {
		t.Errorf("ReadAll = %v, %v; want no events, nil", got, err)
	}
}

func TestReadAllSkipsUnreadableLines(t *testing.T) {
	good0, _ := json.Marshal(event(0))
	good1, _ := json.Marshal(event(1))
	tests := []struct {
		name        string
		content     string
		wantIDs     []int
		wantSkipped float64 // 0: no warning
	}{
		{name: "torn last line", content: string(good0) + "\n" + string(good1) + "\n" + `{"type":"skill_ser`, wantIDs: []int{0, 1}, wantSkipped: 1},
		{name: "garbage in the middle", content: string(good0) + "\n#!garbage\n" + string(good1) + "\n", wantIDs: []int{0, 1}, wantSkipped: 1},
		{name: "JSON that is not an event", content: "null\n[1,2]\n{}\n" + string(good1) + "\n", wantIDs: []int{1}, wantSkipped: 3},
		{name: "blank lines are not counted", content: "\n" + string(good0) + "\n\n  \n" + string(good1), wantIDs: []int{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "buffer.jsonl")
			if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			logger, logs := testlog.NewJSONLogger()
			got, err := New(path, WithLogger(logger)).ReadAll(context.Background())
			if err != nil {
				t.Fatalf("ReadAll: %v", err)
			}
			if !slices.Equal(ids(got), tt.wantIDs) {
				t.Errorf("ids = %v, want %v", ids(got), tt.wantIDs)
			}
			warnings := logs.Entries(t, "analytics buffer: skipped unreadable lines")
			switch {
			case tt.wantSkipped == 0 && len(warnings) != 0:
				t.Errorf("got %d warnings, want none", len(warnings))
			case tt.wantSkipped > 0 && len(warnings) != 1:
				t.Errorf("got %d warnings, want one", len(warnings))
			case tt.wantSkipped > 0 && warnings[0]["skipped"] != tt.wantSkipped:
				t.Errorf("warning skipped = %v, want %v", warnings[0]["skipped"], tt.wantSkipped)
			}
		})
	}
}

func TestEmitAfterTornLineKeepsNewLinesWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "buffer.jsonl")
	b := New(path)
	ctx := context.Background()
	if err := b.Emit(ctx, eventRange(0, 2)); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"type":"skill_served","tim`); err != nil { // a crash mid-write
		t.Fatal(err)
	}
	f.Close()

	if err := b.Emit(ctx, eventRange(2, 4)); err != nil {
		t.Fatalf("Emit after a torn line: %v", err)
	}
	got, err := b.ReadAll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 2, 3}; !slices.Equal(ids(got), want) {
		t.Errorf("ids = %v, want %v", ids(got), want)
	}
}

func TestBoundedBufferDropsOldest(t *testing.T) {
	tests := []struct {
		name        string
		batches     [][]core.Event
		wantIDs     []int
		wantDropped float64 // summed over warnings
	}{
		{name: "fits", batches: [][]core.Event{eventRange(0, 3)}, wantIDs: []int{0, 1, 2}},
		{name: "one event at a time", batches: [][]core.Event{eventRange(0, 1), eventRange(1, 2), eventRange(2, 3), eventRange(3, 4), eventRange(4, 5)}, wantIDs: []int{2, 3, 4}, wantDropped: 2},
		{name: "one batch larger than the bound", batches: [][]core.Event{eventRange(0, 5)}, wantIDs: []int{2, 3, 4}, wantDropped: 2},
		{name: "old and new mixed", batches: [][]core.Event{eventRange(0, 2), eventRange(2, 4)}, wantIDs: []int{1, 2, 3}, wantDropped: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "buffer.jsonl")
			logger, logs := testlog.NewJSONLogger()
			b := New(path, WithMaxBytes(3*lineSize(t, 0)), WithLogger(logger)) // ids 0-9 encode to the same size
			for _, batch := range tt.batches {
				if err := b.Emit(context.Background(), batch); err != nil {
					t.Fatalf("Emit: %v", err)
				}
			}
			got, err := b.ReadAll(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(got), tt.wantIDs) {
				t.Errorf("ids = %v, want %v (newest kept)", ids(got), tt.wantIDs)
			}
			var dropped float64
			for _, w := range logs.Entries(t, "analytics buffer full: dropped oldest events") {
				dropped += w["dropped"].(float64)
			}
			if dropped != tt.wantDropped {
				t.Errorf("warnings count %v dropped events, want %v", dropped, tt.wantDropped)
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range entries {
				if !strings.HasSuffix(e.Name(), ".lock") {
					names = append(names, e.Name())
				}
			}
			if len(names) != 1 {
				t.Errorf("directory holds %v, want only the buffer and its lock (no temp files)", names)
			}
			if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
				t.Errorf("buffer after rewrite: %v, err %v; want mode 600", info.Mode().Perm(), err)
			}
		})
	}
}

func TestBoundedRewriteRemovesTornLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "buffer.jsonl")
	b := New(path, WithMaxBytes(3*lineSize(t, 0)))
	ctx := context.Background()
	if err := b.Emit(ctx, eventRange(0, 2)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(mustRead(t, path), `{"torn`...), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := b.Emit(ctx, eventRange(2, 3)); err != nil {
		t.Fatal(err)
	}
	got, err := b.ReadAll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 2}; !slices.Equal(ids(got), want) {
		t.Errorf("ids = %v, want %v", ids(got), want)
	}
	assertWholeLines(t, path, 3)
}

func TestClear(t *testing.T) {
	path := filepath.Join(t.TempDir(), "buffer.jsonl")
	b := New(path)
	ctx := context.Background()
	if err := b.Emit(ctx, eventRange(0, 3)); err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // clearing a clear buffer is fine
		if err := b.Clear(ctx); err != nil {
			t.Fatalf("Clear #%d: %v", i+1, err)
		}
	}
	if got, err := b.ReadAll(ctx); err != nil || len(got) != 0 {
		t.Errorf("ReadAll after Clear = %v, %v; want nothing", got, err)
	}
	if err := b.Emit(ctx, eventRange(3, 4)); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.ReadAll(ctx); !slices.Equal(ids(got), []int{3}) {
		t.Errorf("ids after Clear and Emit = %v, want [3]", ids(got))
	}
}

func TestConcurrentEmit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "buffer.jsonl")
	b := New(path)
	const writers, perWriter = 8, 20
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range perWriter {
				if err := b.Emit(context.Background(), []core.Event{event(w*perWriter + i)}); err != nil {
					t.Errorf("Emit: %v", err)
				}
			}
		})
	}
	wg.Wait()
	got, err := b.ReadAll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	gotIDs := ids(got)
	slices.Sort(gotIDs)
	if len(slices.Compact(gotIDs)) != writers*perWriter || len(got) != writers*perWriter {
		t.Errorf("got %d events (%d distinct), want %d", len(got), len(slices.Compact(gotIDs)), writers*perWriter)
	}
	assertWholeLines(t, path, writers*perWriter)
}

func TestEmitLeavesOutUnencodableEvents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "buffer.jsonl")
	logger, logs := testlog.NewJSONLogger()
	b := New(path, WithLogger(logger))
	bad := event(1)
	bad.Data = map[string]any{"score": math.NaN()}
	if err := b.Emit(context.Background(), []core.Event{event(0), bad, event(2)}); err != nil {
		t.Fatalf("Emit: %v", err)
	}
	got, err := b.ReadAll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 2}; !slices.Equal(ids(got), want) {
		t.Errorf("ids = %v, want %v", ids(got), want)
	}
	if n := len(logs.Entries(t, "analytics buffer: event cannot be encoded, left out")); n != 1 {
		t.Errorf("got %d warnings, want 1", n)
	}
}

func TestEmitWithCancelledContextWritesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "buffer.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := New(path).Emit(ctx, eventRange(0, 1)); err == nil {
		t.Error("Emit with a cancelled context: got nil error, want one")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("stat after cancelled Emit: %v, want not exist", err)
	}
}

func TestEmitEmptyBatchCreatesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "buffer.jsonl")
	if err := New(path).Emit(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
		t.Errorf("stat after empty Emit: %v, want not exist", err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// assertWholeLines checks the file is exactly n newline-terminated JSON lines.
func assertWholeLines(t *testing.T, path string, n int) {
	t.Helper()
	data := mustRead(t, path)
	if !bytes.HasSuffix(data, []byte("\n")) {
		t.Errorf("%s does not end with a newline", path)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	lines := 0
	for sc.Scan() {
		lines++
		if !json.Valid(sc.Bytes()) {
			t.Errorf("line %d is not JSON: %q", lines, sc.Text())
		}
	}
	if lines != n {
		t.Errorf("%s has %d lines, want %d", path, lines, n)
	}
}
