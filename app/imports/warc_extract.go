package imports

import (
	"crypto/sha256"
	"encoding/hex"
	"runtime"
	"slices"
	"sync"

	"sitesift/crawl"
	"sitesift/sites"
)

// warcPage is an HTML response of a WARC file on its way to the store: its
// page, and its extraction under way or done.
type warcPage struct {
	p         sites.Page
	truncated bool   // the body was cut at crawl.DefaultMaxBodySize
	bodyless  bool   // the response had no body
	location  string // the Location header
	key       string // see warcKey; "" when nothing is extracted
	doc       *crawl.Document
	// done is closed when the extraction started for this page ended; nil
	// when none was started for it.
	done chan struct{}
	// same is the page before it in the file with the same key, whose
	// extraction it takes.
	same *warcPage
}

// warcExtractor extracts the main content of a WARC file's HTML pages on
// all cores, at most one a core at once, and hands them to save in the
// file's order.
type warcExtractor struct {
	save     func(*warcPage) error
	slots    chan struct{}
	queue    []*warcPage
	maxQueue int
	inflight map[string]*warcPage // by key, the pages whose extraction runs
	docs     *docCache
	wg       sync.WaitGroup
}

// extractor returns a warcExtractor for one file; the extractions it
// keeps are the import's, across its files.
func (im *archiveImporter) extractor() *warcExtractor {
	if im.docs == nil {
		im.docs = newDocCache(docCacheBytes)
	}
	n := runtime.GOMAXPROCS(0)
	return &warcExtractor{slots: make(chan struct{}, n), maxQueue: 2*n + 2,
		inflight: map[string]*warcPage{}, docs: im.docs}
}

// warcKey is what makes two responses one extraction: the same URL (links
// are resolved against it), the same Content-Type (its charset) and the
// same payload.
func warcKey(body []byte, contentType, u string) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:]) + " " + contentType + " " + u
}

// extract starts the extraction of pp's body, received from u with the
// given Content-Type, unless the same one was done or is under way; it
// reports whether it reuses that one.
func (x *warcExtractor) extract(pp *warcPage, body []byte, contentType, u string) (reused bool) {
	pp.key = warcKey(body, contentType, u)
	if d, ok := x.docs.get(pp.key); ok {
		pp.doc = d
		return true
	}
	if first := x.inflight[pp.key]; first != nil {
		pp.same = first
		return true
	}
	pp.done = make(chan struct{})
	x.inflight[pp.key] = pp
	x.wg.Add(1)
	go func() {
		defer x.wg.Done()
		defer close(pp.done)
		x.slots <- struct{}{}
		defer func() { <-x.slots }()
		if doc, err := crawl.ParseDocument(body, contentType, u); err == nil {
			pp.doc = &doc
		}
	}()
	return false
}

// push queues pp and saves the pages at the head of the queue whose
// extraction ended, waiting for the first when the queue is full.
func (x *warcExtractor) push(pp *warcPage) error {
	x.queue = append(x.queue, pp)
	for len(x.queue) > 0 {
		head := x.queue[0]
		if len(x.queue) <= x.maxQueue && head.done != nil {
			select {
			case <-head.done:
			default:
				return nil
			}
		}
		if err := x.next(); err != nil {
			return err
		}
	}
	return nil
}

// drain saves every page queued, waiting for their extractions.
func (x *warcExtractor) drain() error {
	for len(x.queue) > 0 {
		if err := x.next(); err != nil {
			return err
		}
	}
	return nil
}

// next saves the page at the head of the queue once its extraction ended.
func (x *warcExtractor) next() error {
	pp := x.queue[0]
	x.queue[0] = nil
	x.queue = x.queue[1:]
	switch {
	case pp.done != nil:
		<-pp.done
		delete(x.inflight, pp.key)
		if pp.doc != nil {
			x.docs.put(pp.key, pp.doc)
		}
	case pp.same != nil:
		// Queued before pp, so saved already.
		pp.doc = pp.same.doc
		pp.same = nil
	}
	return x.save(pp)
}

// abandon waits for the extractions still running, after a failure.
func (x *warcExtractor) abandon() { x.wg.Wait() }

// docCacheBytes bounds the texts and links an import keeps of the pages it
// extracted, to reuse them for the same responses met again.
const docCacheBytes = 64 << 20

// docCache keeps extractions by key, the oldest dropped first beyond its
// size in bytes.
type docCache struct {
	max, size int
	docs      map[string]*crawl.Document
	order     []string
}

func newDocCache(max int) *docCache {
	return &docCache{max: max, docs: map[string]*crawl.Document{}}
}

func (c *docCache) get(key string) (*crawl.Document, bool) {
	d, ok := c.docs[key]
	return d, ok
}

func (c *docCache) put(key string, d *crawl.Document) {
	if _, ok := c.docs[key]; ok {
		return
	}
	c.docs[key] = d
	c.order = append(c.order, key)
	c.size += docSize(key, d)
	for c.size > c.max && len(c.order) > 1 {
		old := c.order[0]
		c.order = c.order[1:]
		c.size -= docSize(old, c.docs[old])
		delete(c.docs, old)
	}
}

// docSize is about the bytes d and its key hold.
func docSize(key string, d *crawl.Document) int {
	n := len(key) + len(d.Title) + len(d.Text) + len(d.FullText)
	for _, l := range d.Links {
		n += len(l) + 16
	}
	for _, l := range d.TemplateLinks {
		n += len(l) + 16
	}
	return n
}

// without returns the elements of list that are not in drop.
func without(list, drop []string) []string {
	if len(drop) == 0 {
		return list
	}
	set := make(map[string]bool, len(drop))
	for _, s := range drop {
		set[s] = true
	}
	return slices.DeleteFunc(list, func(s string) bool { return set[s] })
}
