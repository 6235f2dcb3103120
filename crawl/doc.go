// Package crawl is sitesift's polite web crawler: it fetches pages from a
// list of seed URLs, computes the importance of the sites it meets online
// with OPIC (package importance) and uses it to choose which site to fetch
// from next. It is the only package of sitesift that imports colly.
//
// The crawler keeps its own frontier: one breadth-first queue of URLs per
// site and the set of URLs seen. At each step a site is chosen among those
// ready — URLs waiting, no request in flight, its politeness delay over, its
// page cap not reached — by a [Strategy]: the one with the most OPIC cash
// ([Greedy]), one at random ([Random]) or each in turn ([Cycle]). At most
// [Parallel] sites are fetched at once, one request each. Redirects are
// followed and a page is recorded under its final URL.
//
// The crawler is polite as RFC 9309 and crawl operators expect. robots.txt
// is read by the crawler itself: the groups naming its product token (the
// start of its [UserAgent], case-insensitively) apply, else the "*" ones; a
// 4xx means no rules; a 5xx, a 429 or no answer closes the site, whose
// robots.txt is fetched again after a backoff, 3 times at most, before the
// site is given up and its URLs are recorded as refused (sites.ErrRobots).
// A Crawl-delay longer than the [Delay] is honoured up to [MaxDelay]; a site
// asking for more is not crawled (sites.ErrSlow). A fetch that failed for a
// passing reason (a timeout, a connection refused or reset, a 5xx, a 429) is
// tried again up to 3 times after a growing backoff ([RetryBackoff]) or the
// site's Retry-After, while the other sites go on; a 429 or 503 doubles the
// site's delay. Only the last outcome is recorded; [Status.Retries] counts
// the retries.
//
// Each HTML page is parsed, off the scheduler and at most one page a core at
// once: go-trafilatura extracts its main content (what its authors wrote)
// with its title, language and publication date, and each link is editorial
// when it sits in that main content, template otherwise (navigation,
// footers, sidebars, share widgets, "related" boxes). Some links are the
// template's even inside the article: boxes under a heading such as
// "Related stories" or "From our network", the site's own accounts on
// social platforms, its sign-in and subscription links. A page without an
// article (a home page, a list of links) keeps as main content its text
// outside the template, whose links are then the editorial ones. The
// frontier takes both kinds of links.
//
// What a page may cost is bounded before it is parsed, whatever it holds:
// only its first [MaxNodes] nodes are parsed (the links past them are
// counted as dropped), it keeps at most [MaxLinks] links and [MaxLinkBytes]
// bytes of them, and a page of more than 30,000 nodes or 2 MiB is read as
// one without main content, which go-trafilatura would copy many times over.
// What the crawl holds at once does not grow with [Parallel]: the bodies
// being read and those waiting to be parsed hold at most 8 MiB beyond the
// largest one being read (the others wait), a capture keeps a body past
// 1 MiB in a temporary file until it is handed over, and no fetch starts
// while the pages waiting to be parsed, or to be handed to the batch
// function, hold 16 MiB.
//
// OPIC runs over sites, not pages: when a page of site S is recorded, every
// other site T its editorial links point to (every link with
// [AllLinksForImportance]) gets one more unit of weight on the arc S→T (so
// the weight counts the distinct pages of S that link to T), then S is read
// and hands its cash on. A site with nothing left to fetch (see [IdleReads]) is
// read without a fetch after that, when it holds at least as much cash as S
// had, so that its cash moves on and the estimate converges towards the
// PageRank of the site graph within a finite crawl.
//
// A crawl can continue earlier ones ([Resume]): OPIC's state, the site graph
// and the URLs fetched come back, the frontier they left is queued first,
// and no URL is fetched twice. A redirect to a page the crawl already has is
// not followed. A recrawl adds [Revisit]: pages the project has, fetched
// again in the order given, which the caller compares with what it stored.
//
// Results leave through a callback, so the crawler knows nothing of storage:
//
//	c, err := crawl.New(
//		crawl.MaxPages(200),
//		crawl.Delay(time.Second),
//		crawl.OnBatch(func(ctx context.Context, pages []sites.Page, states []sites.SiteState) error {
//			return store.SaveCrawl(ctx, pages, states)
//		}),
//	)
//	if err != nil {
//		return err
//	}
//	err = c.Run(ctx, []string{"https://example.org/"}) // blocks; cancel ctx to stop
//
// While Run runs, other goroutines may call c.Status(), c.Top(10), c.Pause()
// and c.Resume() (the method that undoes Pause, not the [Resume] option).
package crawl
