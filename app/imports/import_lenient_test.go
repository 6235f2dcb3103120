package imports_test

import (
	"context"
	"crypto/sha1"
	"encoding/base32"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sitesift/app/apptest"
	"sitesift/app/imports"
	"sitesift/sites"
)

func sha1Digest(b string) string {
	s := sha1.Sum([]byte(b))
	return "sha1:" + base32.StdEncoding.EncodeToString(s[:])
}

// warcRecord is one WARC record as the crawlers write it: version line,
// fields in the writer's order, Content-Length (off by lengthOff bytes),
// the empty line, the block, CR LF CR LF.
func warcRecord(version string, fields []string, block string, lengthOff int) string {
	var b strings.Builder
	b.WriteString(version + "\r\n")
	for _, f := range fields {
		b.WriteString(f + "\r\n")
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(block)+lengthOff)
	return b.String() + block + "\r\n\r\n"
}

func httpResponse(status, contentType, extra, body string) string {
	h := "HTTP/1.1 " + status + "\r\n"
	if contentType != "" {
		h += "Content-Type: " + contentType + "\r\n"
	}
	return h + extra + fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body)) + body
}

func page(title, link string) string {
	return `<!DOCTYPE html><html><head><title>` + title + `</title></head><body><main><p>The ` + title +
		` page of the archive, written to be read, <a href="` + link + `">a link onward</a>.</p></main></body></html>`
}

// wgetResponse is a response record as wget 1.19 to 1.20 writes it: the
// target URI in angle brackets.
func wgetResponse(u, date, block string) string {
	return warcRecord("WARC/1.0", []string{
		"WARC-Type: response",
		"WARC-Record-ID: <urn:uuid:5b5a0a9a-3e8e-4b43-9c52-9bbd2b1b0a01>",
		"WARC-Warcinfo-ID: <urn:uuid:0f3f7c2e-7a26-4c0e-8f5e-1f7b3c6a9d10>",
		"WARC-Concurrent-To: <urn:uuid:9d2c1e7b-6f0a-4b8e-a1c3-5e7f9b2d4c60>",
		"WARC-Target-URI: <" + u + ">",
		"WARC-Date: " + date,
		"WARC-IP-Address: 192.0.2.10",
		"WARC-Block-Digest: " + sha1Digest(block),
		"WARC-Payload-Digest: " + sha1Digest(block[strings.Index(block, "\r\n\r\n")+4:]),
		"Content-Type: application/http;msgtype=response",
	}, block, 0)
}

// heritrixResponse is a response record as Heritrix 3 writes it.
func heritrixResponse(version, u, date, block string, lengthOff int) string {
	return warcRecord(version, []string{
		"WARC-Type: response",
		"WARC-Target-URI: " + u,
		"WARC-Date: " + date,
		"WARC-Payload-Digest: " + sha1Digest(block[strings.Index(block, "\r\n\r\n")+4:]),
		"WARC-IP-Address: 192.0.2.20",
		"WARC-Record-ID: <urn:uuid:7c4e2a10-55b1-4f3e-9a0d-2c6b8e1f3a77>",
		"Content-Type: application/http; msgtype=response",
	}, block, lengthOff)
}

