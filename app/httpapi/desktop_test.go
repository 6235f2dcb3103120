package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/communities"
	"sitesift/app/imports"
	"sitesift/app/project"
	"sitesift/internal/refdata"
)

// chooser answers the dialogs with fixed paths, as a person choosing them
// would; "" is a cancelled dialog.
type chooser struct {
	save, open string
	folder     string // the folder the Open-folder dialog answers
	files      []string
	asked      []string // the names the Save dialog suggested
	startedIn  []string // the folders the Save and Open-folder dialogs started in
}

func (c *chooser) SaveFile(dir, title, name string, _ []FileFilter) (string, error) {
	c.asked = append(c.asked, name)
	c.startedIn = append(c.startedIn, dir)
	return c.save, nil
}

func (c *chooser) OpenFile(string, []FileFilter) (string, error) { return c.open, nil }

func (c *chooser) OpenFiles(string, []FileFilter) ([]string, error) { return c.files, nil }

func (c *chooser) OpenDirectory(dir, title string) (string, error) {
	c.startedIn = append(c.startedIn, dir)
	return c.folder, nil
}

func desktopHandler(t *testing.T, d Dialogs) (*app.App, *project.Project, http.Handler) {
	t.Helper()
	a, p, _ := testProject(t)
	return a, p, New(a, Assets(fstest.MapFS{"index.html": {Data: []byte("<title>sitesift</title>")}}), Desktop(d))
}

// entries lists a directory's names.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func saveBody(url, name string) string {
	b, _ := json.Marshal(map[string]string{"url": url, "name": name})
	return string(b)
}

func TestDesktopSave(t *testing.T) {
	dir := t.TempDir()
	d := &chooser{save: filepath.Join(dir, "my seeds.txt")}
	_, _, h := desktopHandler(t, d)

	var saved Saved
	apptest.Call(t, h, "POST", "/api/desktop/save", saveBody("/api/export/seeds?format=txt&count=5", "seeds.txt"), 200, &saved)
	if saved.Cancelled || saved.Path != d.save || saved.Bytes == 0 {
		t.Fatalf("saved %+v; want %s written", saved, d.save)
	}
	got, err := os.ReadFile(d.save)
	if err != nil {
		t.Fatal(err)
	}
	// The file is what the browser downloads from the same URL.
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "GET", "/api/export/seeds?format=txt&count=5", nil))
	if !bytes.Equal(got, rec.Body.Bytes()) || int64(len(got)) != saved.Bytes {
		t.Fatalf("saved file (%d bytes) differs from GET's answer (%d bytes)", len(got), rec.Body.Len())
	}
	// The crawled demo web makes a few communities of sites, how many
	// depending on which pages the crawl fetched before its cap; the file
	// holds one seed for each, 5 at most.
	if lines := strings.Count(string(got), "http"); lines < 1 || lines > 5 {
		t.Errorf("seeds.txt holds %d URLs, want 1 to 5:\n%s", lines, got)
	}
	// The name the answer gives wins over the page's, as in a browser.
	if want := rec.Result().Header.Get("Content-Disposition"); len(d.asked) != 1 || !strings.Contains(want, `filename="`+d.asked[0]+`"`) {
		t.Errorf("the dialog suggested %q; the answer's file is %s", d.asked, want)
	}
	if fi, _ := os.Stat(d.save); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}

	// Text the page made.
	apptest.Call(t, h, "POST", "/api/desktop/save", `{"text":"https://a.test/\n","name":"edited.txt"}`, 200, &saved)
	if got, _ := os.ReadFile(d.save); string(got) != "https://a.test/\n" {
		t.Errorf("saved text %q", got)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("the folder holds %q; want the saved file alone", names)
	}
}

// A saved collection's seed list is suggested under the collection's name,
// the one a browser saves it under, whatever name the page gives.
func TestDesktopSaveCollectionName(t *testing.T) {
	a, _ := apptest.Open(t, apptest.TopicProject(t))
	d := &chooser{save: filepath.Join(t.TempDir(), "chosen.txt")}
	h := New(a, Desktop(d))
	var c communities.Collection
	apptest.Call(t, h, "POST", "/api/collections", `{"name":"Seeds: Jazz & Birds","created_by":"ana","count":5,"density":100}`, 200, &c)
	file := "/api/collections/" + strconv.FormatInt(c.ID, 10) + "/seeds.txt"
	var saved Saved
	apptest.Call(t, h, "POST", "/api/desktop/save", saveBody(file, "seeds.txt"), 200, &saved)
	// The project's name first, as every deliverable's; the collection's
	// own "Seeds" not doubled.
	if len(d.asked) != 1 || d.asked[0] != "project-seeds-jazz-birds.txt" {
		t.Errorf("the dialog suggested %q, want project-seeds-jazz-birds.txt", d.asked)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "GET", file, nil))
	if got, _ := os.ReadFile(d.save); saved.Path != d.save || !bytes.Equal(got, rec.Body.Bytes()) || !strings.Contains(string(got), "http://") {
		t.Errorf("saved %+v: %q; want GET's answer %q", saved, got, rec.Body.Bytes())
	}
}

