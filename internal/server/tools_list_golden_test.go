package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/server"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// TestToolsListGolden holds what tools/list shows a client, every tool set
// served over mixedTree: names, descriptions, input and output schemas and
// annotations. A change to a tool's JSON shows as a diff of
// testdata/tools_list.golden.json (refresh it with -update and read the diff).
func TestToolsListGolden(t *testing.T) {
	h := start(t, writeTree(t, mixedTree()), withSets(server.ToolSetCore, server.ToolSetSkill, server.ToolSetSk))
	res, err := h.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(res.Tools)
	if err != nil {
		t.Fatal(err)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	pretty.WriteByte('\n')
	golden := filepath.Join("testdata", "tools_list.golden.json")
	if *update {
		if err := os.WriteFile(golden, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(pretty.Bytes(), want) {
		t.Errorf("tools/list differs from %s (run with -update and read the diff):\n%s", golden, pretty.Bytes())
	}
}