// warcioResponse is a response record as warcio writes it.
func warcioResponse(u, date, block string) string {
	return warcRecord("WARC/1.0", []string{
		"WARC-Type: response",
		"WARC-Record-ID: <urn:uuid:c2a7d4e8-19f0-4b6a-8e3d-7a5c1b9f0e22>",
		"WARC-Target-URI: " + u,
		"WARC-Date: " + date,
		"WARC-Payload-Digest: " + sha1Digest(block[strings.Index(block, "\r\n\r\n")+4:]),
		"WARC-Block-Digest: " + sha1Digest(block),
		"Content-Type: application/http; msgtype=response",
	}, block, 0)
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func siteEdges(t *testing.T, a apptest.StoreApp) []string {
	t.Helper()
	_, edges, err := a.Store.SiteGraph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range edges {
		out = append(out, e.From+">"+e.To)
	}
	slices.Sort(out)
	return out
}

// TestImportWARCLenient: a WARC file, plain and gzipped whole (its records
// sharing one member), of records as real writers break the standard — wget's bracketed target URI, a Heritrix record
// whose Content-Length is 3 bytes short, a lower-case version line, header
// lines ending in CR CR LF, a WARC 0.17 record with a folded field — is
// imported whole, each page with its links, each mended record counted as
// a warning under its breach.
func TestImportWARCLenient(t *testing.T) {
	const date = "2019-05-14T08:30:00Z"
	html := "text/html; charset=UTF-8"
	crcr := func(rec string) string {
		h := strings.Index(rec, "\r\n\r\n") + 4
		return strings.ReplaceAll(rec[:h], "\r\n", "\r\r\n") + rec[h:]
	}
	folded := strings.Replace(
		heritrixResponse("WARC/0.17", "http://e.test/", date, httpResponse("200 OK", html, "", page("Echo", "http://a.test/")), 0),
		"Content-Type: application/http; msgtype=response", "Content-Type: application/http;\r\n msgtype=response", 1)
	mixed := strings.Join([]string{
		wgetResponse("http://a.test/", date, httpResponse("200 OK", html, "", page("Alpha", "http://b.test/"))),
		heritrixResponse("WARC/1.0", "http://b.test/", date, httpResponse("200 OK", html, "", page("Bravo", "http://c.test/")), -3),
		"warc" + strings.TrimPrefix(warcioResponse("http://c.test/", date, httpResponse("200 OK", html, "", page("Charlie", "http://d.test/"))), "WARC"),
		crcr(warcioResponse("http://d.test/", date, httpResponse("200 OK", html, "", page("Delta", "http://e.test/")))),
		folded,
	}, "")
	for _, file := range []string{writeFile(t, "mixed.warc", mixed), writeFile(t, "mixed.warc.gz", string(gzipped(t, []byte(mixed))))} {
		t.Run(filepath.Base(file), func(t *testing.T) { importLenient(t, file) })
	}
}

// importLenient imports the file of TestImportWARCLenient and checks it.
func importLenient(t *testing.T, file string) {
	a := apptest.EmptyStoreApp(t)
	res, err := a.Imports.ImportArchives(context.Background(), imports.ArchiveImportRequest{WARC: []string{file}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := res.Files[0].Summary.(imports.WARCSummary)
	if sum.Records != 5 || sum.PagesWritten != 5 || sum.Warnings != 5 || sum.WarnBracketedURIs != 1 || sum.WarnContentLength != 1 ||
		sum.WarnLowerCaseVersion != 1 || sum.WarnCRCRLF != 1 || sum.WarnFoldedHeaders != 1 {
		t.Errorf("summary %+v; want 5 records, 5 pages, 5 warnings, one of each breach", sum)
	}
	pages := pageURLs(t, a.Store)
	for u, title := range map[string]string{"http://a.test/": "Alpha", "http://b.test/": "Bravo", "http://c.test/": "Charlie",
		"http://d.test/": "Delta", "http://e.test/": "Echo"} {
		if pages[u].Title != title {
			t.Errorf("%s: title %q, want %q", u, pages[u].Title, title)
		}
	}
	want := []string{"a.test>b.test", "b.test>c.test", "c.test>d.test", "d.test>e.test", "e.test>a.test"}
	if got := siteEdges(t, a); !slices.Equal(got, want) {
		t.Errorf("site links %v, want %v", got, want)
	}
}

// TestImportWARCRedirectsAnyType: a 3xx response with a Location is a
// redirect page whatever its Content-Type — a 301 text/plain, a 302 with
// none — and its target a link of its site (the site graph's link), as
// for an HTML one.
func TestImportWARCRedirectsAnyType(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	redirect := func(u, status, ct, loc, body string) sites.Capture {
		h := http.Header{"Location": {loc}}
		if ct != "" {
			h.Set("Content-Type", ct)
		}
		code := 0
		fmt.Sscan(status, &code)
		return sites.Capture{Method: "GET", URL: u, RequestHeader: http.Header{"Host": {"x"}},
			Proto: "HTTP/1.1", StatusCode: code, Status: status, ResponseHeader: h, Body: []byte(body), At: t0}
	}
	file := writeWARC(t, []sites.Capture{
		htmlCapture("http://a.test/", page("Alpha", "http://a.test/old"), t0),
		redirect("http://a.test/old", "301 Moved Permanently", "text/plain", "http://c.test/new", "Moved to http://c.test/new"),
		redirect("http://b.test/", "302 Found", "", "https://d.test/", ""),
		htmlCapture("http://c.test/new", page("New", "http://c.test/"), t0),
	})
	a := apptest.EmptyStoreApp(t)
	res, err := a.Imports.ImportArchives(context.Background(), imports.ArchiveImportRequest{WARC: []string{file}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := res.Files[0].Summary.(imports.WARCSummary)
	if sum.Redirects != 2 || sum.NonHTML != 0 || sum.PagesWritten != 4 {
		t.Errorf("summary %+v; want 2 redirects, 4 pages, none skipped as non-HTML", sum)
	}
	pages := pageURLs(t, a.Store)
	for u, target := range map[string]string{"http://a.test/old": "http://c.test/new", "http://b.test/": "https://d.test/"} {
		p := pages[u]
		if p.ErrClass != sites.ErrRedirect || p.Err != "redirect to "+target {
			t.Errorf("%s: class %q, %q; want a redirect to %s", u, p.ErrClass, p.Err, target)
		}
	}
	want := []string{"a.test>c.test", "b.test>d.test"}
	if got := siteEdges(t, a); !slices.Equal(got, want) {
		t.Errorf("site links %v, want %v", got, want)
	}
}

// TestImportWARCURLAgnosticRevisit: a revisit whose payload was first
// archived under another URL (sitesift's writer makes one of a page whose
// body another page had) counts as a capture of its own URL, not of the
// URL it refers to.
func TestImportWARCURLAgnosticRevisit(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	same := page("Same", "http://b.test/")
	file := writeWARC(t, []sites.Capture{
		htmlCapture("http://a.test/", same, t0),
		htmlCapture("http://a.test/other", page("Other", "http://c.test/"), t0.Add(time.Hour)),
		htmlCapture("http://a.test/other", same, t0.Add(2*time.Hour)), // revisit, referring to http://a.test/
	})
	a := apptest.EmptyStoreApp(t)
	ctx := context.Background()
	res, err := a.Imports.ImportArchives(ctx, imports.ArchiveImportRequest{WARC: []string{file}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := res.Files[0].Summary.(imports.WARCSummary)
	if sum.Revisits != 1 || sum.RevisitsMatched != 1 {
		t.Errorf("summary %+v; want 1 revisit, matched", sum)
	}
	for u, want := range map[string]struct {
		n    int
		last time.Time
	}{"http://a.test/": {1, t0}, "http://a.test/other": {2, t0.Add(2 * time.Hour)}} {
		n, last, ok, err := a.Store.PageCaptures(ctx, u)
		if err != nil || !ok || n != want.n || !last.Equal(want.last) {
			t.Errorf("%s: %d captures, last %v (%v %v); want %d, %v", u, n, last, ok, err, want.n, want.last)
		}
	}
}

// TestImportWARCPageCounts: the pages an import writes are split the way
// the rest of the app counts them: pages fetched fine (what the header and
// the site's page say), redirects and error captures, which together make
// the pages written.
func TestImportWARCPageCounts(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	gone := htmlCapture("http://a.test/gone", page("Gone", "http://a.test/"), t0)
	gone.StatusCode, gone.Status = 404, "404 Not Found"
	broken := htmlCapture("http://a.test/broken", page("Broken", "http://a.test/"), t0)
	broken.StatusCode, broken.Status = 503, "503 Service Unavailable"
	moved := htmlCapture("http://a.test/old", page("Moved", "http://a.test/"), t0)
	moved.StatusCode, moved.Status = 301, "301 Moved Permanently"
	moved.ResponseHeader.Set("Location", "http://a.test/")
	file := writeWARC(t, []sites.Capture{
		htmlCapture("http://a.test/", page("Alpha", "http://b.test/"), t0),
		htmlCapture("http://b.test/", page("Beta", "http://a.test/"), t0),
		gone, broken, moved,
	})
	a := apptest.EmptyStoreApp(t)
	res, err := a.Imports.ImportArchives(context.Background(), imports.ArchiveImportRequest{WARC: []string{file}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := res.Files[0].Summary.(imports.WARCSummary)
	if sum.PagesWritten != 5 || sum.WrittenOK != 2 || sum.WrittenRedirects != 1 || sum.WrittenErrors != 2 {
		t.Errorf("summary: %d written = %d pages + %d redirects + %d error captures; want 5 = 2 + 1 + 2",
			sum.PagesWritten, sum.WrittenOK, sum.WrittenRedirects, sum.WrittenErrors)
	}
	info, err := a.Info(context.Background())
	if err != nil || info.Pages != sum.WrittenOK {
		t.Errorf("the project counts %d pages (%v); the import's summary %d", info.Pages, err, sum.WrittenOK)
	}
}

// TestInfoListsArchiveImports: a project made by importing a WARC file
// has no crawl; what the project says of itself lists the file imported,
// with its summary, for the Crawl page to show instead of an idle crawl.
func TestInfoListsArchiveImports(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	file := writeWARC(t, []sites.Capture{
		htmlCapture("http://a.test/", page("Alpha", "http://b.test/"), t0),
		htmlCapture("http://b.test/", page("Beta", "http://a.test/"), t0),
	})
	a := apptest.EmptyStoreApp(t)
	ctx := context.Background()
	if info, err := a.Info(ctx); err != nil || info.ArchiveImports == nil || len(info.ArchiveImports) != 0 {
		t.Fatalf("before the import: %+v, %v; want an empty list", info.ArchiveImports, err)
	}
	if _, err := a.Imports.ImportArchives(ctx, imports.ArchiveImportRequest{WARC: []string{file}}, nil); err != nil {
		t.Fatal(err)
	}
	info, err := a.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(info.ArchiveImports) != 1 || info.ArchiveImports[0].Path != file || info.ArchiveImports[0].Kind != imports.KindWARC {
		t.Fatalf("archive imports %+v; want %s as a WARC", info.ArchiveImports, file)
	}
	var sum imports.WARCSummary
	if err := json.Unmarshal(info.ArchiveImports[0].Summary, &sum); err != nil || sum.PagesWritten != 2 || sum.WrittenOK != 2 {
		t.Errorf("summary %s (%v); want 2 pages written, fetched fine", info.ArchiveImports[0].Summary, err)
	}
}
