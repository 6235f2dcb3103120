package imports_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"sitesift/app/apptest"
	"sitesift/app/imports"
	"sitesift/internal/refdata"
	"sitesift/sites"
)

// ianaPlain returns the reference WARC file decompressed: its records one
// after another.
func ianaPlain(t *testing.T) []byte {
	t.Helper()
	f, err := os.Open(refdata.Shared(t, "warc", "iana.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// ianaARC writes the captures of the reference WARC file as an ARC writer
// of the same crawl would have: a filedesc header, then each response
// record's HTTP response under its line (URL IP-address Archive-date
// Content-type Archive-length), each record its own gzip member.
// Requests, revisits and metadata have no ARC form.
func ianaARC(t *testing.T) []byte {
	t.Helper()
	var out bytes.Buffer
	add := func(line string, body []byte) {
		out.Write(gzipped(t, append(append([]byte(line+"\n"), body...), '\n')))
	}
	desc := "1 1 InternetArchive\nURL IP-address Archive-date Content-type Archive-length\n\n"
	add(fmt.Sprintf("filedesc://iana.arc 0.0.0.0 20140126200624 text/plain %d", len(desc)), []byte(desc))
	br := bufio.NewReader(bytes.NewReader(ianaPlain(t)))
	for {
		if _, err := br.ReadString('\n'); err == io.EOF {
			return out.Bytes()
		} else if err != nil {
			t.Fatal(err)
		}
		h := map[string]string{}
		for {
			l, err := br.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if l = strings.TrimRight(l, "\r\n"); l == "" {
				break
			}
			k, v, _ := strings.Cut(l, ":")
			h[strings.ToLower(k)] = strings.TrimSpace(v)
		}
		n, err := strconv.Atoi(h["content-length"])
		if err != nil {
			t.Fatal(err)
		}
		block := make([]byte, n+4) // and the record's CRLF CRLF
		if _, err := io.ReadFull(br, block); err != nil {
			t.Fatal(err)
		}
		if h["warc-type"] != "response" {
			continue
		}
		date, err := time.Parse(time.RFC3339, h["warc-date"])
		if err != nil {
			t.Fatal(err)
		}
		mt := "no-type"
		head, _, _ := bytes.Cut(block, []byte("\r\n\r\n"))
		for _, l := range strings.Split(string(head), "\r\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(k, "Content-Type") {
				mt, _, _ = strings.Cut(strings.TrimSpace(v), ";")
			}
		}
		add(fmt.Sprintf("%s 0.0.0.0 %s %s %d", h["warc-target-uri"], date.UTC().Format("20060102150405"), mt, n), block[:n])
	}
}

// graphOf is what an import made of a project: its pages (their title,
// status, text and links) and its site graph.
type graphOf struct {
	pages map[string][5]string
	names []string
	edges []sites.Edge
}

func projectGraph(t *testing.T, a apptest.StoreApp) graphOf {
	t.Helper()
	g := graphOf{pages: map[string][5]string{}}
	for u, p := range pageURLs(t, a.Store) {
		g.pages[u] = [5]string{p.Title, strconv.Itoa(p.Status), p.Text, strings.Join(p.Links, " "), strings.Join(p.TemplateLinks, " ")}
	}
	var err error
	if g.names, g.edges, err = a.Store.SiteGraph(context.Background()); err != nil {
		t.Fatal(err)
	}
	return g
}

// importOne imports the WARC or ARC file at path into a new project.
func importOne(t *testing.T, path string) (apptest.StoreApp, imports.ArchiveFileResult) {
	t.Helper()
	a := apptest.EmptyStoreApp(t)
	res, err := a.Imports.ImportArchives(context.Background(), imports.ArchiveImportRequest{WARC: []string{path}}, nil)
	if err != nil {
		t.Fatalf("import %s: %v", path, err)
	}
	return a, res.Files[0]
}

// TestImportWholeGzipWARC: the reference WARC file's records gzipped as
// one member (a plain WARC file run through gzip) import the same pages,
// text and links, and the same site graph, as the file gzipped per record,
// and the import warns that its records share a gzip member.
func TestImportWholeGzipWARC(t *testing.T) {
	whole := filepath.Join(t.TempDir(), "whole.warc.gz")
	if err := os.WriteFile(whole, gzipped(t, ianaPlain(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	ref, refRes := importOne(t, refdata.Shared(t, "warc", "iana.warc.gz"))
	a, res := importOne(t, whole)
	want, got := projectGraph(t, ref), projectGraph(t, a)
	if len(want.pages) != 20 || !reflect.DeepEqual(got, want) {
		t.Errorf("whole gzip: %d pages, %d sites, %d site links; per record: %d, %d, %d; want the same",
			len(got.pages), len(got.names), len(got.edges), len(want.pages), len(want.names), len(want.edges))
	}
	sum := res.Summary.(imports.WARCSummary)
	if sum.Records != 343 || sum.Gzip != "shared" || sum.SharedRecords != 343 || len(res.Warnings) != 1 ||
		!strings.Contains(res.Warnings[0], "343 of its 343 records share one gzip member") {
		t.Errorf("whole gzip: summary %+v, warnings %q; want 343 records sharing a member, warned of", sum, res.Warnings)
	}
	if s := refRes.Summary.(imports.WARCSummary); s.Gzip != "per record" || len(refRes.Warnings) != 0 {
		t.Errorf("per record: summary %+v, warnings %q; want no warning", s, refRes.Warnings)
	}
}

// TestImportARCAsWARC: the captures of the reference WARC file written as
// an ARC file (gzip per record, found in a directory by its name) import
// the same pages, text and links, and the same site graph, as the WARC
// file; a file that is neither is refused saying what it looks like.
func TestImportARCAsWARC(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "IAH-20140126-iana.arc.gz"), ianaARC(t), 0o644); err != nil {
		t.Fatal(err)
	}
	ref, _ := importOne(t, refdata.Shared(t, "warc", "iana.warc.gz"))
	a, res := importOne(t, dir)
	want, got := projectGraph(t, ref), projectGraph(t, a)
	if len(want.pages) != 20 || !reflect.DeepEqual(got, want) {
		t.Errorf("ARC: %d pages, %d sites, %d site links; WARC: %d, %d, %d; want the same",
			len(got.pages), len(got.names), len(got.edges), len(want.pages), len(want.names), len(want.edges))
		for u, p := range want.pages {
			if got.pages[u] != p {
				t.Errorf("page %s: ARC %q, WARC %q", u, got.pages[u], p)
				break
			}
		}
	}
	if sum := res.Summary.(imports.WARCSummary); sum.Format != "ARC" || sum.Responses != 48 || sum.HTMLPages != 20 {
		t.Errorf("ARC summary %+v: want format ARC, 48 responses, 20 HTML pages", sum)
	}

	page := filepath.Join(t.TempDir(), "saved.warc.gz")
	if err := os.WriteFile(page, gzipped(t, []byte("<!DOCTYPE html><html><body>a saved page</body></html>")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := apptest.EmptyStoreApp(t).Imports.ImportArchives(context.Background(), imports.ArchiveImportRequest{WARC: []string{page}}, nil)
	if err == nil || !strings.Contains(err.Error(), "not a WARC or ARC file: it looks like a gzip of something else (its gzip data holds an HTML page)") {
		t.Errorf("a gzip HTML page: %v; want it refused as a gzip of something else", err)
	}
}
