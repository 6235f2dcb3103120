package projects_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sitesift/app"
	"sitesift/app/crawling"
	"sitesift/app/fault"
	"sitesift/app/lab"
	"sitesift/app/project"
	"sitesift/app/projects"
	"sitesift/crawl/demoweb"
)

// opener opens projects as the adapters do, for real: the store, the
// index and the lock, closed with the App.
func opener(t *testing.T) projects.Opener {
	return func(dir string, create bool) (projects.Opened, error) {
		p, err := project.Open(dir, create)
		if err != nil {
			return projects.Opened{}, err
		}
		a := app.New(app.Options{Project: p})
		return projects.Opened{App: a, Dir: p.Dir, Close: func() { a.Close(); p.Close() }}, nil
	}
}

// makeProject creates an empty project in dir.
func makeProject(t *testing.T, dir string) {
	t.Helper()
	p, err := project.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
}

func TestValidName(t *testing.T) {
	for _, ok := range []string{"news-2026", "Zeitungen Bayern", "été", "a.b", "x"} {
		if err := projects.ValidName(ok); err != nil {
			t.Errorf("ValidName(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"", "..", "../x", "a/b", `a\b`, "/abs", ".hidden", "a..b", " lead", "trail ", "tab\there", strings.Repeat("x", 101), "bad\xffutf8"} {
		err := projects.ValidName(bad)
		if err == nil || fault.KindOf(err) != fault.KindInvalid {
			t.Errorf("ValidName(%q) = %v, want an invalid-kind error", bad, err)
		}
	}
}

func TestRecentOrderMissingAndCorrupt(t *testing.T) {
	base := t.TempDir()
	a, b, c := filepath.Join(base, "a"), filepath.Join(base, "b"), filepath.Join(base, "c")
	for _, d := range []string{a, b, c} {
		makeProject(t, d)
	}
	clock := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	r := &projects.Recent{Path: filepath.Join(base, "config", "sitesift", "recent.json"),
		Now: func() time.Time { clock = clock.Add(time.Minute); return clock }}
	if l, err := r.List(); err != nil || len(l) != 0 {
		t.Fatalf("List of no file = %v, %v; want empty, nil", l, err)
	}
	for _, d := range []string{a, b, c, a} {
		if err := r.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	l, err := r.List()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range l {
		got = append(got, e.Name)
	}
	if strings.Join(got, ",") != "a,c,b" {
		t.Errorf("recent = %v, want a,c,b (most recent first, each once)", got)
	}
	if err := os.RemoveAll(c); err != nil {
		t.Fatal(err)
	}
	l, _ = r.List()
	if l[1].Name != "c" || !l[1].Missing || l[0].Missing || l[2].Missing {
		t.Errorf("after removing c: %+v, want c alone missing", l)
	}
	// A list cut short (a crash of another writer, a hand edit) is
	// reported with its byte offset, and the next project opened starts
	// a new list with the bad one kept beside it.
	if err := os.WriteFile(r.Path, []byte(`{"projects":[{"dir":`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.List(); err == nil || !strings.Contains(err.Error(), r.Path) || !strings.Contains(err.Error(), "byte") {
		t.Errorf("List of a corrupt file: %v, want an error naming the file and the byte", err)
	}
	if err := r.Add(b); err != nil {
		t.Fatalf("Add over a corrupt file: %v", err)
	}
	if l, err := r.List(); err != nil || len(l) != 1 || l[0].Dir != b {
		t.Errorf("after Add over a corrupt file: %+v, %v; want b alone", l, err)
	}
	if bad, err := os.ReadFile(r.Path + ".bad"); err != nil || string(bad) != `{"projects":[{"dir":` {
		t.Errorf("the corrupt list is not kept beside: %q, %v", bad, err)
	}
	// No temporary file is left behind.
	des, _ := os.ReadDir(filepath.Dir(r.Path))
	for _, de := range des {
		if strings.Contains(de.Name(), ".part-") {
			t.Errorf("left behind: %s", de.Name())
		}
	}
}

func TestFolderListCreateAndEscapes(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "projects")
	outside := filepath.Join(base, "outside")
	makeProject(t, filepath.Join(root, "news"))
	makeProject(t, filepath.Join(root, "Blogs"))
	makeProject(t, outside)
	if err := os.MkdirAll(filepath.Join(root, "not-a-project"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "link-out")); err != nil {
		t.Fatal(err)
	}
	f, err := projects.NewFolder(root)
	if err != nil {
		t.Fatal(err)
	}
	l, err := f.List()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range l {
		names = append(names, e.Name)
	}
	if strings.Join(names, ",") != "Blogs,news" {
		t.Errorf("List = %v, want Blogs,news (no plain folder, no link out)", names)
	}
	for _, name := range []string{"../outside", outside, "link-out", "..", "news/../../outside"} {
		if dir, err := f.Project(name); err == nil {
			t.Errorf("Project(%q) = %s, want refused", name, dir)
		}
	}
	if dir, err := f.Project("news"); err != nil || dir != filepath.Join(root, "news") {
		t.Errorf("Project(news) = %s, %v", dir, err)
	}
	if _, err := f.NewProject("news"); fault.KindOf(err) != fault.KindConflict {
		t.Errorf("NewProject(news) = %v, want a conflict: it exists", err)
	}
	if _, err := f.NewProject("link-out"); fault.KindOf(err) != fault.KindConflict {
		t.Errorf("NewProject(link-out) = %v, want a conflict: the name is taken by a link", err)
	}
	if _, err := f.NewProject("../x"); fault.KindOf(err) != fault.KindInvalid {
		t.Errorf("NewProject(../x) = %v, want invalid", err)
	}
}

// TestSwitchCreatesOpensAndRemembers: a Switcher over a folder creates a
// project by name, which opens empty, switches to another and closes the
// first (whose lock is then free), and remembers each in the recent list.
func TestSwitchCreatesOpensAndRemembers(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "projects")
	makeProject(t, filepath.Join(root, "news"))
	f, err := projects.NewFolder(root)
	if err != nil {
		t.Fatal(err)
	}
	rec := &projects.Recent{Path: filepath.Join(base, "recent.json")}
	sw := projects.NewSwitcher(projects.Options{Open: opener(t), Folder: f, Recent: rec})
	defer sw.Close()
	if a, _ := sw.Current(); a != nil {
		t.Fatal("a project is open before any was opened")
	}
	dir, err := sw.CreateNamed("fresh")
	if err != nil {
		t.Fatal(err)
	}
	a, cur := sw.Current()
	if cur != dir || dir != filepath.Join(root, "fresh") {
		t.Fatalf("current %s, created %s", cur, dir)
	}
	info, err := a.Info(context.Background())
	if err != nil || info.Pages != 0 || info.Sites != 0 {
		t.Fatalf("a new project: %+v, %v; want empty", info, err)
	}
	if _, err := sw.OpenNamed("news"); err != nil {
		t.Fatal(err)
	}
	// The first project was closed: another process may take it now.
	p, err := project.Open(dir, false)
	if err != nil {
		t.Fatalf("the project switched away from is still held: %v", err)
	}
	p.Close()
	st, err := sw.State()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Recent) != 2 || st.Recent[0].Name != "news" || st.Recent[1].Name != "fresh" || st.ByPath {
		t.Errorf("state %+v: want recent news, fresh and no opening by path", st)
	}
	if len(st.Projects) != 2 {
		t.Errorf("projects %+v, want fresh and news", st.Projects)
	}
	// Under a folder, no path is taken, not even one inside it.
	if _, err := sw.OpenDir(filepath.Join(root, "fresh")); err == nil {
		t.Error("OpenDir under a folder of projects: opened, want refused")
	}
	if _, err := sw.CreateNamed("/tmp/abs"); err == nil {
		t.Error("CreateNamed(/tmp/abs): created, want refused")
	}
}

// TestSwitchRefusedWhileCrawling: a running crawl refuses the switch, in
// words that say what runs and what to do, and the project stays open; once
// the crawl is stopped, the switch goes through.
func TestSwitchRefusedWhileCrawling(t *testing.T) {
	base := t.TempDir()
	first, second := filepath.Join(base, "first"), filepath.Join(base, "second")
	makeProject(t, second)
	sw := projects.NewSwitcher(projects.Options{Open: opener(t)})
	defer sw.Close()
	if _, err := sw.CreateDir(first); err != nil {
		t.Fatal(err)
	}
	web := demoweb.New(demoweb.DefaultSeed)
	srv, err := web.Serve(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	a, _ := sw.Current()
	// A slow crawl: one page every 2 s a site, far more than the test takes.
	if _, err := a.Crawling.Start(crawling.CrawlRequest{Seeds: web.Seeds(), MaxPages: 500, Proxy: srv.URL,
		SettingsUpdate: project.SettingsUpdate{DelayMS: app.Set(2000), Parallel: app.Set(1)}}); err != nil {
		t.Fatal(err)
	}
	_, err = sw.OpenDir(second)
	if fault.KindOf(err) != fault.KindConflict || !strings.Contains(err.Error(), "a crawl is running") || !strings.Contains(err.Error(), first) {
		t.Fatalf("switch during a crawl: %v, want a conflict saying a crawl runs in %s", err, first)
	}
	if _, cur := sw.Current(); cur != first {
		t.Fatalf("after a refused switch the open project is %s, want %s", cur, first)
	}
	if _, err := a.Crawling.Stop(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for a.Crawling.Running() && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if dir, err := sw.OpenDir(second); err != nil || dir != second {
		t.Fatalf("switch after the crawl stopped: %s, %v", dir, err)
	}
}

// TestSwitchFailureKeepsOpen: a project that cannot be opened (another
// process holds it) leaves the open project open.
func TestSwitchFailureKeepsOpen(t *testing.T) {
	base := t.TempDir()
	first, held := filepath.Join(base, "first"), filepath.Join(base, "held")
	makeProject(t, held)
	p, err := project.Open(held, false)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	sw := projects.NewSwitcher(projects.Options{Open: opener(t)})
	defer sw.Close()
	if _, err := sw.CreateDir(first); err != nil {
		t.Fatal(err)
	}
	var he *project.HeldError
	if _, err := sw.OpenDir(held); !errors.As(err, &he) {
		t.Fatalf("open a held project: %v, want a HeldError", err)
	}
	a, cur := sw.Current()
	if cur != first {
		t.Fatalf("open project %s, want %s", cur, first)
	}
	if _, err := a.Info(context.Background()); err != nil {
		t.Fatalf("the project kept open does not answer: %v", err)
	}
	if _, err := sw.CreateDir(held); fault.KindOf(err) != fault.KindConflict {
		t.Errorf("create in a folder that holds a project: %v, want a conflict", err)
	}
}

// TestSwitchRefusedWhileLabRuns: a lab experiment running refuses the
// switch too, rather than being cancelled unsaid.
func TestSwitchRefusedWhileLabRuns(t *testing.T) {
	base := t.TempDir()
	second := filepath.Join(base, "second")
	makeProject(t, second)
	sw := projects.NewSwitcher(projects.Options{Open: opener(t)})
	defer sw.Close()
	if _, err := sw.CreateDir(filepath.Join(base, "first")); err != nil {
		t.Fatal(err)
	}
	a, _ := sw.Current()
	// Far more reads than the test takes.
	st, err := a.Lab.Start(context.Background(), &lab.ConvergenceParams{Graph: "synthetic", N: 20000, Steps: 100000000, Every: 10000000})
	if err != nil {
		t.Fatal(err)
	}
	_, err = sw.OpenDir(second)
	if fault.KindOf(err) != fault.KindConflict || !strings.Contains(err.Error(), "a lab experiment is running") {
		t.Errorf("switch during a lab run: %v, want a conflict saying a lab experiment runs", err)
	}
	if _, err := a.Lab.Cancel(st.ID); err != nil {
		t.Fatal(err)
	}
}
