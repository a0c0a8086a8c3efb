package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/frontmatter"
)

// sha is the expected digest of content, computed independently of Digest.
func sha(content string) string {
	sum := sha256.Sum256([]byte(content))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// manifestOf is the manifest a test expects: path → content.
func manifestOf(files map[string]string) []ManifestFile {
	out := []ManifestFile{}
	for p, c := range files {
		out = append(out, ManifestFile{Path: p, Size: int64(len(c)), Digest: sha(c)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func TestManifest(t *testing.T) {
	t.Parallel()
	outside := writeTree(t, map[string]string{"secret.txt": "top secret"})
	pdfMD := agentMD("pdf", "PDF tools", "", "body\n")
	files := map[string]string{
		"pdf/SKILL.md":                  pdfMD,
		"pdf/scripts/extract.py":        "print(1)\n",
		"pdf/references/forms.md":       "# forms\n",
		"pdf/assets/logo.png":           "\x89PNG\r\n\x1a\n\x00\xff",
		"pdf/nested/SKILL.md":           agentMD("nested", "Nested", "", ""),
		"pdf/.env":                      "SECRET=1",
		"pdf/.git/config":               "x",
		"pdf/empty-dir/":                "",
		"ui/react/auth.md":              skillMD("Auth", "", "Auth rules\n"),
		"ui/react/auth/AuthProvider.ts": "export {}\n",
		"ui/react/auth/deep/notes.md":   "notes\n",
		"ui/react/auth/.hidden":         "h",
		"api/auth.md":                   skillMD("API auth", "", "API\n"),
	}
	root := writeTree(t, files)
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
	tests := []struct {
		name, skill string
		want        []ManifestFile
	}{
		{name: "agent skill: every file, SKILL.md and nested SKILL.md included, no dot-files, inner symlinks only", skill: "pdf",
			want: manifestOf(map[string]string{
				"SKILL.md": pdfMD, "scripts/extract.py": "print(1)\n", "scripts/inside": "print(1)\n",
				"references/forms.md": "# forms\n", "assets/logo.png": "\x89PNG\r\n\x1a\n\x00\xff",
				"nested/SKILL.md": agentMD("nested", "Nested", "", ""),
			})},
		{name: "tree skill: its resource directory, recursively", skill: "ui/react/auth",
			want: manifestOf(map[string]string{"AuthProvider.ts": "export {}\n", "deep/notes.md": "notes\n"})},
		{name: "tree skill without a resource directory", skill: "api/auth", want: []ManifestFile{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sn.Manifest(mustGet(t, sn, tt.skill))
			if got == nil {
				got = []ManifestFile{}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v,\nwant %+v", got, tt.want)
			}
		})
	}
	t.Run("the slice is the caller's", func(t *testing.T) {
		s := mustGet(t, sn, "pdf")
		sn.Manifest(s)[0].Digest = "changed"
		if got := sn.Manifest(s)[0].Digest; got == "changed" {
			t.Errorf("got %q after modifying a returned slice, want the snapshot unchanged", got)
		}
	})
}

func TestManifestDigestFollowsEdits(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"git/SKILL.md":      agentMD("git", "Git", "", "v1\n"),
		"git/ref/guide.md":  "guide v1\n",
		"git/ref/stable.md": "stable\n",
	})
	ix := New(Options{Root: root})
	before, err := ix.Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	old := manifestByPath(before.Manifest(mustGet(t, before, "git"))) // computed now, once for this snapshot
	if err := os.WriteFile(filepath.Join(root, "git", "ref", "guide.md"), []byte("guide v2, longer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	after, err := ix.Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cur := manifestByPath(after.Manifest(mustGet(t, after, "git")))
	tests := []struct {
		name, file string
		changed    bool
	}{
		{name: "edited file", file: "ref/guide.md", changed: true},
		{name: "untouched file", file: "ref/stable.md", changed: false},
		{name: "untouched SKILL.md", file: "SKILL.md", changed: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := old[tt.file].Digest != cur[tt.file].Digest; got != tt.changed {
				t.Errorf("digest changed = %v (%s → %s), want %v", got, old[tt.file].Digest, cur[tt.file].Digest, tt.changed)
			}
		})
	}
	if want := sha("guide v2, longer\n"); cur["ref/guide.md"].Digest != want || cur["ref/guide.md"].Size != 17 {
		t.Errorf("got %+v, want digest %s and size 17", cur["ref/guide.md"], want)
	}
	if old["ref/guide.md"].Digest != sha("guide v1\n") {
		t.Errorf("the older snapshot read the file late: got %+v", old["ref/guide.md"])
	}
	if again := manifestByPath(before.Manifest(mustGet(t, before, "git"))); again["ref/guide.md"] != old["ref/guide.md"] {
		t.Errorf("the older snapshot computed its manifest again after the edit: got %+v, want %+v", again["ref/guide.md"], old["ref/guide.md"])
	}
}

func manifestByPath(m []ManifestFile) map[string]ManifestFile {
	out := map[string]ManifestFile{}
	for _, f := range m {
		out[f.Path] = f
	}
	return out
}

func TestManifestLimits(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"many/SKILL.md":  agentMD("many", "Many files", "", ""),
		"fits/SKILL.md":  agentMD("fits", "Just fits", "", ""),
		"large/SKILL.md": agentMD("large", "Large", "", ""),
		"tree.md":        skillMD("A tree skill at the count limit", "", "body"),
	}
	for i := 0; i < ExtensionMaxFiles; i++ { // 512 + SKILL.md
		files[fmt.Sprintf("many/ref/f%04d.md", i)] = "x"
	}
	for i := 0; i < ExtensionMaxFiles-1; i++ { // 511 + SKILL.md
		files[fmt.Sprintf("fits/ref/f%04d.md", i)] = "x"
	}
	for i := 0; i < ExtensionMaxFiles; i++ { // 512 + the SKILL.md served in its stead
		files[fmt.Sprintf("tree/f%04d.txt", i)] = "x"
	}
	root := writeTree(t, files)
	big, err := os.Create(filepath.Join(root, "large", "blob.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(ExtensionMaxBytes); err != nil { // with SKILL.md: one file over the byte limit
		t.Fatal(err)
	}
	big.Close()
	logger, buf := newTestLogger()
	sn, err := New(Options{Root: root, Matcher: &fakeMatcher{}, Logger: logger}).Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	problems := sn.Problems() // waits for the walks of the resource directories, done once the snapshot is current
	log := buf.String()

	overLimit := map[string]Problem{}
	for _, p := range problems {
		if strings.Contains(p.Message, "MCP skills extension limits") {
			overLimit[p.File] = p
		}
	}
	tests := []struct {
		name, skill, file string
		wantProblem       bool
		wantFiles         int
	}{
		{name: "513 files", skill: "many", file: "many/SKILL.md", wantProblem: true, wantFiles: ExtensionMaxFiles + 1},
		{name: "512 files", skill: "fits", file: "fits/SKILL.md", wantProblem: false, wantFiles: ExtensionMaxFiles},
		{name: "over 16 MiB", skill: "large", file: "large/SKILL.md", wantProblem: true, wantFiles: 2},
		{name: "tree skill: its files and the served SKILL.md", skill: "tree", file: "tree.md", wantProblem: true, wantFiles: ExtensionMaxFiles},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, got := overLimit[tt.file]
			if got != tt.wantProblem {
				t.Fatalf("limit problem for %s: got %v, want %v (problems %+v)", tt.file, got, tt.wantProblem, sn.Problems())
			}
			if got && (p.Severity != SeverityWarning || p.Line != 1 || p.Root != root) {
				t.Errorf("got %+v, want a warning at line 1 of root %s", p, root)
			}
			if n := len(sn.Manifest(mustGet(t, sn, tt.skill))); n != tt.wantFiles {
				t.Errorf("manifest holds %d files, want all %d", n, tt.wantFiles)
			}
		})
	}
	if n := strings.Count(log, "MCP skills extension limits"); n != 3 {
		t.Errorf("logged %d limit warnings, want 3:\n%s", n, log)
	}
}

func TestFrontmatterJSON(t *testing.T) {
	t.Parallel()
	gitMD := "---\nname: git\ndescription: 'Git: the workflow'\nmetadata:\n  version: \"2.1\"\n  author: me\n  zeta: {b: 1, a: [x, {d: 1, c: 2}]}\nlicense: MIT\n---\nbody\n"
	root := writeTree(t, map[string]string{
		"git/SKILL.md": gitMD,
		"tree.md":      skillMD("Tree", "", "body"),
	})
	sn, _ := mustBuild(t, root)
	want := `{"name":"git","description":"Git: the workflow","metadata":{"version":"2.1","author":"me","zeta":{"b":"1","a":["x",{"d":"1","c":"2"}]}},"license":"MIT"}`
	if got := string(sn.FrontmatterJSON(mustGet(t, sn, "git"))); got != want {
		t.Errorf("agent skill: got %s, want %s", got, want)
	}
	if got := sn.FrontmatterJSON(mustGet(t, sn, "tree")); got != nil {
		t.Errorf("tree skill: got %s, want nil", got)
	}
}

func TestFrontmatterToJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
		wantErr        bool
	}{
		{name: "keys in file order", in: "---\nz: 1\na: 2\nm: 3\n---\n", want: `{"z":1,"a":2,"m":3}`},
		{name: "nested mappings keep their order", in: "---\nmeta:\n  k: 1\n  j:\n    q: true\n    p: null\n---\n", want: `{"meta":{"k":1,"j":{"q":true,"p":null}}}`},
		{name: "sequences and scalars", in: "---\nlist: [b, 2, 1.5, false]\nf: 2.50\n---\n", want: `{"list":["b",2,1.5,false],"f":2.5}`},
		{name: "timestamps stay strings", in: "---\ndate: 2024-01-02\n---\n", want: `{"date":"2024-01-02"}`},
		{name: "non-string keys are printed", in: "---\n1: one\ntrue: yes\n---\n", want: `{"1":"one","true":"yes"}`}, // YAML 1.2: yes is text
		{name: "strings are escaped", in: "---\nd: \"quote \\\" and <html> & unicode é\"\n---\n", want: `{"d":"quote \" and \u003chtml\u003e \u0026 unicode é"}`},
		{name: "BOM and CRLF", in: "\xEF\xBB\xBF---\r\nname: x\r\n---\r\nbody", want: `{"name":"x"}`},
		{name: "empty block", in: "---\n---\nbody", want: `{}`},
		{name: "no frontmatter", in: "# title\n", wantErr: true},
		{name: "not a mapping", in: "---\n- a\n- b\n---\n", wantErr: true},
		{name: "infinity", in: "---\nx: .inf\n---\n", wantErr: true},
		{name: "bad YAML", in: "---\na: [\n---\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := frontmatter.ToJSON([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("got error %v, want error %v", err, tt.wantErr)
			}
			if err == nil && string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestDigest(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{name: "empty", in: "", want: "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{name: "abc", in: "abc", want: "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Digest([]byte(tt.in)); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// FuzzFrontmatterToJSON checks that rendering never panics, and that whatever
// it renders is a JSON object holding exactly the keys the index parses.
func FuzzFrontmatterToJSON(f *testing.F) {
	f.Add([]byte("---\nname: git\ndescription: Git\nmetadata: {b: 1, a: 2}\n---\nbody\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := frontmatter.ToJSON(data)
		if err != nil {
			return
		}
		var got map[string]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("rendered %q, not a JSON object: %v", out, err)
		}
		split, err := frontmatter.Split(data)
		if err != nil {
			t.Fatalf("rendered %q from a file without frontmatter: %v", out, err)
		}
		parsed, err := frontmatter.ParseYAML(split.Front)
		if err != nil {
			return // the map decoder may refuse what the ordered one accepts (duplicate keys)
		}
		for k := range parsed {
			if _, ok := got[k]; !ok {
				t.Fatalf("key %q parsed but not rendered in %s", k, out)
			}
		}
		for k := range got {
			if _, ok := parsed[k]; !ok {
				t.Fatalf("key %q rendered in %s but not parsed", k, out)
			}
		}
	})
}

func TestFiles(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{
		"pdf/SKILL.md":            agentMD("pdf", "PDF tools", "", "body\n"),
		"pdf/scripts/extract.py":  "print(1)\n",
		"pdf/.env":                "SECRET=1",
		"ui/react/auth.md":        skillMD("Auth", "", "Auth rules\n"),
		"ui/react/auth/Thing.tsx": "export {}\n",
		"ui/react/auth/deep/a.md": "a",
		"api/auth.md":             skillMD("API auth", "", "API\n"),
	})
	sn, _ := mustBuild(t, root)
	tests := []struct {
		name, skill string
		want        map[string]int64 // path → size
	}{
		{name: "agent skill", skill: "pdf", want: map[string]int64{"SKILL.md": int64(len(agentMD("pdf", "PDF tools", "", "body\n"))), "scripts/extract.py": 9}},
		{name: "tree skill, walked once the snapshot is current", skill: "ui/react/auth", want: map[string]int64{"Thing.tsx": 10, "deep/a.md": 1}},
		{name: "tree skill without a resource directory", skill: "api/auth", want: map[string]int64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustGet(t, sn, tt.skill)
			got := map[string]int64{}
			for _, f := range sn.Files(s) {
				got[f.Path] = f.Size
				if f.ModTime.IsZero() {
					t.Errorf("%s: got a zero modification time", f.Path)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			var manifest []string
			for _, f := range sn.Manifest(s) {
				manifest = append(manifest, f.Path)
			}
			var files []string
			for _, f := range sn.Files(s) {
				files = append(files, f.Path)
			}
			if !reflect.DeepEqual(manifest, files) {
				t.Errorf("manifest covers %v, want the files listed %v", manifest, files)
			}
		})
	}
}

// TestManifestOncePerSnapshot asks for every manifest of a snapshot from
// several goroutines while its resource directories are still being walked:
// each skill's manifest is computed once, so every answer is the same.
func TestManifestOncePerSnapshot(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("s%02d.md", i)] = skillMD("skill", "", "body")
		files[fmt.Sprintf("s%02d/a.txt", i)] = "a"
		files[fmt.Sprintf("kit%02d/SKILL.md", i)] = agentMD(fmt.Sprintf("kit%02d", i), "Kit", "", "")
	}
	root := writeTree(t, files)
	sn, err := New(Options{Root: root}).Rebuild(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	const readers = 4
	got := make([]map[string][]ManifestFile, readers)
	var wg sync.WaitGroup
	for r := range readers {
		wg.Go(func() {
			got[r] = map[string][]ManifestFile{}
			for _, s := range sn.Skills() {
				got[r][s.Path] = sn.Manifest(s)
			}
		})
	}
	wg.Wait()
	for r := 1; r < readers; r++ {
		if !reflect.DeepEqual(got[r], got[0]) {
			t.Errorf("reader %d got other manifests than reader 0", r)
		}
	}
	if m := got[0]["s07"]; len(m) != 1 || m[0].Digest != sha("a") {
		t.Errorf("got %+v, want a.txt with its digest", m)
	}
}
