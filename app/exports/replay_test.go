package exports_test

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/exports"
	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/app/review"
	"sitesift/sites/warcfile"
)

// TestSiteCaptures cuts one site's captures out of a crawl of the demo web
// into a WACZ file of its own and reads it back as ReplayWeb.page does: its
// index lists exactly the site's captures of the project's WARC files (and
// the records its revisits point to), each at an offset of the WACZ file
// where a byte range finds the same record bytes as in the crawl's WARC
// file; its pages are the site's, shallowest first, with their titles. A
// second request reads the file made by the first; a new WARC file makes
// a new one and removes the old.
func TestSiteCaptures(t *testing.T) {
	dir := apptest.CrawledProject(t)
	a, p, _ := apptest.OpenProject(t, dir)
	ctx := context.Background()
	files, err := a.Crawling.WARCFiles()
	if err != nil || len(files) == 0 {
		t.Fatalf("WARC files %v, %v", files, err)
	}
	// The crawl's captures by site, read from the WARC files' own indexes.
	rule := p.Store.SiteRule()
	wdir := filepath.Join(dir, project.WARCDir)
	bySite := map[string][]warcfile.Entry{}
	for _, f := range files {
		entries, err := warcfile.Index(wdir, f.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			s, _ := rule.Of(e.URL)
			bySite[s] = append(bySite[s], e)
		}
	}
	// The site with the most captures.
	site := ""
	for s, es := range bySite {
		if len(es) > len(bySite[site]) || len(es) == len(bySite[site]) && s < site {
			site = s
		}
	}
	c, err := a.Exports.SiteCaptures(ctx, "http://"+site+"/whatever")
	if err != nil {
		t.Fatal(err)
	}
	if c.Site != site || c.Empty != "" || c.Note != "" || len(c.Pages) == 0 || !strings.HasPrefix(c.Source, "api/sites/"+site+"/captures/") {
		t.Fatalf("SiteCaptures(%s) = %+v", site, c)
	}
	for i, pg := range c.Pages {
		if s, _ := rule.Of(pg.URL); s != site {
			t.Errorf("page %s is not of %s", pg.URL, site)
		}
		if i > 0 {
			prev := c.Pages[i-1]
			if prev.Segments > pg.Segments || prev.Segments == pg.Segments && prev.TS > pg.TS {
				t.Errorf("page %d %s (%d segments, %s) comes after %s (%d, %s)", i, pg.URL, pg.Segments, pg.TS, prev.URL, prev.Segments, prev.TS)
			}
		}
	}
	if c.Pages[0].Segments != 0 || c.Pages[0].Title == "" {
		t.Errorf("the first page is %+v, want the site's home page with its title", c.Pages[0])
	}
	key := strings.TrimSuffix(c.Source[strings.LastIndexByte(c.Source, '/')+1:], ".wacz")
	f, err := a.Exports.OpenSiteWACZ(ctx, site, key)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(b)) != c.Bytes {
		t.Errorf("the file has %d bytes, the answer says %d", len(b), c.Bytes)
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	entries := map[string]*zip.File{}
	for _, zf := range zr.File {
		entries[zf.Name] = zf
	}
	warc := entries["archive/"+site+".warc.gz"]
	if warc == nil || warc.Method != zip.Store {
		t.Fatalf("no stored archive/%s.warc.gz in %v", site, slices.Collect(func(yield func(string) bool) {
			for n := range entries {
				yield(n)
			}
		}))
	}
	at, err := warc.DataOffset()
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) []byte {
		t.Helper()
		rc, err := entries[name].Open()
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		data, _ := io.ReadAll(rc)
		return data
	}
	// The records of the crawl, by URL and time, as bytes.
	orig := map[string][]byte{}
	for _, es := range bySite {
		for _, e := range es {
			src, err := os.ReadFile(filepath.Join(wdir, e.Filename))
			if err != nil {
				t.Fatal(err)
			}
			orig[e.URL+" "+e.Timestamp+" "+e.Mime] = src[e.Offset : e.Offset+e.Length]
		}
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(read("indexes/index.cdxj")))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	own := 0
	for _, l := range lines {
		e, err := warcfile.ParseLine(l)
		if err != nil {
			t.Fatal(err)
		}
		if e.Filename != site+".warc.gz" {
			t.Errorf("index line names %s", e.Filename)
		}
		if s, _ := rule.Of(e.URL); s == site {
			own++
		} else if e.Mime == "warc/revisit" {
			t.Errorf("a revisit of another site: %s", l)
		}
		want := orig[e.URL+" "+e.Timestamp+" "+e.Mime]
		got := b[at+e.Offset : at+e.Offset+e.Length]
		if want == nil || !bytes.Equal(got, want) {
			t.Errorf("the record of %s at %d (%d bytes) is not the crawl's", e.URL, e.Offset, e.Length)
		}
	}
	if own != len(bySite[site]) || len(lines) != c.Captures {
		t.Errorf("the index has %d lines, %d of %s; the crawl has %d captures of it; the answer says %d", len(lines), own, site, len(bySite[site]), c.Captures)
	}
	pages := strings.Split(strings.TrimSpace(string(read("pages/pages.jsonl"))), "\n")
	if len(pages)-1 < len(c.Pages) {
		t.Errorf("pages.jsonl has %d pages, the answer %d", len(pages)-1, len(c.Pages))
	}
	var first struct{ URL, Title string }
	if err := json.Unmarshal([]byte(pages[1]), &first); err != nil || first.Title == "" {
		t.Errorf("pages.jsonl's first page %s: %v", pages[1], err)
	}

	// Asked again, the file made is read, not made again.
	made, _ := filepath.Glob(filepath.Join(dir, exports.ReplayDir, site+"-*.wacz"))
	st, _ := os.Stat(made[0])
	again, err := a.Exports.SiteCaptures(ctx, site)
	if err != nil || again.Source != c.Source || len(again.Pages) != len(c.Pages) {
		t.Errorf("asked again: %+v, %v", again, err)
	}
	if st2, _ := os.Stat(made[0]); !st2.ModTime().Equal(st.ModTime()) || !os.SameFile(st, st2) {
		t.Errorf("%s was made again", made[0])
	}
	// The file of a site whose name goes on after this one's stays.
	other := filepath.Join(dir, exports.ReplayDir, site+"-news.test-0123456789abcdef.wacz")
	if err := os.WriteFile(other, []byte("PK"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A new WARC file: a new key, the old file gone, and the old key not found.
	extra := filepath.Join(wdir, "sitesift-29990101000000-00001-x.warc.gz")
	if err := os.WriteFile(extra, read("archive/"+site+".warc.gz"), 0o644); err != nil {
		t.Fatal(err)
	}
	newer, err := a.Exports.SiteCaptures(ctx, site)
	if err != nil || newer.Source == c.Source || newer.Source == "" {
		t.Fatalf("after a new WARC file: %+v, %v", newer, err)
	}
	if _, err := os.Stat(made[0]); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the old file %s is still there: %v", made[0], err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("the file of another site went with the old files: %v", err)
	}
	if _, err := a.Exports.OpenSiteWACZ(ctx, site, key); fault.KindOf(err) != fault.KindNotFound || !strings.Contains(err.Error(), "no longer has") {
		t.Errorf("the old key: %v", err)
	}
}

