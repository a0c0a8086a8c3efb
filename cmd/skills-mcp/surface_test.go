package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxPublicNames and maxPackageCodeLines are issue 27's bounds on the house:
// at most 200 exported names outside internal/, each with a reason to be
// public, and no package over 3,500 lines of code.
const (
	maxPublicNames      = 200
	maxPackageCodeLines = 3500
)

// sourcePackage is one directory's non-test Go files, parsed.
type sourcePackage struct {
	dir   string // slash path relative to the module root
	files []*ast.File
	code  int // lines that are neither blank nor only a comment
}

// modulePackages parses every package of the module (not examples/, which is
// its own module, nor testdata), skipping package main.
func modulePackages(t *testing.T) []*sourcePackage {
	t.Helper()
	root := filepath.Join("..", "..")
	byDir := map[string]*sourcePackage{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "examples") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		pkg := byDir[rel]
		if pkg == nil {
			pkg = &sourcePackage{dir: filepath.ToSlash(rel)}
			byDir[rel] = pkg
		}
		pkg.files = append(pkg.files, f)
		for line := range strings.Lines(string(src)) {
			if s := strings.TrimSpace(line); s != "" && !strings.HasPrefix(s, "//") {
				pkg.code++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []*sourcePackage
	for _, p := range byDir {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *sourcePackage) int { return strings.Compare(a.dir, b.dir) })
	return out
}

// exportedNames lists a package's exported top-level functions, types,
// variables and constants, and the exported methods of its exported types
// (struct fields are not counted: they belong to their type).
func exportedNames(p *sourcePackage) []string {
	var names []string
	for _, f := range p.files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					names = append(names, d.Name.Name)
					continue
				}
				if recv := receiverName(d.Recv.List[0].Type); ast.IsExported(recv) {
					names = append(names, recv+"."+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names = append(names, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names = append(names, n.Name)
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(names)
	return names
}

// receiverName is the type name of a method's receiver (T, *T, T[K]).
func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// TestPublicSurfaceStaysSmall: what a custom build can import (everything
// outside internal/) holds at most maxPublicNames exported names; the rest of
// the house can change freely. On failure it lists every public package with
// its names, so the change that grew the surface is easy to find.
func TestPublicSurfaceStaysSmall(t *testing.T) {
	t.Parallel()
	total := 0
	var listing strings.Builder
	for _, p := range modulePackages(t) {
		if p.dir == "internal" || strings.HasPrefix(p.dir, "internal/") || strings.Contains(p.dir, "/internal/") {
			continue
		}
		names := exportedNames(p)
		total += len(names)
		fmt.Fprintf(&listing, "%4d %s: %s\n", len(names), p.dir, strings.Join(names, " "))
	}
	t.Logf("%d exported names outside internal/:\n%s", total, listing.String())
	if total > maxPublicNames {
		t.Errorf("%d exported names outside internal/, want at most %d: move what no custom build needs under internal/", total, maxPublicNames)
	}
}

// TestNoPackageOverTheSizeBound: no package of the module holds more than
// maxPackageCodeLines lines of code (tests excluded); a package that grows
// past it is several packages waiting to be born.
func TestNoPackageOverTheSizeBound(t *testing.T) {
	t.Parallel()
	for _, p := range modulePackages(t) {
		if p.code > maxPackageCodeLines {
			t.Errorf("%s has %d lines of code, want at most %d: split it", p.dir, p.code, maxPackageCodeLines)
		}
	}
}
