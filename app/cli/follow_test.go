package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCrawlSaysWhatTemplateLinksItLeftOut: the crawl's end lines say how
// many template links to how many other sites it did not follow, and
// --follow all follows them.
func TestCrawlSaysWhatTemplateLinksItLeftOut(t *testing.T) {
	// An article citing a report in its text, with a footer of five services.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch {
		case r.URL.Path == "/robots.txt" || r.Host != "news.test" && r.Host != "source.test":
			http.NotFound(w, r)
			return
		case r.Host == "source.test":
			fmt.Fprint(w, `<!doctype html><html lang="en"><title>Report</title><body><h1>The report</h1></body></html>`)
			return
		}
		var footer strings.Builder
		for _, s := range []string{"shop", "careers", "subscribe", "events", "jobs"} {
			fmt.Fprintf(&footer, `<a href="http://%s.news.test/">%s</a> `, s, s)
		}
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><title>Figures</title></head><body>
<main><article><h1>Council figures</h1><p>The council published its figures on Monday, and the
<a href="http://source.test/report">report of the inquiry</a> shows how the numbers changed over ten years
in every district of the region, as residents had asked for a long time.</p></article></main>
<footer class="site-footer">%s</footer></body></html>`, footer.String())
	}))
	defer srv.Close()
	for _, tc := range []struct {
		follow []string
		want   string
		fails  string
	}{
		{nil, "left out 5 template links to 5 other sites (footers, navigation, sign-in and newsletter boxes); --follow all follows them", ", 0 failed"},
		{[]string{"--follow", "all"}, "", ", 5 failed"},
	} {
		args := append([]string{"crawl", "--project", t.TempDir(), "--delay", "0s", "--parallel", "1", "--no-warc",
			"--proxy", srv.URL}, tc.follow...)
		code, out, stderr := runCLI(t, append(args, "http://news.test/story")...)
		if code != 0 || !strings.Contains(out, tc.fails) {
			t.Errorf("%v: exit %d, want %q\nstdout %s\nstderr %s", tc.follow, code, tc.fails, out, stderr)
		}
		if got := strings.Contains(out, "template links"); got != (tc.want != "") || !strings.Contains(out, tc.want) {
			t.Errorf("%v: want a line %q\nstdout %s", tc.follow, tc.want, out)
		}
	}
	code, _, stderr := runCLI(t, "crawl", "--project", t.TempDir(), "--follow", "template", "http://news.test/story")
	if code == 0 || !strings.Contains(stderr, "follow") {
		t.Errorf("--follow template: exit %d, stderr %s", code, stderr)
	}
}
