package crawl

import (
	"math"

	"sitesift/importance"
	"sitesift/sites"
)

// Prior is what earlier crawls of a project leave for the next one to
// continue from; sitesift's store returns it (store.Prior).
type Prior struct {
	// States is the OPIC state of every known site, as the last batch of
	// the earlier crawls saved it; their cash sums to 1.
	States []sites.SiteState
	// Edges is the weighted site graph those crawls built.
	Edges []sites.Edge
	// Fetched are the URLs fetched before; they are never fetched again.
	Fetched []string
	// Frontier are link targets found but not fetched; they are queued
	// before the seeds of the new crawl.
	Frontier []string
}

// Resume makes the crawl continue from p instead of starting afresh (default:
// no prior). In [Crawler.Run], before the seeds, every site of p becomes a
// known site with its OPIC cash and history, the edges get their weights,
// the Fetched URLs count as seen and the Frontier URLs are queued, each site's
// queue in the order given. Pages reached from the frontier are recorded with
// depth 1: how far they are from a seed was not kept.
//
// The cash of the restored sites is already distributed, so nothing is handed
// out again: a seed of a new site starts with no cash and is fetched in order
// of cash like any site — it gets its share of the virtual page's cash at
// every read, so with [Greedy] it is reached once its cash outgrows the
// others'. Seeds that were fetched before are not fetched again.
//
// When the states cannot be restored — none, or their cash does not sum to 1
// because the project is damaged — the crawler logs it and starts OPIC
// afresh over the known graph: every known site, old and new, gets the same
// cash and no history. Edges, Fetched and Frontier are used either way;
// entries that cannot be used (an unparsable URL, an edge of weight <= 0)
// are skipped and counted in the log.
//
// [MaxPages] and [MaxPagesPerSite] count the pages of this crawl only. The
// crawler reads p's slices in Run and does not modify them.
func Resume(p Prior) Option {
	return func(c *config) error {
		c.prior = &p
		return nil
	}
}

// resume loads the prior of the Resume option, if any, and reports whether
// it restored OPIC's state; when it did not, the caller seeds OPIC. c.mu must
// be held, and no seed may be queued yet.
func (c *Crawler) resume() (restored bool) {
	p := c.cfg.prior
	if p == nil {
		return false
	}
	log := c.cfg.logger
	skipped := 0

	// Every site of the prior becomes a node before OPIC's state is
	// restored, since Restore takes one state per node.
	stateOf := make(map[int]importance.State, len(p.States))
	duplicate := false
	for _, st := range p.States {
		if st.Site == "" {
			skipped++
			continue
		}
		s := c.site(st.Site)
		if _, dup := stateOf[s.id]; dup {
			duplicate = true
		}
		stateOf[s.id] = importance.State{Cash: st.Cash, History: st.History}
		s.outOfScope, s.trapped = st.OutOfScope, st.Trapped
	}
	type arc struct {
		from, to *siteQueue
		w        float64
	}
	arcs := make([]arc, 0, len(p.Edges))
	for _, e := range p.Edges {
		if e.From == "" || e.To == "" || e.From == e.To || !(e.Weight > 0) || math.IsInf(e.Weight, 0) {
			skipped++
			continue
		}
		arcs = append(arcs, arc{c.site(e.From), c.site(e.To), e.Weight})
	}
	type siteURL struct {
		url  string
		site *siteQueue
	}
	parse := func(list []string) []siteURL {
		out := make([]siteURL, 0, len(list))
		for _, raw := range list {
			// The URLs were normalised by the crawl that found them;
			// normalising again costs little and guards the frontier's
			// one-entry-per-URL rule against a hand-edited project.
			n, err := sites.Normalize(raw)
			if err != nil {
				skipped++
				continue
			}
			out = append(out, siteURL{n, c.site(c.cfg.siteRule.OfURL(mustParse(n)))})
		}
		return out
	}
	fetched, frontier := parse(p.Fetched), parse(p.Frontier)

	switch {
	case len(p.States) == 0:
		log.Info("resume: no OPIC state to continue; OPIC starts afresh")
	case duplicate:
		log.Warn("resume: a site has two OPIC states; OPIC starts afresh")
	default:
		states := make([]importance.State, c.opic.Len())
		for id, st := range stateOf {
			states[id] = st
		}
		if err := c.opic.Restore(states, 0); err != nil {
			log.Warn("resume: OPIC state unusable; OPIC starts afresh", "err", err)
		} else {
			restored = true
		}
	}

	for _, a := range arcs {
		c.opic.AddWeight(a.from.id, a.to.id, a.w)
	}
	for _, u := range fetched {
		c.front.markDone(u.url, u.site)
	}
	queued := 0
	for _, u := range frontier {
		if !c.scope.in(u.url, mustParse(u.url)) {
			continue // out of this crawl's scope
		}
		if c.front.push(u.site, queuedURL{url: u.url, depth: 1}) {
			queued++
		}
	}
	if skipped > 0 {
		log.Warn("resume: unusable entries skipped", "count", skipped)
	}
	log.Info("resuming a crawl", "sites", len(c.front.sites), "edges", len(arcs),
		"fetched", len(fetched), "frontier", queued, "opic_restored", restored)
	return restored
}
