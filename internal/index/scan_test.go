package index

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/skills-mcp/skills-mcp/internal/corpus"
	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// TestParallelScanMatchesSerial builds the same roots with one worker and
// with several: the skills, their files and listings, the problems and the log
// lines must be identical, in the same order.
func TestParallelScanMatchesSerial(t *testing.T) {
	t.Parallel()
	generated := t.TempDir()
	if _, _, err := corpus.Generate(generated, corpus.Options{Skills: 300}); err != nil {
		t.Fatal(err)
	}
	seeded := writeTree(t, map[string]string{
		"bad.md":              "no frontmatter\n",
		"dup/SKILL.md":        agentMD("dup", "First", "", "body\n"),
		"other/dup/SKILL.md":  agentMD("dup", "Second", "", "body\n"),
		"kit/SKILL.md":        agentMD("Kit_Bad", "Breaks the name rule", "", "body\n"),
		"kit/nested/SKILL.md": agentMD("nested", "Nested", "", ""),
		"kit/scripts/run.sh":  "echo\n",
		"tree.md":             skillMD("Tree", "unknown: 1\nassets:\n  - file: ../escape.txt\n  - file: gone.txt\n", "body"),
		"tree/present.txt":    "x",
		"noassets.md":         skillMD("No dir", "assets:\n  - file: a.txt\n", "body"),
	})
	roots := []Root{
		{Dir: generated, Source: SourceSkillsDir, Required: true},
		{Dir: seeded, Source: SourceProject},
		{Dir: filepath.Join("..", "..", "examples", "skills"), Source: SourceGlobal},
	}
	if entries, err := os.ReadDir(filepath.Join("..", "..", "testdata")); err == nil {
		for _, e := range entries {
			if e.IsDir() {
				roots = append(roots, Root{Dir: filepath.Join("..", "..", "testdata", e.Name()), Source: "testdata"})
			}
		}
	}
	type build struct {
		snap *Snapshot
		log  string
	}
	run := func(workers int) build {
		buf := &testlog.Buffer{}
		logger := hclog.New(&hclog.LoggerOptions{Output: buf, Level: hclog.Debug, DisableTime: true})
		sn, err := buildSnapshotWith(context.Background(), roots, &fakeMatcher{}, logger, workers, 0, nil, nil, nil)
		if err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		return build{snap: sn, log: buf.String()}
	}
	serial := run(1)
	if serial.snap.Len() < 300 || len(serial.snap.Problems()) == 0 || serial.log == "" {
		t.Fatalf("got %d skills, %d problems, %d bytes of log: the comparison would prove little",
			serial.snap.Len(), len(serial.snap.Problems()), len(serial.log))
	}
	for _, workers := range []int{2, 8} {
		t.Run(map[int]string{2: "2 workers", 8: "8 workers"}[workers], func(t *testing.T) {
			got := run(workers)
			if !reflect.DeepEqual(got.snap.Skills(), serial.snap.Skills()) {
				t.Errorf("skills differ from the serial scan")
			}
			if g, w := got.snap.Problems(), serial.snap.Problems(); !reflect.DeepEqual(g, w) {
				t.Errorf("got problems\n%+v\nwant\n%+v", g, w)
			}
			if got.log != serial.log {
				t.Errorf("got log\n%s\nwant\n%s", got.log, serial.log)
			}
			for _, s := range serial.snap.Skills() {
				gs := mustGet(t, got.snap, s.Path)
				if g, w := got.snap.Files(gs), serial.snap.Files(s); !reflect.DeepEqual(g, w) {
					t.Errorf("%s: got files %+v, want %+v", s.Path, g, w)
				}
				if g, w := got.snap.listings[gs], serial.snap.listings[s]; !reflect.DeepEqual(g, w) {
					t.Errorf("%s: got listing %+v, want %+v", s.Path, g, w)
				}
			}
		})
	}
}
