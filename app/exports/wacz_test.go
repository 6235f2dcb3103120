package exports_test

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/exports"
	"sitesift/app/fault"
	"sitesift/app/imports"
	"sitesift/app/project"
	"sitesift/internal/refdata"
	"sitesift/sites"
	"sitesift/sites/wacz"
	"sitesift/sites/warcfile"
)

// TestWriteWACZ packages a crawl of the demo web and reads the file back
// as a replay tool does: named after the project, every entry stored,
// datapackage.json's digests and sizes those of the entries, every capture
// of the project's WARC files in the index at an offset where a byte range
// of the ZIP finds its record, and the crawl's HTML pages in pages.jsonl
// with their titles: each page's <title> as archived, not the headline the
// extractor found.
func TestWriteWACZ(t *testing.T) {
	dir := apptest.CrawledProject(t)
	a, p, _ := apptest.OpenProject(t, dir)
	out := t.TempDir()
	path, info, err := a.Exports.WriteWACZ(context.Background(), out+string(os.PathSeparator))
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(out, "project-crawl.wacz") {
		t.Errorf("written to %s, want project-crawl.wacz in %s", path, out)
	}
	files, err := a.Crawling.WARCFiles()
	if err != nil || len(files) == 0 {
		t.Fatalf("WARC files %v, %v", files, err)
	}
	captures := 0
	for _, f := range files {
		captures += f.Records
	}
	if info.WARCs != len(files) || info.Captures != captures || info.Pages == 0 || info.Note != "" {
		t.Errorf("info %+v; the project has %d WARC files of %d captures", info, len(files), captures)
	}
	if ents, _ := os.ReadDir(out); len(ents) != 1 {
		t.Errorf("%d files in the output directory, want the WACZ file alone", len(ents))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	entries := map[string]*zip.File{}
	for _, f := range zr.File {
		entries[f.Name] = f
		if f.Method != zip.Store {
			t.Errorf("%s is not stored", f.Name)
		}
	}
	read := func(name string) []byte {
		t.Helper()
		f := entries[name]
		if f == nil {
			t.Fatalf("no %s in the WACZ file", name)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		data, err := io.ReadAll(rc)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	var m wacz.Manifest
	if err := json.Unmarshal(read("datapackage.json"), &m); err != nil {
		t.Fatal(err)
	}
	if m.Title != "project" || m.WACZVersion != "1.1.1" || m.Software != "sitesift "+project.Version || len(m.Resources) != len(files)+2 {
		t.Errorf("datapackage.json: %+v", m)
	}
	for _, r := range m.Resources {
		data := read(r.Path)
		sum := sha256.Sum256(data)
		if r.Hash != "sha256:"+hex.EncodeToString(sum[:]) || r.Bytes != int64(len(data)) {
			t.Errorf("%s: datapackage.json says %s, %d bytes; the entry has %x, %d", r.Path, r.Hash, r.Bytes, sum, len(data))
		}
	}
	offsets := map[string]int64{}
	for _, f := range files {
		e := entries["archive/"+f.Name]
		if e == nil {
			t.Fatalf("the WARC file %s is not in the WACZ file", f.Name)
		}
		if offsets[f.Name], err = e.DataOffset(); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSuffix(string(read("indexes/index.cdxj")), "\n"), "\n")
	if len(lines) != captures {
		t.Errorf("%d index lines, want the %d captures", len(lines), captures)
	}
	for i, l := range lines {
		e, err := warcfile.ParseLine(l)
		if err != nil {
			t.Fatal(err)
		}
		at, ok := offsets[e.Filename]
		if !ok {
			t.Fatalf("index line %d names %q, not a WARC file of the package", i+1, e.Filename)
		}
		gz, err := gzip.NewReader(bytes.NewReader(b[at+e.Offset : at+e.Offset+e.Length]))
		if err != nil {
			t.Fatalf("index line %d: no gzip member at ZIP byte %d: %v", i+1, at+e.Offset, err)
		}
		gz.Multistream(false)
		rec, err := io.ReadAll(gz)
		if err != nil || !bytes.Contains(rec, []byte("\r\nWARC-Target-URI: "+e.URL+"\r\n")) {
			t.Fatalf("index line %d (%s): the record at ZIP byte %d is another's: %v\n%.200s", i+1, e.URL, at+e.Offset, err, rec)
		}
	}
	stored := map[string]sites.Page{}
	if err := p.Store.ForEachPage(context.Background(), func(pg sites.Page) error { stored[pg.URL] = pg; return nil }); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(read("pages/pages.jsonl")))
	sc.Scan()
	if sc.Text() != `{"format":"json-pages-1.0","id":"pages","title":"All Pages"}` {
		t.Errorf("pages.jsonl starts with %q", sc.Text())
	}
	titles := archivedTitles(t, filepath.Join(dir, project.WARCDir), files)
	n, titled, headlines := 0, 0, 0
	for sc.Scan() {
		n++
		var pl struct{ ID, URL, TS, Title string }
		if err := json.Unmarshal(sc.Bytes(), &pl); err != nil {
			t.Fatalf("pages.jsonl line %d: %v", n+1, err)
		}
		pg, ok := stored[pl.URL]
		if !ok || !strings.Contains(pg.ContentType, "html") || pl.Title != titles[pl.URL] || pl.ID == "" || len(pl.TS) != len("2006-01-02T15:04:05Z") {
			t.Errorf("pages.jsonl line %d: %+v; the archived <title> is %q, the store has %+v", n+1, pl, titles[pl.URL], pg)
		}
		if pl.Title != "" {
			titled++
		}
		if pl.Title != pg.Title {
			headlines++
		}
	}
	t.Logf("%d of %d pages have a <title> other than their headline", headlines, n)
	if n != info.Pages || titled == 0 {
		t.Errorf("pages.jsonl has %d pages (%d with a title), info says %d", n, titled, info.Pages)
	}
}

// TestWACZNothingToPackage: an imported link graph, and a project of
// pages imported from a WARC file (the project keeps its pages, not the
// file), have no captures to package; the export says so and why, as a
// conflict, and writes nothing.
func TestWACZNothingToPackage(t *testing.T) {
	ctx := context.Background()
	edges := filepath.Join(t.TempDir(), "edges.txt")
	if err := os.WriteFile(edges, []byte("a.test b.test\nb.test a.test\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	graph := apptest.Empty(t)
	if _, err := graph.Imports.Import(ctx, edges); err != nil {
		t.Fatal(err)
	}
	imported := apptest.Empty(t)
	warc := refdata.Shared(t, "warc", "iana.warc.gz")
	if _, err := imported.Imports.ImportArchives(ctx, imports.ArchiveImportRequest{WARC: []string{warc}}, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		a    *app.App
		want string
	}{{"edge list", graph, "no crawl of it wrote a WARC file"}, {"imported WARC", imported, "iana.warc.gz"}} {
		out := filepath.Join(t.TempDir(), "x.wacz")
		_, info, err := c.a.Exports.WriteWACZ(ctx, out)
		if !errors.Is(err, exports.ErrNoCaptures) || fault.KindOf(err) != fault.KindConflict ||
			!strings.Contains(err.Error(), "no captures in this project") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v (%s), want a conflict saying there are no captures and %q", c.name, err, fault.KindOf(err), c.want)
		}
		if info.WARCs != 0 {
			t.Errorf("%s: %+v", c.name, info)
		}
		if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) != 0 {
			t.Errorf("%s: %d files left", c.name, len(ents))
		}
	}
}

// TestWACZFailureLeavesNoFile: an export that fails half-way (a WARC
// file's index spoilt) or is cancelled leaves no file and no temporary
// one, and a file already at the path as it was.
func TestWACZFailureLeavesNoFile(t *testing.T) {
	dir := apptest.CrawledProject(t)
	a, _ := apptest.Open(t, dir)
	files, err := a.Crawling.WARCFiles()
	if err != nil || len(files) == 0 {
		t.Fatalf("WARC files %v, %v", files, err)
	}
	out := t.TempDir()
	path := filepath.Join(out, "old.wacz")
	if err := os.WriteFile(path, []byte("the export before"), 0o644); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := a.Exports.WriteWACZ(cancelled, path); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled export: %v", err)
	}
	last := files[len(files)-1].Name
	index := filepath.Join(dir, project.WARCDir, strings.TrimSuffix(last, ".warc.gz")+".cdxj")
	if err := os.WriteFile(index, []byte("not a CDXJ line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = a.Exports.WriteWACZ(context.Background(), path)
	if err == nil || !strings.Contains(err.Error(), last) || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("export with a spoilt index: %v, want an error naming %s and its line", err, last)
	}
	ents, _ := os.ReadDir(out)
	if b, _ := os.ReadFile(path); len(ents) != 1 || string(b) != "the export before" {
		t.Errorf("%d files in the directory, the old file holds %q: want it alone and as it was", len(ents), b)
	}
}

// TestWACZKilledExportLeavesNothing: a WACZ export killed halfway leaves its
// temporary file (hidden, beside the file it was writing, or in the project
// for a download) and no process is left to remove it; the next export
// removes it, and no other file.
func TestWACZKilledExportLeavesNothing(t *testing.T) {
	dir := apptest.CrawledProject(t)
	a, _ := apptest.Open(t, dir)
	out := t.TempDir()
	// What a killed run leaves: the kernel let go of its files' holds.
	leftovers := []string{filepath.Join(out, ".project-crawl.wacz.part-1234567"), filepath.Join(dir, ".wacz-7654321")}
	for _, l := range leftovers {
		if err := os.WriteFile(l, []byte("half of a package"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	path, _, err := a.Exports.WriteWACZ(context.Background(), out+string(os.PathSeparator))
	if err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(out); len(ents) != 1 || ents[0].Name() != filepath.Base(path) {
		t.Errorf("the output directory holds %v, want %s alone", ents, filepath.Base(path))
	}
	f, _, done, err := a.Exports.OpenWACZ(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st, err := f.Stat(); err != nil || st.Size() == 0 {
		t.Errorf("the download: %v, %v", st, err)
	}
	done()
	for _, l := range leftovers {
		if _, err := os.Stat(l); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there after the next export: %v", l, err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".wacz-*")); len(left) != 0 {
		t.Errorf("the download left %v in the project", left)
	}
}

var titleRE = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)

// archivedTitles returns the <title> of each HTML page the WARC files of
// dir archived with a 2xx answer, as a browser shows it.
func archivedTitles(t *testing.T, dir string, files []warcfile.File) map[string]string {
	t.Helper()
	titles := map[string]string{}
	for _, f := range files {
		fh, err := os.Open(filepath.Join(dir, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		err = warcfile.Read(fh, f.Name, func(r *warcfile.Record) error {
			if r.Kind != warcfile.KindResponse || r.Status/100 != 2 || !strings.Contains(r.Header.Get("Content-Type"), "html") {
				return nil
			}
			body, _, err := r.Body(1 << 22)
			if err != nil {
				return err
			}
			if m := titleRE.FindSubmatch(body); m != nil {
				titles[r.URL] = strings.Join(strings.Fields(html.UnescapeString(string(m[1]))), " ")
			}
			return nil
		})
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return titles
}
