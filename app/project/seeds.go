package project

import (
	"context"
	"fmt"
	"net/url"
	"sitesift/sites"
	"strings"
)

// SeedURLs returns the seed URL of each site named that the crawl fetched
// (all the project's sites when names is nil): the URL a crawler handed
// the site starts from. It is the site's home page where the crawl saw it
// answer, 2xx or a redirect to a page of the site that answered 2xx (the
// crawl asks the home page of every site it fetches a page of), otherwise
// its shallowest page that answered 2xx. The site rule groups hosts into
// one site, so a site's name need not be a host that answered (wday.ru's
// pages are on www.wday.ru): its seed is a URL the crawl saw answer, never
// a home page made up from the name. Shallowest is fewest path segments,
// then no query, then https over http, then the shorter URL, then the
// first in byte order, so that the choice never depends on the order pages
// are read. A URL that redirected is a seed only as a home page: a crawler
// that starts there lands where the crawl landed.
func (p *Project) SeedURLs(ctx context.Context, names []string) (map[string]string, error) {
	// A site's best so far keeps its depth: each of a crawl's pages is
	// parsed once, not again for every page of its site that follows.
	type seed struct {
		url   string
		depth int
	}
	best := map[string]seed{}
	err := p.Store.FetchedURLs(ctx, names, func(site, u string, redirect bool) error {
		d := pathSegments(u)
		if redirect && (d != 0 || strings.Contains(u, "?")) {
			return nil
		}
		if cur, ok := best[site]; !ok || shallower(u, d, cur.url, cur.depth) {
			best[site] = seed{u, d}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("seed URLs: %w", err)
	}
	urls := make(map[string]string, len(best))
	for site, s := range best {
		urls[site] = s.url
	}
	return urls, nil
}

// SeedOf returns the seed of site from the fetched seeds of SeedURLs, and
// whether a fetch checked it. A site with no page that answered (an
// imported graph's, or one known from links only) stands for http://SITE/,
// not checked.
func SeedOf(fetched map[string]string, site string) (string, bool) {
	if u, ok := fetched[site]; ok {
		return u, true
	}
	return sites.HomeURL(site), false
}

// shallower reports whether URL x, of sx path segments, makes a better
// seed than y, of sy (see [Project.SeedURLs]).
func shallower(x string, sx int, y string, sy int) bool {
	if sx != sy {
		return sx < sy
	}
	if qx, qy := strings.Contains(x, "?"), strings.Contains(y, "?"); qx != qy {
		return qy
	}
	hx, hy := strings.HasPrefix(x, "https:"), strings.HasPrefix(y, "https:")
	if hx != hy {
		return hx
	}
	if len(x) != len(y) {
		return len(x) < len(y)
	}
	return x < y
}

// pathSegments counts the non-empty segments of the path of URL u: 0 for
// a home page, with or without a query. An unparsable URL counts as deep.
func pathSegments(u string) int {
	p, err := url.Parse(u)
	if err != nil {
		return 1 << 30
	}
	n := 0
	for _, s := range strings.Split(p.EscapedPath(), "/") {
		if s != "" {
			n++
		}
	}
	return n
}

// SiteName is the site a person names, by the project's site rule: a URL
// ("http://www.example.org/page") stands for its site, and a site name is
// mapped as the rule maps hosts ("www.example.org" is "example.org" under
// host-www), so that any spelling finds the site.
func (p *Project) SiteName(s string) string {
	rule := p.Store.SiteRule()
	if strings.Contains(s, "://") {
		if site, err := rule.Of(s); err == nil {
			return site
		}
	}
	return rule.Name(strings.TrimSpace(s))
}
