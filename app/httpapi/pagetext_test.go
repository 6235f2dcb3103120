package httpapi

import (
	"context"
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"sitesift/app/apptest"
	"sitesift/app/review"
)

// TestPageTextAPI: GET /api/pages/text answers a page's main text and whole
// text with its language, date and links by kind, under the documented
// names; a page fetched before the whole text was kept says so; a missing
// or bad url is 400, an unknown page 404; it is a plain read, open to a
// request from another web site, which cannot read the answer.
func TestPageTextAPI(t *testing.T) {
	a, _ := apptest.Open(t, apptest.TextsProject(t))
	h := New(a, Assets(fstest.MapFS{"index.html": {Data: []byte("<title>sitesift</title>")}}))

	var got map[string]any
	apptest.Call(t, h, "GET", "/api/pages/text?url="+url.QueryEscape(apptest.StoryURL), "", 200, &got)
	keys := slices.Sorted(maps.Keys(got))
	want := []string{"editorial_links", "fetched_at", "full_text", "full_text_missing", "language", "published",
		"repeated_links", "site", "status", "template_links", "text", "title", "url"}
	if !slices.Equal(keys, want) {
		t.Errorf("fields %v, want %v", keys, want)
	}
	if got["url"] != apptest.StoryURL || got["site"] != "news.test" || got["text"] != apptest.StoryText ||
		got["full_text"] != apptest.StoryFullText || got["language"] != "en" || got["published"] != "2024-03-05T00:00:00Z" ||
		got["editorial_links"] != 2.0 || got["template_links"] != 3.0 || got["full_text_missing"] != false {
		t.Errorf("the story: %v", got)
	}

	var old review.PageText
	apptest.Call(t, h, "GET", "/api/pages/text?url="+url.QueryEscape(apptest.OldURL), "", 200, &old)
	if !old.FullTextMissing || old.Text != apptest.OldText {
		t.Errorf("the old page: %+v, want its whole text said missing", old)
	}
	var raw map[string]any
	apptest.Call(t, h, "GET", "/api/pages/text?url="+url.QueryEscape(apptest.OldURL), "", 200, &raw)
	if _, ok := raw["published"]; ok {
		t.Errorf("a page that says no date: published %v, want it absent", raw["published"])
	}

	for _, c := range []struct {
		path   string
		status int
		says   string
	}{
		{"/api/pages/text", 400, "no URL"},
		{"/api/pages/text?url=ftp%3A%2F%2Fnews.test%2F", 400, "not an http(s) URL"},
		{"/api/pages/text?url=" + url.QueryEscape("http://news.test/none"), 404, `"http://news.test/none"`},
	} {
		env := apptest.Call(t, h, "GET", c.path, "", c.status, nil)
		if !strings.Contains(env.Error, c.says) {
			t.Errorf("GET %s: %q, want it to say %s", c.path, env.Error, c.says)
		}
	}

	status, env := getAs(t, h, context.Background(), "/api/pages/text?url="+url.QueryEscape(apptest.StoryURL), imgOfOtherSite)
	var p review.PageText
	json.Unmarshal(env.Data, &p)
	if status != 200 || p.Text != apptest.StoryText {
		t.Errorf("plain read from another site: %d %q, want 200", status, env.Error)
	}
}