func TestDesktopSaveCancelAndFailure(t *testing.T) {
	dir := t.TempDir()
	d := &chooser{}
	_, _, h := desktopHandler(t, d)

	var saved Saved
	apptest.Call(t, h, "POST", "/api/desktop/save", saveBody("/api/export/heritrix", "heritrix.txt"), 200, &saved)
	if !saved.Cancelled || saved.Path != "" {
		t.Fatalf("cancelled dialog: %+v", saved)
	}

	// A download that fails leaves nothing, not even over an older file.
	d.save = filepath.Join(dir, "old.csv")
	os.WriteFile(d.save, []byte("old"), 0o644)
	env := apptest.Call(t, h, "POST", "/api/desktop/save", saveBody("/api/warcs/nosuch.warc.gz", "x.warc.gz"), 404, nil)
	if !strings.Contains(env.Error, "nosuch") {
		t.Errorf("error %q does not name the missing file", env.Error)
	}
	if got, _ := os.ReadFile(d.save); string(got) != "old" {
		t.Errorf("the older file became %q", got)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("the folder holds %q; want the older file alone", names)
	}
	if len(d.asked) != 1 {
		t.Errorf("the Save dialog was asked %q; a download that fails asks nothing", d.asked)
	}

	// A folder that does not exist.
	d.save = filepath.Join(dir, "gone", "seeds.txt")
	env = apptest.Call(t, h, "POST", "/api/desktop/save", saveBody("/api/export/heritrix", "h.txt"), 400, nil)
	if !strings.Contains(env.Error, "gone") {
		t.Errorf("error %q does not name the folder", env.Error)
	}

	// Only the API's own downloads.
	for _, u := range []string{"http://example.org/x", "/index.html", "/api/desktop/save", ""} {
		apptest.Call(t, h, "POST", "/api/desktop/save", saveBody(u, "x"), 400, nil)
	}
}

func TestDesktopOpen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ratings.csv")
	data := []byte("librarian,site,rating\nann,a.test,3\n\xff\x00 bytes as they are\n")
	os.WriteFile(path, data, 0o600)
	d := &chooser{open: path}
	_, _, h := desktopHandler(t, d)

	var opened Opened
	apptest.Call(t, h, "POST", "/api/desktop/open", `{"title":"Import","filters":[{"name":"CSV","pattern":"*.csv"}]}`, 200, &opened)
	if opened.Path != path || opened.Name != "ratings.csv" || !bytes.Equal(opened.Data, data) {
		t.Fatalf("opened %+v", opened)
	}
	d.open = ""
	apptest.Call(t, h, "POST", "/api/desktop/open", `{}`, 200, &opened)
	if !opened.Cancelled {
		t.Errorf("cancelled dialog: %+v", opened)
	}
	d.open = filepath.Join(dir, "missing.csv")
	env := apptest.Call(t, h, "POST", "/api/desktop/open", `{}`, 400, nil)
	if !strings.Contains(env.Error, "missing.csv") {
		t.Errorf("error %q does not name the file", env.Error)
	}
	big := filepath.Join(dir, "big.csv")
	os.WriteFile(big, make([]byte, maxOpenFile+1), 0o600)
	d.open = big
	apptest.Call(t, h, "POST", "/api/desktop/open", `{}`, 413, nil)
}

// TestDesktopChooseImport: the files chosen in the window are imported
// where they are, by path, nothing copied into the project; a cancelled
// dialog chooses nothing.
func TestDesktopChooseImport(t *testing.T) {
	warc := refdata.Shared(t, "warc", "iana.warc.gz")
	d := &chooser{files: []string{warc}}
	// A project of its own: the crawled project the other tests share
	// would keep the import.
	a, p := apptest.EmptyProject(t)
	h := New(a, Desktop(d))

	var chosen Chosen
	apptest.Call(t, h, "POST", "/api/desktop/choose", `{"title":"WARC files","filters":[{"name":"WARC","pattern":"*.warc;*.warc.gz"}]}`, 200, &chosen)
	if chosen.Cancelled || len(chosen.Paths) != 1 || chosen.Paths[0] != warc {
		t.Fatalf("chosen %+v, want %s", chosen, warc)
	}
	body, _ := json.Marshal(imports.ArchiveImportRequest{WARC: chosen.Paths})
	apptest.Call(t, h, "POST", "/api/imports", string(body), http.StatusAccepted, nil)
	if st := waitImport(t, h); st.State != imports.ImportDone || len(st.Result.Files) != 1 || st.Result.Files[0].Path != warc {
		t.Fatalf("import of the chosen file: %+v", st)
	}
	if names, err := os.ReadDir(filepath.Join(p.Dir, "uploads")); err == nil && len(names) > 0 {
		t.Errorf("the chosen file was copied into the project: %d files in uploads/", len(names))
	}

	d.files = nil
	apptest.Call(t, h, "POST", "/api/desktop/choose", `{}`, 200, &chosen)
	if !chosen.Cancelled || chosen.Paths == nil || len(chosen.Paths) != 0 {
		t.Errorf("cancelled dialog: %+v", chosen)
	}
}

// The routes exist only in the desktop window's handler.
func TestDesktopRoutesOnlyInWindow(t *testing.T) {
	_, h := testApp(t)
	apptest.Call(t, h, "POST", "/api/desktop/save", saveBody("/api/export/heritrix", "h.txt"), 404, nil)
	apptest.Call(t, h, "POST", "/api/desktop/open", `{}`, 404, nil)
	apptest.Call(t, h, "POST", "/api/desktop/choose", `{}`, 404, nil)
}
