package crawl

// frontier is the crawler's own to-do list: one FIFO queue of URLs per site
// (so each site is crawled breadth first) and the set of every URL ever
// queued or fetched, so no URL is queued twice. Sites get dense ids in order
// of discovery, the same ids as their OPIC nodes.
//
// It is not safe for concurrent use; the crawler guards it with its mutex.
type frontier struct {
	sites  []*siteQueue
	byName map[string]int
	urls   map[string]urlEntry
	queued int // URLs waiting in all queues
	// seeds counts the seeds waiting in all queues: while there are any,
	// the crawler fetches only from sites that have one, so that every
	// seed is asked for before the page cap goes to discovered URLs.
	seeds int
}

// siteQueue is one site's queue and counters.
type siteQueue struct {
	name    string
	id      int
	queue   []queuedURL
	head    int // queue[head:] is still to do; the prefix is kept until compaction
	waiting int // entries of queue[head:] and seedQ in state urlQueued
	// seedQ holds the site's seeds, taken before its queue; seeds counts
	// those still waiting.
	seedQ []queuedURL
	seeds int
	pages int // pages recorded under this site
	// homeAsked is true once the home page of the site's first page
	// fetched fine was queued or found known (see askHome).
	homeAsked bool
	// outOfScope and trapped count the distinct URLs of the site left out:
	// out of scope (or too deep), or by a trap guard.
	outOfScope, trapped int
	busy                bool
	closed              bool // reached its page cap: queue dropped, nothing more accepted
	// retry is a URL taken from the queue whose fetch is to be tried
	// again; it goes before the queue once the site's hold is over.
	retry *retryURL
}

// retryURL is a URL to fetch again and the retries it has had.
type retryURL struct {
	queuedURL
	retries int
}

type queuedURL struct {
	url   string
	depth int
	via   string // the page whose link queued it; "" for a seed
	hops  int    // links out of scope since the last in-scope page
	seed  bool   // a seed of the crawl: fetched before discovered URLs
}

type urlState uint8

const (
	urlQueued urlState = iota + 1
	urlDone            // fetched, being fetched, or dropped: never queue it again
)

type urlEntry struct {
	state urlState
	seed  bool // queued as a seed, in its site's seedQ
	site  int32
}

func newFrontier() *frontier {
	return &frontier{byName: make(map[string]int), urls: make(map[string]urlEntry)}
}

// site returns the site named name, adding it when it is new.
func (f *frontier) site(name string) (s *siteQueue, added bool) {
	if id, ok := f.byName[name]; ok {
		return f.sites[id], false
	}
	s = &siteQueue{name: name, id: len(f.sites)}
	f.sites = append(f.sites, s)
	f.byName[name] = s.id
	return s, true
}

// push queues u (a normalised URL of site s) unless it was seen before or s
// takes no more URLs; it reports whether u was queued.
func (f *frontier) push(s *siteQueue, q queuedURL) bool {
	u := q.url
	if s.closed {
		return false
	}
	if _, seen := f.urls[u]; seen {
		return false
	}
	f.urls[u] = urlEntry{state: urlQueued, seed: q.seed, site: int32(s.id)}
	if q.seed {
		s.seedQ = append(s.seedQ, q)
		s.seeds++
		f.seeds++
	} else {
		s.queue = append(s.queue, q)
	}
	s.waiting++
	f.queued++
	return true
}

// pop takes the oldest seed still to do of s, else the oldest URL still to
// do from s's queue, and marks it done.
func (f *frontier) pop(s *siteQueue) (queuedURL, bool) {
	for len(s.seedQ) > 0 {
		q := s.seedQ[0]
		s.seedQ = s.seedQ[1:]
		if e := f.urls[q.url]; e.state != urlQueued {
			continue // fetched meanwhile as the target of a redirect
		}
		f.urls[q.url] = urlEntry{state: urlDone, site: int32(s.id)}
		s.waiting--
		s.seeds--
		f.seeds--
		f.queued--
		return q, true
	}
	for s.head < len(s.queue) {
		q := s.queue[s.head]
		s.queue[s.head] = queuedURL{}
		s.head++
		if e := f.urls[q.url]; e.state != urlQueued {
			continue // fetched meanwhile as the target of a redirect
		}
		f.urls[q.url] = urlEntry{state: urlDone, site: int32(s.id)}
		s.waiting--
		f.queued--
		f.compact(s)
		return q, true
	}
	f.compact(s)
	return queuedURL{}, false
}

// compact drops the done prefix of s's queue once it is at least half of it,
// so a long crawl of one site does not keep every URL it ever queued.
func (f *frontier) compact(s *siteQueue) {
	if s.head == len(s.queue) {
		s.queue, s.head = s.queue[:0], 0
		return
	}
	if s.head >= 64 && s.head*2 >= len(s.queue) {
		s.queue = append(s.queue[:0:0], s.queue[s.head:]...)
		s.head = 0
	}
}

// markDone records that u was fetched (the target of a redirect) and reports
// whether it was already done before; a queued u is taken off the count of
// its site and left in the queue for pop to skip.
func (f *frontier) markDone(u string, site *siteQueue) (wasDone bool) {
	e, seen := f.urls[u]
	if seen && e.state == urlDone {
		return true
	}
	if seen && e.state == urlQueued {
		q := f.sites[e.site]
		q.waiting--
		f.queued--
		if e.seed {
			q.seeds--
			f.seeds--
		}
	}
	f.urls[u] = urlEntry{state: urlDone, site: int32(site.id)}
	return false
}

// seen reports whether u is known: queued, fetched or dropped.
func (f *frontier) seen(u string) bool {
	_, ok := f.urls[u]
	return ok
}

// drop records u as a URL of site the crawl will not fetch (out of scope,
// a trap), so that later links to it are not weighed again.
func (f *frontier) drop(u string, site *siteQueue) {
	if _, ok := f.urls[u]; !ok {
		f.urls[u] = urlEntry{state: urlDone, site: int32(site.id)}
	}
}

// done reports whether u is done: fetched, being fetched, or dropped.
func (f *frontier) done(u string) bool {
	e, seen := f.urls[u]
	return seen && e.state == urlDone
}

// closeSite drops the queue of s, which takes no more URLs: it reached its page cap.
func (f *frontier) closeSite(s *siteQueue) {
	f.seeds -= s.seeds
	for _, q := range append(s.seedQ, s.queue[s.head:]...) {
		if e := f.urls[q.url]; e.state == urlQueued {
			f.urls[q.url] = urlEntry{state: urlDone, site: e.site}
			f.queued--
		}
	}
	s.queue, s.seedQ, s.head, s.waiting, s.seeds, s.closed = nil, nil, 0, 0, 0, true
}
