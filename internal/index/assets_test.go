package index

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/core"
)

// assetTree is the example of spec 000 §7.3, with scripts and a few extra cases.
func assetTree(t *testing.T) (string, *Snapshot) {
	t.Helper()
	root := writeTree(t, map[string]string{
		"_root.md": skillMD("root", "assets:\n  - file: global.css\n    description: root css\n"+
			"scripts:\n  - file: lint.sh\n    description: root lint\n", ""),
		"_root/":       "",
		"ui/_index.md": skillMD("ui", "assets:\n  - file: design-tokens.json\n    type: data\n  - file: global.css\n    description: ui css\n", ""),
		"ui/_index/":   "",
		"ui/react/_index.md": skillMD("react", "assets:\n  - file: component-base.tsx\n    description: base\n    type: template\n"+
			"scripts:\n  - file: build.sh\n  - file: lint.sh\n    description: react lint\n", ""),
		"ui/react/_index/": "",
		"ui/react/auth.md": skillMD("auth", "assets:\n  - file: AuthProvider.tsx\n    type: template\n  - file: component-base.tsx\n    description: auth base\n    type: template\n"+
			"scripts:\n  - file: scripts/scaffold.sh\n    execution: server\n    args: [{name: target}]\n", ""),
		"ui/react/auth/":    "",
		"ui/react/solo.md":  skillMD("solo", "inherit: false\nassets:\n  - own.txt\n", ""),
		"ui/react/solo/":    "",
		"ui/react/nodir.md": skillMD("nodir", "assets:\n  - declared.txt\nscripts:\n  - s.sh\n", ""),
	})
	sn, _ := mustBuild(t, root)
	return root, sn
}

func assetFiles(refs []AssetRef) []string {
	out := []string{}
	for _, r := range refs {
		out = append(out, r.File+"@"+r.From)
	}
	return out
}

func scriptFiles(refs []ScriptRef) []string {
	out := []string{}
	for _, r := range refs {
		out = append(out, r.File+"@"+r.From)
	}
	return out
}

// TestAssetsFor covers spec 000 §7.3: override by file name, map order, `from`.
func TestAssetsFor(t *testing.T) {
	t.Parallel()
	_, sn := assetTree(t)
	tests := []struct {
		path                 string
		wantOwn, wantInh     []string
		wantOwnSc, wantInhSc []string
	}{
		{
			path:      "ui/react/auth",
			wantOwn:   []string{"AuthProvider.tsx@", "component-base.tsx@"},
			wantInh:   []string{"global.css@ui/_index", "design-tokens.json@ui/_index"},
			wantOwnSc: []string{"scripts/scaffold.sh@"},
			wantInhSc: []string{"lint.sh@ui/react/_index", "build.sh@ui/react/_index"},
		},
		{
			path:      "ui/react/_index",
			wantOwn:   []string{"component-base.tsx@"},
			wantInh:   []string{"global.css@ui/_index", "design-tokens.json@ui/_index"},
			wantOwnSc: []string{"build.sh@", "lint.sh@"},
			wantInhSc: []string{},
		},
		{
			path:      "_root",
			wantOwn:   []string{"global.css@"},
			wantInh:   []string{},
			wantOwnSc: []string{"lint.sh@"},
			wantInhSc: []string{},
		},
		{
			path:      "ui/react/solo",
			wantOwn:   []string{"own.txt@"},
			wantInh:   []string{},
			wantOwnSc: []string{},
			wantInhSc: []string{},
		},
		{
			path:      "ui/react/nodir",
			wantOwn:   []string{},
			wantInh:   []string{"global.css@ui/_index", "design-tokens.json@ui/_index", "component-base.tsx@ui/react/_index"},
			wantOwnSc: []string{},
			wantInhSc: []string{"lint.sh@ui/react/_index", "build.sh@ui/react/_index"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			own, inh, ownSc, inhSc := sn.AssetsFor(mustGet(t, sn, tt.path))
			if own == nil || inh == nil || ownSc == nil || inhSc == nil {
				t.Fatalf("got a nil slice: %v %v %v %v", own, inh, ownSc, inhSc)
			}
			for _, c := range []struct {
				what      string
				got, want []string
			}{
				{"own assets", assetFiles(own), tt.wantOwn},
				{"inherited assets", assetFiles(inh), tt.wantInh},
				{"own scripts", scriptFiles(ownSc), tt.wantOwnSc},
				{"inherited scripts", scriptFiles(inhSc), tt.wantInhSc},
			} {
				if !reflect.DeepEqual(c.got, c.want) {
					t.Errorf("%s: got %q, want %q", c.what, c.got, c.want)
				}
			}
		})
	}
}

