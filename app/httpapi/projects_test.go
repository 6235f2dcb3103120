package httpapi

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/crawling"
	"sitesift/app/project"
	"sitesift/app/projects"
)

// switchingHandler serves the projects of a folder (serve --projects):
// "news", an empty project, and "link-out", a link to a project outside.
func switchingHandler(t *testing.T, opts ...Option) (root string, sw *projects.Switcher, h http.Handler) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "projects")
	for _, d := range []string{filepath.Join(root, "news"), filepath.Join(base, "outside")} {
		p, err := project.Open(d, true)
		if err != nil {
			t.Fatal(err)
		}
		p.Close()
	}
	if err := os.Symlink(filepath.Join(base, "outside"), filepath.Join(root, "link-out")); err != nil {
		t.Fatal(err)
	}
	f, err := projects.NewFolder(root)
	if err != nil {
		t.Fatal(err)
	}
	sw = projects.NewSwitcher(projects.Options{Folder: f, Open: openApp})
	t.Cleanup(sw.Close)
	return root, sw, Switching(sw, opts...)
}

// openApp opens the project of dir (made when create) with the app on it,
// as the switcher of the tests opens projects.
func openApp(dir string, create bool) (projects.Opened, error) {
	p, err := project.Open(dir, create)
	if err != nil {
		return projects.Opened{}, err
	}
	a := app.New(app.Options{Project: p})
	return projects.Opened{App: a, Dir: p.Dir, Close: func() { a.Close(); p.Close() }}, nil
}

// TestProjectsFolder: with no project open the page can list, create and
// open projects and nothing else; a new project opens empty, its Crawl
// page's status and settings answer, and a switch takes effect on the next
// request with the same write token.
func TestProjectsFolder(t *testing.T) {
	root, _, h := switchingHandler(t)
	env := apptest.Call(t, h, "GET", "/api/project", "", http.StatusConflict, nil)
	if env.ErrorType != "no_project" || !strings.Contains(env.Error, "Projects page") {
		t.Errorf("GET /api/project with none open: %+v", env)
	}
	var st projects.State
	apptest.Call(t, h, "GET", "/api/projects", "", 200, &st)
	if st.Current != "" || st.Folder != root || len(st.Projects) != 1 || st.Projects[0].Name != "news" || st.ByPath {
		t.Fatalf("GET /api/projects: %+v; want news alone (no link out), by name", st)
	}
	token := sessionToken(t, h)
	var opened ProjectOpened
	apptest.Call(t, h, "POST", "/api/projects/create", `{"name": "fresh"}`, 200, &opened)
	if opened.Dir != filepath.Join(root, "fresh") {
		t.Errorf("created %s", opened.Dir)
	}
	var info app.ProjectInfo
	apptest.Call(t, h, "GET", "/api/project", "", 200, &info)
	if info.Name != "fresh" || info.Pages != 0 || info.Sites != 0 {
		t.Errorf("the new project: %+v, want fresh, empty", info)
	}
	var crawl crawling.CrawlStatus
	apptest.Call(t, h, "GET", "/api/crawl", "", 200, &crawl)
	apptest.Call(t, h, "GET", "/api/settings", "", 200, nil)
	if sessionToken(t, h) != token {
		t.Error("the write token changed with the project: the open page's writes would be refused")
	}
	apptest.Call(t, h, "POST", "/api/projects/open", `{"name": "news"}`, 200, &opened)
	apptest.Call(t, h, "GET", "/api/project", "", 200, &info)
	if info.Name != "news" {
		t.Errorf("after opening news the API serves %s", info.Name)
	}
	apptest.Call(t, h, "POST", "/api/projects/create", `{"name": "news"}`, http.StatusConflict, nil)
}

