package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"sitesift/sites"
)

// TestPageText: a stored page reads back with its main and whole texts,
// language, publication date and its links counted by kind (a URL both
// editorial and template counts once, as editorial; an editorial link the
// repetition rule marks counts as the template's); a page that says no
// date has none, and an unknown URL is ErrNotFound.
func TestPageText(t *testing.T) {
	t.Parallel()
	s := openTest(t)
	ctx := context.Background()
	p := page(t, "http://news.test/story", "http://a.test/", "http://b.test/", "http://news.test/other")
	p.Text = "The story itself."
	p.FullText = "Home News Sport The story itself. Share Follow us © 2026"
	p.Language = "en"
	p.Published = time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC)
	p.TemplateLinks = []string{"http://news.test/", "http://b.test/", "http://share.test/x", "http://news.test/about"}
	bare := page(t, "http://news.test/bare")
	save(t, s, []sites.Page{p, bare}, nil)

	got, err := s.PageText(ctx, p.URL)
	if err != nil {
		t.Fatal(err)
	}
	want := PageText{URL: p.URL, Site: "news.test", Status: 200, Title: p.Title, Text: p.Text, FullText: p.FullText,
		Language: "en", Published: p.Published, FetchedAt: p.FetchedAt, EditorialLinks: 3, TemplateLinks: 3}
	if got != want {
		t.Errorf("PageText(%s) =\n%+v, want\n%+v", p.URL, got, want)
	}
	got, err = s.PageText(ctx, bare.URL)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Published.IsZero() || got.FullText != "" || got.Text != bare.Text || got.EditorialLinks+got.TemplateLinks != 0 {
		t.Errorf("PageText(%s) = %+v, want no date, no whole text, no links", bare.URL, got)
	}
	if _, err := s.PageText(ctx, "http://news.test/none"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown page: %v, want ErrNotFound", err)
	}

	// Every page of blog.test links to its sister site from its main text:
	// the repetition rule makes those links the template's.
	var posts []sites.Page
	for i := range RepeatedMinPages {
		posts = append(posts, page(t, fmt.Sprintf("http://blog.test/%d", i), "http://sister.test/", "http://a.test/"))
	}
	posts[0].Links = append(posts[0].Links[:1], "http://c.test/")
	save(t, s, posts, nil)
	if _, err := s.RepetitionRule(ctx); err != nil {
		t.Fatal(err)
	}
	got, err = s.PageText(ctx, "http://blog.test/1")
	if err != nil {
		t.Fatal(err)
	}
	if got.EditorialLinks != 1 || got.TemplateLinks != 1 || got.RepeatedLinks != 1 {
		t.Errorf("a post's links: %d editorial, %d template of which %d repeated; want 1, 1, 1",
			got.EditorialLinks, got.TemplateLinks, got.RepeatedLinks)
	}
}
