package ranking_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/crawling"
	"sitesift/app/exports"
	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/app/review"
	"sitesift/sites"
	"sitesift/sites/store"
)

// platformProject is a crawl of news.test and blog.test, whose pages link
// to each other and, from their templates, to facebook.com, t.co and
// fonts.googleapis.com: the platforms rank first by OPIC, as on a crawl of
// real news pages. A second page of blog.test links to news.test alone,
// which puts news.test before blog.test.
func platformProject(t *testing.T) *app.App {
	t.Helper()
	ctx := context.Background()
	a, p := apptest.EmptyProject(t)
	template := []string{"https://facebook.com/sharer", "https://t.co/x", "https://fonts.googleapis.com/css"}
	pages := []sites.Page{
		apptest.Page(t, "http://news.test/", append(template, "http://blog.test/")...),
		apptest.Page(t, "http://news.test/a", append(template, "http://blog.test/")...),
		apptest.Page(t, "http://blog.test/", append(template, "http://news.test/")...),
		apptest.Page(t, "http://blog.test/b", "http://news.test/"),
	}
	states := []sites.SiteState{{Site: "facebook.com", History: 9}, {Site: "t.co", History: 8},
		{Site: "fonts.googleapis.com", History: 7}, {Site: "news.test", History: 2}, {Site: "blog.test", History: 1}}
	if err := p.Store.SaveCrawlBatch(ctx, pages, states); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Ranking.UpdateImportance(ctx); err != nil {
		t.Fatal(err)
	}
	return a
}

func rankNames(rows []ranking.RankRow) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Site)
	}
	return out
}

