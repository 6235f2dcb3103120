package crawling_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sitesift/app"
	"sitesift/app/crawling"
	"sitesift/app/project"
)

// notFoundWeb serves a home page linking to /0 … /n-1, of which only every
// fourth exists; the rest are 404s.
func notFoundWeb(n int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/" {
			var b strings.Builder
			b.WriteString("<html><head><title>Home</title></head><body>")
			for i := range n {
				fmt.Fprintf(&b, `<a href="/%d">%d</a>`, i, i)
			}
			b.WriteString("</body></html>")
			fmt.Fprint(w, b.String())
			return
		}
		var i int
		if _, err := fmt.Sscanf(r.URL.Path, "/%d", &i); err == nil && i%4 == 3 {
			fmt.Fprintf(w, "<html><head><title>Page %d</title></head><body>page</body></html>", i)
			return
		}
		http.NotFound(w, r)
	})
}

// TestCrawlFailureCap: the service passes the failure cap on, defaults it to
// the page cap, and says which cap ended the crawl.
func TestCrawlFailureCap(t *testing.T) {
	srv := httptest.NewServer(notFoundWeb(300))
	defer srv.Close()
	for _, tc := range []struct {
		maxPages, maxFailures int
		wantOK, wantFailed    int
		wantMax               int
		wantReason            string
	}{
		// Three 404s before each fine page: the failure cap, the page cap
		// by default, comes first.
		{maxPages: 8, wantOK: 3, wantFailed: 8, wantMax: 8, wantReason: crawling.EndFailLimit},
		{maxPages: 8, maxFailures: 100, wantOK: 8, wantFailed: 21, wantMax: 100, wantReason: crawling.EndLimit},
	} {
		dir := t.TempDir()
		p, err := project.Open(dir, true)
		if err != nil {
			t.Fatal(err)
		}
		a := app.New(app.Options{Project: p})
		req := crawling.CrawlRequest{Seeds: []string{srv.URL + "/"}, MaxPages: tc.maxPages, MaxFailures: tc.maxFailures,
			MaxPagesPerSite: 1000, SettingsUpdate: project.SettingsUpdate{DelayMS: app.Set(0), Parallel: app.Set(1)}}
		st, err := a.Crawling.Run(context.Background(), req, 10*time.Millisecond, nil)
		if err != nil || st.PagesOK != tc.wantOK || st.Errors != tc.wantFailed || st.MaxFailures != tc.wantMax ||
			st.EndReason != tc.wantReason {
			t.Errorf("max pages %d, max failures %d: %d fine, %d failed, cap %d, ended %q (%v); want %d, %d, %d, %q",
				tc.maxPages, tc.maxFailures, st.PagesOK, st.Errors, st.MaxFailures, st.EndReason, err,
				tc.wantOK, tc.wantFailed, tc.wantMax, tc.wantReason)
		}
		a.Close()
		p.Close()
		// The crawl read back by the next process says the same.
		if p, err = project.Open(dir, false); err != nil {
			t.Fatal(err)
		}
		a = app.New(app.Options{Project: p})
		back := a.Crawling.Status()
		if back.PagesOK != st.PagesOK || back.Errors != st.Errors || back.MaxFailures != st.MaxFailures ||
			back.EndReason != st.EndReason {
			t.Errorf("max pages %d, max failures %d, read back: %d fine, %d failed, cap %d, ended %q; the crawl said %d, %d, %d, %q",
				tc.maxPages, tc.maxFailures, back.PagesOK, back.Errors, back.MaxFailures, back.EndReason,
				st.PagesOK, st.Errors, st.MaxFailures, st.EndReason)
		}
		a.Close()
		p.Close()
	}
}
