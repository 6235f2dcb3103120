package review

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"sitesift/app/fault"
	"sitesift/sites"
)

// PageText is one crawled page with its texts, as a librarian reads it:
// the main text search finds and the whole page's text, never indexed.
type PageText struct {
	Page
	// FullTextMissing is true for a page fetched before sitesift told a
	// page's main text from its template: its whole text was not kept
	// apart, its Text is the whole body's text the crawler kept then, and
	// its links all count as editorial. A page without any text (an image,
	// an empty page) is not one.
	FullTextMissing bool `json:"full_text_missing"`
}

// PageText returns the stored page of rawURL, which is made canonical as
// the crawler makes the URLs it keeps (scheme and host in lower case, no
// default port, no fragment, no tracking parameters: sites.Canonical). A URL that is no absolute http(s) URL is
// invalid; one the project has no page of is not found.
func (s *Service) PageText(ctx context.Context, rawURL string) (PageText, error) {
	if strings.TrimSpace(rawURL) == "" {
		return PageText{}, fault.Invalid(errors.New("page text: no URL given"))
	}
	u, err := sites.Canonical(rawURL)
	if err != nil {
		return PageText{}, fault.Invalid(fmt.Errorf("page text: %w", err))
	}
	p, err := s.store.PageText(ctx, u)
	if err != nil {
		return PageText{}, err
	}
	// The whole text holds the main text: empty beside a main text, it
	// was never kept.
	return PageText{Page: Page(p), FullTextMissing: p.FullText == "" && p.Text != ""}, nil
}
