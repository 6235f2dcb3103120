package crawling_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nlnwa/gowarc"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/crawling"
	"sitesift/app/httpapi"
	"sitesift/app/project"
	"sitesift/sites/warcfile"
)

// readWARC reads every record of a WARC file with gowarc, failing on any
// invalid one (digests included), and returns their types, target URIs and
// revisit targets.
func readWARC(t *testing.T, path string) (types, uris, refersTo []string) {
	t.Helper()
	r, err := gowarc.NewWarcFileReader(path, 0, gowarc.WithStrictValidation())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for {
		rec, off, val, err := r.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil || !val.Valid() {
			t.Fatalf("%s at %d: %v %v", path, off, err, val)
		}
		h := rec.WarcHeader()
		types = append(types, rec.Type().String())
		uris = append(uris, h.Get(gowarc.WarcTargetURI))
		refersTo = append(refersTo, h.Get(gowarc.WarcRefersToTargetURI))
	}
}

// newProject creates a project in a new directory and returns it open.
func newProject(t *testing.T) (string, *project.Project, *app.App) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "project")
	p, err := project.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	return dir, p, app.New(app.Options{Project: p})
}

// TestCrawlWritesWARC crawls the demo web twice into a project, the second
// crawl continuing the first, with small WARC files.
func TestCrawlWritesWARC(t *testing.T) {
	seeds, proxy := apptest.DemoWeb(t)
	dir, p, a := newProject(t)
	defer func() { a.Close(); p.Close() }()
	for _, n := range []int{30, 60} {
		req := crawling.CrawlRequest{Seeds: seeds, MaxPages: n, MaxPagesPerSite: 10, SettingsUpdate: project.SettingsUpdate{DelayMS: app.Set(1), Parallel: app.Set(4)}, Proxy: proxy,
			WARCMaxSize: 100_000}
		if _, err := a.Crawling.Run(context.Background(), req, time.Second, nil); err != nil {
			t.Fatal(err)
		}
	}

	files, err := a.Crawling.WARCFiles()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 3 {
		t.Fatalf("%d WARC files, want several at 100 kB each", len(files))
	}
	warcs := filepath.Join(dir, project.WARCDir)
	var captures, sameURLRevisits, otherURLRevisits int
	for _, f := range files {
		if f.Open {
			t.Errorf("%s still open after the crawls", f.Name)
		}
		types, uris, refers := readWARC(t, filepath.Join(warcs, f.Name))
		if types[0] != "warcinfo" || strings.Count(strings.Join(types, " "), "warcinfo") != 1 {
			t.Errorf("%s: records %v, want one warcinfo first", f.Name, types)
		}
		n := 0
		for i := 1; i < len(types); i++ {
			switch types[i] {
			case "response", "revisit":
				n++
				// The request follows its response, unless the file ends.
				if i+1 < len(types) && (types[i+1] != "request" || uris[i+1] != uris[i]) {
					t.Errorf("%s: %s of %s followed by %s", f.Name, types[i], uris[i], types[i+1])
				}
				if types[i] == "revisit" && refers[i] == uris[i] {
					sameURLRevisits++
				} else if types[i] == "revisit" {
					otherURLRevisits++
				}
			case "request":
			default:
				t.Errorf("%s: unexpected %s record", f.Name, types[i])
			}
		}
		if n != f.Records {
			t.Errorf("%s: %d captures, the list says %d", f.Name, n, f.Records)
		}
		captures += n
		checkCDXJ(t, warcs, f.Name, n)
	}
	// The second crawl fetches the robots.txt files again: same URL, same
	// bytes.
	if sameURLRevisits == 0 {
		t.Error("no revisit of a URL captured again with the same payload")
	}
	t.Logf("%d files, %d captures, %d same-URL revisits, %d revisits of other URLs", len(files), captures, sameURLRevisits, otherURLRevisits)

	// The files through the HTTP API.
	h := httpapi.New(a)
	var listed []crawling.WARCFile
	apptest.Call(t, h, "GET", "/api/warcs", "", 200, &listed)
	if len(listed) != len(files) || listed[0].Name != files[0].Name {
		t.Errorf("GET /api/warcs: %+v", listed)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "GET", "/api/warcs/"+files[0].Name, nil))
	want, _ := os.ReadFile(filepath.Join(warcs, files[0].Name))
	if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), want) || rec.Header().Get("Content-Type") != "application/warc" ||
		rec.Header().Get("Content-Disposition") != `attachment; filename="`+files[0].Name+`"` {
		t.Errorf("GET /api/warcs/%s: %d %v, %d bytes of %d", files[0].Name, rec.Code, rec.Header(), rec.Body.Len(), len(want))
	}
	for _, bad := range []string{"nope.warc.gz", "..%2Fproject.db", files[0].Name + ".open", strings.TrimSuffix(files[0].Name, ".warc.gz") + ".cdxj"} {
		apptest.Call(t, h, "GET", "/api/warcs/"+bad, "", 404, nil)
	}
}

