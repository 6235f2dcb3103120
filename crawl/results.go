package crawl

import (
	"fmt"
	"net/http"
	"time"

	"sitesift/sites"
)

// finish records the outcome of fetching q from s. c.mu must be held.
func (c *Crawler) finish(s *siteQueue, rq retryURL, r fetchResult, doc document) {
	s.busy = false
	c.inflight--
	q := rq.queuedURL
	if q.seed {
		c.seedsOpen-- // again in retryLater when it is tried again
	}
	log := c.cfg.logger
	switch r.kind {
	case fetchRetry:
		rq.retries++
		log.Info("retrying later", "url", q.url, "status", r.status, "err", r.errMessage(),
			"retry", rq.retries, "wait", r.retryAt.Sub(c.cfg.clock.Now()).Round(time.Millisecond))
		c.retryLater(s, rq, r.retryAt)
		return
	case fetchRobotsWait:
		// The URL waits for its robots.txt, which is fetched again with
		// it; its own retries are not used up.
		log.Info("robots.txt unreachable, site closed for now", "url", q.url, "site", s.name,
			"err", r.errMessage(), "wait", r.retryAt.Sub(c.cfg.clock.Now()).Round(time.Millisecond))
		c.retryLater(s, rq, r.retryAt)
		return
	case fetchSlow:
		log.Info("site not crawled", "url", q.url, "site", s.name, "err", r.errMessage())
		c.record(sites.Page{URL: q.url, Site: s.name, Depth: q.depth, FetchedAt: r.at,
			Err: truncate(r.errMessage(), maxErrSize), ErrClass: sites.ErrSlow})
		return
	case fetchAborted:
		log.Debug("fetch aborted", "url", q.url)
		return
	case fetchRedirectDone:
		log.Debug("redirect to a page already fetched, not followed", "url", q.url, "final", r.redirect)
		c.recordRedirect(s, q, r.redirect, r)
		return
	case fetchDisallowed:
		c.disallow++
		log.Info("disallowed by robots.txt", "url", q.url, "site", s.name, "why", r.errMessage())
		c.record(sites.Page{URL: q.url, Site: s.name, Depth: q.depth, FetchedAt: r.at, Via: q.via,
			Err: truncate(r.errMessage(), maxErrSize), ErrClass: sites.ErrRobots})
		return
	case fetchRefused:
		c.refused++
		c.lastError = q.url + ": " + truncate(r.errMessage(), maxErrSize)
		log.Warn("refused", "url", q.url, "err", r.err)
		return
	case fetchFailed:
		c.errs++
		c.lastError = q.url + ": " + truncate(r.errMessage(), maxErrSize)
		log.Warn("fetch failed", "url", q.url, "err", r.err)
		c.record(sites.Page{URL: q.url, Site: s.name, Depth: q.depth, FetchedAt: r.at, Via: q.via, Took: r.took,
			Err: truncate(r.errMessage(), maxErrSize), ErrClass: errClass(r.err)})
		return
	}

	// A response: the page is recorded under its final URL.
	page, ps := q.url, s
	if r.final != nil && r.final.String() != q.url {
		page = r.final.String()
		ps = c.site(c.cfg.siteRule.OfURL(r.final))
		c.recordRedirect(s, q, page, r)
		if c.front.markDone(page, ps) {
			log.Debug("redirect to a page already fetched", "url", q.url, "final", page)
			return
		}
	}
	if ps.closed {
		log.Debug("redirect to a site at its page cap", "url", q.url, "final", page, "site", ps.name)
		return
	}
	c.pages++
	ps.pages++
	c.badLinks += doc.badLinks
	for _, l := range doc.leftOut {
		c.leaveOut(l.url, l.why)
	}
	p := sites.Page{
		URL: page, Site: ps.name, Status: r.status, ContentType: truncate(r.mediaType, 200),
		Title: doc.title, Text: doc.text, FullText: doc.fullText, Language: doc.lang, Published: doc.published,
		Depth: q.depth, FetchedAt: r.at, ErrClass: pageClass(r.status, r.err), Via: q.via, Size: r.size, Took: r.took,
	}
	if p.ErrClass == "" {
		c.okPages++
	} else {
		c.byClass[p.ErrClass]++
	}
	switch {
	case r.err != nil:
		p.Err = truncate(r.errMessage(), maxErrSize)
		c.errs++
		c.lastError = page + ": " + p.Err
		log.Warn("incomplete response", "url", page, "status", r.status, "err", r.err)
	case r.status >= 400:
		c.errs++
		c.lastError = fmt.Sprintf("%s: %d %s", page, r.status, http.StatusText(r.status))
		log.Info("error status", "url", page, "status", r.status)
	case r.size >= c.cfg.maxBodySize:
		// Kept as a page, its first MaxBodySize bytes, and flagged.
		p.Err = fmt.Sprintf("body truncated at %d bytes (MaxBodySize)", c.cfg.maxBodySize)
		c.truncated++
		log.Info("body truncated", "url", page, "bytes", r.size)
	default:
		log.Debug("fetched", "url", page, "status", r.status, "type", r.mediaType, "links", len(doc.links))
	}

	if p.ErrClass == "" {
		c.askHome(ps, page, q) // before the page's links, which may name it too
	}

	// OPIC: w(S→T) counts the distinct pages of S linking to T, so each
	// other site counts once per page, then S hands its cash on. A link the
	// store would refuse (no site by sites.Of, longer than MaxURLSize) is
	// dropped and counted here, where pages enter a batch, so that one bad
	// link can never fail a whole batch whatever produced it (the extractor's
	// links come from sites.Resolve, which gives every link it accepts a
	// site, and are capped at MaxURLSize: none should be dropped here).
	// Links keep their document order in the frontier, editorial or not.
	linked := make(map[int]bool)
	var editorial, template []string
	for i, l := range doc.links {
		u, err := sites.Parse(l)
		if err != nil || len(l) > MaxURLSize {
			c.badLinks++
			continue
		}
		if c.privateLink(u) {
			c.leaveOut(l, DropPrivate)
			continue
		}
		fromTemplate := doc.isTemplate(i)
		if fromTemplate {
			template = append(template, l)
		} else {
			editorial = append(editorial, l)
		}
		// The template's links to other sites are followed only with
		// FollowAll (see FollowLinks); their sites are known either way.
		t := c.site(c.cfg.siteRule.OfURL(u))
		switch {
		case fromTemplate && t != ps && c.cfg.follow != FollowAll:
			if !c.front.seen(l) {
				c.leaveTemplate(l, t)
			}
		default:
			c.takeTemplate(l)
		}
		if !c.front.seen(l) && c.templateOut[l] == nil {
			if hops, drop := c.admits(l, u, t.name, q.depth+1, q.hops); drop != "" {
				c.dropped[drop]++
				if drop == DropOutOfScope || drop == DropTooDeep {
					t.outOfScope++
				} else {
					t.trapped++
				}
				c.front.drop(l, t)
			} else {
				c.front.push(t, queuedURL{url: l, depth: q.depth + 1, via: page, hops: hops})
			}
		}
		// A site's cash goes to the sites its authors link to, not to
		// those its template links to on every page (see
		// AllLinksForImportance).
		if t != ps && !linked[t.id] && (!fromTemplate || c.cfg.allLinksForImportance) {
			linked[t.id] = true
			c.opic.AddWeight(ps.id, t.id, 1)
		}
	}
	p.Links, p.TemplateLinks = editorial, template
	read := c.opic.Read(ps.id)

	if ps.pages >= c.cfg.maxPagesPerSite {
		c.closeSite(ps)
	}
	c.readIdle(read)
	c.hand(p)
}

