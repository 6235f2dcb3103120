package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// An import rule: no package under From (a module path prefix, "" for
// every package) may import a path under any of Deny but those under
// Allow, unless the package is under one of Except. Why quotes the package doc or the layout that states it.
type importRule struct {
	From   string
	Deny   []string
	Except []string
	// Allow lists import paths under Deny that the rule lets through.
	Allow []string
	Why   string
}

// stdlibIO is what pure computation must not reach for.
var stdlibIO = []string{"os", "io/fs", "io/ioutil", "net", "database/sql", "syscall", "embed", "log", "os/exec", "os/signal"}

var importRules = []importRule{
	// The layout: main.go → app/ → crawl/, importance/, sites/.
	{From: "sitesift/crawl", Deny: []string{"sitesift/app"}, Why: "dependencies point one way: app → crawl"},
	{From: "sitesift/importance", Deny: []string{"sitesift/app", "sitesift/crawl", "sitesift/sites"}, Why: "importance is pure computation over plain slices (importance/doc.go)"},
	{From: "sitesift/importance", Deny: stdlibIO, Why: "importance: no I/O (importance/doc.go)"},
	{From: "sitesift/sites", Deny: []string{"sitesift/app", "sitesift/crawl", "sitesift/importance"}, Why: "sites holds storage and formats under app and crawl (sites/doc.go)"},
	// Each library behind its one package.
	{From: "", Deny: []string{"github.com/gocolly/colly"}, Except: []string{"sitesift/crawl", "sitesift/tools/crawlbench"}, Why: "crawl is the only package of sitesift that imports colly (crawl/doc.go); tools/crawlbench measures it against a bare colly crawler"},
	{From: "", Deny: []string{"modernc.org/sqlite", "database/sql"}, Except: []string{"sitesift/sites/store"}, Why: "SQL lives in sites/store alone (sites/store/doc.go)"},
	{From: "", Deny: []string{"github.com/blevesearch"}, Except: []string{"sitesift/sites/index", "sitesift/tools/indexbench"}, Why: "the Bleve index lives in sites/index (sites/doc.go); tools/indexbench draws its queries from Bleve's English stop words"},
	{From: "", Deny: []string{"github.com/nlnwa/gowarc"}, Except: []string{"sitesift/sites/warcfile"}, Why: "WARC files are read and written in sites/warcfile (sites/doc.go)"},
	{From: "", Deny: []string{"github.com/markusmobius/go-trafilatura"}, Except: []string{"sitesift/crawl"}, Why: "the main content of a page is crawl's (crawl/doc.go)"},
	{From: "", Deny: []string{"github.com/wailsapp"}, Except: []string{"sitesift"}, Why: "the desktop window is main.go's; the service knows no shell (app/doc.go)"},
	// The service and its adapters.
	{From: "sitesift/app", Deny: []string{"sitesift/app/cli", "sitesift/app/httpapi"}, Except: []string{"sitesift/app/cli"}, Why: "app must not import its adapters (app/doc.go)"},
	{From: "sitesift/app/httpapi", Deny: []string{"sitesift/app/cli"}, Why: "the HTTP API is under the command line, not over it (app/httpapi/doc.go)"},
	{From: "sitesift/app/httpapi", Deny: []string{"database/sql", "modernc.org/sqlite", "sitesift/crawl", "sitesift/sites/warcfile"}, Why: "no SQL, no ranking and no business rule live in the HTTP API (app/httpapi/doc.go)"},
	{From: "sitesift/app/httpapi", Deny: []string{"sitesift/sites/store", "sitesift/sites/index"}, Why: "storage types stay in storage: the HTTP API speaks the services' own types (app/httpapi/doc.go)"},
	{From: "sitesift/app/cli", Deny: []string{"sitesift/sites/store", "sitesift/sites/index"}, Why: "storage types stay in storage: the command line speaks the services' own types (app/cli/doc.go)"},
	{From: "sitesift/app/export", Deny: []string{"sitesift"}, Why: "app/export imports nothing of the project (app/export/doc.go)"},
	{From: "sitesift/app/plot", Deny: []string{"sitesift", "github.com", "golang.org"}, Why: "app/plot has no dependency beyond the standard library (app/plot/doc.go)"},
	{From: "sitesift/app/lab", Deny: []string{"sitesift/app", "net/http"}, Allow: []string{"sitesift/app/export", "sitesift/app/plot", "sitesift/app/fault", "sitesift/app/internal", "sitesift/app/project", "sitesift/app/ranking", "sitesift/app/communities"}, Why: "app/lab is no adapter: it does not import package app and speaks no HTTP; its service stands on app/project, app/ranking and app/communities (app/lab/doc.go)"},
	{From: "", Deny: []string{"sitesift/app/apptest"}, Why: "only tests import apptest (app/apptest/doc.go)"},
	// The service's layers: project ← ranking ← crawling, imports, communities ← lab, review ← exports; the App composes them.
	{From: "sitesift/app/fault", Deny: []string{"sitesift/app"}, Allow: []string{"sitesift/app/export"}, Why: "app/fault is under every service (app/fault/doc.go)"},
	{From: "sitesift/app/internal", Deny: []string{"sitesift/app"}, Why: "the job runner and the memo know no service"},
	{From: "sitesift/app/project", Deny: []string{"sitesift/app"}, Allow: []string{"sitesift/app/fault", "sitesift/app/internal"}, Why: "app/project is the core every feature stands on, and imports none of them (app/project/doc.go)"},
	{From: "sitesift/app/ranking", Deny: []string{"sitesift/app"}, Allow: []string{"sitesift/app/fault", "sitesift/app/internal", "sitesift/app/project"}, Why: "app/ranking stands on app/project alone (app/ranking/doc.go)"},
	{From: "sitesift/app/communities", Deny: []string{"sitesift/app"}, Allow: []string{"sitesift/app/fault", "sitesift/app/internal", "sitesift/app/project", "sitesift/app/ranking"}, Why: "app/communities stands on app/project and app/ranking (app/communities/doc.go)"},
	{From: "sitesift/app/crawling", Deny: []string{"sitesift/app"}, Allow: []string{"sitesift/app/fault", "sitesift/app/internal", "sitesift/app/project", "sitesift/app/ranking"}, Why: "app/crawling stands on app/project and app/ranking (app/crawling/doc.go)"},
	{From: "", Deny: []string{"sitesift/crawl"}, Except: []string{"sitesift/app/crawling", "sitesift/crawl", "sitesift/tools", "sitesift/app/imports"}, Allow: []string{"sitesift/crawl/demoweb"}, Why: "the crawler is driven by app/crawling (and app/imports reads pages with its parser)"},
	{From: "sitesift/app/review", Deny: []string{"sitesift/app"}, Allow: []string{"sitesift/app/fault", "sitesift/app/internal", "sitesift/app/project", "sitesift/app/ranking", "sitesift/app/communities", "sitesift/app/export"}, Why: "app/review stands on the services under it, and the exports on it (app/review/doc.go); the settings it reads from app/project, what archives say of a site from the store"},
	{From: "sitesift/app/exports", Deny: []string{"sitesift/app"}, Allow: []string{"sitesift/app/fault", "sitesift/app/internal", "sitesift/app/project", "sitesift/app/ranking", "sitesift/app/crawling", "sitesift/app/imports", "sitesift/app/communities", "sitesift/app/review", "sitesift/app/export"}, Why: "app/exports stands on the services it exports from (app/exports/doc.go)"},
	{From: "sitesift/app/projects", Deny: []string{"net/http", "github.com/wailsapp", "sitesift/sites/store"}, Why: "app/projects keeps the rules of projects as a whole and knows no transport, no window and no SQL (app/projects/doc.go)"},
	{From: "sitesift/app/accounts", Deny: []string{"sitesift/app", "net/http"}, Allow: []string{"sitesift/app/fault", "sitesift/app/internal", "sitesift/app/project"}, Why: "app/accounts stands on app/project alone and speaks no HTTP: the adapter maps its sessions to identities (app/accounts/doc.go)"},
	{From: "sitesift/app/imports", Deny: []string{"sitesift/app"}, Allow: []string{"sitesift/app/fault", "sitesift/app/internal", "sitesift/app/project", "sitesift/app/ranking"}, Why: "app/imports stands on app/project and app/ranking (app/imports/doc.go)"},
}

