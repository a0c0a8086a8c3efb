package skillsext_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/skillsext"
)

// Wire shapes the test client decodes.
type (
	listParams struct {
		mcp.ParamsBase
		Cursor string `json:"cursor,omitempty"`
	}
	getParams struct {
		mcp.ParamsBase
		URI string `json:"uri"`
	}
	wireSkill struct {
		URI       string `json:"uri"`
		Resources []struct {
			URI    string `json:"uri"`
			Digest string `json:"digest"`
		} `json:"resources"`
	}
	listResult struct {
		mcp.ResultBase
		Skills     []wireSkill `json:"skills"`
		NextCursor string      `json:"nextCursor"`
	}
	getResult struct {
		mcp.ResultBase
		Skill wireSkill `json:"skill"`
	}
)

// TestExtensionOnItsOwn serves the extension on a bare go-sdk server, with
// nothing of internal/server: skills/list, skills/get and resources/read
// answer from the index, a bad cursor or URI is -32602, and SyncResources
// after a rebuild that added a skill notifies the initialized client.
func TestExtensionOnItsOwn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("review/SKILL.md", "---\nname: review\ndescription: Code review\n---\nReview.\n")
	write("review/notes.txt", "notes")
	write("api/auth.md", "---\ndescription: API auth\nkeywords: [api]\n---\nAuth.\n")
	idx := index.New(index.Options{Root: dir})
	if _, err := idx.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}

	caps := &mcp.ServerCapabilities{}
	skillsext.AddCapabilities(caps)
	srv := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, &mcp.ServerOptions{Capabilities: caps})
	ext := skillsext.New(skillsext.Options{Server: srv, Index: idx})

	changed := make(chan struct{}, 4)
	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { changed <- struct{}{} },
	})
	if err := mcp.AddSendingCustomMethod[*listParams, *listResult](client, "skills/list"); err != nil {
		t.Fatal(err)
	}
	if err := mcp.AddSendingCustomMethod[*getParams, *getResult](client, "skills/get"); err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
	if err := cs.Ping(ctx, nil); err != nil { // notifications/initialized is handled before this answer
		t.Fatal(err)
	}
	if _, ok := cs.InitializeResult().Capabilities.Extensions[skillsext.ID]; !ok {
		t.Errorf("capabilities: no %s extension", skillsext.ID)
	}

	list, err := mcp.CallCustomMethod[*listParams, *listResult](ctx, cs, "skills/list", &listParams{})
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, s := range list.Skills {
		uris = append(uris, s.URI)
	}
	if want := []string{"skill://api/auth/SKILL.md", "skill://review/SKILL.md"}; !slices.Equal(uris, want) {
		t.Errorf("skills/list: got %v, want %v", uris, want)
	}
	got, err := mcp.CallCustomMethod[*getParams, *getResult](ctx, cs, "skills/get", &getParams{URI: "skill://review/SKILL.md"})
	if err != nil || len(got.Skill.Resources) != 2 || got.Skill.Resources[1].URI != "skill://review/notes.txt" {
		t.Errorf("skills/get: got %+v, %v, want SKILL.md and notes.txt", got, err)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://review/notes.txt"})
	if err != nil || res.Contents[0].Text != "notes" {
		t.Errorf("resources/read: got %+v, %v, want notes", res, err)
	}

	for name, call := range map[string]func() error{
		"a made-up cursor": func() error {
			_, err := mcp.CallCustomMethod[*listParams, *listResult](ctx, cs, "skills/list", &listParams{Cursor: "Zm9v"})
			return err
		},
		"an unserved skill": func() error {
			_, err := mcp.CallCustomMethod[*getParams, *getResult](ctx, cs, "skills/get", &getParams{URI: "skill://nope/SKILL.md"})
			return err
		},
	} {
		var wire *jsonrpc.Error
		if err := call(); !errors.As(err, &wire) || wire.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("%s: got %v, want -32602", name, err)
		}
	}

	write("db/SKILL.md", "---\nname: db\ndescription: Databases\n---\nDB.\n")
	if _, err := idx.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	ext.SyncResources()
	<-changed // the test's deadline bounds the wait
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://db/SKILL.md"}); err != nil {
		t.Errorf("reading the new skill: %v", err)
	}
}