func TestAssetsForCarriesMetadata(t *testing.T) {
	t.Parallel()
	root, sn := assetTree(t)
	_, inh, _, inhSc := sn.AssetsFor(mustGet(t, sn, "ui/react/auth"))
	wantAsset := AssetRef{
		Asset: core.Asset{File: "global.css", Description: "ui css", Type: "other", AbsPath: filepath.Join(root, "ui/_index/global.css")},
		From:  "ui/_index",
	}
	if !reflect.DeepEqual(inh[0], wantAsset) {
		t.Errorf("got %+v, want %+v", inh[0], wantAsset)
	}
	wantScript := ScriptRef{
		Script: core.Script{File: "lint.sh", Description: "react lint", Execution: "claude", Args: []core.Arg{}, AbsPath: filepath.Join(root, "ui/react/_index/lint.sh")},
		From:   "ui/react/_index",
	}
	if !reflect.DeepEqual(inhSc[0], wantScript) {
		t.Errorf("got %+v, want %+v", inhSc[0], wantScript)
	}
}

// TestAssetResolution covers spec 000 §7.1: no resource directory drops the
// declarations; unsafe paths are skipped with a warning.
func TestAssetResolution(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"nodir.md":  skillMD("nodir", "assets:\n  - declared.txt\nscripts:\n  - s.sh\n", ""),
		"unsafe.md": skillMD("unsafe", "assets:\n  - ../escape.txt\n  - /etc/passwd\n  - img/Logo.PNG\nscripts:\n  - a\\\\b.sh\n  - run.sh\n", ""),
		"unsafe/":   "",
	})
	sn, log := mustBuild(t, root)
	nodir := mustGet(t, sn, "nodir")
	if len(nodir.Assets) != 0 || len(nodir.Scripts) != 0 || nodir.Assets == nil || nodir.Scripts == nil {
		t.Errorf("nodir: got assets %v scripts %v, want empty non-nil", nodir.Assets, nodir.Scripts)
	}
	unsafe := mustGet(t, sn, "unsafe")
	wantAssets := []core.Asset{{File: "img/Logo.PNG", Type: "other", AbsPath: filepath.Join(root, "unsafe", "img", "Logo.PNG"), IsBinary: true}}
	if !reflect.DeepEqual(unsafe.Assets, wantAssets) {
		t.Errorf("assets: got %+v, want %+v", unsafe.Assets, wantAssets)
	}
	wantScripts := []core.Script{{File: "run.sh", Execution: "claude", Args: []core.Arg{}, AbsPath: filepath.Join(root, "unsafe", "run.sh")}}
	if !reflect.DeepEqual(unsafe.Scripts, wantScripts) {
		t.Errorf("scripts: got %+v, want %+v", unsafe.Scripts, wantScripts)
	}
	warns := warnLines(log)
	if len(warns) != 3 {
		t.Fatalf("got warnings %q, want 3", warns)
	}
	for i, w := range []string{"../escape.txt", "/etc/passwd", "holds a backslash"} {
		if !strings.Contains(warns[i], "skipping a") || !strings.Contains(warns[i], "file=unsafe.md") || !strings.Contains(warns[i], w) {
			t.Errorf("warning %d: got %q, want it to name unsafe.md and %s", i, warns[i], w)
		}
	}
	if !strings.Contains(log, "no resource directory") || !strings.Contains(log, "file=nodir.md") {
		t.Errorf("want a debug line about nodir.md; log:\n%s", log)
	}
}

