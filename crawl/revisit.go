package crawl

import "sitesift/sites"

// Revisit makes the crawl fetch urls again, in the order given, as a
// recrawl of a project does (default: none). They are queued after the
// frontier of [Resume] and before the seeds, each in its site's queue, so
// that within a site they go in this order; which site goes next is the
// strategy's choice, as in any crawl. Unlike seeds they do not set the
// scope and do not let the crawl reach private addresses ([AllowPrivate]):
// a host that was public when the page was first fetched and resolves to a
// private address now is refused. They are fetched whatever the scope —
// the project has them — and the links they have now are followed as in
// any crawl. URLs that do not normalise are skipped and counted in the
// log. A URL of urls that [Resume]'s Fetched names is not fetched: leave
// it out of Fetched.
func Revisit(urls []string) Option {
	return func(c *config) error {
		c.revisit = urls
		return nil
	}
}

// queueRevisits queues the URLs of the Revisit option. c.mu must be held.
func (c *Crawler) queueRevisits() {
	if len(c.cfg.revisit) == 0 {
		return
	}
	queued, skipped := 0, 0
	for _, raw := range c.cfg.revisit {
		n, err := sites.Normalize(raw)
		if err != nil {
			skipped++
			continue
		}
		s := c.site(c.cfg.siteRule.OfURL(mustParse(n)))
		if c.front.push(s, queuedURL{url: n}) {
			queued++
		}
	}
	if skipped > 0 {
		c.cfg.logger.Warn("revisit: URLs that do not normalise skipped", "count", skipped)
	}
	c.cfg.logger.Info("revisiting pages", "queued", queued)
}
