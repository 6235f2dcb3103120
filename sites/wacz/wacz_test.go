package wacz_test

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
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sitesift/sites"
	"sitesift/sites/wacz"
	"sitesift/sites/warcfile"
)

// crawlDir writes a WARC file of three captures (two HTML pages, one
// image) into a directory and returns the directory and the file's name.
func crawlDir(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	w, err := warcfile.Open(dir, warcfile.Options{Software: "sitesift/test"})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 27, 13, 3, 39, 0, time.UTC)
	for i, c := range []struct{ url, ct, body string }{
		{"http://a.test/", "text/html; charset=utf-8", "<title>Home of A</title><a href=/b>b</a>"},
		{"http://a.test/b", "text/html", "<title>Page B</title>"},
		{"http://a.test/logo.png", "image/png", "\x89PNG not really"},
	} {
		err := w.Write(sites.Capture{Method: "GET", URL: c.url, RequestHeader: http.Header{"Host": {"a.test"}},
			Proto: "HTTP/1.1", StatusCode: 200, Status: "200 OK",
			ResponseHeader: http.Header{"Content-Type": {c.ct}, "Content-Length": {fmt.Sprint(len(c.body))}},
			Body:           []byte(c.body), At: at.Add(time.Duration(i) * time.Second)})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	fs, err := warcfile.List(dir)
	if err != nil || len(fs) != 1 {
		t.Fatalf("WARC files %v, %v: want one", fs, err)
	}
	return dir, fs[0].Name
}

// pkg is the package of the WARC file name in dir, its index lines and
// its two HTML pages.
func pkg(t *testing.T, dir, name string) wacz.Package {
	t.Helper()
	entries, err := warcfile.Index(dir, name)
	if err != nil {
		t.Fatal(err)
	}
	p := wacz.Package{Title: "proj", Software: "sitesift test", Created: time.Date(2026, 11, 27, 14, 0, 0, 0, time.UTC),
		Archives: []wacz.Archive{{Name: name, Path: filepath.Join(dir, name)}}}
	for _, e := range entries {
		p.Index = append(p.Index, e.String())
	}
	p.Pages = []wacz.Page{{URL: "http://a.test/", Time: time.Date(2026, 11, 27, 13, 3, 39, 0, time.UTC), Title: "Home of A"},
		{URL: "http://a.test/b", Time: time.Date(2026, 11, 27, 13, 3, 40, 0, time.UTC)}}
	return p
}

func entryBytes(t *testing.T, f *zip.File) []byte {
	t.Helper()
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("%s: %v", f.Name, err)
	}
	return b
}

