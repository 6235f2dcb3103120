package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gocolly/colly/v2"

	"sitesift/crawl"
	"sitesift/sites"
	"sitesift/sites/index"
	"sitesift/sites/store"
)

// The crawlers a round runs, in order.
const (
	runColly    = "colly"          // bare colly: Async, one LimitRule, OnHTML follows links
	runSitesift = "sitesift"       // crawl.New, batches kept in memory
	runStore    = "sitesift+store" // crawl.New, batches saved with sites/store
	runIndex    = "sitesift+index" // crawl.New, batches saved and indexed, as the app does
)

// setup is what every run of a benchmark shares.
type setup struct {
	proxy    *url.URL
	srv      *server
	seeds    []string
	pages    int
	parallel int
	batch    int
	timeout  time.Duration
}

// result is one run's measures. CPU is the whole process's (server
// included), so it compares runs, not crawlers alone.
type result struct {
	name    string
	pages   int
	elapsed time.Duration
	cpu     time.Duration // user + system CPU of the process during the run
	alloc   uint64        // bytes allocated during the run
	conns   int64         // TCP connections the proxy accepted during the run
	note    string
}

func (r result) perSec() float64 { return float64(r.pages) / r.elapsed.Seconds() }

// measure runs fn under the pprof label run=name and takes the measures
// around it; fn returns the pages it fetched.
func measure(name string, s setup, fn func(ctx context.Context) (int, string, error)) (result, error) {
	runtime.GC() // the garbage of the previous run is not this run's cost
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	alloc0, cpu0, conns0 := ms.TotalAlloc, cpuTime(), s.srv.conns.Load()
	var (
		pages int
		note  string
		err   error
	)
	start := time.Now()
	pprof.Do(context.Background(), pprof.Labels("run", name), func(ctx context.Context) {
		pages, note, err = fn(ctx)
	})
	r := result{name: name, pages: pages, elapsed: time.Since(start), note: note}
	r.cpu = cpuTime() - cpu0
	r.conns = s.srv.conns.Load() - conns0
	runtime.ReadMemStats(&ms)
	r.alloc = ms.TotalAlloc - alloc0
	return r, err
}

// cpuTime is the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// newTransport returns an HTTP transport with the settings of the crawler's
// own (crawl/fetch.go), without its address guard and pacer: colly's
// SetProxy would turn keep-alives off, which is not what a bare crawler
// tuned for speed does, and the two crawlers must reuse connections alike.
func newTransport(proxy *url.URL) *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyURL(proxy),
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          64,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       30 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// crawlColly crawls with a bare colly collector: asynchronous, P requests at
// once over all hosts (one LimitRule "*"), robots.txt obeyed as sitesift
// does, every a[href] followed, and no request started once N are.
func crawlColly(ctx context.Context, s setup) (int, string, error) {
	c := colly.NewCollector(colly.Async(true), colly.StdlibContext(ctx), colly.UserAgent(crawl.DefaultUserAgent))
	c.IgnoreRobotsTxt = false
	c.MaxBodySize = crawl.DefaultMaxBodySize
	c.SetRequestTimeout(s.timeout)
	tr := newTransport(s.proxy)
	defer tr.CloseIdleConnections()
	c.WithTransport(tr)
	if err := c.Limit(&colly.LimitRule{DomainGlob: "*", Parallelism: s.parallel}); err != nil {
		return 0, "", fmt.Errorf("bench: colly limit: %w", err)
	}
	limit := int64(s.pages)
	var started, pages, failed atomic.Int64
	c.OnRequest(func(r *colly.Request) {
		if started.Add(1) > limit {
			r.Abort()
		}
	})
	c.OnResponse(func(*colly.Response) { pages.Add(1) })
	c.OnError(func(*colly.Response, error) { failed.Add(1) })
	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		if started.Load() < limit {
			e.Request.Visit(e.Attr("href")) //nolint:errcheck // visited, robots and the like: skip
		}
	})
	for _, u := range s.seeds {
		// Links of the first pages may have reached a later seed already.
		if err := c.Visit(u); err != nil && !errors.As(err, new(*colly.AlreadyVisitedError)) {
			return 0, "", fmt.Errorf("bench: colly seed %s: %w", u, err)
		}
	}
	c.Wait()
	note := ""
	if n := failed.Load(); n > 0 {
		note = fmt.Sprintf("%d errors", n)
	}
	return int(pages.Load()), note, nil
}

// crawlSitesift crawls with sitesift's crawler: the same proxy and
// parallelism, no delay, the page cap, no per-site cap (bare colly has
// none), and a batch function that does the least the app does with a batch:
// keep its pages (save is nil), or save them and the OPIC states into a
// store, as the app's first step does.
func crawlSitesift(ctx context.Context, s setup, save crawl.BatchFunc) (int, string, error) {
	var kept []sites.Page
	keep := func(_ context.Context, pages []sites.Page, _ []sites.SiteState) error {
		kept = append(kept, pages...)
		return nil
	}
	if save == nil {
		save = keep
	}
	c, err := crawl.New(
		crawl.Proxy(s.proxy.String()),
		crawl.Parallel(s.parallel),
		crawl.Delay(0),
		crawl.MaxPages(s.pages),
		crawl.MaxPagesPerSite(s.pages),
		crawl.Timeout(s.timeout),
		crawl.BatchSize(s.batch),
		crawl.OnBatch(save),
	)
	if err != nil {
		return 0, "", err
	}
	if err := c.Run(ctx, s.seeds); err != nil {
		return 0, "", fmt.Errorf("bench: sitesift crawl: %w", err)
	}
	st := c.Status()
	note := fmt.Sprintf("%d sites, %d idle reads", st.Sites, st.IdleReads)
	if st.Errors > 0 {
		note += fmt.Sprintf(", %d errors (last: %s)", st.Errors, st.LastError)
	}
	return st.Pages, note, nil
}

// openStore opens a new store in a temporary directory; done closes it
// and removes the directory.
func openStore() (st *store.Store, done func(), err error) {
	dir, err := os.MkdirTemp("", "sitesift-bench-")
	if err != nil {
		return nil, nil, fmt.Errorf("bench: %w", err)
	}
	st, err = store.Open(filepath.Join(dir, "project.db"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	return st, func() { st.Close(); os.RemoveAll(dir) }, nil
}

// openProject opens a new store and search index in a temporary directory
// and returns the batch function of the app's sink without its crawl.log,
// OPIC snapshots and PageRank updates: save the batch, index its pages and
// mark them indexed. done closes both and removes the directory.
func openProject() (save crawl.BatchFunc, done func(), err error) {
	dir, err := os.MkdirTemp("", "sitesift-bench-")
	if err != nil {
		return nil, nil, fmt.Errorf("bench: %w", err)
	}
	st, err := store.Open(filepath.Join(dir, "project.db"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	ix, err := index.Open(filepath.Join(dir, "index.bleve"))
	if err != nil {
		st.Close()
		os.RemoveAll(dir)
		return nil, nil, err
	}
	save = func(ctx context.Context, pages []sites.Page, states []sites.SiteState) error {
		if err := st.SaveCrawlBatch(ctx, pages, states); err != nil {
			return err
		}
		if err := ix.Add(pages); err != nil {
			return err
		}
		urls := make([]string, len(pages))
		for i := range pages {
			urls[i] = pages[i].URL
		}
		return st.MarkIndexed(ctx, urls)
	}
	return save, func() { ix.Close(); st.Close(); os.RemoveAll(dir) }, nil
}