// TestPlatformsLeftOutOfRankingQueueAndExports: the platform sites stay out
// of the default ranking, the review queue and every export of seeds
// (top-K, approved, Heritrix precedence, Browsertrix), each saying how many
// it left out as "platform", and come back when asked. They are hidden, not
// taken out of the graph: the other sites' PageRank is the same either way.
func TestPlatformsLeftOutOfRankingQueueAndExports(t *testing.T) {
	a := platformProject(t)
	ctx := context.Background()
	editorial := []string{"news.test", "blog.test"}

	rows, err := a.Ranking.Rank(ctx, 0)
	if err != nil || !slices.Equal(rankNames(rows), editorial) {
		t.Fatalf("rank = %v, %v; want %v", rankNames(rows), err, editorial)
	}
	all, err := a.Ranking.RankWeighted(ctx, 0, ranking.WeightingLinks, true)
	if err != nil || len(all) != 5 || all[0].Site != "facebook.com" {
		t.Fatalf("rank with platforms = %v, %v", rankNames(all), err)
	}
	for _, r := range rows {
		i := slices.IndexFunc(all, func(x ranking.RankRow) bool { return x.Site == r.Site })
		if all[i].PageRank != r.PageRank || r.PageRank <= 0 {
			t.Errorf("%s: PageRank %v without platforms shown, %v with: the graph must be the same", r.Site, r.PageRank, all[i].PageRank)
		}
	}
	bin, err := a.Ranking.RankWeighted(ctx, 0, ranking.WeightingBinary, false)
	if err != nil || !slices.Equal(rankNames(bin), editorial) {
		t.Errorf("binary rank = %v, %v", rankNames(bin), err)
	}

	list, err := a.Review.Sites(ctx, store.SiteQuery{Sort: "opic", Desc: true, Limit: 10, Platforms: store.PlatformsNone})
	if err != nil || list.Total != 2 || list.Platforms != 3 {
		t.Errorf("sites without platforms: total %d, platforms %d, %v; want 2 and 3", list.Total, list.Platforms, err)
	}

	apptest.AddLibrarians(t, a, "ana")
	q, err := a.Review.ReviewQueue(ctx, review.QueueRequest{Librarian: "ana"})
	if err != nil || q.Total != 2 || q.Platforms != 3 || len(q.Rows) != 2 {
		t.Errorf("queue: total %d, platforms %d, %d rows, %v; want 2, 3, 2", q.Total, q.Platforms, len(q.Rows), err)
	}
	q, err = a.Review.ReviewQueue(ctx, review.QueueRequest{Librarian: "ana", IncludePlatforms: true})
	if err != nil || q.Total != 5 || q.Platforms != 0 || q.Rows[0].Site != "facebook.com" {
		t.Errorf("queue with platforms: total %d, platforms %d, %v", q.Total, q.Platforms, err)
	}

	export := func(r exports.ExportRequest) (string, []exports.LeftOut) {
		t.Helper()
		var buf bytes.Buffer
		left, err := a.Exports.ExportCounted(ctx, &buf, r)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		return buf.String(), left
	}
	platform3 := []exports.LeftOut{{Reason: exports.LeftOutPlatform, Sites: 3}}
	if got, left := export(exports.ExportRequest{What: exports.ExportTopK, Count: 10}); got != "http://news.test/\nhttp://blog.test/\n" ||
		!slices.Equal(left, platform3) {
		t.Errorf("top-k = %q, left out %v", got, left)
	}
	if got, _ := export(exports.ExportRequest{What: exports.ExportTopK, Count: 10, IncludePlatforms: true}); !strings.HasPrefix(got, "http://facebook.com/\n") {
		t.Errorf("top-k with platforms = %q", got)
	}
	if got, left := export(exports.ExportRequest{What: exports.ExportHeritrix}); strings.Contains(got, "facebook") || strings.Count(got, "\n") != 2 ||
		!slices.Equal(left, platform3) {
		t.Errorf("heritrix precedence = %q, left out %v", got, left)
	}
	if text := exports.LeftOutText(platform3); !strings.Contains(text, "3 on the platforms list") {
		t.Errorf("left-out text %q", text)
	}

	// Approved before it was known for a platform, a site stays out of
	// the approved seeds and the archive crawlers' configuration.
	if _, err := a.Ranking.SetSettings(ctx, project.SettingsUpdate{SinglePersonApproval: app.Set(true)}); err != nil {
		t.Fatal(err)
	}
	for _, site := range []string{"t.co", "news.test"} {
		for _, st := range []string{store.StatusNominated, store.StatusApproved} {
			if _, err := a.Review.SetSelection(ctx, site, store.SelectionUpdate{Librarian: "ana", Status: st}); err != nil {
				t.Fatal(err)
			}
		}
	}
	platform1 := []exports.LeftOut{{Reason: exports.LeftOutPlatform, Sites: 1}}
	if got, left := export(exports.ExportRequest{What: exports.ExportApproved}); got != "http://news.test/\n" || !slices.Equal(left, platform1) {
		t.Errorf("approved = %q, left out %v", got, left)
	}
	e, err := a.Exports.CrawlerExport(ctx)
	if err != nil || len(e.Seeds) != 1 || e.Seeds[0].Site != "news.test" || !slices.Equal(e.LeftOut, platform1) {
		t.Errorf("crawler export: %+v, %v", e, err)
	}

	// A librarian moves t.co out of the platforms (say the project
	// studies it) and blog.test in.
	if ch, err := a.Ranking.SetPlatform(ctx, "t.co", false, "ana"); err != nil || ch.Platform || !ch.Listed {
		t.Fatalf("SetPlatform t.co out: %+v, %v", ch, err)
	}
	if ch, err := a.Ranking.SetPlatform(ctx, "http://blog.test/page", true, ""); err != nil || !ch.Platform || ch.Listed || ch.Site != "blog.test" {
		t.Fatalf("SetPlatform blog.test in: %+v, %v", ch, err)
	}
	if rows, err := a.Ranking.Rank(ctx, 0); err != nil || !slices.Equal(rankNames(rows), []string{"t.co", "news.test"}) {
		t.Errorf("rank after the moves = %v, %v", rankNames(rows), err)
	}
	if got, _ := export(exports.ExportRequest{What: exports.ExportApproved}); got != "http://t.co/\nhttp://news.test/\n" {
		t.Errorf("approved after the moves = %q", got)
	}
	p, err := a.Ranking.Platforms(ctx)
	if err != nil || p.Count != 3 || !slices.Equal(p.Sites, []string{"facebook.com", "fonts.googleapis.com", "blog.test"}) ||
		!strings.Contains(p.Note, "Archive-It and Browsertrix") {
		t.Errorf("Platforms = %+v, %v", p, err)
	}
	if _, err := a.Ranking.SetPlatform(ctx, "nowhere.test", true, ""); fault.KindOf(err) != fault.KindNotFound {
		t.Errorf("an unknown site: %v, want not found", err)
	}
	if _, err := a.Ranking.SetPlatform(ctx, "news.test", true, "nobody"); err == nil || !strings.Contains(err.Error(), "unknown librarian") {
		t.Errorf("an unknown librarian: %v", err)
	}
}

// TestPlatformsHaveNoPlace: the ranking a librarian reads places the sites
// that are no platforms among themselves: the first is #1 with a score of
// 100, not #4 behind three share buttons; a platform shown on request has
// no place, and a move into the platforms places the others again.
func TestPlatformsHaveNoPlace(t *testing.T) {
	a := platformProject(t)
	ctx := context.Background()
	rows, err := a.Ranking.Rank(ctx, 0)
	if err != nil || rows[0].OPICRank != 1 || rows[0].OPICScore != 100 || rows[1].OPICRank != 2 {
		t.Fatalf("rank: %+v, %v; want news.test #1 scoring 100", rows, err)
	}
	all, err := a.Ranking.RankWeighted(ctx, 0, ranking.WeightingLinks, true)
	if err != nil || all[0].Site != "facebook.com" || all[0].Standing != (ranking.Standing{}) || all[3].OPICRank != 1 {
		t.Errorf("rank with platforms: %+v, %v; want the platforms unplaced and news.test #1", all, err)
	}
	list, err := a.Review.Sites(ctx, store.SiteQuery{Sort: "opic", Desc: true, Limit: 10})
	if err != nil || list.Rows[0].OPICRank != 0 || list.Rows[3].OPICRank != 1 {
		t.Errorf("sites: %+v, %v", list.Rows, err)
	}
	if _, err := a.Ranking.SetPlatform(ctx, "news.test", true, ""); err != nil {
		t.Fatal(err)
	}
	d, err := a.Review.Site(ctx, "blog.test", "")
	if err != nil || d.OPICRank != 1 || d.OPICScore != 100 {
		t.Errorf("blog.test after news.test moved in: rank %d score %d, %v; want #1 scoring 100", d.OPICRank, d.OPICScore, err)
	}
}

