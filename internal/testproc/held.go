package testproc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// HeldTree is a skill with a script that waits for the test and one that
// only leaves a mark, for tests of the bound of script runs at once. held.sh
// says it runs, records how many runs of it run now, and waits until the
// test releases it: it makes the fifo $DIR/go.$ID, then the marker
// $DIR/running.$ID, writes the count of markers to $DIR/seen.$ID, and reads
// the fifo. quick.sh touches $DIR/quick-ran.
func HeldTree() map[string]string {
	return map[string]string{
		"held.md": "---\ndescription: Held\nkeywords: [held]\nscripts:\n" +
			"  - file: scripts/held.sh\n    execution: server\n    args:\n      - name: dir\n      - name: id\n" +
			"  - file: scripts/quick.sh\n    execution: server\n    args:\n      - name: dir\n---\nHeld\n",
		"held/scripts/held.sh": `d="$SKILL_ARG_DIR"; id="$SKILL_ARG_ID"
mkfifo "$d/go.$id"
touch "$d/running.$id"
ls "$d" | grep -c '^running\.' > "$d/seen.$id"
read -r _ < "$d/go.$id"
rm "$d/running.$id"
echo "done $id"
`,
		"held/scripts/quick.sh": "touch \"$SKILL_ARG_DIR/quick-ran\"\n",
	}
}

// Running lists the ids of the held scripts running in dir.
func Running(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range entries {
		if id, ok := strings.CutPrefix(e.Name(), "running."); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// Release lets the held script id end.
func Release(t testing.TB, dir, id string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, "go."+id), os.O_WRONLY, 0) // waits for the script's read
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("go\n")
	_ = f.Close()
}

// Poll calls done every few milliseconds until it reports true, failing the
// test after a generous minute.
func Poll(t testing.TB, what string, done func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