// under tells whether import path p is prefix or lies below it.
func under(p, prefix string) bool {
	return prefix == "" || p == prefix || strings.HasPrefix(p, prefix+"/")
}

// TestArchitecture: no Go file of the module, tests aside, imports what a
// package doc or the layout says its package must not.
func TestArchitecture(t *testing.T) {
	imports := moduleImports(t)
	if len(imports) < 20 {
		t.Fatalf("read the imports of %d packages; the walk missed the module", len(imports))
	}
	for pkg, files := range imports {
		for file, paths := range files {
			for _, imp := range paths {
				for _, r := range importRules {
					if !under(pkg, r.From) || slices.ContainsFunc(r.Except, func(e string) bool { return under(pkg, e) }) {
						continue
					}
					if slices.ContainsFunc(r.Deny, func(d string) bool { return under(imp, d) }) &&
						!slices.ContainsFunc(r.Allow, func(a string) bool { return under(imp, a) }) && !under(imp, pkg) {
						t.Errorf("%s imports %s: %s", file, imp, r.Why)
					}
				}
			}
		}
	}
}

// TestArchitectureRulesBite: each rule finds at least one package it
// governs, so that a rule whose package moved or was renamed fails here
// instead of holding nothing.
func TestArchitectureRulesBite(t *testing.T) {
	imports := moduleImports(t)
	for _, r := range importRules {
		found := false
		for pkg := range imports {
			if under(pkg, r.From) {
				found = true
			}
		}
		if !found || r.From == "" && len(r.Except) > 0 && !slices.ContainsFunc(r.Except, func(e string) bool { _, ok := imports[e]; return ok }) {
			t.Errorf("rule %q governs no package of the module", r.Why)
		}
	}
}

// moduleImports returns, for every package of the module (by import path),
// the import paths of each of its Go files but the tests.
func moduleImports(t *testing.T) map[string]map[string][]string {
	t.Helper()
	out := map[string]map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules" || name == "frontend" || name == "build") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := path.Join("sitesift", filepath.ToSlash(filepath.Dir(p)))
		if out[pkg] == nil {
			out[pkg] = map[string][]string{}
		}
		for _, s := range f.Imports {
			imp, err := strconv.Unquote(s.Path.Value)
			if err != nil {
				return err
			}
			out[pkg][p] = append(out[pkg][p], imp)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
