package eval

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReadEvents: whatever a file of events holds, reading it never fails
// on content, and every event kept has a type.
func FuzzReadEvents(f *testing.F) {
	f.Add(sample(f, "events.jsonl"))
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, _, err := ReadEvents(bytes.NewReader(data))
		if err != nil && !strings.Contains(err.Error(), "too long") {
			t.Fatalf("ReadEvents: %v", err)
		}
		for _, ev := range evs {
			if ev.Type == "" {
				t.Fatalf("an event without a type was kept: %+v", ev)
			}
		}
		AnalyzeEvents(evs, nil) // never panics, whatever the data holds
	})
}

// FuzzParseTriggerItems: a trigger-eval file is either refused or every item
// has a query and a should_trigger.
func FuzzParseTriggerItems(f *testing.F) {
	f.Add(sample(f, "trigger-evals.json"))
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := ParseTriggerItems(data)
		if err != nil {
			return
		}
		if len(items) == 0 {
			t.Fatal("no error and no item")
		}
		for _, it := range items {
			if strings.TrimSpace(it.Query) == "" || it.ShouldTrigger == nil {
				t.Fatalf("item kept without a query or should_trigger: %+v", it)
			}
		}
	})
}

// sample reads one of the sample inputs in testdata, which cmd/skillscmd's
// tests of the eval subcommand read too.
func sample(f *testing.F, name string) []byte {
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		f.Fatal(err)
	}
	return data
}
