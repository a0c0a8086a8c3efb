package skillscmd

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/testlog"
)

// The wire types of the MCP skills extension's skills/list, as a client sees them.
type (
	extListParams struct {
		mcp.ParamsBase
		Cursor string `json:"cursor,omitempty"`
	}
	extResource struct {
		URI    string `json:"uri"`
		Digest string `json:"digest"`
		Size   int64  `json:"size"`
	}
	extSkill struct {
		URI         string          `json:"uri"`
		Frontmatter json.RawMessage `json:"frontmatter"`
		Resources   []extResource   `json:"resources"`
	}
	extListResult struct {
		mcp.ResultBase
		Skills     []extSkill `json:"skills"`
		NextCursor string     `json:"nextCursor"`
	}
)

// extServer is the binary serving dir with `serve --no-watch`, and a client
// that speaks the skills extension.
func extServer(t *testing.T, dir string) (*mcp.ClientSession, *testlog.Buffer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	client := mcp.NewClient(&mcp.Implementation{Name: "readable-test", Version: "1"}, nil)
	if err := mcp.AddSendingCustomMethod[*extListParams, *extListResult](client, "skills/list"); err != nil {
		t.Fatal(err)
	}
	cmd := serverCmd(t, "SKILLS_DIR="+dir)
	cmd.Args = append(cmd.Args, "serve", "--no-watch")
	stderr := &testlog.Buffer{}
	cmd.Stderr = stderr
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs, stderr
}

// listedResources follows skills/list to its end.
func listedResources(t *testing.T, cs *mcp.ClientSession) map[string]extResource {
	t.Helper()
	out := map[string]extResource{}
	cursor := ""
	for range 100 {
		res, err := mcp.CallCustomMethod[*extListParams, *extListResult](context.Background(), cs, "skills/list", &extListParams{Cursor: cursor})
		if err != nil {
			t.Fatalf("skills/list: %v", err)
		}
		for _, s := range res.Skills {
			for _, r := range s.Resources {
				out[r.URI] = r
			}
		}
		if cursor = res.NextCursor; cursor == "" {
			return out
		}
	}
	t.Fatal("skills/list never ends")
	return nil
}

// readBytes reads a resource and returns its bytes.
func readBytes(t *testing.T, cs *mcp.ClientSession, uri string) ([]byte, error) {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, err
	}
	c := res.Contents[0]
	if c.Blob != nil {
		return c.Blob, nil
	}
	return []byte(c.Text), nil
}

func sha(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// TestListedMeansReadable (issue 15, item 3): every file skills/list
// advertises, whatever its name, is read by resources/read with the bytes its
// digest covers; a name no skill file path can hold, or holding a control
// character (issue 26, item 11), is not advertised but reported. A file rewritten on disk with watching off is advertised with its
// new digest, and reads its new bytes.
func TestListedMeansReadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{"odd/SKILL.md": agentSkill("odd", "A skill with files named every way.", "Odd.\n")}
	for _, name := range []string{"ab:c.txt", "star*.txt", "q?.txt", "hash#1.txt", "pct%41.txt", "space name.txt",
		"CON.txt", "trailing.", "pipe|.txt", `quote".txt`, "lt<gt>.txt", "ünïcode.txt", "refs/c:d.md"} {
		files["odd/"+name] = "content of " + name
	}
	files[`odd/back\slash.txt`] = "unreachable"
	files["odd/c:drive.txt"] = "unreachable"
	files["odd/tab\tname.txt"] = "a control character in its name"
	files["rot/SKILL.md"] = agentSkill("rot", "A skill rewritten while served.", "Before.\n")
	writeTree(t, dir, files)
	cs, stderr := extServer(t, dir)
	listed := listedResources(t, cs)
	if len(listed) != len(files)-3 {
		t.Errorf("got %d resources listed, want %d:\n%v", len(listed), len(files)-3, listed)
	}
	for uri, r := range listed {
		if strings.HasPrefix(uri, "skill://rot/") {
			continue // read once it has changed (the client caches what it reads)
		}
		data, err := readBytes(t, cs, uri)
		if err != nil {
			t.Errorf("%s is listed but not readable: %v", uri, err)
			continue
		}
		if sha(data) != r.Digest || int64(len(data)) != r.Size {
			t.Errorf("%s: read %d bytes %s, listed %d bytes %s", uri, len(data), sha(data), r.Size, r.Digest)
		}
	}
	for _, uri := range []string{`skill://odd/back%5Cslash.txt`, "skill://odd/c:drive.txt", "skill://odd/tab%09name.txt"} {
		if _, ok := listed[uri]; ok {
			t.Errorf("%s listed, want it left out", uri)
		}
	}
	out, _ := validateDir(t, dir)
	for _, name := range []string{`odd/back\slash.txt:1: warning: not served`, "odd/c:drive.txt:1: warning: not served",
		`odd/tab\tname.txt:1: warning: not served: its name holds a control character`} {
		if !strings.Contains(out, name) {
			t.Errorf("validate lacks %q:\n%s", name, out)
		}
	}

	// rotation with watching off: the file changes, the digest follows
	before := listed["skill://rot/SKILL.md"]
	time.Sleep(20 * time.Millisecond) // a new modification time
	rotated := agentSkill("rot", "A skill rewritten while served.", "Rotated, and longer than before.\n")
	if err := os.WriteFile(filepath.Join(dir, "rot", "SKILL.md"), []byte(rotated), 0o644); err != nil {
		t.Fatal(err)
	}
	after := listedResources(t, cs)["skill://rot/SKILL.md"]
	data, err := readBytes(t, cs, "skill://rot/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != rotated || after.Digest != sha(data) || after.Digest == before.Digest || after.Size != int64(len(data)) {
		t.Errorf("after rotation: listed %+v (before %+v), read %q", after, before, data)
	}
	if strings.Count(stderr.String(), "\n") > 10 {
		t.Errorf("start-up log over 10 lines:\n%s", stderr.String())
	}
}
