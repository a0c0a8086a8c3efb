package server_test

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestDirectoryRead(t *testing.T) {
	t.Parallel()
	h := startSkills(t, writeTree(t, skillsTree()), nil, nil, "")
	type child struct{ uri, name, mime string }
	tests := []struct {
		name, uri string
		want      []child
	}{
		{name: "skill root", uri: "skill://pdf-processing", want: []child{
			{"skill://pdf-processing/SKILL.md", "pdf-processing", "text/markdown"},
			{"skill://pdf-processing/assets", "assets", "inode/directory"},
			{"skill://pdf-processing/references", "references", "inode/directory"},
			{"skill://pdf-processing/scripts", "scripts", "inode/directory"},
			{"skill://pdf-processing/templates", "templates", "inode/directory"},
		}},
		{name: "subdirectory", uri: "skill://pdf-processing/templates", want: []child{
			{"skill://pdf-processing/templates/invoice.md", "invoice.md", "text/markdown"},
			{"skill://pdf-processing/templates/purchase-order.md", "purchase-order.md", "text/markdown"},
			{"skill://pdf-processing/templates/regional", "regional", "inode/directory"},
		}},
		{name: "trailing slash", uri: "skill://pdf-processing/templates/regional/", want: []child{
			{"skill://pdf-processing/templates/regional/eu-invoice.md", "eu-invoice.md", "text/markdown"},
		}},
		{name: "prefix directory above a skill", uri: "skill://acme/billing", want: []child{
			{"skill://acme/billing/refunds", "refunds", "inode/directory"},
		}},
		{name: "tree category holds its files and the skills below it", uri: "skill://ui", want: []child{
			{"skill://ui/SKILL.md", "ui", "text/markdown"},
			{"skill://ui/design-tokens.json", "design-tokens.json", "application/json"},
			{"skill://ui/react", "react", "inode/directory"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := h.readDirectory(t, tt.uri, "")
			if err != nil {
				t.Fatal(err)
			}
			if res.ResultType != "complete" || res.NextCursor != "" {
				t.Errorf("got resultType %q nextCursor %q, want complete and no cursor", res.ResultType, res.NextCursor)
			}
			got := []child{}
			for _, r := range res.Resources {
				got = append(got, child{r.URI, r.Name, r.MIMEType})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v,\nwant %v", got, tt.want)
			}
		})
	}

	errorCases := []struct{ name, uri string }{
		{name: "a file", uri: "skill://pdf-processing/SKILL.md"},
		{name: "a nested file", uri: "skill://pdf-processing/templates/invoice.md"},
		{name: "unknown directory", uri: "skill://pdf-processing/nope"},
		{name: "hidden file", uri: "skill://pdf-processing/.secret"},
		{name: "the scheme alone", uri: "skill://"},
		{name: "another scheme", uri: "file:///etc"},
		{name: "empty", uri: ""},
	}
	for _, tt := range errorCases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := h.readDirectory(t, tt.uri, "")
			if code := rpcCode(err); code != -32602 {
				t.Errorf("got %v (code %d), want -32602", err, code)
			}
		})
	}
}

func TestDirectoryReadPagination(t *testing.T) {
	t.Parallel()
	files := map[string]string{"wide/SKILL.md": "---\nname: wide\ndescription: Many files in one folder\n---\nBody.\n"}
	want := map[string]bool{}
	for i := range 450 {
		rel := fmt.Sprintf("wide/data/f%04d.txt", i)
		files[rel] = rel
		want["skill://"+rel] = true
	}
	h := startSkills(t, writeTree(t, files), nil, nil, "")
	listed, pages := pageThrough(t, func(cursor string) ([]*mcp.Resource, string, error) {
		res, err := h.readDirectory(t, "skill://wide/data", cursor)
		if err != nil {
			return nil, "", err
		}
		return res.Resources, res.NextCursor, nil
	})
	got := uriSet(t, listed)
	if pages < 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("got %d children in %d pages, want all %d over several pages", len(got), pages, len(want))
	}
	first, err := h.readDirectory(t, "skill://wide/data", "")
	if err != nil || first.NextCursor == "" {
		t.Fatalf("first page: %v", err)
	}
	// A cursor not given for this directory: invalid, made up (the
	// base64url of a URI, what a cursor held before it was checked), or
	// given for another listing.
	for _, tt := range []struct{ uri, cursor string }{
		{"skill://wide/data", "%%%"},
		{"skill://wide/data", base64.RawURLEncoding.EncodeToString([]byte("skill://wide/data/f0100.txt"))},
		{"skill://wide", first.NextCursor},
	} {
		if _, err := h.readDirectory(t, tt.uri, tt.cursor); rpcCode(err) != -32602 || !strings.Contains(err.Error(), "invalid cursor") {
			t.Errorf("cursor %q for %s: got %v, want -32602 invalid cursor", tt.cursor, tt.uri, err)
		}
	}
}