// leaveOut counts the link l, left out of its page's links, under why,
// once however many pages have it. c.mu must be held.
func (c *Crawler) leaveOut(l, why string) {
	if !c.leftOut[l] {
		c.leftOut[l] = true
		c.dropped[why]++
	}
}

// leaveTemplate counts the template link l to site t as left out, once
// however many pages have it. c.mu must be held.
func (c *Crawler) leaveTemplate(l string, t *siteQueue) {
	if c.templateOut[l] == nil {
		c.templateOut[l] = t
		c.templateSites[t.id]++
	}
}

// takeTemplate takes the link l off the template links left out: an
// author links to it, and it is followed. c.mu must be held.
func (c *Crawler) takeTemplate(l string) {
	t := c.templateOut[l]
	if t == nil {
		return
	}
	delete(c.templateOut, l)
	if c.templateSites[t.id]--; c.templateSites[t.id] == 0 {
		delete(c.templateSites, t.id)
	}
}

// record counts a fetch that gave no page (robots.txt's refusal, a failed
// fetch) under its class and hands it to the batch, so that the project
// knows what failed and why. c.mu must be held.
func (c *Crawler) record(p sites.Page) {
	if p.ErrClass != sites.ErrRedirect {
		c.byClass[p.ErrClass]++
	}
	c.hand(p)
}

// recordRedirect records that q, of site s, redirected to target, so that
// a continued crawl does not ask for it again. c.mu must be held.
func (c *Crawler) recordRedirect(s *siteQueue, q queuedURL, target string, r fetchResult) {
	c.record(sites.Page{URL: q.url, Site: s.name, Depth: q.depth, FetchedAt: r.at, Via: q.via, Took: r.took,
		Err: truncate("redirected to "+target, maxErrSize), ErrClass: sites.ErrRedirect})
}

// hand gives a record to the journal (OnRecord) at once, and to the next
// batch. c.mu must be held.
func (c *Crawler) hand(p sites.Page) {
	if c.cfg.onRecord != nil {
		c.cfg.onRecord(p)
	}
	if c.cfg.onBatch != nil {
		c.pending = append(c.pending, p)
		c.pendingBytes += pageBytes(p)
		c.flushIfFull()
	}
}

// pageBytes returns about how many bytes p holds: its texts and links.
func pageBytes(p sites.Page) int {
	n := len(p.URL) + len(p.Title) + len(p.Text) + len(p.FullText) + len(p.Err) + len(p.Via)
	for _, l := range p.Links {
		n += len(l)
	}
	for _, l := range p.TemplateLinks {
		n += len(l)
	}
	return n
}

// flushIfFull wakes the batch loop when a batch is full. c.mu must be held.
func (c *Crawler) flushIfFull() {
	if len(c.pending) >= c.cfg.batchSize || c.pendingBytes >= maxQueuedBytes/4 {
		select {
		case c.flushNow <- struct{}{}:
		default:
		}
	}
}
