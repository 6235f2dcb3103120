package crawling

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/sites"
	"sitesift/sites/index"
	"sitesift/sites/store"
)

// changingWeb is a local web of nSites hosts s0.test … whose link
// structure changes when version is set to 1. In version 0 every page
// links to the front page of s0 (the hub) and of the next site; in version
// 1 the hub is s9 and s0's pages link nowhere but home and to s1;
// s3.test/p2 answers 404 and s4.test/p2 503 (every time).
type changingWeb struct {
	version atomic.Int32
}

const (
	changingSites = 10
	changingPages = 6 // per site: / and /p1 … /p5
)

func (w *changingWeb) links(site, page int) []string {
	var out []string
	for p := range changingPages {
		if p != page {
			out = append(out, pageURL(site, p))
		}
	}
	next := (site + 1) % changingSites
	if w.version.Load() == 0 {
		if site != 0 {
			out = append(out, pageURL(0, 0))
		}
	} else if site != 0 && site != 9 {
		out = append(out, pageURL(9, 0))
	}
	return append(out, pageURL(next, 0))
}

func pageURL(site, page int) string {
	if page == 0 {
		return fmt.Sprintf("http://s%d.test/", site)
	}
	return fmt.Sprintf("http://s%d.test/p%d", site, page)
}

func (w *changingWeb) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	var site, page int
	if _, err := fmt.Sscanf(r.URL.Host, "s%d.test", &site); err != nil || site >= changingSites {
		http.NotFound(rw, r)
		return
	}
	switch p := r.URL.Path; {
	case p == "/":
	case len(p) == 3 && p[:2] == "/p" && p[2] >= '1' && p[2] < '1'+changingPages-1:
		page = int(p[2] - '0')
	default:
		http.NotFound(rw, r)
		return
	}
	if w.version.Load() == 1 {
		switch {
		case site == 3 && page == 2:
			http.NotFound(rw, r)
			return
		case site == 4 && page == 2:
			http.Error(rw, "busy", http.StatusServiceUnavailable)
			return
		}
	}
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	var b strings.Builder
	fmt.Fprintf(&b, "<html><head><title>s%d page %d v%d</title></head><body><p>words of version %d</p>",
		site, page, w.version.Load(), w.version.Load())
	for _, l := range w.links(site, page) {
		fmt.Fprintf(&b, `<a href="%s">x</a> `, l)
	}
	b.WriteString("</body></html>")
	fmt.Fprint(rw, b.String())
}

// l1 is the L1 distance between two distributions over the same sites.
func l1(a, b map[string]float64) float64 {
	var d float64
	for k, v := range a {
		d += math.Abs(v - b[k])
	}
	for k, v := range b {
		if _, ok := a[k]; !ok {
			d += math.Abs(v)
		}
	}
	return d
}