// checkCDXJ checks that the index of warc has n lines and that each points
// at a record of its URL.
func checkCDXJ(t *testing.T, dir, warc string, n int) {
	t.Helper()
	idx, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(warc, ".warc.gz")+".cdxj"))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, warc))
	lines := strings.Split(strings.TrimSpace(string(idx)), "\n")
	if len(lines) != n {
		t.Fatalf("%s: %d index lines, %d captures", warc, len(lines), n)
	}
	for _, l := range lines {
		e, err := warcfile.ParseLine(l)
		if err != nil {
			t.Fatal(err)
		}
		r, err := gowarc.NewWarcFileReaderFromStream(bytes.NewReader(data[e.Offset:e.Offset+e.Length]), 0)
		if err != nil {
			t.Fatal(err)
		}
		rec, _, _, err := r.Next()
		if err != nil || rec.WarcHeader().Get(gowarc.WarcTargetURI) != e.URL || e.Filename != warc ||
			e.SURT != warcfile.SURT(e.URL) {
			t.Errorf("%s: line %q points at %v (%v)", warc, l, rec, err)
		}
		r.Close()
	}
}

// TestOpenProjectRecoversWARC leaves a WARC file cut in the middle of a
// record, as a killed crawl does, and opens the project again.
func TestOpenProjectRecoversWARC(t *testing.T) {
	seeds, proxy := apptest.DemoWeb(t)
	dir, p, a := newProject(t)
	if _, err := a.Crawling.Run(context.Background(), crawling.CrawlRequest{Seeds: seeds, MaxPages: 10, SettingsUpdate: project.SettingsUpdate{DelayMS: app.Set(1)}, Proxy: proxy},
		time.Second, nil); err != nil {
		t.Fatal(err)
	}
	a.Close()
	p.Close()
	warcs := filepath.Join(dir, project.WARCDir)
	files, _ := warcfile.List(warcs)
	if len(files) != 1 {
		t.Fatalf("files %+v", files)
	}
	// Make it the file a killed crawl left: open, its end cut mid-record,
	// its index unsorted and partial.
	name := files[0].Name
	data, _ := os.ReadFile(filepath.Join(warcs, name))
	idx := filepath.Join(warcs, strings.TrimSuffix(name, ".warc.gz")+".cdxj")
	lines, _ := os.ReadFile(idx)
	os.WriteFile(filepath.Join(warcs, name+".open"), data[:len(data)-25], 0o644)
	os.WriteFile(idx+".open", lines[:len(lines)/2], 0o644)
	os.Remove(filepath.Join(warcs, name))
	os.Remove(idx)

	p, err := project.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Repairs.WARCs != 1 {
		t.Errorf("repairs %+v, want one WARC file", p.Repairs)
	}
	types, _, _ := readWARC(t, filepath.Join(warcs, name))
	if len(types) != 2*files[0].Records {
		// The warcinfo and every pair but the last request remain.
		t.Errorf("%d records after recovery, want %d", len(types), 2*files[0].Records)
	}
	checkCDXJ(t, warcs, name, files[0].Records)
	for _, leftover := range []string{name + ".open", strings.TrimSuffix(name, ".warc.gz") + ".cdxj.open"} {
		if _, err := os.Stat(filepath.Join(warcs, leftover)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left", leftover)
		}
	}
}