// TestFindAsset covers spec 000 §7.5.
func TestFindAsset(t *testing.T) {
	t.Parallel()
	_, sn := assetTree(t)
	tests := []struct {
		name         string
		skill, file  string
		wantOwner    string
		wantFrom     string
		wantScript   bool
		wantDesc     string
		wantErr      error
		wantErrParts []string
	}{
		{name: "own asset", skill: "ui/react/auth", file: "AuthProvider.tsx", wantOwner: "ui/react/auth"},
		{name: "own asset overrides parent", skill: "ui/react/auth", file: "component-base.tsx", wantOwner: "ui/react/auth", wantDesc: "auth base"},
		{name: "own script", skill: "ui/react/auth", file: "scripts/scaffold.sh", wantOwner: "ui/react/auth", wantScript: true},
		{name: "parent asset", skill: "ui/react/_index", file: "design-tokens.json", wantOwner: "ui/_index", wantFrom: "ui/_index"},
		{name: "nearest ancestor wins", skill: "ui/react/auth", file: "global.css", wantOwner: "ui/_index", wantFrom: "ui/_index", wantDesc: "ui css"},
		{name: "ancestor script", skill: "ui/react/auth", file: "lint.sh", wantOwner: "ui/react/_index", wantFrom: "ui/react/_index", wantScript: true, wantDesc: "react lint"},
		{name: "root script from deep", skill: "ui/_index", file: "lint.sh", wantOwner: "_root", wantFrom: "_root", wantScript: true, wantDesc: "root lint"},
		{name: "inherit false stops at self", skill: "ui/react/solo", file: "global.css", wantErr: core.ErrAssetNotFound, wantErrParts: []string{`"global.css"`, "ui/react/solo"}},
		{name: "undeclared", skill: "ui/react/auth", file: "nope.txt", wantErr: core.ErrAssetNotFound, wantErrParts: []string{`"nope.txt"`, "ui/react/auth"}},
		{name: "dropped without resource dir", skill: "ui/react/nodir", file: "declared.txt", wantErr: core.ErrAssetNotFound},
		{name: "traversal", skill: "ui/react/auth", file: "../auth.md", wantErr: core.ErrPathTraversal},
		{name: "absolute", skill: "ui/react/auth", file: "/etc/passwd", wantErr: core.ErrPathTraversal},
		{name: "backslash", skill: "ui/react/auth", file: `..\x`, wantErr: core.ErrPathTraversal},
		{name: "empty", skill: "ui/react/auth", file: "", wantErr: core.ErrInvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sn.FindAsset(mustGet(t, sn, tt.skill), tt.file)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err: got %v, want %v", err, tt.wantErr)
				}
				for _, part := range tt.wantErrParts {
					if !strings.Contains(err.Error(), part) {
						t.Errorf("err %q: want it to contain %s", err, part)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("err: got %v, want nil", err)
			}
			if got.Skill == nil || got.Skill.Path != tt.wantOwner {
				t.Errorf("owner: got %v, want %s", got.Skill, tt.wantOwner)
			}
			if got.From != tt.wantFrom {
				t.Errorf("from: got %q, want %q", got.From, tt.wantFrom)
			}
			if got.IsScript != tt.wantScript || (got.Script != nil) != tt.wantScript || (got.Asset != nil) == tt.wantScript {
				t.Fatalf("kind: got IsScript %v asset %v script %v, want script %v", got.IsScript, got.Asset, got.Script, tt.wantScript)
			}
			file, desc := "", ""
			if got.IsScript {
				file, desc = got.Script.File, got.Script.Description
			} else {
				file, desc = got.Asset.File, got.Asset.Description
			}
			if file != tt.file {
				t.Errorf("file: got %q, want %q", file, tt.file)
			}
			if tt.wantDesc != "" && desc != tt.wantDesc {
				t.Errorf("description: got %q, want %q", desc, tt.wantDesc)
			}
		})
	}
}
