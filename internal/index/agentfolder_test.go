package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

// agentFolderTree holds two Agent Skills: pdf declares nothing, deploy declares
// a server script and an asset.
func agentFolderTree(t *testing.T) (string, *Snapshot) {
	t.Helper()
	outside := writeTree(t, map[string]string{"secret.txt": "top secret"})
	root := writeTree(t, map[string]string{
		"pdf/SKILL.md":                 agentMD("pdf", "PDF tools", "", "body"),
		"pdf/scripts/extract.py":       "print(1)",
		"pdf/scripts/tools/fill.sh":    "echo",
		"pdf/references/forms.md":      "# forms",
		"pdf/assets/logo.png":          "png",
		"pdf/LICENSE.txt":              "MIT",
		"pdf/.env":                     "SECRET=1",
		"pdf/.git/config":              "x",
		"pdf/empty-dir/":               "",
		"deploy/SKILL.md":              agentMD("deploy", "Deploy", "scripts:\n  - file: scripts/run.sh\n    execution: server\n    args: [{name: target}]\nassets:\n  - file: templates/a.yaml\n    type: template\n", ""),
		"deploy/scripts/run.sh":        "echo run",
		"deploy/scripts/undeclared.sh": "echo",
		"deploy/templates/a.yaml":      "a: 1",
		"deploy/references/guide.md":   "# guide",
	})
	for link, target := range map[string]string{
		"pdf/escape.txt":     filepath.Join(outside, "secret.txt"),
		"pdf/scripts/inside": "extract.py",
		"pdf/outdir":         outside,
	} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	sn, _ := mustBuild(t, root)
	return root, sn
}

// TestAgentSkillFindAsset: every regular file of the folder is an asset,
// typed by the folder it lies in; declared entries keep their metadata; paths
// are confined to the folder.
func TestAgentSkillFindAsset(t *testing.T) {
	t.Parallel()
	root, sn := agentFolderTree(t)
	tests := []struct {
		name, skill, file string
		wantType          string // asset type, or "" for a declared script
		wantScript        bool
		wantErr           error
	}{
		{name: "undeclared file in scripts/", skill: "pdf", file: "scripts/extract.py", wantType: "script"},
		{name: "undeclared file deeper in scripts/", skill: "pdf", file: "scripts/tools/fill.sh", wantType: "script"},
		{name: "undeclared file in references/", skill: "pdf", file: "references/forms.md", wantType: "reference"},
		{name: "undeclared file in assets/", skill: "pdf", file: "assets/logo.png", wantType: "asset"},
		{name: "file at the top", skill: "pdf", file: "LICENSE.txt", wantType: "other"},
		{name: "SKILL.md itself", skill: "pdf", file: "SKILL.md", wantType: "other"},
		{name: "symlink inside the folder", skill: "pdf", file: "scripts/inside", wantType: "script"},
		{name: "declared server script keeps its execution", skill: "deploy", file: "scripts/run.sh", wantScript: true},
		{name: "declared asset keeps its type", skill: "deploy", file: "templates/a.yaml", wantType: "template"},
		{name: "undeclared script beside a declared one is an asset", skill: "deploy", file: "scripts/undeclared.sh", wantType: "script"},
		{name: "missing file", skill: "pdf", file: "scripts/nope.py", wantErr: core.ErrAssetNotFound},
		{name: "directory", skill: "pdf", file: "empty-dir", wantErr: core.ErrAssetNotFound},
		{name: "hidden file", skill: "pdf", file: ".env", wantErr: core.ErrAssetNotFound},
		{name: "hidden directory", skill: "pdf", file: ".git/config", wantErr: core.ErrAssetNotFound},
		{name: "traversal to a sibling skill", skill: "pdf", file: "../deploy/SKILL.md", wantErr: core.ErrPathTraversal},
		{name: "traversal deep", skill: "pdf", file: "scripts/../../../etc/passwd", wantErr: core.ErrPathTraversal},
		{name: "absolute", skill: "pdf", file: "/etc/passwd", wantErr: core.ErrPathTraversal},
		{name: "backslash", skill: "pdf", file: `..\deploy\SKILL.md`, wantErr: core.ErrPathTraversal},
		{name: "symlink to a file outside", skill: "pdf", file: "escape.txt", wantErr: core.ErrPathTraversal},
		{name: "through a symlinked directory outside", skill: "pdf", file: "outdir/secret.txt", wantErr: core.ErrPathTraversal},
		{name: "empty", skill: "pdf", file: "", wantErr: core.ErrInvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustGet(t, sn, tt.skill)
			got, err := sn.FindAsset(s, tt.file)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err: got %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("err: got %v, want nil", err)
			}
			if got.Skill != s || got.From != "" {
				t.Errorf("owner: got %v from %q, want %s itself", got.Skill, got.From, tt.skill)
			}
			if tt.wantScript {
				if !got.IsScript || got.Script.Execution != core.ExecutionServer || len(got.Script.Args) != 1 {
					t.Errorf("got %+v, want the declared server script with its arg", got)
				}
				return
			}
			if got.IsScript || got.Asset == nil {
				t.Fatalf("got %+v, want an asset", got)
			}
			want := filepath.Join(root, tt.skill, filepath.FromSlash(tt.file))
			if got.Asset.File != tt.file || got.Asset.Type != tt.wantType || got.Asset.AbsPath != want || got.Asset.IsBinary != IsBinary(tt.file) {
				t.Errorf("got %+v, want file %q type %q at %s", *got.Asset, tt.file, tt.wantType, want)
			}
			if _, err := emptySnapshot().ReadFile(got.Skill, tt.file, 0); err != nil {
				t.Errorf("ReadFile: %v", err)
			}
		})
	}
}