// TestWrite reads a WACZ back as a replay tool does: the files where the
// specification puts them, every entry stored, datapackage.json's digests
// and sizes those of the entries' bytes, each index line's offset and
// length a WARC record of its URL found by a byte range into the ZIP, and
// pages.jsonl's header and lines.
func TestWrite(t *testing.T) {
	dir, name := crawlDir(t)
	var buf bytes.Buffer
	if err := wacz.Write(context.Background(), &buf, pkg(t, dir, name)); err != nil {
		t.Fatal(err)
	}
	zipBytes := buf.Bytes()
	zr, err := zip.NewReader(bytes.NewReader(zipBytes), int64(len(zipBytes)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*zip.File{}
	var names []string
	for _, f := range zr.File {
		files[f.Name] = f
		names = append(names, f.Name)
		if f.Method != zip.Store {
			t.Errorf("%s: method %d, want stored (0)", f.Name, f.Method)
		}
		if f.Flags&0x8 != 0 {
			t.Errorf("%s: has a data descriptor; its sizes belong in its local header", f.Name)
		}
	}
	want := []string{"archive/" + name, wacz.IndexPath, wacz.PagesPath, wacz.DataPackage, wacz.DataPackageSum}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Fatalf("entries %v, want %v", names, want)
	}

	// datapackage.json
	dp := entryBytes(t, files[wacz.DataPackage])
	var m wacz.Manifest
	if err := json.Unmarshal(dp, &m); err != nil {
		t.Fatal(err)
	}
	if m.Profile != "data-package" || m.WACZVersion != "1.1.1" || m.Software != "sitesift test" || m.Title != "proj" || m.Created != "2026-11-27T14:00:00Z" {
		t.Errorf("datapackage.json %+v", m)
	}
	if len(m.Resources) != 3 {
		t.Fatalf("resources %+v: want the WARC file, the index and the pages", m.Resources)
	}
	for _, r := range m.Resources {
		f := files[r.Path]
		if f == nil {
			t.Errorf("resource %s is not in the ZIP", r.Path)
			continue
		}
		b := entryBytes(t, f)
		sum := sha256.Sum256(b)
		if r.Hash != "sha256:"+hex.EncodeToString(sum[:]) || r.Bytes != int64(len(b)) || r.Name != filepath.Base(r.Path) {
			t.Errorf("resource %+v; the entry has %d bytes, sha256 %x", r, len(b), sum)
		}
	}
	orig, _ := os.ReadFile(filepath.Join(dir, name))
	if !bytes.Equal(entryBytes(t, files["archive/"+name]), orig) {
		t.Error("the archived WARC file differs from the project's")
	}
	var d wacz.Digest
	if err := json.Unmarshal(entryBytes(t, files[wacz.DataPackageSum]), &d); err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(dp); d.Path != "datapackage.json" || d.Hash != "sha256:"+hex.EncodeToString(sum[:]) {
		t.Errorf("datapackage-digest.json %+v, want the sha256 of datapackage.json, %x", d, sum)
	}

	// The index: each line's record read by a byte range of the ZIP.
	warcAt, err := files["archive/"+name].DataOffset()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(entryBytes(t, files[wacz.IndexPath])), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("index %q: want 3 captures", lines)
	}
	for i, l := range lines {
		if i > 0 && l < lines[i-1] {
			t.Errorf("index line %d sorts before the line above it", i+1)
		}
		e, err := warcfile.ParseLine(l)
		if err != nil {
			t.Fatal(err)
		}
		if e.Filename != name {
			t.Errorf("line %d names %q, want the WARC file %q under archive/", i+1, e.Filename, name)
		}
		rec := zipBytes[warcAt+e.Offset : warcAt+e.Offset+e.Length]
		zr, err := gzip.NewReader(bytes.NewReader(rec))
		if err != nil {
			t.Fatalf("line %d: bytes %d–%d of the ZIP are not a gzip member: %v", i+1, warcAt+e.Offset, warcAt+e.Offset+e.Length, err)
		}
		zr.Multistream(false)
		head, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if !bytes.HasPrefix(head, []byte("WARC/1.1\r\n")) || !bytes.Contains(head, []byte("WARC-Type: response\r\n")) ||
			!bytes.Contains(head, []byte("WARC-Target-URI: "+e.URL+"\r\n")) {
			t.Errorf("line %d (%s): the record at its offset is not its response:\n%.300s", i+1, e.URL, head)
		}
	}

	// pages.jsonl
	sc := bufio.NewScanner(bytes.NewReader(entryBytes(t, files[wacz.PagesPath])))
	var got []string
	for sc.Scan() {
		got = append(got, sc.Text())
	}
	if len(got) != 3 || got[0] != `{"format":"json-pages-1.0","id":"pages","title":"All Pages"}` {
		t.Fatalf("pages.jsonl %q: want the header and 2 pages", got)
	}
	ids := map[string]bool{}
	for i, want := range []struct{ url, ts, title string }{{"http://a.test/", "2026-11-27T13:03:39Z", "Home of A"}, {"http://a.test/b", "2026-11-27T13:03:40Z", ""}} {
		var pl map[string]string
		if err := json.Unmarshal([]byte(got[i+1]), &pl); err != nil {
			t.Fatal(err)
		}
		if pl["url"] != want.url || pl["ts"] != want.ts || pl["title"] != want.title || len(pl["id"]) != 32 || ids[pl["id"]] {
			t.Errorf("pages.jsonl line %d: %v, want %+v and an id of its own", i+2, pl, want)
		}
		ids[pl["id"]] = true
	}
}

// failWriter fails after n bytes.
type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		n := w.n
		w.n = 0
		return n, errors.New("disk full")
	}
	w.n -= len(p)
	return len(p), nil
}

// TestWriteErrors: no WARC file, a missing one, a name with a path, a
// failed write and a cancel are errors that say what failed.
func TestWriteErrors(t *testing.T) {
	dir, name := crawlDir(t)
	good := pkg(t, dir, name)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		what string
		ctx  context.Context
		w    io.Writer
		p    func(p wacz.Package) wacz.Package
		want string
	}{
		{"no WARC file", context.Background(), io.Discard, func(p wacz.Package) wacz.Package { p.Archives = nil; return p }, "no WARC file"},
		{"missing file", context.Background(), io.Discard, func(p wacz.Package) wacz.Package {
			p.Archives = []wacz.Archive{{Name: "x.warc.gz", Path: filepath.Join(dir, "x.warc.gz")}}
			return p
		}, "x.warc.gz"},
		{"name with a path", context.Background(), io.Discard, func(p wacz.Package) wacz.Package { p.Archives[0].Name = "../a.warc.gz"; return p }, `"../a.warc.gz"`},
		{"write fails", context.Background(), &failWriter{n: 100}, func(p wacz.Package) wacz.Package { return p }, "disk full"},
		{"cancelled", cancelled, io.Discard, func(p wacz.Package) wacz.Package { return p }, "context canceled"},
	} {
		p := good
		p.Archives = append([]wacz.Archive(nil), good.Archives...)
		err := wacz.Write(c.ctx, c.w, c.p(p))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.what, err, c.want)
		}
	}
}
