package imports_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/fault"
	"sitesift/app/imports"
	"sitesift/app/project"
	"sitesift/internal/refdata"
	"sitesift/sites"
	"sitesift/sites/crawllog"
	"sitesift/sites/index"
	"sitesift/sites/store"
	"sitesift/sites/warcfile"
)

// cdxHTML reads the reference index given with iana.warc.gz: the distinct
// URLs of its HTML captures (responses, not revisits), an independent
// count of the pages the WARC file holds.
func cdxHTML(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open(refdata.Shared(t, "warc", "iana.cdx"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	urls := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fl := strings.Fields(sc.Text())
		if len(fl) == 11 && fl[3] == "text/html" {
			u, err := sites.Normalize(fl[2])
			if err != nil {
				t.Fatal(err)
			}
			urls[u] = true
		}
	}
	return urls
}

func pageURLs(t *testing.T, st *store.Store) map[string]sites.Page {
	t.Helper()
	out := map[string]sites.Page{}
	if err := st.ForEachPage(context.Background(), func(p sites.Page) error {
		out[p.URL] = p
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestImportIANAWARC: the real sample's HTML responses become the pages the
// reference CDX lists (20), in one site, with their text searchable; the
// counts of records match what the sample holds; a second run changes
// nothing.
func TestImportIANAWARC(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	p, err := project.Open(dir, true, project.SearchTimeout(project.NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Project: p})
	defer func() { a.Close(); p.Close() }()
	ctx := context.Background()
	res, err := a.Imports.ImportArchives(ctx, imports.ArchiveImportRequest{WARC: []string{refdata.Shared(t, "warc", "iana.warc.gz")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := res.Files[0].Summary.(imports.WARCSummary)
	if sum.Responses != 48 || sum.Revisits != 123 || sum.HTMLPages != 20 || sum.PagesWritten != 20 {
		t.Errorf("summary %+v: want 48 responses, 123 revisits, 20 HTML pages written", sum)
	}
	want := cdxHTML(t)
	got := pageURLs(t, p.Store)
	if len(want) != 20 || len(got) != len(want) {
		t.Errorf("%d pages stored, the reference CDX lists %d HTML URLs", len(got), len(want))
	}
	for u := range want {
		pg, ok := got[u]
		if !ok {
			t.Errorf("page %s of the CDX not stored", u)
			continue
		}
		if pg.Site != "iana.org" {
			t.Errorf("page %s in site %q, want iana.org", u, pg.Site)
		}
	}
	// The CDX dates its capture 20140126200912. The title is the page's
	// headline, without the site's name its <title> adds ("IANA — ").
	if pg := got["http://www.iana.org/domains/root"]; pg.Title != "Root Zone Management" || pg.Status != 200 ||
		!pg.FetchedAt.Equal(time.Date(2014, 1, 26, 20, 9, 12, 0, time.UTC)) {
		t.Errorf("root zone page %+v", pg)
	}
	sr, err := a.Review.Search(ctx, index.Query{Text: "root zone"})
	if err != nil {
		t.Fatal(err)
	}
	if sr.Total == 0 {
		t.Error("search finds no imported page")
	}
	names, edges, err := p.Store.SiteGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names, "icann.org") || len(edges) == 0 {
		t.Errorf("site graph %v %v: want the links out of iana.org", names, edges)
	}
	opic, pr, _, err := p.Store.ImportanceTotals(ctx)
	if err != nil || opic <= 0 || pr <= 0 {
		t.Errorf("importance after import: opic %v pagerank %v err %v", opic, pr, err)
	}
	// Again: skipped, nothing changes.
	res, err = a.Imports.ImportArchives(ctx, imports.ArchiveImportRequest{WARC: []string{refdata.Shared(t, "warc")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		if strings.HasSuffix(f.Path, "iana.warc.gz") && !f.Skipped {
			t.Errorf("second import of %s not skipped", f.Path)
		}
	}
	names2, edges2, _ := p.Store.SiteGraph(ctx)
	if len(edges2) < len(edges) || len(names2) < len(names) {
		t.Error("a second import lost sites or links")
	}
	for _, e := range edges2 {
		for _, e0 := range edges {
			if e.From == e0.From && e.To == e0.To && e.Weight != e0.Weight {
				t.Errorf("edge %s → %s weight %v after a second import, %v before", e.From, e.To, e.Weight, e0.Weight)
			}
		}
	}
}

// writeWARC writes captures with sitesift's own WARC writer (a body seen
// before becomes a revisit record) and returns the file.
func writeWARC(t *testing.T, caps []sites.Capture) string {
	t.Helper()
	dir := t.TempDir()
	w, err := warcfile.Open(dir, warcfile.Options{Software: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range caps {
		if err := w.Write(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if err != nil || len(files) != 1 {
		t.Fatalf("WARC files %v %v", files, err)
	}
	return files[0]
}

func htmlCapture(u, body string, at time.Time) sites.Capture {
	return sites.Capture{Method: "GET", URL: u, RequestHeader: http.Header{"Host": {"x"}},
		Proto: "HTTP/1.1", StatusCode: 200, Status: "200 OK",
		ResponseHeader: http.Header{"Content-Type": {"text/html; charset=utf-8"}},
		Body:           []byte(body), At: at}
}

// TestImportWARCRevisitsAndLatest: revisits count as captures of their page
// and move its capture time; of a page captured twice with different
// content, the latest capture is the page, in whichever order the records
// come.
func TestImportWARCRevisitsAndLatest(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	home := `<html><head><title>Home</title></head><body>walrus <a href="http://b.test/">b</a></body></html>`
	file := writeWARC(t, []sites.Capture{
		htmlCapture("http://a.test/", home, t0),
		htmlCapture("http://a.test/", home, t0.Add(time.Hour)),   // revisit
		htmlCapture("http://a.test/", home, t0.Add(2*time.Hour)), // revisit
		htmlCapture("http://a.test/news", `<title>News new</title><a href="http://c.test/">c</a>`, t0.Add(3*time.Hour)),
		htmlCapture("http://a.test/news", `<title>News old</title><a href="http://d.test/">d</a>`, t0.Add(-time.Hour)),
	})
	a := apptest.EmptyStoreApp(t)
	ctx := context.Background()
	res, err := a.Imports.ImportArchives(ctx, imports.ArchiveImportRequest{WARC: []string{file}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := res.Files[0].Summary.(imports.WARCSummary)
	if sum.Revisits != 2 || sum.RevisitsMatched != 2 || sum.PagesWritten != 2 || sum.OlderCaptures != 1 {
		t.Errorf("summary %+v", sum)
	}
	st := a.Store
	n, last, ok, err := st.PageCaptures(ctx, "http://a.test/")
	if err != nil || !ok || n != 3 || !last.Equal(t0.Add(2*time.Hour)) {
		t.Errorf("home: %d captures, last %v (%v %v); want 3, %v", n, last, ok, err, t0.Add(2*time.Hour))
	}
	n, _, _, _ = st.PageCaptures(ctx, "http://a.test/news")
	if n != 2 {
		t.Errorf("news: %d captures, want 2", n)
	}
	pages := pageURLs(t, st)
	if pages["http://a.test/news"].Title != "News new" {
		t.Errorf("news page is %q, want the latest capture", pages["http://a.test/news"].Title)
	}
	_, edges, err := st.SiteGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, e := range edges {
		got[e.From+">"+e.To] = e.Weight
	}
	if got["a.test>b.test"] != 1 || got["a.test>c.test"] != 1 || got["a.test>d.test"] != 0 {
		t.Errorf("site graph %v: want a→b, a→c (latest news), no a→d", got)
	}
}

// TestImportTruncatedWARC: a file cut inside a record is refused with its
// name and the byte offset of that record; nothing of it is kept, and the
// file imported before it is.
func TestImportTruncatedWARC(t *testing.T) {
	src, err := os.ReadFile(refdata.Shared(t, "warc", "iana.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.warc.gz")
	if err := os.WriteFile(cut, src[:400_000], 0o644); err != nil {
		t.Fatal(err)
	}
	a := apptest.EmptyStoreApp(t)
	ctx := context.Background()
	good := refdata.Shared(t, "warc", "example.warc.gz")
	res, err := a.Imports.ImportArchives(ctx, imports.ArchiveImportRequest{WARC: []string{good, cut}}, nil)
	if err == nil {
		t.Fatal("a truncated WARC file imported without error")
	}
	var ae *fault.Error
	if !errors.As(err, &ae) || ae.Kind != fault.KindInvalid {
		t.Errorf("error %v: want an invalid-input error", err)
	}
	// The offset is where the cut record starts: the reference CDX says
	// which record spans byte 400,000.
	start := cdxRecordAt(t, 400_000)
	if !strings.Contains(err.Error(), cut) || !strings.Contains(err.Error(), fmt.Sprintf("byte offset %d:", start)) {
		t.Errorf("error %q: want the file and byte offset %d", err, start)
	}
	if len(res.Files) != 1 || res.Files[0].Path != good {
		t.Errorf("files done %+v: want the good one", res.Files)
	}
	pages := pageURLs(t, a.Store)
	if len(pages) != 1 {
		t.Errorf("%d pages kept, want the good file's 1 only", len(pages))
	}
	for u := range pages {
		if strings.Contains(u, "iana") {
			t.Errorf("page %s of the truncated file kept", u)
		}
	}
}

// cdxRecordAt returns the offset of the record of the reference CDX whose
// bytes hold offset off.
func cdxRecordAt(t *testing.T, off int64) int64 {
	t.Helper()
	b, err := os.ReadFile(refdata.Shared(t, "warc", "iana.cdx"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		var length, start int64
		if f := strings.Fields(l); len(f) == 11 {
			if _, err := fmt.Sscan(f[8], &length); err != nil {
				continue
			}
			fmt.Sscan(f[9], &start)
			if start <= off && off < start+length {
				return start
			}
		}
	}
	t.Fatalf("no record of the CDX holds byte %d", off)
	return 0
}

// TestImportCDXAndCDXJ: the 11-column reference index and a CDXJ index of
// the same WARC file (written by sitesift's indexer, as pywb writes one)
// say the same of the site: its URLs, captures, first and last capture.
func TestImportCDXAndCDXJ(t *testing.T) {
	f, err := os.Open(refdata.Shared(t, "warc", "iana.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	entries, _, err := warcfile.ReadIndex(f, "iana.warc.gz")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(entries, func(x, y warcfile.Entry) int {
		return strings.Compare(x.SURT+" "+x.Timestamp, y.SURT+" "+y.Timestamp)
	})
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(e.String() + "\n")
	}
	cdxj := filepath.Join(t.TempDir(), "iana.cdxj")
	if err := os.WriteFile(cdxj, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var got []store.SiteArchiveInfo
	for _, path := range []string{refdata.Shared(t, "warc", "iana.cdx"), cdxj} {
		a := apptest.EmptyStoreApp(t)
		if _, err := a.Imports.ImportArchives(ctx, imports.ArchiveImportRequest{CDX: []string{path}}, nil); err != nil {
			t.Fatal(err)
		}
		m, err := a.Store.SitesArchive(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(m) != 1 {
			t.Fatalf("%s: sites %v, want iana.org alone", path, m)
		}
		got = append(got, m["iana.org"])
	}
	want := store.SiteArchiveInfo{URLs: 31, Captures: 171,
		First: time.Date(2014, 1, 26, 20, 6, 24, 0, time.UTC), Last: time.Date(2014, 1, 26, 20, 13, 10, 0, time.UTC)}
	for i, g := range got {
		if g.URLs != want.URLs || g.Captures != want.Captures || !g.First.Equal(want.First) || !g.Last.Equal(want.Last) {
			t.Errorf("index %d: %+v, want %+v", i, g, want)
		}
	}
}

// TestImportCDXBadLine: a bad line is refused with its number.
func TestImportCDXBadLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.cdx")
	os.WriteFile(path, []byte(" CDX N b a m s k r M S V g\norg,x)/ 20200101000000 http://x.org/ text/html 200 D - - 1 0 f.warc.gz\norg,x)/a 2020x http://x.org/a text/html 200 D - - 1 0 f.warc.gz\n"), 0o644)
	a := apptest.EmptyStoreApp(t)
	_, err := a.Imports.ImportArchives(context.Background(), imports.ArchiveImportRequest{CDX: []string{path}}, nil)
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %v: want the file and line 3", err)
	}
	m, _ := a.Store.SitesArchive(context.Background())
	if len(m) != 0 {
		t.Errorf("a refused index kept %v", m)
	}
}

// TestImportCrawlLog: a crawl.log in the layout sitesift writes (Heritrix's)
// gives the page graph: each line's via → URL is a link of the via page.
func TestImportCrawlLog(t *testing.T) {
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	pg := func(u, via string, depth, status int) sites.Page {
		return sites.Page{URL: u, Via: via, Depth: depth, Status: status, ContentType: "text/html", FetchedAt: at, Size: 100}
	}
	lines := []string{
		crawllog.Line(pg("http://a.test/", "", 0, 200), at),
		crawllog.Line(pg("http://a.test/x", "http://a.test/", 1, 200), at),
		crawllog.Line(pg("http://b.test/", "http://a.test/", 1, 200), at),
		crawllog.Line(pg("http://c.test/", "http://a.test/x", 2, 404), at),
		crawllog.Line(pg("http://d.test/", "http://b.test/", 2, 0), at), // failed fetch: still a link of b
		"2026-11-24T10:00:02.000Z   200        50 http://a.test/logo.png E http://a.test/ image/png #000 20261124100001100+10 - - -",
	}
	path := filepath.Join(t.TempDir(), "crawl.log")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	a := apptest.EmptyStoreApp(t)
	ctx := context.Background()
	res, err := a.Imports.ImportArchives(ctx, imports.ArchiveImportRequest{CrawlLog: []string{path}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := res.Files[0].Summary.(imports.CrawlLogSummary)
	if sum.Pages != 5 || sum.Links != 4 || sum.OtherHops != 1 || sum.Failed != 1 {
		t.Errorf("summary %+v: want 5 pages (the PNG too), 4 links, 1 embed, 1 failed", sum)
	}
	_, edges, err := a.Store.SiteGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range edges {
		got = append(got, fmt.Sprintf("%s>%s:%g", e.From, e.To, e.Weight))
	}
	slices.Sort(got)
	if want := []string{"a.test>b.test:1", "a.test>c.test:1", "b.test>d.test:1"}; !slices.Equal(got, want) {
		t.Errorf("site graph %v, want %v", got, want)
	}
	// A bad line names its number.
	os.WriteFile(path, []byte(lines[0]+"\nnot a log line\n"), 0o644)
	if _, err := a.Imports.ImportArchives(ctx, imports.ArchiveImportRequest{CrawlLog: []string{path}}, nil); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("error %v: want line 2", err)
	}
}

// TestImportCommonCrawlSlice: a host graph dump split in gzip parts; a TLD
// slice keeps its hosts (an unlinked one too), the links among them, the
// links from outside counted per site; a suffix slice keeps less; ranks
// are kept for the slice's sites.
func TestImportCommonCrawlSlice(t *testing.T) {
	d := t.TempDir()
	v1 := apptest.WriteGz(t, filepath.Join(d, "v-00000.txt.gz"), "0\tcom.example", "1\tfr.bnf", "2\tfr.bnf.www")
	v2 := apptest.WriteGz(t, filepath.Join(d, "v-00001.txt.gz"), "3\tfr.gouv.culture", "4\tfr.lemonde", "5\tfr.lonely", "6\torg.wikipedia.fr")
	e1 := apptest.WriteGz(t, filepath.Join(d, "e-00000.txt.gz"), "0\t1", "0\t4", "1\t2", "1\t3", "2\t3")
	e2 := apptest.WriteGz(t, filepath.Join(d, "e-00001.txt.gz"), "3\t4", "4\t1", "6\t1", "6\t3")
	ranks := apptest.WriteGz(t, filepath.Join(d, "ranks.txt.gz"),
		"#harmonicc_pos\t#harmonicc_val\t#pr_pos\t#pr_val\t#host_rev",
		"1\t9.5e6\t2\t0.003\tfr.bnf", "2\t9e6\t1\t0.004\tcom.example", "3\t8e6\t3\t0.002\tfr.lemonde")
	ctx := context.Background()
	req := imports.ArchiveImportRequest{CCVertices: []string{v1, v2}, CCEdges: []string{e1, e2}, CCRanks: []string{ranks}}

	req.TLDs = []string{"fr"}
	a := apptest.EmptyStoreApp(t)
	if _, err := a.Ranking.SetSettings(ctx, project.SettingsUpdate{SiteRule: app.Set("host")}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Imports.ImportArchives(ctx, req, nil); err != nil {
		t.Fatal(err)
	}
	st := a.Store
	names, edges, err := st.SiteGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"bnf.fr", "culture.gouv.fr", "lemonde.fr", "lonely.fr", "www.bnf.fr"}; !slices.Equal(names, want) {
		t.Errorf("sites %v, want %v", names, want)
	}
	var got []string
	for _, e := range edges {
		got = append(got, e.From+">"+e.To)
	}
	if want := []string{"bnf.fr>culture.gouv.fr", "bnf.fr>www.bnf.fr", "culture.gouv.fr>lemonde.fr", "lemonde.fr>bnf.fr", "www.bnf.fr>culture.gouv.fr"}; !slices.Equal(got, want) {
		t.Errorf("edges %v, want %v", got, want)
	}
	info, err := st.SitesArchive(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info["bnf.fr"].InlinksOutside != 2 || info["lemonde.fr"].InlinksOutside != 1 || info["culture.gouv.fr"].InlinksOutside != 1 {
		t.Errorf("links from outside: %+v", info)
	}
	if h := info["bnf.fr"].CCHarmonic; h == nil || *h != 9.5e6 {
		t.Errorf("bnf.fr harmonic %v, want 9.5e6", h)
	}
	if _, ok := info["example.com"]; ok {
		t.Error("a ranked host outside the slice was kept")
	}
	// The same import again changes nothing.
	res, err := a.Imports.ImportArchives(ctx, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		if !f.Skipped {
			t.Errorf("%s imported twice", f.Path)
		}
	}
	_, edges2, _ := st.SiteGraph(ctx)
	if !slices.Equal(edges, edges2) {
		t.Errorf("a second run changed the graph: %v, then %v", edges, edges2)
	}

	// The domain rule joins bnf.fr and www.bnf.fr; a suffix slice.
	req.TLDs, req.HostSuffixes = nil, []string{"bnf.fr", "gouv.fr"}
	b := apptest.EmptyStoreApp(t)
	if _, err := b.Ranking.SetSettings(ctx, project.SettingsUpdate{SiteRule: app.Set("domain")}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Imports.ImportArchives(ctx, req, nil); err != nil {
		t.Fatal(err)
	}
	names, edges, _ = b.Store.SiteGraph(ctx)
	// gouv.fr is a public suffix: culture.gouv.fr is a registered domain.
	if want := []string{"bnf.fr", "culture.gouv.fr"}; !slices.Equal(names, want) {
		t.Errorf("suffix slice sites %v, want %v", names, want)
	}
	if len(edges) != 1 || edges[0].From != "bnf.fr" || edges[0].To != "culture.gouv.fr" || edges[0].Weight != 2 {
		t.Errorf("suffix slice edges %v, want bnf.fr → culture.gouv.fr weight 2 (two host links)", edges)
	}

	// A bad edge line names its file and line.
	bad := apptest.WriteGz(t, filepath.Join(d, "e-bad.txt.gz"), "0\t1", "x\t2")
	c := apptest.EmptyStoreApp(t)
	_, err = c.Imports.ImportArchives(ctx, imports.ArchiveImportRequest{CCVertices: []string{v1}, CCEdges: []string{bad}, TLDs: []string{"fr"}}, nil)
	if err == nil || !strings.Contains(err.Error(), "e-bad.txt.gz line 2") {
		t.Errorf("error %v: want e-bad.txt.gz line 2", err)
	}
}

// TestImportCommonCrawlUnknownIDs: links naming an id that no vertices
// file gives are counted apart, not as links from outside the slice, nor
// stored; a ranks file's "---" is a missing value; a vertices file giving
// an id twice is refused naming both lines.
func TestImportCommonCrawlUnknownIDs(t *testing.T) {
	d := t.TempDir()
	v := apptest.WriteGz(t, filepath.Join(d, "v.txt.gz"), "0\tcom.example", "1\tfr.bnf", "2\tfr.lemonde")
	// 0→1 from outside; 9→1 and 1→9 name 9, which no vertices file gives;
	// 1→2 inside.
	e := apptest.WriteGz(t, filepath.Join(d, "e.txt.gz"), "0\t1", "9\t1", "1\t9", "8\t9", "1\t2")
	ranks := apptest.WriteGz(t, filepath.Join(d, "ranks.txt.gz"),
		"#harmonicc_pos\t#harmonicc_val\t#pr_pos\t#pr_val\t#host_rev",
		"1\t9.5e6\t---\t---\tfr.bnf", "---\t---\t1\t0.004\tfr.lemonde")
	ctx := context.Background()
	a := apptest.EmptyStoreApp(t)
	res, err := a.Imports.ImportArchives(ctx, imports.ArchiveImportRequest{CCVertices: []string{v}, CCEdges: []string{e}, CCRanks: []string{ranks}, TLDs: []string{"fr"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sum imports.CCEdgesSummary
	for _, f := range res.Files {
		if s, ok := f.Summary.(imports.CCEdgesSummary); ok {
			sum = s
		}
	}
	if sum != (imports.CCEdgesSummary{Edges: 5, Inside: 1, SiteLinks: 1, FromOutside: 1, UnknownIDs: 3}) {
		t.Errorf("edges summary %+v: want 5 edges, 1 inside, 1 from outside, 3 naming an unknown id", sum)
	}
	info, err := a.Store.SitesArchive(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info["bnf.fr"].InlinksOutside != 1 {
		t.Errorf("bnf.fr: %d links from outside, want 1 (the one from a known host)", info["bnf.fr"].InlinksOutside)
	}
	bnf, lemonde := info["bnf.fr"], info["lemonde.fr"]
	if bnf.CCHarmonic == nil || *bnf.CCHarmonic != 9.5e6 || bnf.CCPageRank != nil ||
		lemonde.CCHarmonic != nil || lemonde.CCPageRank == nil || *lemonde.CCPageRank != 0.004 {
		t.Errorf("ranks: bnf.fr %v %v, lemonde.fr %v %v; want 9.5e6 and none, none and 0.004",
			bnf.CCHarmonic, bnf.CCPageRank, lemonde.CCHarmonic, lemonde.CCPageRank)
	}

	twice := apptest.WriteGz(t, filepath.Join(d, "v2.txt.gz"), "0\tcom.example", "1\tfr.bnf", "1\tfr.lemonde")
	_, err = apptest.EmptyStoreApp(t).Imports.ImportArchives(ctx, imports.ArchiveImportRequest{CCVertices: []string{twice}, CCEdges: []string{e}, TLDs: []string{"fr"}}, nil)
	if err == nil || !strings.Contains(err.Error(), "v2.txt.gz line 3: vertex id 1 is given twice, on lines 2 and 3") {
		t.Errorf("an id given twice: error %v", err)
	}
}

// TestImportCommonCrawlSliceIdentity: the slice is part of what "imported
// before" compares. A slice that keeps no host is refused before the edges
// are read, and the right slice then imports the same files; the same
// slice again is skipped, however it is typed; another slice is refused
// whole, the project as it was.
func TestImportCommonCrawlSliceIdentity(t *testing.T) {
	d := t.TempDir()
	v := apptest.WriteGz(t, filepath.Join(d, "v.txt.gz"), "0\tcom.example", "1\tfr.bnf", "2\tfr.lemonde", "3\tde.zeit")
	e := apptest.WriteGz(t, filepath.Join(d, "e.txt.gz"), "0\t1", "1\t2", "2\t1", "3\t1")
	ctx := context.Background()
	a := apptest.EmptyStoreApp(t)
	req := imports.ArchiveImportRequest{CCVertices: []string{v}, CCEdges: []string{e}, TLDs: []string{"nl"}}
	res, err := a.Imports.ImportArchives(ctx, req, nil)
	if err == nil || !strings.Contains(err.Error(), "the slice --tld nl keeps none of the 4 hosts") {
		t.Fatalf("a slice that keeps nothing: error %v", err)
	}
	if len(res.Files) != 1 || res.Files[0].Kind != imports.KindCCVertices {
		t.Errorf("files read before the refusal: %+v, want the vertices file alone", res.Files)
	}

	req.TLDs = []string{" .FR", "fr"}
	if res, err = a.Imports.ImportArchives(ctx, req, nil); err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		if f.Skipped {
			t.Errorf("%s skipped: it was read before with another slice only", f.Path)
		}
	}
	names, edges, err := a.Store.SiteGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"bnf.fr", "lemonde.fr"}; !slices.Equal(names, want) || len(edges) != 2 {
		t.Fatalf("sites %v, edges %v: want %v linked both ways", names, edges, want)
	}

	req.TLDs = []string{"fr."}
	if res, err = a.Imports.ImportArchives(ctx, req, nil); err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		if !f.Skipped {
			t.Errorf("%s read again with the same slice", f.Path)
		}
	}

	req.TLDs = []string{"fr", "de"}
	_, err = a.Imports.ImportArchives(ctx, req, nil)
	var ae *fault.Error
	if !errors.As(err, &ae) || ae.Kind != fault.KindConflict || !strings.Contains(err.Error(), "holds the Common Crawl slice --tld fr (from "+v+"), not --tld de,fr") {
		t.Fatalf("another slice: error %v, want a conflict naming both slices", err)
	}
	names2, edges2, _ := a.Store.SiteGraph(ctx)
	if !slices.Equal(names, names2) || !slices.Equal(edges, edges2) {
		t.Errorf("the refused slice changed the graph: %v %v, then %v %v", names, edges, names2, edges2)
	}
}

// TestImportChecksPaths: a missing file, a directory without WARC files,
// an empty file and a Common Crawl import without a slice are refused
// before anything is read.
func TestImportChecksPaths(t *testing.T) {
	a := apptest.EmptyStoreApp(t)
	ctx := context.Background()
	emptyWARC := filepath.Join(t.TempDir(), "cut.warc.gz")
	if err := os.WriteFile(emptyWARC, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		req  imports.ArchiveImportRequest
		want string
	}{
		{imports.ArchiveImportRequest{WARC: []string{"/no/such.warc.gz"}}, "/no/such.warc.gz: no such file"},
		{imports.ArchiveImportRequest{WARC: []string{t.TempDir()}}, "holds no .warc"},
		{imports.ArchiveImportRequest{CDX: []string{t.TempDir()}}, "is a directory"},
		{imports.ArchiveImportRequest{CCVertices: []string{refdata.Shared(t, "warc", "iana.cdx")}}, "needs both"},
		{imports.ArchiveImportRequest{CCVertices: []string{refdata.Shared(t, "warc", "iana.cdx")}, CCEdges: []string{refdata.Shared(t, "warc", "iana.cdx")}}, "needs a slice"},
		{imports.ArchiveImportRequest{}, "no file"},
		{imports.ArchiveImportRequest{WARC: []string{emptyWARC}}, "warc file " + emptyWARC + " is empty (0 bytes)"},
		{imports.ArchiveImportRequest{WARC: []string{filepath.Dir(emptyWARC)}}, "is empty (0 bytes)"},
		{imports.ArchiveImportRequest{CDX: []string{refdata.Shared(t, "warc", "iana.cdx"), emptyWARC}}, "is empty (0 bytes)"},
	} {
		_, err := a.Imports.ImportArchives(ctx, tc.req, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.req, err, tc.want)
		}
	}
}

// TestImportWARCExtractsOncePerPayload: a page archived whole twice (two
// crawls' files, with no revisit records between them) is extracted once in
// an import and stored with its main text and editorial links; the summary
// tells the editorial links from the template's and gives the pages per
// second.
func TestImportWARCExtractsOncePerPayload(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	story := `<!DOCTYPE html><html lang="en"><head><title>Storm | Bugle</title></head><body>
<nav><a href="/">Home</a> <a href="http://network.test/">Our network</a></nav>
<article><h1>Storm floods the valley</h1>
<p>Heavy rain fell for three days over the valley, and the river rose above its banks on Tuesday night,
according to <a href="http://river.test/report">the river authority's report</a>. Hundreds of homes were evacuated.</p>
<p>The mayor said that the emergency services had worked through the night, and that the schools of the
old town would stay closed until the water had gone down and the buildings had been checked.</p></article>
<footer><a href="/contact">Contact</a></footer></body></html>`
	first := writeWARC(t, []sites.Capture{htmlCapture("http://a.test/story", story, t0)})
	second := writeWARC(t, []sites.Capture{htmlCapture("http://a.test/story", story, t0.Add(24*time.Hour))})
	a := apptest.EmptyStoreApp(t)
	res, err := a.Imports.ImportArchives(context.Background(), imports.ArchiveImportRequest{WARC: []string{first, second}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 2 {
		t.Fatalf("%d files imported", len(res.Files))
	}
	s1, s2 := res.Files[0].Summary.(imports.WARCSummary), res.Files[1].Summary.(imports.WARCSummary)
	if s1.ExtractionsReused != 0 || s2.ExtractionsReused != 1 || s2.HTMLPages != 1 {
		t.Errorf("extractions reused: %d in the first file, %d in the second; want 0 and 1", s1.ExtractionsReused, s2.ExtractionsReused)
	}
	if s1.Links != 1 || s1.TemplateLinks != 3 {
		t.Errorf("first file: %d editorial links, %d template links; want 1 and 3", s1.Links, s1.TemplateLinks)
	}
	if s1.PagesPerSec <= 0 || s1.Seconds <= 0 {
		t.Errorf("first file: %v pages/s over %v s", s1.PagesPerSec, s1.Seconds)
	}
	p := pageURLs(t, a.Store)["http://a.test/story"]
	if p.Title != "Storm floods the valley" || !strings.HasPrefix(p.Text, "Storm floods the valley Heavy rain") ||
		strings.Contains(p.Text, "Our network") {
		t.Errorf("page %q: text %q", p.Title, p.Text)
	}
	_, edges, err := a.Store.SiteGraph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(edges) != 1 || edges[0].From != "a.test" || edges[0].To != "river.test" {
		t.Errorf("site graph %v: want a.test → river.test, the story's one editorial link", edges)
	}
}

// TestImportWARCSameResponseTwiceInAFile: a file that holds the same response
// twice (a crawler without deduplication) extracts it once; the page is the
// later capture, its two captures counted, in the file's order.
func TestImportWARCSameResponseTwiceInAFile(t *testing.T) {
	body := `<html><head><title>Story</title></head><body><nav><a href="/">Home</a></nav>
<p>See <a href="http://b.test/">the report</a> of the river authority.</p></body></html>`
	var b strings.Builder
	for i, date := range []string{"2024-03-01T10:00:00Z", "2024-03-02T10:00:00Z"} {
		http := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + fmt.Sprint(len(body)) + "\r\n\r\n" + body
		fmt.Fprintf(&b, "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.test/story\r\nWARC-Date: %s\r\n"+
			"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-00000000000%d>\r\nContent-Type: application/http; msgtype=response\r\n"+
			"Content-Length: %d\r\n\r\n%s\r\n\r\n", date, i, len(http), http)
	}
	file := filepath.Join(t.TempDir(), "twice.warc")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	a := apptest.EmptyStoreApp(t)
	res, err := a.Imports.ImportArchives(context.Background(), imports.ArchiveImportRequest{WARC: []string{file}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := res.Files[0].Summary.(imports.WARCSummary)
	// Each capture writes the page over the one before: its links count
	// once a write.
	if sum.HTMLPages != 2 || sum.ExtractionsReused != 1 || sum.PagesWritten != 2 || sum.Links != 2 || sum.TemplateLinks != 2 {
		t.Errorf("summary %+v: want 2 HTML pages written, 1 extraction reused, an editorial link and a template link each", sum)
	}
	n, last, ok, err := a.Store.PageCaptures(context.Background(), "http://a.test/story")
	if err != nil || !ok || n != 2 || !last.Equal(time.Date(2024, 3, 2, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("%d captures, last %v (%v %v); want 2, the later", n, last, ok, err)
	}
}