// TestSiteCapturesNone: a site whose fetches all failed, in a project with
// no WARC file, has no capture, and says so in the words the panel shows;
// a site the project does not hold is not found, with the closest names.
func TestSiteCapturesNone(t *testing.T) {
	a, _ := apptest.Open(t, apptest.FailuresProject(t))
	ctx := context.Background()
	for _, site := range []string{"broken.test", "ok.test"} {
		c, err := a.Exports.SiteCaptures(ctx, site)
		if err != nil || c.Empty != "No capture of this site in this project" || c.Source != "" || len(c.Pages) != 0 {
			t.Errorf("SiteCaptures(%s) = %+v, %v", site, c, err)
		}
		if _, err := a.Exports.OpenSiteWACZ(ctx, site, "0123456789abcdef"); fault.KindOf(err) != fault.KindNotFound {
			t.Errorf("OpenSiteWACZ(%s): %v", site, err)
		}
	}
	_, err := a.Exports.SiteCaptures(ctx, "broken.tset")
	var no *review.NoSiteError
	if fault.KindOf(err) != fault.KindNotFound || !errors.As(err, &no) || !slices.Contains(no.Closest, "broken.test") {
		t.Errorf("an unknown site: %v", err)
	}
}

// TestSiteCapturesFailedInCrawl: in a crawled project, a site that is in
// the project but was never fetched (only linked to) has no capture.
func TestSiteCapturesFailedInCrawl(t *testing.T) {
	dir := apptest.CrawledProject(t)
	a, p, _ := apptest.OpenProject(t, dir)
	ctx := context.Background()
	names, err := p.Store.SiteNames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, s := range names {
		d, err := p.Store.Site(ctx, s, "")
		if err != nil {
			t.Fatal(err)
		}
		if d.Report.PagesOK > 0 {
			continue
		}
		c, err := a.Exports.SiteCaptures(ctx, s)
		if err != nil || c.Empty == "" || c.Source != "" {
			t.Errorf("SiteCaptures(%s), a site with no page fetched fine: %+v, %v", s, c, err)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("every site of the demo crawl has a page fetched fine: nothing checked")
	}
}
