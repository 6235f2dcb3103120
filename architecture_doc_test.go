package main

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// layoutRoots are the folders whose packages docs/architecture.md's layout
// names, each of them.
var layoutRoots = []string{"app", "crawl", "importance", "sites", "internal"}

// layoutPath matches a path under one of layoutRoots in the layout's text:
// "app/project", "sites/store", "app/httpapi/API.md".
var layoutPath = regexp.MustCompile(`(?:^|[^\w/.])((?:app|crawl|importance|sites|internal)(?:/[\w.-]*\w)+)`)

// TestArchitectureDocLayout: the layout in docs/architecture.md names every
// package under app/, crawl/, importance/, sites/ and internal/, and no
// path there is gone, so that the map of the code cannot drift from it.
func TestArchitectureDocLayout(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	layout, ok := section(string(doc), "## Layout")
	if !ok {
		t.Fatal("docs/architecture.md has no ## Layout section")
	}
	named := layoutNames(layout)
	pkgs := layoutPackages(t, ".")
	if len(pkgs) < 20 {
		t.Fatalf("found %d packages under %v; the walk missed the module", len(pkgs), layoutRoots)
	}
	for _, p := range pkgs {
		if !slices.Contains(named, p) {
			t.Errorf("docs/architecture.md's layout does not name %s: add it with what it does", p)
		}
	}
	for _, p := range named {
		if _, err := os.Stat(filepath.FromSlash(p)); err != nil {
			t.Errorf("docs/architecture.md's layout names %s, which is gone: %v", p, err)
		}
	}
}

// section returns the text of the markdown section that starts with the
// heading line given, up to the next heading of the same level.
func section(doc, heading string) (string, bool) {
	start := strings.Index(doc, "\n"+heading+"\n")
	if start < 0 {
		return "", false
	}
	rest := doc[start+len(heading)+2:]
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return rest, true
}

// layoutNames returns the paths under layoutRoots that text names.
func layoutNames(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		for _, m := range layoutPath.FindAllStringSubmatch(line, -1) {
			p := m[1]
			// "app/projects.Switcher" names a package's identifier.
			if dir, last := path.Split(p); strings.Contains(last, ".") {
				if pkg, ident, _ := strings.Cut(last, "."); ident[0] >= 'A' && ident[0] <= 'Z' {
					p = dir + pkg
				}
			}
			out = append(out, p)
		}
	}
	return out
}

// layoutPackages returns the folders under layoutRoots of root that hold Go
// files, as slash paths relative to root.
func layoutPackages(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	for _, top := range layoutRoots {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if name := d.Name(); name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(p, ".go") {
				rel, err := filepath.Rel(root, filepath.Dir(p))
				if err != nil {
					return err
				}
				if rel = filepath.ToSlash(rel); rel != top && !slices.Contains(out, rel) {
					out = append(out, rel)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestLayoutNames: the layout's paths are read as written, file names too,
// a package's identifier as its package, and neither a folder written bare ("app/") nor a path under another
// folder ("tools/hostileweb", "frontend/dist") counts.
func TestLayoutNames(t *testing.T) {
	got := layoutNames("    app/             the service\n" +
		"      app/project    the core; app/httpapi (app/httpapi/API.md and contract.go), sites/store, sites/index.\n" +
		"    crawl/           the crawler; crawl/demoweb is the demo web, tools/hostileweb a hostile one; frontend/dist\n" +
		"    sites/           sites/store (SQLite), `internal/refdata`, ../other/app/x; an `app/projects.Switcher` holds it")
	want := []string{"app/project", "app/httpapi", "app/httpapi/API.md", "sites/store", "sites/index", "crawl/demoweb", "sites/store", "internal/refdata", "app/projects"}
	if !slices.Equal(got, want) {
		t.Errorf("layoutNames = %q; want %q", got, want)
	}
}
