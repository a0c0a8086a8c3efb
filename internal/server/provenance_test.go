package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skills-mcp/skills-mcp/internal/config"
	"github.com/skills-mcp/skills-mcp/internal/httpguard"
	"github.com/skills-mcp/skills-mcp/internal/index"
	"github.com/skills-mcp/skills-mcp/internal/server"
	"github.com/skills-mcp/skills-mcp/internal/testhttp"
	"github.com/skills-mcp/skills-mcp/plugins/matcher/keyword"
)

// provenanceOf decodes the project's provenance key of a _meta, nil when absent.
func provenanceOf(t *testing.T, meta mcp.Meta) *server.Provenance {
	t.Helper()
	v, ok := meta[server.MetaProvenance]
	if !ok {
		return nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var p server.Provenance
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatalf("provenance %s: %v", raw, err)
	}
	return &p
}

// initialize, skills/list, skills/get and get_skill carry the provenance
// under the project's _meta key, over both protocols (the legacy one goes
// through the one-pass encoding of tool results), and nothing without it.
func TestProvenanceMeta(t *testing.T) {
	t.Parallel()
	want := server.Provenance{Commit: strings.Repeat("c", 40), Ref: "v1.2", Pinned: true, Verified: true, Signer: "alice@example.com", Lock: "sha256:" + strings.Repeat("1", 64)}
	for _, protocol := range []string{"", legacyProtocol} {
		for _, with := range []bool{true, false} {
			name := "protocol " + protocol
			if !with {
				name += " without provenance"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				configure := func(o *server.Options) {
					if with {
						o.Provenance = func() *server.Provenance { p := want; return &p }
					}
				}
				h := startSkills(t, writeTree(t, skillsTree()), configure, nil, protocol)
				check := func(what string, meta mcp.Meta) {
					t.Helper()
					got := provenanceOf(t, meta)
					switch {
					case !with && got != nil:
						t.Errorf("%s: got provenance %+v, want none", what, got)
					case with && (got == nil || *got != want):
						t.Errorf("%s: got provenance %+v, want %+v", what, got, want)
					}
				}
				if protocol == legacyProtocol {
					// The go-sdk client keeps nothing of server/discover's _meta but
					// serverInfo: TestProvenanceInDiscover reads it on the wire.
					check("initialize", h.session.InitializeResult().Meta)
				}
				list, err := h.listSkills(t, "")
				if err != nil {
					t.Fatal(err)
				}
				check("skills/list", list.Meta)
				got, err := h.getSkill(t, list.Skills[0].URI)
				if err != nil {
					t.Fatal(err)
				}
				check("skills/get", got.Meta)
				res, err := h.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_skill", Arguments: map[string]any{"skill_path": "ui/react/auth"}})
				if err != nil || res.IsError {
					t.Fatalf("get_skill: %v %+v", err, res)
				}
				check("get_skill", res.Meta)
			})
		}
	}
}

// server/discover (protocol 2026-07-28, stateless HTTP) carries the
// provenance in its _meta, beside serverInfo.
func TestProvenanceInDiscover(t *testing.T) {
	t.Parallel()
	idx := index.New(index.Options{Root: writeTree(t, skillsTree()), Matcher: keyword.New()})
	if _, err := idx.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	commit := strings.Repeat("d", 40)
	srv := server.New(server.Options{Index: idx, Config: config.Default(),
		Provenance: func() *server.Provenance { return &server.Provenance{Commit: commit, Verified: true} }})
	ts := httptest.NewServer(srv.HTTPHandler(httpguard.Options{Stateless: true}))
	t.Cleanup(ts.Close)
	resp := testhttp.Post(t, ts.URL+httpguard.MCPPath, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}`,
		map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"})
	body := testhttp.ReadBody(t, resp)
	want := `"` + server.MetaProvenance + `":{"commit":"` + commit + `","verified":true}`
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, want) || !strings.Contains(body, "serverInfo") {
		t.Errorf("server/discover: got %d %s, want serverInfo and %s", resp.StatusCode, body, want)
	}
}