// TestCrawlTopLeavesOutPlatforms: the crawl status's top sites, as the
// Crawl page lists them, leave out the platform sites the Sites page
// hides, and count them: during and at the end of the crawl, and when the
// status is read back from the project by a later process. The four sites
// of the crawl link to one another and, from their footers, to three
// platforms, which rank above all but the seed when every link counts and
// is followed.
func TestCrawlTopLeavesOutPlatforms(t *testing.T) {
	hosts := []string{"news.test", "blog.test", "museum.test", "library.test"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if !slices.Contains(hosts, r.Host) {
			fmt.Fprint(w, "<!doctype html><title>Elsewhere</title><p>Nothing links from here.</p>")
			return
		}
		var nav strings.Builder
		for _, h := range hosts {
			if h != r.Host {
				fmt.Fprintf(&nav, `<a href="http://%s/">%s</a> `, h, h)
			}
		}
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><title>%s</title></head><body>
<nav>%s</nav><main><article><h1>News of the harbour</h1>
<p>The harbour of the old town was rebuilt three times in the last century, each time after a storm that the
chroniclers of the port describe at length, and the archive keeps their letters and the plans of the walls.</p>
</article></main>
<footer>Follow us: <a href="http://twitter.com/harbour">Twitter</a> <a href="http://www.facebook.com/harbour">Facebook</a>
<a href="http://www.youtube.com/@harbour">YouTube</a></footer></body></html>`, r.Host, nav.String())
	}))
	t.Cleanup(srv.Close)

	dir := filepath.Join(t.TempDir(), "project")
	p, err := project.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Project: p})
	req := crawling.CrawlRequest{Seeds: []string{"http://news.test/"}, Proxy: srv.URL, MaxPages: 20, NoWARC: true, Follow: "all",
		SettingsUpdate: project.SettingsUpdate{DelayMS: app.Set(1), Links: app.Set("all")}}
	var live []crawling.CrawlStatus
	st, err := a.Crawling.Run(context.Background(), req, time.Millisecond, func(s crawling.CrawlStatus) { live = append(live, s) })
	a.Close()
	p.Close()
	if err != nil || st.State != crawling.StateDone {
		t.Fatalf("crawl: %s, %v", st.State, err)
	}

	a, p, _ = apptest.OpenProject(t, dir)
	ctx := context.Background()
	_, all, err := p.Store.ListSites(ctx, store.SiteQuery{Sort: "opic", Desc: true})
	if err != nil {
		t.Fatal(err)
	}
	var ranked []string
	for _, r := range all {
		ranked = append(ranked, r.Site)
	}
	// The fixture is what it claims: the platforms rank above sites of the crawl.
	if len(all) != 7 || !sites.IsPlatform(all[1].Site) || sites.IsPlatform(all[6].Site) {
		t.Fatalf("sites by OPIC: %v; want the platforms above sites of the crawl", ranked)
	}
	var want []string
	for _, s := range ranked {
		if !sites.IsPlatform(s) {
			want = append(want, s)
		}
	}
	check := func(what string, st crawling.CrawlStatus, exact bool) {
		t.Helper()
		var got []string
		for _, s := range st.Top {
			if sites.IsPlatform(s.Site) {
				t.Errorf("%s: the top sites %v hold the platform %s", what, st.Top, s.Site)
			}
			got = append(got, s.Site)
		}
		if exact && (!slices.Equal(got, want) || st.TopPlatforms != 3) {
			t.Errorf("%s: top %v with %d platforms not shown; want %v and 3 (sites by OPIC: %v)", what, got, st.TopPlatforms, want, ranked)
		}
	}
	check("the crawl's last status", st, false)
	if st.TopPlatforms != 3 || len(st.Top) != len(hosts) {
		t.Errorf("the crawl's last status: top %v, %d platforms not shown; want the 4 sites and 3", st.Top, st.TopPlatforms)
	}
	for i, s := range live {
		check(fmt.Sprintf("live status %d (%s, %d pages)", i, s.State, s.Pages), s, false)
	}
	check("the status read back", a.Crawling.Status(), true)
}