// TestProjectsFolderEscapes: no request reaches outside the folder.
func TestProjectsFolderEscapes(t *testing.T) {
	root, _, h := switchingHandler(t)
	outside := filepath.Join(filepath.Dir(root), "outside")
	for _, c := range []struct{ path, body string }{
		{"/api/projects/create", `{"name": "../x"}`},
		{"/api/projects/create", `{"name": "a/b"}`},
		{"/api/projects/create", `{"name": ".."}`},
		{"/api/projects/create", `{"name": "` + outside + `-new"}`},
		{"/api/projects/create", `{"dir": "` + filepath.Join(root, "bydir") + `"}`},
		{"/api/projects/open", `{"name": "../outside"}`},
		{"/api/projects/open", `{"name": "` + outside + `"}`},
		{"/api/projects/open", `{"name": "link-out"}`},
		{"/api/projects/open", `{"dir": "` + outside + `"}`},
		{"/api/projects/open", `{}`},
	} {
		req := apptest.Request(h, "POST", c.path, strings.NewReader(c.body))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusBadRequest {
			t.Errorf("POST %s %s: %d %s, want 400", c.path, c.body, rec.Code, rec.Body)
		}
	}
	des, _ := os.ReadDir(filepath.Dir(root))
	if len(des) != 2 {
		t.Errorf("the folder above holds %d entries, want projects and outside alone", len(des))
	}
	des, _ = os.ReadDir(root)
	if len(des) != 2 {
		t.Errorf("the projects folder holds %d entries, want news and link-out alone", len(des))
	}
}

// TestProjectsDialogs: in the window, New project… creates the folder the
// Save dialog names and Open project… opens the folder chosen; a cancelled
// dialog changes nothing.
func TestProjectsDialogs(t *testing.T) {
	base := t.TempDir()
	d := &chooser{}
	sw := projects.NewSwitcher(projects.Options{Recent: &projects.Recent{Path: filepath.Join(base, "recent.json")},
		Open: openApp})
	t.Cleanup(sw.Close)
	h := Switching(sw, Desktop(d))
	var opened ProjectOpened
	apptest.Call(t, h, "POST", "/api/projects/new-dialog", "", 200, &opened)
	if !opened.Cancelled {
		t.Errorf("a cancelled dialog: %+v", opened)
	}
	d.save = filepath.Join(base, "first")
	apptest.Call(t, h, "POST", "/api/projects/new-dialog", "", 200, &opened)
	d.save = filepath.Join(base, "second")
	apptest.Call(t, h, "POST", "/api/projects/new-dialog", "", 200, &opened)
	d.folder = filepath.Join(base, "first")
	apptest.Call(t, h, "POST", "/api/projects/open-dialog", "", 200, &opened)
	var info app.ProjectInfo
	apptest.Call(t, h, "GET", "/api/project", "", 200, &info)
	if info.Dir != d.folder {
		t.Errorf("after Open project… the API serves %s, want %s", info.Dir, d.folder)
	}
	var st projects.State
	apptest.Call(t, h, "GET", "/api/projects", "", 200, &st)
	if len(st.Recent) != 2 || st.Recent[0].Name != "first" || st.Recent[1].Name != "second" || !st.ByPath {
		t.Errorf("recent after new first, new second, open first: %+v", st.Recent)
	}
	// Open project… on a folder that holds no project says so.
	d.folder = base
	env := apptest.Call(t, h, "POST", "/api/projects/open-dialog", "", http.StatusNotFound, nil)
	if !strings.Contains(env.Error, "no sitesift project") {
		t.Errorf("open a plain folder: %s", env.Error)
	}
}

// TestProjectsDialogsStartBeside: New project… and Open project… start in
// the folder that holds the open project, where its siblings are, and in
// the home folder when none is open; a file's Save dialog lets the window
// choose ("": the Downloads folder).
func TestProjectsDialogsStartBeside(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	t.Setenv("HOME", home)
	d := &chooser{}
	sw := projects.NewSwitcher(projects.Options{Open: openApp})
	t.Cleanup(sw.Close)
	h := Switching(sw, Desktop(d))
	var opened ProjectOpened
	apptest.Call(t, h, "POST", "/api/projects/open-dialog", "", 200, &opened)
	d.save = filepath.Join(base, "work", "news")
	apptest.Call(t, h, "POST", "/api/projects/new-dialog", "", 200, &opened)
	d.save = ""
	apptest.Call(t, h, "POST", "/api/projects/new-dialog", "", 200, &opened)
	apptest.Call(t, h, "POST", "/api/projects/open-dialog", "", 200, &opened)
	apptest.Call(t, h, "POST", "/api/desktop/save", `{"text": "x", "name": "x.txt"}`, 200, &Saved{})
	work := filepath.Join(base, "work")
	if want := []string{home, home, work, work, ""}; !slices.Equal(d.startedIn, want) {
		t.Errorf("the dialogs started in %q, want %q", d.startedIn, want)
	}
}

func sessionToken(t *testing.T, h http.Handler) string {
	t.Helper()
	var s map[string]string
	apptest.Call(t, h, "GET", "/api/session", "", 200, &s)
	return s["token"]
}
