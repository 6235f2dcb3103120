package httpapi

import (
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/review"
	"sitesift/sites"
)

// TestSearchLanguageAPI: a search finds a French page by an inflected form
// of its words and a Japanese one by its character pairs, and each hit
// says the page's language.
func TestSearchLanguageAPI(t *testing.T) {
	_, p, h := testProject(t)
	page := func(lang, u, title, text string) sites.Page {
		site, err := sites.Of(u)
		if err != nil {
			t.Fatal(err)
		}
		return sites.Page{URL: u, Site: site, Status: 200, ContentType: "text/html", Title: title, Text: text, Language: lang}
	}
	if err := p.Index.Add([]sites.Page{
		page("fr", "http://presse.fr.test/kiosque", "La fin des kiosques",
			"Les journaux régionaux ferment leurs kiosques un à un, et les lecteurs se tournent vers les abonnements numériques."),
		page("ja", "http://news.jp.test/denchi", "東京大学の研究チームが新しい電池を開発",
			"東京大学の研究者たちは、充電時間を半分に短縮できる新しいリチウム電池を開発したと発表した。"),
	}); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]struct{ url, lang string }{
		"journal+site%3Apresse.fr.test": {"http://presse.fr.test/kiosque", "fr"}, // journaux
		"%E7%A0%94%E7%A9%B6":            {"http://news.jp.test/denchi", "ja"},    // 研究
	} {
		var res review.SearchResult
		apptest.Call(t, h, "GET", "/api/search?q="+q, "", 200, &res)
		if len(res.Hits) != 1 || res.Hits[0].URL != want.url || res.Hits[0].Language != want.lang {
			t.Errorf("q=%s: hits %+v, want %s in %q", q, res.Hits, want.url, want.lang)
		}
	}
}
