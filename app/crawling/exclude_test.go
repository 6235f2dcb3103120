package crawling

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"sitesift/app/project"
)

// TestLastExclude: the URL patterns a crawler configuration leaves out are
// those of the project's last crawl, none before any crawl.
func TestLastExclude(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>Page</title><a href="/a.pdf">a</a><a href="/calendar?d=1">c</a>`)
	}))
	defer srv.Close()
	p := openProject(t, t.TempDir(), true)
	defer p.Close()
	a := newService(p)
	defer a.Close()
	ctx := context.Background()
	if got, err := a.LastExclude(ctx); err != nil || got != nil {
		t.Fatalf("LastExclude before any crawl = %q, %v; want none", got, err)
	}
	for _, exclude := range [][]string{{`\.pdf$`}, {`calendar\?`, `\.pdf$`}} {
		req := CrawlRequest{Seeds: []string{srv.URL + "/"}, MaxPages: 3, Exclude: exclude, NoWARC: true,
			SettingsUpdate: project.SettingsUpdate{DelayMS: new(0)}}
		if st, err := a.Run(ctx, req, time.Second, nil); err != nil || st.State != StateDone {
			t.Fatalf("crawl excluding %q: %+v, %v", exclude, st, err)
		}
		if got, err := a.LastExclude(ctx); err != nil || !slices.Equal(got, exclude) {
			t.Errorf("LastExclude after a crawl excluding %q = %q, %v", exclude, got, err)
		}
	}
}
