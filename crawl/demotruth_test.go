package crawl_test

import (
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"sitesift/crawl"
	"sitesift/crawl/demoweb"
)

// Every page of the demo web, parsed as a crawl parses it, has editorial
// links that its authors wrote: no link of its template (a publisher's
// network bar, navigation, footer, share buttons, related boxes) counts as
// one. The demo web knows each page's links inside its main content.
func TestDemoWebEditorialLinks(t *testing.T) {
	w := demoweb.New(1)
	h := w.Handler()
	truth := w.Truth()
	urls := make([]string, 0, len(truth))
	for u := range truth {
		urls = append(urls, u)
	}
	slices.Sort(urls)
	bad := 0
	for _, u := range urls {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", u, nil))
		if rec.Code != 200 {
			t.Fatalf("%s: status %d", u, rec.Code)
		}
		doc, err := crawl.ParseDocument(rec.Body.Bytes(), rec.Header().Get("Content-Type"), u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		var extra []string
		for _, l := range doc.Links {
			if !slices.Contains(truth[u].Links, l) {
				extra = append(extra, l)
			}
		}
		if len(extra) > 0 {
			if bad++; bad <= 5 {
				t.Errorf("%s: editorial links that are the template's: %s", u, strings.Join(extra, " "))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d pages have template links among their editorial links", bad, len(urls))
	}
}
