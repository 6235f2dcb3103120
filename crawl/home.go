package crawl

import (
	"net/url"

	"sitesift/sites"
)

// HomePages makes the crawl ask for the home page of each site it fetches
// a page of, once a site (default false: only what the seeds and links
// lead to). A crawler handed a site starts best from its home page, and
// the crawl then knows whether it answers; it goes first in the site's
// queue and is fetched as any page of the crawl, within its page caps,
// robots.txt and politeness delay, and only where the crawl's scope,
// include and exclude expressions and MaxDepth take it, one link deeper
// than the page that led to the site.
func HomePages(on bool) Option {
	return func(c *config) error {
		c.homePages = on
		return nil
	}
}

// askHome queues, with HomePages, the home page of the host of page, a
// page of s fetched fine from the queued URL q, when page is the first of
// s fetched fine, whatever page brought the crawl to the site (an article
// deep in it, most often). c.mu must be held.
func (c *Crawler) askHome(s *siteQueue, page string, q queuedURL) {
	if !c.cfg.homePages || s.homeAsked || s.closed {
		return
	}
	s.homeAsked = true
	u, err := url.Parse(page)
	if err != nil || u.Host == "" {
		return
	}
	home, err := sites.Canonical(u.Scheme + "://" + u.Host + "/")
	if err != nil || c.front.seen(home) {
		return
	}
	hu := mustParse(home)
	// Out of scope it is left out, whatever MaxHops allows a link.
	if _, drop := c.admits(home, hu, s.name, q.depth+1, c.scope.maxHops); drop != "" {
		return
	}
	c.takeTemplate(home) // followed now, whatever a footer elsewhere left out
	c.front.pushFirst(s, queuedURL{url: home, depth: q.depth + 1, via: page})
}

// pushFirst queues q (a normalised URL of site s, never seen) before the
// other discovered URLs waiting in s; s's seeds still go first.
func (f *frontier) pushFirst(s *siteQueue, q queuedURL) {
	f.urls[q.url] = urlEntry{state: urlQueued, site: int32(s.id)}
	if s.head > 0 {
		s.head--
		s.queue[s.head] = q
	} else {
		s.queue = append([]queuedURL{q}, s.queue...)
	}
	s.waiting++
	f.queued++
}
