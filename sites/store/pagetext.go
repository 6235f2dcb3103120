package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// PageText is one stored page with its texts, as a librarian reads it:
// its main text (what search finds) and the whole page's text, kept
// apart and never indexed.
type PageText struct {
	URL    string
	Site   string
	Status int
	Title  string
	// Text is the page's main content. A page fetched before the main
	// content was told from its template (migration 0017) holds its whole
	// text here, and an empty FullText.
	Text string
	// FullText is the whole body's text, template included; "" for a page
	// fetched before it was kept, and for one without text.
	FullText string
	// Language is the ISO 639-1 code of the main text's language, "" when
	// it could not be told.
	Language string
	// Published is the date the page says it was published, zero when it
	// says none.
	Published time.Time
	FetchedAt time.Time
	// EditorialLinks counts the page's links inside its main content;
	// TemplateLinks its others, including RepeatedLinks: those inside its
	// main content to a URL most pages of its site link to, which the
	// site graph takes for the template's (see [Store.RepetitionRule]).
	EditorialLinks int
	TemplateLinks  int
	RepeatedLinks  int
}

// PageText returns the stored page of url (its exact stored form: callers
// normalise it first), or an [ErrNotFound] error.
func (s *Store) PageText(ctx context.Context, url string) (PageText, error) {
	p := PageText{URL: url}
	var published, fetched sql.NullString
	// One statement reads one snapshot: the links counted are the page's
	// as it is read, even beside a crawl saving it again.
	err := s.rdb.QueryRowContext(ctx, `SELECT s.name, p.status, p.title, p.text, p.full_text, p.language,
			p.published, p.fetched_at,
			(SELECT COUNT(*) FROM links WHERE page_id = p.id AND editorial = 1),
			(SELECT COUNT(*) FROM links WHERE page_id = p.id AND editorial <> 1),
			(SELECT COUNT(*) FROM links WHERE page_id = p.id AND editorial = 2)
		FROM pages p JOIN sites s ON s.id = p.site_id
		WHERE p.url = ?`, url).Scan(&p.Site, &p.Status, &p.Title, &p.Text, &p.FullText, &p.Language,
		&published, &fetched, &p.EditorialLinks, &p.TemplateLinks, &p.RepeatedLinks)
	if errors.Is(err, sql.ErrNoRows) {
		return PageText{}, fmt.Errorf("store: page %q: %w", url, ErrNotFound)
	}
	if err != nil {
		return PageText{}, fmt.Errorf("store: page %q: %w", url, err)
	}
	if p.Published, err = parseNullTime(published); err != nil {
		return PageText{}, fmt.Errorf("store: page %q: published: %w", url, err)
	}
	if p.FetchedAt, err = parseNullTime(fetched); err != nil {
		return PageText{}, fmt.Errorf("store: page %q: fetched: %w", url, err)
	}
	return p, nil
}
