package crawl

// idle reports whether s is an idle site, in the sense of [IdleReads]: no URL
// waiting and no fetch in flight, or closed at its page cap.
func (s *siteQueue) idle() bool {
	return s.closed || (s.waiting == 0 && !s.busy)
}

// readIdle performs the idle reads that follow the read of a fetched page
// whose site had read cash: while fewer than cfg.idleReads were made, the
// idle site with the most cash (the first discovered on a tie) is read if
// that cash is positive and at least read. The threshold keeps idle reads in
// step with the fetches: an idle site is read when it is at least as rich as
// the sites the greedy order reads, so cash does not pile up in idle sites,
// and sites that hold little are not read over and over for nothing.
//
// It scans every site per read; see [IdleReads] for why that is acceptable.
// c.mu must be held.
func (c *Crawler) readIdle(read float64) {
	for range c.cfg.idleReads {
		var (
			best  *siteQueue
			bestC float64
		)
		for _, s := range c.front.sites {
			if !s.idle() {
				continue
			}
			if cash := c.opic.Cash(s.id); best == nil || cash > bestC {
				best, bestC = s, cash
			}
		}
		if best == nil || !(bestC > 0) || bestC < read {
			return
		}
		c.opic.Read(best.id)
		c.idleRead++
		c.cfg.logger.Debug("idle site read", "site", best.name, "cash", bestC)
	}
}