// TestAgentSkillAssetsFor: the folder is listed, declared entries first.
func TestAgentSkillAssetsFor(t *testing.T) {
	t.Parallel()
	root, sn := agentFolderTree(t)
	pdf := mustGet(t, sn, "pdf")
	own, inh, ownSc, inhSc := sn.AssetsFor(pdf)
	wantOwn := []AssetRef{
		{Asset: core.Asset{File: "LICENSE.txt", Type: "other", AbsPath: filepath.Join(root, "pdf", "LICENSE.txt")}},
		{Asset: core.Asset{File: "assets/logo.png", Type: "asset", AbsPath: filepath.Join(root, "pdf", "assets", "logo.png"), IsBinary: true}},
		{Asset: core.Asset{File: "references/forms.md", Type: "reference", AbsPath: filepath.Join(root, "pdf", "references", "forms.md")}},
	}
	if !reflect.DeepEqual(own, wantOwn) {
		t.Errorf("own assets: got %+v,\nwant %+v", own, wantOwn)
	}
	wantSc := []ScriptRef{
		{Script: core.Script{File: "scripts/extract.py", Execution: "claude", Args: []core.Arg{}, AbsPath: filepath.Join(root, "pdf", "scripts", "extract.py")}},
		{Script: core.Script{File: "scripts/inside", Execution: "claude", Args: []core.Arg{}, AbsPath: filepath.Join(root, "pdf", "scripts", "inside")}},
		{Script: core.Script{File: "scripts/tools/fill.sh", Execution: "claude", Args: []core.Arg{}, AbsPath: filepath.Join(root, "pdf", "scripts", "tools", "fill.sh")}},
	}
	if !reflect.DeepEqual(ownSc, wantSc) {
		t.Errorf("own scripts: got %+v,\nwant %+v", ownSc, wantSc)
	}
	if len(inh) != 0 || len(inhSc) != 0 || inh == nil || inhSc == nil {
		t.Errorf("inherited: got %v %v, want empty non-nil", inh, inhSc)
	}

	deploy := mustGet(t, sn, "deploy")
	own, _, ownSc, _ = sn.AssetsFor(deploy)
	// Declaring a server script hides nothing (issue 29): the declared entries
	// come first, then the folder's other files, each listed once.
	if got, want := assetFiles(own), []string{"templates/a.yaml@", "references/guide.md@"}; !reflect.DeepEqual(got, want) {
		t.Errorf("deploy assets: got %q, want %q", got, want)
	}
	if got, want := scriptFiles(ownSc), []string{"scripts/run.sh@", "scripts/undeclared.sh@"}; !reflect.DeepEqual(got, want) {
		t.Errorf("deploy scripts: got %q, want %q", got, want)
	}
	if ownSc[0].Execution != core.ExecutionServer || ownSc[1].Execution != core.ExecutionClaude {
		t.Errorf("deploy scripts: got %+v, want the declared server script, then the folder's for the client", ownSc)
	}
	if nodes := sn.Tree("deploy"); len(nodes) != 1 || nodes[0].AssetCount != 2 || nodes[0].ScriptCount != 2 {
		t.Errorf("Tree(deploy): got %+v, want 2 assets and 2 scripts", nodes)
	}

	nodes := sn.Tree("pdf")
	if len(nodes) != 1 || nodes[0].AssetCount != 3 || nodes[0].ScriptCount != 3 {
		t.Errorf("Tree(pdf): got %+v, want 3 assets and 3 scripts", nodes)
	}
}

func TestAgentSkillListingCapped(t *testing.T) {
	t.Parallel()
	files := map[string]string{"big/SKILL.md": agentMD("big", "d", "", "")}
	for i := 0; i < maxListedFiles+20; i++ {
		files[fmt.Sprintf("big/references/f%04d.md", i)] = "x"
	}
	sn, _ := mustBuild(t, writeTree(t, files))
	own, _, _, _ := sn.AssetsFor(mustGet(t, sn, "big"))
	if len(own) != maxListedFiles {
		t.Fatalf("got %d assets, want %d", len(own), maxListedFiles)
	}
	if own[0].File != "references/f0000.md" || own[len(own)-1].File != fmt.Sprintf("references/f%04d.md", maxListedFiles-1) {
		t.Errorf("got %s … %s, want the first %d files in order", own[0].File, own[len(own)-1].File, maxListedFiles)
	}
	if f, err := sn.FindAsset(mustGet(t, sn, "big"), fmt.Sprintf("references/f%04d.md", maxListedFiles+5)); err != nil || f.Asset.Type != "reference" {
		t.Errorf("FindAsset beyond the cap: got %+v, %v, want the file", f, err)
	}
}

func TestFolderAssetType(t *testing.T) {
	t.Parallel()
	tests := []struct{ file, want string }{
		{"scripts/a.sh", "script"},
		{"scripts/x/y.py", "script"},
		{"references/r.md", "reference"},
		{"assets/logo.png", "asset"},
		{"scripts", "other"},
		{"SKILL.md", "other"},
		{"templates/a.yaml", "other"},
		{"Scripts/a.sh", "other"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			if got := folderAssetType(tt.file); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
