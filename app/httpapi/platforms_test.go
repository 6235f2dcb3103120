package httpapi

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/exports"
	"sitesift/app/ranking"
	"sitesift/app/review"
	"sitesift/sites"
)

// TestPlatformsAPI: the sites listing keeps the platform sites alone or
// leaves them out, with their count; GET /api/platforms counts them for the
// Crawl page; PUT /api/sites/{site}/platform moves a site in or out; the
// exports leave them out with a "platform" reason, in the left-out header
// and GET /api/export/{what}/left-out, unless include_platforms.
func TestPlatformsAPI(t *testing.T) {
	ctx := context.Background()
	a, p := apptest.EmptyProject(t)
	template := []string{"https://www.youtube.com/@news", "https://bit.ly/x"}
	if err := p.Store.SaveCrawlBatch(ctx, []sites.Page{
		apptest.Page(t, "http://news.test/", append(template, "http://blog.test/")...),
		apptest.Page(t, "http://news.test/a", "https://www.youtube.com/@news"),
		apptest.Page(t, "http://blog.test/", append(template, "http://news.test/")...),
		apptest.Page(t, "http://blog.test/b", "http://news.test/"),
	}, nil); err != nil {
		t.Fatal(err)
	}
	// youtube.com, linked from three pages, then bit.ly, news.test (linked
	// from two pages of blog.test) and blog.test.
	if _, err := a.Ranking.UpdateImportance(ctx); err != nil {
		t.Fatal(err)
	}
	h := New(a)
	names := func(l review.SiteList) []string {
		var out []string
		for _, r := range l.Rows {
			out = append(out, r.Site)
		}
		return out
	}
	var list review.SiteList
	apptest.Call(t, h, "GET", "/api/sites?platforms=none", "", 200, &list)
	if list.Total != 2 || list.Platforms != 2 || !slices.Equal(names(list), []string{"news.test", "blog.test"}) {
		t.Errorf("platforms=none: %d %v, %d platforms", list.Total, names(list), list.Platforms)
	}
	apptest.Call(t, h, "GET", "/api/sites?platforms=only", "", 200, &list)
	if list.Total != 2 || !slices.Equal(names(list), []string{"youtube.com", "bit.ly"}) || !list.Rows[0].Platform {
		t.Errorf("platforms=only: %d %v", list.Total, names(list))
	}
	apptest.Call(t, h, "GET", "/api/sites?platforms=maybe", "", 400, nil)

	var sum ranking.PlatformSummary
	apptest.Call(t, h, "GET", "/api/platforms", "", 200, &sum)
	if sum.Count != 2 || !slices.Equal(sum.Sites, []string{"youtube.com", "bit.ly"}) || sum.Note == "" {
		t.Errorf("platforms: %+v", sum)
	}

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "GET", "/api/export/top-k?count=5", nil))
	if rec.Code != 200 || rec.Body.String() != "http://news.test/\nhttp://blog.test/\n" ||
		rec.Header().Get(LeftOutHeader) != "left out 2 sites: 2 on the platforms list (social media, video, shorteners, CDNs, ads)" {
		t.Errorf("top-k: %d %q, header %q", rec.Code, rec.Body, rec.Header().Get(LeftOutHeader))
	}
	var left leftOut
	apptest.Call(t, h, "GET", "/api/export/heritrix-precedence/left-out", "", 200, &left)
	if !slices.Equal(left.LeftOut, []exports.LeftOut{{Reason: exports.LeftOutPlatform, Sites: 2}}) {
		t.Errorf("heritrix left out: %+v", left)
	}
	apptest.Call(t, h, "GET", "/api/export/top-k/left-out?include_platforms=true", "", 200, &left)
	if len(left.LeftOut) != 0 {
		t.Errorf("top-k with platforms left out %+v", left)
	}

	var ch ranking.PlatformChoice
	apptest.Call(t, h, "PUT", "/api/sites/bit.ly/platform", `{"platform":false}`, 200, &ch)
	if ch.Site != "bit.ly" || ch.Platform || !ch.Listed {
		t.Errorf("bit.ly moved out: %+v", ch)
	}
	apptest.Call(t, h, "PUT", "/api/sites/news.test/platform", `{}`, 400, nil)
	apptest.Call(t, h, "PUT", "/api/sites/nowhere.test/platform", `{"platform":true}`, 404, nil)
	var detail struct {
		Platform bool `json:"platform"`
		Listed   bool `json:"platform_listed"`
		Chosen   bool `json:"platform_chosen"`
	}
	apptest.Call(t, h, "GET", "/api/sites/bit.ly", "", 200, &detail)
	if detail.Platform || !detail.Listed || !detail.Chosen {
		t.Errorf("bit.ly detail: %+v", detail)
	}
	apptest.AddLibrarians(t, a, "ana")
	var q review.ReviewQueue
	apptest.Call(t, h, "GET", "/api/review/queue?librarian=ana", "", 200, &q)
	if q.Total != 3 || q.Platforms != 1 {
		t.Errorf("queue: total %d, platforms %d; want 3 and 1", q.Total, q.Platforms)
	}
	apptest.Call(t, h, "GET", "/api/review/queue?librarian=ana&include_platforms=1", "", 200, &q)
	if q.Total != 4 || q.Platforms != 0 {
		t.Errorf("queue with platforms: total %d, platforms %d", q.Total, q.Platforms)
	}
}
