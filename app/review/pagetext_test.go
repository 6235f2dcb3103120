package review_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"sitesift/app/apptest"
	"sitesift/app/fault"
)

// TestPageText: a page reads back with its main text, its whole text,
// language, date and links by kind, whatever the spelling of its URL; a
// page fetched before the whole text was kept says so, one without text
// does not; an unknown page is not found, a missing or bad URL invalid.
func TestPageText(t *testing.T) {
	a, _ := apptest.Open(t, apptest.TextsProject(t))
	ctx := context.Background()

	p, err := a.Review.PageText(ctx, "  HTTP://News.TEST:80/2024/story#top ")
	if err != nil {
		t.Fatal(err)
	}
	if p.URL != apptest.StoryURL || p.Site != "news.test" || p.Title != "The river rises" ||
		p.Text != apptest.StoryText || p.FullText != apptest.StoryFullText || p.Language != "en" ||
		!p.Published.Equal(time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC)) ||
		p.EditorialLinks != 2 || p.TemplateLinks != 3 || p.FullTextMissing {
		t.Errorf("the story: %+v", p)
	}

	// A URL pasted from a shared link finds the page the crawl kept.
	if p, err := a.Review.PageText(ctx, "http://news.test/2024/story?utm_source=twitter&share=email"); err != nil || p.URL != apptest.StoryURL {
		t.Errorf("the story by a shared link: %+v, %v", p, err)
	}

	p, err = a.Review.PageText(ctx, apptest.OldURL)
	if err != nil {
		t.Fatal(err)
	}
	if !p.FullTextMissing || p.Text != apptest.OldText || p.FullText != "" || p.EditorialLinks != 1 {
		t.Errorf("the old page: %+v, want its whole text said missing", p)
	}
	if p, err = a.Review.PageText(ctx, "http://news.test/river.jpg"); err != nil || p.FullTextMissing {
		t.Errorf("an image: %+v %v, want no text and nothing missing", p, err)
	}

	for _, c := range []struct {
		url  string
		kind fault.Kind
		says string
	}{
		{"http://news.test/2024/other", fault.KindNotFound, `"http://news.test/2024/other"`},
		{"", fault.KindInvalid, "no URL"},
		{"ftp://news.test/story", fault.KindInvalid, `"ftp://news.test/story"`},
		{"news.test/2024/story", fault.KindInvalid, `"news.test/2024/story"`},
	} {
		_, err := a.Review.PageText(ctx, c.url)
		if fault.KindOf(err) != c.kind || !strings.Contains(err.Error(), c.says) {
			t.Errorf("PageText(%q) = %v (%s), want %s naming %s", c.url, err, fault.KindOf(err), c.kind, c.says)
		}
	}
}