// TestRecrawlFollowsAChangingWeb crawls a web, changes its links, and
// recrawls it: the site graph must be exactly the new web's (the 503
// page's old links kept), the 404 page gone, the 503 one kept, and the
// importance must move towards the new graph's PageRank, closer than
// before the recrawl and than the full history.
func TestRecrawlFollowsAChangingWeb(t *testing.T) {
	web := &changingWeb{}
	srv := httptest.NewServer(web)
	defer srv.Close()
	p := openProject(t, t.TempDir(), true)
	defer p.Close()
	a := newService(p)
	defer a.Close()
	ctx := context.Background()
	// Every page of a site of this web links to the same few URLs, which
	// the repetition rule counts as the template's on the editorial graph:
	// the test follows the graph of all links.
	if _, err := a.ranking.SetSettings(ctx, project.SettingsUpdate{Links: new("all")}); err != nil {
		t.Fatal(err)
	}
	settings := project.SettingsUpdate{DelayMS: new(0), Parallel: new(4)}
	req := CrawlRequest{Seeds: []string{pageURL(1, 0)}, MaxPages: 500, SettingsUpdate: settings, Proxy: srv.URL, NoWARC: true}
	if st, err := a.Run(ctx, req, time.Second, nil); err != nil || st.State != StateDone {
		t.Fatalf("crawl: %+v, %v", st, err)
	}
	if st, err := a.Run(ctx, CrawlRequest{Recrawl: true, Seeds: []string{pageURL(1, 0)}, Proxy: srv.URL}, time.Second, nil); err == nil {
		t.Fatalf("a recrawl with seeds was not refused: %+v", st)
	}
	states, err := p.Store.OPICStates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	before := importanceShares(states)

	web.version.Store(1)
	st, err := a.Run(ctx, CrawlRequest{Recrawl: true, SettingsUpdate: settings, Proxy: srv.URL, NoWARC: true}, time.Second, nil)
	if err != nil || st.State != StateDone || st.Recrawl == nil || !st.Recrawl.Finished {
		t.Fatalf("recrawl: %+v, %v", st, err)
	}
	r := st.Recrawl
	n := changingSites * changingPages
	// Every page of s0 and s9 changes (their links), and every other
	// page (its hub link), but the two that fail; none is new.
	if r.Round != 1 || r.Revisit != n || r.Changed != n-2 || r.Gone != 1 || r.Failed != 1 || r.New != 0 || r.Unchanged != 0 {
		t.Errorf("recrawl report %+v, want round 1, %d revisited, %d changed, 1 gone, 1 failed", r, n, n-2)
	}
	// The hub's old and new sites are among those that moved most (the
	// order among the first few depends on the crawl's order).
	top := map[string]bool{}
	for _, m := range r.Moved[:min(3, len(r.Moved))] {
		top[m.Site] = true
	}
	if !top["s0.test"] && !top["s9.test"] {
		t.Errorf("moved most: %+v, want s0.test or s9.test among the first three", r.Moved)
	}

	// The site graph is the new web's: w(S→T) = distinct pages of S
	// linking to T, the 503 page keeping the links it had.
	want := map[[2]string]float64{}
	for s := range changingSites {
		for pg := range changingPages {
			links := web.links(s, pg)
			if s == 3 && pg == 2 {
				continue // gone: no out-links
			}
			if s == 4 && pg == 2 {
				web.version.Store(0)
				links = web.links(s, pg)
				web.version.Store(1)
			}
			seen := map[string]bool{}
			for _, l := range links {
				ts, _ := sites.RuleHost.Of(l)
				fs := fmt.Sprintf("s%d.test", s)
				if ts != fs && !seen[ts] {
					seen[ts] = true
					want[[2]string{fs, ts}]++
				}
			}
		}
	}
	names, edges, err := p.Store.SiteGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[[2]string]float64{}
	for _, e := range edges {
		got[[2]string{e.From, e.To}] = e.Weight
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("site graph after the recrawl:\n got %v\nwant %v", got, want)
	}
	if got[[2]string{"s5.test", "s0.test"}] != 0 || got[[2]string{"s4.test", "s0.test"}] != 1 {
		t.Errorf("s5→s0 = %v (want removed), s4→s0 = %v (want 1: the 503 page)", got[[2]string{"s5.test", "s0.test"}], got[[2]string{"s4.test", "s0.test"}])
	}

	// The 404 page is gone, kept, and out of the search; the 503 one is
	// kept as it was.
	pages := map[string]sites.Page{}
	if err := p.Store.ForEachPage(ctx, func(pg sites.Page) error { pages[pg.URL] = pg; return nil }); err != nil {
		t.Fatal(err)
	}
	if g := pages["http://s3.test/p2"]; g.Status != 404 || g.ErrClass != sites.ErrHTTP4xx || g.Title != "s3 page 2 v0" {
		t.Errorf("404 page: %+v, want kept as gone (404, title kept)", g)
	}
	if g := pages["http://s4.test/p2"]; g.Status != 200 || g.ErrClass != "" || g.Title != "s4 page 2 v0" {
		t.Errorf("503 page: %+v, want kept as it was", g)
	}
	if g := pages["http://s5.test/p2"]; g.Title != "s5 page 2 v1" {
		t.Errorf("changed page: %+v, want the new version", g)
	}
	for q, want := range map[string]uint64{`title:"s3 page 2"`: 0, `title:"s5 page 2 v1"`: 1, `title:"s5 page 2 v0"`: 0} {
		res, err := p.Index.Search(ctx, index.Query{Text: q, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != want {
			t.Errorf("search %s: %d hits, want %d", q, res.Total, want)
		}
	}

	// The importance moved towards the PageRank of the new graph.
	pr, err := ranking.PageRankOf(names, edges, a.teleport)
	if err != nil {
		t.Fatal(err)
	}
	if states, err = p.Store.OPICStates(ctx); err != nil {
		t.Fatal(err)
	}
	after := importanceShares(states)
	// The status's top sites are the importance shown, as stored.
	shown, err := a.shownShares(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i, ts := range st.Top {
		if math.Abs(ts.OPIC-shown[ts.Site]) > 1e-9 || i > 0 && ts.OPIC > st.Top[i-1].OPIC {
			t.Errorf("status top %d: %+v, importance shown %v", i, ts, shown[ts.Site])
		}
	}
	readings, rounds, err := p.Store.Readings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	full, err := windowImportance(project.WindowFullHistory, 1, readings, rounds, states)
	if err != nil {
		t.Fatal(err)
	}
	dBefore, dAfter, dFull := l1(before, pr), l1(after, pr), l1(full, pr)
	t.Logf("L1 distance to the new PageRank: before %.3f, after (%s) %.3f, full history %.3f", dBefore, project.DefaultWindow, dAfter, dFull)
	if !(dAfter < dBefore) || !(dAfter < dFull) {
		t.Errorf("after the recrawl the importance is %.3f from the new PageRank; before %.3f, full history %.3f", dAfter, dBefore, dFull)
	}
	// The old hub lost, the new one gained.
	if !(after["s9.test"] > before["s9.test"]) || !(after["s0.test"] < before["s0.test"]) {
		t.Errorf("s9 %.3f → %.3f, s0 %.3f → %.3f: want s9 up, s0 down", before["s9.test"], after["s9.test"], before["s0.test"], after["s0.test"])
	}

	// The site page's series: round 0 and round 1, with the changes.
	sr, err := a.SiteRecrawls(ctx, "s3.test")
	if err != nil {
		t.Fatal(err)
	}
	if len(sr.Rounds) != 2 || sr.Rounds[1].Gone != 1 || sr.Rounds[1].Changed != changingPages-1 || sr.Rounds[1].Importance <= 0 {
		t.Errorf("s3.test rounds: %+v", sr.Rounds)
	}
	if len(sr.Gone) != 1 || sr.Gone[0].URL != "http://s3.test/p2" || sr.Gone[0].Status != 404 || sr.Gone[0].Title != "s3 page 2 v0" {
		t.Errorf("s3.test gone pages: %+v", sr.Gone)
	}
	if _, err := a.SiteRecrawls(ctx, "nowhere.test"); err == nil {
		t.Error("rounds of an unknown site: no error")
	}
}

// waitFor polls cond until it holds, failing the test after 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestRecrawlStoppedAndContinued stops a recrawl after a few pages: its
// round stays open, and the next recrawl continues it, revisiting only the
// pages left, then closes it; together they revisited every page once.
func TestRecrawlStoppedAndContinued(t *testing.T) {
	web := &changingWeb{}
	srv := httptest.NewServer(web)
	defer srv.Close()
	p := openProject(t, t.TempDir(), true)
	defer p.Close()
	a := newService(p)
	defer a.Close()
	ctx := context.Background()
	fast := project.SettingsUpdate{DelayMS: new(0), Parallel: new(4)}
	if st, err := a.Run(ctx, CrawlRequest{Seeds: []string{pageURL(1, 0)}, SettingsUpdate: fast, Proxy: srv.URL, NoWARC: true}, time.Second, nil); err != nil || st.State != StateDone {
		t.Fatalf("crawl: %+v, %v", st, err)
	}
	n := changingSites * changingPages

	// Slow enough to be stopped halfway: one site at a time, 30 ms apart.
	slow := project.SettingsUpdate{DelayMS: new(30), Parallel: new(1)}
	if _, err := a.Start(CrawlRequest{Recrawl: true, SettingsUpdate: slow, Proxy: srv.URL, NoWARC: true}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "10 pages recrawled", func() bool { return a.Status().Pages >= 10 })
	if _, err := a.Start(CrawlRequest{Recrawl: true, Proxy: srv.URL}); err == nil {
		t.Error("a second recrawl while one runs was not refused")
	}
	if _, err := a.Stop(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the recrawl stopped", func() bool { return a.Status().State == StateStopped })
	first := a.Status().Recrawl
	if first == nil || first.Finished || first.Unchanged == 0 || first.Unchanged >= n {
		t.Fatalf("stopped recrawl: %+v, want some pages unchanged and not finished", first)
	}
	r, open, err := p.Store.OpenRound(ctx)
	if err != nil || !open || r.Round != 1 {
		t.Fatalf("open round after the stop: %+v %v %v", r, open, err)
	}

	st, err := a.Run(ctx, CrawlRequest{Recrawl: true, SettingsUpdate: fast, Proxy: srv.URL, NoWARC: true}, time.Second, nil)
	if err != nil || st.Recrawl == nil || !st.Recrawl.Finished {
		t.Fatalf("continued recrawl: %+v, %v", st, err)
	}
	if st.Recrawl.Round != 1 || st.Recrawl.Revisit != n-first.Unchanged || st.Recrawl.Unchanged != n {
		t.Errorf("continued recrawl: %+v; want round 1 revisiting the %d pages left, %d unchanged in all", st.Recrawl, n-first.Unchanged, n)
	}
	if _, open, _ := p.Store.OpenRound(ctx); open {
		t.Error("the round is still open after the continued recrawl ended")
	}
	// The next recrawl is a new round.
	st, err = a.Run(ctx, CrawlRequest{Recrawl: true, SettingsUpdate: fast, Proxy: srv.URL, NoWARC: true}, time.Second, nil)
	if err != nil || st.Recrawl == nil || st.Recrawl.Round != 2 || st.Recrawl.Revisit != n {
		t.Errorf("next recrawl: %+v, %v; want round 2 revisiting %d pages", st.Recrawl, err, n)
	}
}

// TestRecrawlJournalReplayed saves, at the next open, the recrawl records a
// kill kept from the store, as the recrawl would have: a changed page is
// replaced, its round counts it.
func TestRecrawlJournalReplayed(t *testing.T) {
	web := &changingWeb{}
	srv := httptest.NewServer(web)
	defer srv.Close()
	dir := t.TempDir()
	p := openProject(t, dir, true)
	a := newService(p)
	ctx := context.Background()
	if st, err := a.Run(ctx, CrawlRequest{Seeds: []string{pageURL(1, 0)}, SettingsUpdate: project.SettingsUpdate{DelayMS: new(0)}, Proxy: srv.URL, NoWARC: true}, time.Second, nil); err != nil || st.State != StateDone {
		t.Fatalf("crawl: %+v, %v", st, err)
	}
	if _, err := p.Store.StartRound(ctx); err != nil { // a recrawl began, then the kill
		t.Fatal(err)
	}
	a.Close()
	p.Close()

	changed := sites.Page{URL: "http://s2.test/p1", Site: "s2.test", Status: 200, ContentType: "text/html",
		Title: "s2 page 1 v1", Text: "new words", Links: []string{"http://s9.test/"}, FetchedAt: time.Now()}
	j, err := project.OpenJournal(dir, project.RecrawlJournalFile, nil)
	if err != nil {
		t.Fatal(err)
	}
	j.Write(changed)
	if err := j.Close(false); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, project.RecrawlJournalFile), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"URL": "http://s2.test/p2", "Sit`) // the line the kill cut short
	f.Close()

	p = openProject(t, dir, false)
	defer p.Close()
	pages := map[string]sites.Page{}
	if err := p.Store.ForEachPage(ctx, func(pg sites.Page) error { pages[pg.URL] = pg; return nil }); err != nil {
		t.Fatal(err)
	}
	if got := pages[changed.URL]; got.Title != changed.Title {
		t.Errorf("replayed page: %+v, want the new version", got)
	}
	rs, err := p.Store.Rounds(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[1].Changed != 1 || !rs[1].FinishedAt.IsZero() {
		t.Errorf("rounds after the replay: %+v, want round 1 open with 1 page changed", rs)
	}
	revisit, err := p.Store.RevisitList(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(revisit) != changingSites*changingPages-1 || slices.Contains(revisit, changed.URL) {
		t.Errorf("revisit list after the replay: %d pages, want all but the replayed one", len(revisit))
	}
	if n, _ := p.Store.Unindexed(ctx); n != 0 {
		t.Errorf("%d pages left unindexed after the open", n)
	}
}

// windowImportance over three rounds in which two sites swap places: the
// full history averages them, a window of the last crawl follows the last
// round, a window of two the last two.
func TestWindowImportance(t *testing.T) {
	rounds := []store.Round{{Round: 0, G: 10}, {Round: 1, G: 20}, {Round: 2, G: 30}}
	for i := range rounds {
		rounds[i].FinishedAt = time.Unix(int64(i+1), 0)
	}
	// a receives 8, 8, 2 of each round's 10; b 2, 2, 8.
	readings := []store.SiteReading{
		{Site: "a", Round: 0, Received: 8}, {Site: "b", Round: 0, Received: 2},
		{Site: "a", Round: 1, Received: 8}, {Site: "b", Round: 1, Received: 2},
		{Site: "a", Round: 2, Received: 2}, {Site: "b", Round: 2, Received: 8},
	}
	noCash := []sites.SiteState{{Site: "a"}, {Site: "b"}}
	tests := []struct {
		policy string
		size   int
		wantA  float64
	}{
		{project.WindowFullHistory, 1, 18.0 / 30},
		{project.WindowVariable, 1, 0.2},
		{project.WindowFixed, 1, 0.2},
		{project.WindowVariable, 2, 0.5},
		{project.WindowFixed, 2, 0.5},
		{project.WindowVariable, 3, 18.0 / 30},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s-%d", tt.policy, tt.size), func(t *testing.T) {
			est, err := windowImportance(tt.policy, tt.size, readings, rounds, noCash)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(est["a"]-tt.wantA) > 1e-12 || math.Abs(est["a"]+est["b"]-1) > 1e-12 {
				t.Errorf("a %v, b %v; want a %v, summing to 1", est["a"], est["b"], tt.wantA)
			}
		})
	}
	if _, err := windowImportance("median", 1, readings, rounds, noCash); err == nil {
		t.Error("an unknown policy was accepted")
	}
}

// The window settings: the defaults, a change kept, bad values refused.
func TestWindowSettings(t *testing.T) {
	p := openProject(t, t.TempDir(), true)
	defer p.Close()
	a := newService(p)
	defer a.Close()
	ctx := context.Background()
	s, err := a.project.Settings(ctx)
	if err != nil || s.Window != project.DefaultWindow || s.WindowSize != project.DefaultWindowSize {
		t.Fatalf("defaults %+v, %v", s, err)
	}
	if _, err := a.ranking.SetSettings(ctx, project.SettingsUpdate{Window: new(project.WindowFixed), WindowSize: new(3)}); err != nil {
		t.Fatal(err)
	}
	for _, u := range []project.SettingsUpdate{{Window: new("median")}, {WindowSize: new(0)}, {WindowSize: new(101)}} {
		if _, err := a.ranking.SetSettings(ctx, u); fault.KindOf(err) != fault.KindInvalid {
			t.Errorf("update %+v: %v, want invalid", u, err)
		}
	}
	if s, err := a.project.Settings(ctx); err != nil || s.Window != project.WindowFixed || s.WindowSize != 3 {
		t.Errorf("kept %+v, %v; want fixed, 3", s, err)
	}
}

// importanceShares is every site's running OPIC estimate, history plus
// cash, as a share of the total.
func importanceShares(states []sites.SiteState) map[string]float64 {
	out := make(map[string]float64, len(states))
	var total float64
	for _, s := range states {
		total += s.History + s.Cash
	}
	for _, s := range states {
		if total > 0 {
			out[s.Site] = (s.History + s.Cash) / total
		}
	}
	return out
}
