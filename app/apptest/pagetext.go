package apptest

import (
	"context"
	"testing"
	"time"

	"sitesift/sites"
)

// Pages of TextsProject.
const (
	// StoryURL is a news story: its main text, a whole text around it,
	// English, published on 5 March 2024, with two editorial links and
	// three template links.
	StoryURL = "http://news.test/2024/story"
	// StoryText and StoryFullText are its main text and whole text.
	StoryText     = "The river rose two metres overnight and the old bridge closed."
	StoryFullText = "Home News Sport Weather " + StoryText + " Share on social media Follow us Contact © 2026 News Test"
	// OldURL is a page fetched before sitesift told a page's main text
	// from its template: its text is the whole body's, its whole text was
	// not kept apart, its one link has no kind (editorial).
	OldURL  = "http://old.test/"
	OldText = "Welcome to the old site. Menu Home About A page kept the old way."
)

// TextsProject builds a project of the pages StoryURL, OldURL and an
// image with no text, and returns its directory, closed.
func TextsProject(t testing.TB) string {
	t.Helper()
	dir, p := create(t)
	defer p.Close()
	story := Page(t, StoryURL, "http://river.test/levels", "http://council.test/bridge")
	story.Title, story.Text, story.FullText, story.Language = "The river rises", StoryText, StoryFullText, "en"
	story.Published = time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC)
	story.TemplateLinks = []string{"http://news.test/", "http://news.test/sport", "http://share.test/?u=story"}
	story.FetchedAt = time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC)
	old := Page(t, OldURL, "http://news.test/")
	old.Title, old.Text = "The old site", OldText
	img := Page(t, "http://news.test/river.jpg")
	img.ContentType, img.Title = "image/jpeg", ""
	if err := p.Store.SaveCrawlBatch(context.Background(), []sites.Page{story, old, img}, nil); err != nil {
		t.Fatal(err)
	}
	return dir
}
