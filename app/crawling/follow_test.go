package crawling

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sitesift/app/fault"
	"sitesift/app/project"
)

// footerWeb serves news articles (news0.test …) that cite a report on a
// source site (source0.test …) in their text and whose footer links to
// twelve services (the publisher's shop, careers, subscriptions, a share
// widget, an app store) that answer 404 to every page.
func footerWeb(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		var n int
		switch {
		case strings.HasPrefix(r.Host, "source"):
			fmt.Fprintf(w, `<!doctype html><html lang="en"><title>Report</title><body><main><h1>The inquiry's report</h1>
<p>The figures of every district of the region for the last ten years, with the methods of the inquiry.</p></main></body></html>`)
			return
		case func() bool { _, err := fmt.Sscanf(r.Host, "news%d.test", &n); return err != nil }():
			http.NotFound(w, r)
			return
		case r.URL.Path == "/":
			fmt.Fprint(w, `<!doctype html><html lang="en"><title>News</title><body><h1>Front page</h1></body></html>`)
			return
		case r.URL.Path != "/2026/story":
			http.NotFound(w, r)
			return
		}
		var footer strings.Builder
		for _, s := range []string{"shop", "buy", "careers", "jobs", "subscribe", "login", "events", "store", "tickets", "games"} {
			fmt.Fprintf(&footer, `<li><a href="http://%s.news%d.test/">%s</a></li>`, s, n, s)
		}
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><title>Council figures</title></head>
<body class="single-post"><header class="site-header"><nav class="main-navigation"><a href="/">Home</a></nav></header>
<main><article class="post"><h1 class="entry-title">Council figures</h1><div class="entry-content">
<p>The council published its figures on Monday, and the <a href="http://source%d.test/report">report of the inquiry</a>
shows how the numbers changed over the last ten years in every district of the region.</p>
<p>Residents said they had waited a long time for the answers, and several groups asked for a public meeting
before the end of the month to discuss what should follow.</p></div></article></main>
<footer class="site-footer"><ul>%s<li><a href="http://addthis.test/">Share</a></li><li><a href="http://apps.store.test/">App</a></li></ul>
</footer></body></html>`, n, footer.String())
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCrawlFollowsEditorialLinks: by default a crawl of articles whose
// footers link to failing services fetches the sites the articles cite
// and spends none of its failure cap on the footers, and its status says
// how many template links to how many sites it left out; a crawl that
// follows all links spends the cap on them.
func TestCrawlFollowsEditorialLinks(t *testing.T) {
	const articles = 4
	srv := footerWeb(t)
	var seeds []string
	for i := range articles {
		seeds = append(seeds, fmt.Sprintf("http://news%d.test/2026/story", i))
	}
	for _, follow := range []string{"", "all"} {
		t.Run("follow="+follow, func(t *testing.T) {
			p := openProject(t, t.TempDir(), true)
			defer p.Close()
			a := newService(p)
			defer a.Close()
			req := CrawlRequest{Seeds: seeds, MaxPages: 100, MaxFailures: 10, Proxy: srv.URL, NoWARC: true, Follow: follow,
				SettingsUpdate: project.SettingsUpdate{DelayMS: new(0)}}
			st, err := a.Run(context.Background(), req, time.Second, nil)
			if err != nil || st.State != StateDone {
				t.Fatalf("crawl: %s, %v", st.State, err)
			}
			if follow == "" {
				// 4 articles × 10 services of their own, 2 shared ones,
				// each its own site; the articles' "/" is their own site's.
				if st.Follow != "editorial" || st.TemplateLinksLeftOut != 42 || st.TemplateSitesLeftOut != 42 {
					t.Errorf("follow %q, left out %d template links to %d sites; want editorial, 42 to 42",
						st.Follow, st.TemplateLinksLeftOut, st.TemplateSitesLeftOut)
				}
				if st.EndReason != EndExhausted || st.Errors != 0 {
					t.Errorf("end %q, %d failed; want exhausted, none failed", st.EndReason, st.Errors)
				}
				for i := range articles {
					u := fmt.Sprintf("http://source%d.test/report", i)
					if pg, err := p.Store.PageText(context.Background(), u); err != nil || pg.Status != http.StatusOK {
						t.Errorf("%s: %+v, %v; want it fetched", u, pg, err)
					}
				}
			} else {
				if st.Follow != "all" || st.TemplateLinksLeftOut != 0 || st.EndReason != EndFailLimit {
					t.Errorf("follow %q, %d template links left out, end %q; want all, 0, %s",
						st.Follow, st.TemplateLinksLeftOut, st.EndReason, EndFailLimit)
				}
			}
			// The template's links are kept as the page's template links either way.
			pg, err := p.Store.PageText(context.Background(), seeds[0])
			if err != nil {
				t.Fatal(err)
			}
			if pg.TemplateLinks < 12 || pg.EditorialLinks != 1 {
				t.Errorf("%s: %d template links, %d editorial; want 12 or more, 1", seeds[0], pg.TemplateLinks, pg.EditorialLinks)
			}
			// A status read back from the project says which links it followed,
			// and how many template links it left out, as the crawl's own did.
			b := newService(p)
			defer b.Close()
			back := b.Status()
			if got, want := back.Follow, cmp.Or(follow, "editorial"); got != want {
				t.Errorf("status read back: follow %q, want %q", got, want)
			}
			if back.TemplateLinksLeftOut != st.TemplateLinksLeftOut || back.TemplateSitesLeftOut != st.TemplateSitesLeftOut {
				t.Errorf("status read back: %d template links to %d sites left out, want %d to %d",
					back.TemplateLinksLeftOut, back.TemplateSitesLeftOut, st.TemplateLinksLeftOut, st.TemplateSitesLeftOut)
			}
		})
	}
	req := CrawlRequest{Seeds: seeds, Follow: "template"}
	if err := req.Check(); err == nil || fault.KindOf(err) != fault.KindInvalid {
		t.Errorf("follow template: %v, want invalid", err)
	}
}
