// Command bench measures the speed of sitesift's crawl pipeline against a
// bare colly crawler on the same loopback web, in one process.
//
// It generates a web of many virtual hosts (each page links to pages of its
// own host and of others), serves it as an HTTP proxy on 127.0.0.1, and then
// alternates, -repeat times: a bare colly crawler (Async, LimitRule "*" with
// Parallelism P, robots.txt obeyed, every link followed, N pages) and
// sitesift's crawl.New with the same proxy, Parallel(P), Delay(0) and
// MaxPages(N), whose batch function keeps the pages (with -store, another run
// saves them into a real store; with -index, another saves and indexes them
// as the app does). Each run prints its pages per second, the
// process's CPU and allocations per page and the connections it opened; the
// summary gives the best and the median of each crawler and the ratio
// sitesift/colly.
//
//	go run ./tools/crawlbench -pages 5000 -hosts 200 -parallel 8 -repeat 3 -cpuprofile cpu.out
//	go tool pprof -top -tagfocus run=sitesift cpu.out
//
// With -serve ADDR it only serves the web, with redirects and robots.txt
// rules added, and logs every request (-log FILE): .ci/killtest crawls it
// with sitesift, killed and restarted.
//
//	go run ./tools/crawlbench -serve 127.0.0.1:0 -hosts 60 -log requests.txt
//
// The profile's samples carry the label run=colly, sitesift, sitesift+store
// sitesift+index or server (the web), so each crawler's time can be read apart. See
// README.md beside this file for the figures and what limits sitesift.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"

	"sitesift/crawl"
)

func main() {
	var (
		pages      = flag.Int("pages", 5000, "pages each run fetches (the page cap)")
		hosts      = flag.Int("hosts", 200, "hosts of the generated web")
		parallel   = flag.Int("parallel", 8, "requests at once: colly's LimitRule Parallelism, sitesift's Parallel")
		repeat     = flag.Int("repeat", 3, "rounds; each runs every crawler once, in turn")
		seeds      = flag.Int("seeds", 10, "home pages the crawls start from")
		ownLinks   = flag.Int("own-links", 6, "links of a page to its own host")
		otherLinks = flag.Int("other-links", 4, "links of a page to other hosts")
		withStore  = flag.Bool("store", false, "also run sitesift saving every batch into a store (sites/store) in a temporary directory")
		withIndex  = flag.Bool("index", false, "also run sitesift saving every batch into a store and a search index (sites/index), as the app does")
		batch      = flag.Int("batch", crawl.DefaultBatchSize, "sitesift's batch size (crawl.BatchSize): pages a batch function call gets")
		warmup     = flag.Bool("warmup", true, "run each crawler once on a tenth of the pages before measuring")
		seed       = flag.Uint64("seed", 1, "seed of the generated web")
		cpuProfile = flag.String("cpuprofile", "", "write a CPU profile of all runs to `FILE` (samples labelled run=NAME)")
		mutexProf  = flag.String("mutexprofile", "", "write a mutex contention profile of all runs to `FILE`")
		serveAddr  = flag.String("serve", "", "only serve the generated web (with redirects and robots.txt rules) as an HTTP proxy on `ADDR` (127.0.0.1:0: any port), print its URL and the seeds, and run no crawler")
		logFile    = flag.String("log", "", "with -serve: append the absolute URL of every request to `FILE`, one a line")
	)
	flag.Parse()
	if *pages < 1 || *batch < 1 || *hosts < 2 || *parallel < 1 || *repeat < 1 || *seeds < 1 || *ownLinks < 0 || *otherLinks < 1 {
		fmt.Fprintln(os.Stderr, "bench: -pages, -batch, -parallel, -repeat, -seeds and -other-links must be at least 1, -hosts at least 2")
		os.Exit(2)
	}
	if *logFile != "" && *serveAddr == "" {
		fmt.Fprintln(os.Stderr, "bench: -log goes with -serve")
		os.Exit(2)
	}
	if *serveAddr != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		cfg := config{pages: *pages, hosts: *hosts, seeds: *seeds, ownLinks: *ownLinks, otherLinks: *otherLinks, seed: *seed}
		if err := serveOnly(ctx, cfg, *serveAddr, *logFile); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, config{
		pages: *pages, hosts: *hosts, parallel: *parallel, repeat: *repeat, seeds: *seeds,
		ownLinks: *ownLinks, otherLinks: *otherLinks, store: *withStore, index: *withIndex, batch: *batch, warmup: *warmup, seed: *seed,
		cpuProfile: *cpuProfile, mutexProfile: *mutexProf,
	}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

type config struct {
	pages, hosts, parallel, repeat, seeds, ownLinks, otherLinks, batch int
	store, index, warmup                                               bool
	seed                                                               uint64
	cpuProfile, mutexProfile                                           string
}

func run(ctx context.Context, cfg config) error {
	w := newWeb(cfg.hosts, cfg.pages, cfg.ownLinks, cfg.otherLinks, cfg.seed)
	srv, err := serve(ctx, w, "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer srv.close()
	proxy, err := url.Parse(srv.URL)
	if err != nil {
		return fmt.Errorf("bench: proxy URL: %w", err)
	}
	s := setup{proxy: proxy, srv: srv, seeds: w.seeds(cfg.seeds), pages: cfg.pages, parallel: cfg.parallel, batch: cfg.batch, timeout: 20 * time.Second}

	fmt.Printf("bench: web of %d hosts × %d pages (%d own + %d other-host links a page, about %.1f KB), %d seeds, proxy %s\n",
		cfg.hosts, w.pages, cfg.ownLinks, cfg.otherLinks, float64(w.pageSize())/1000, len(s.seeds), srv.URL)
	fmt.Printf("bench: %d pages a run, parallel %d, no delay, sitesift's batches of %d, %d rounds; %s, GOMAXPROCS %d, load average %s\n",
		cfg.pages, cfg.parallel, cfg.batch, cfg.repeat, runtime.Version(), runtime.GOMAXPROCS(0), loadAvg())

	names := []string{runColly, runSitesift}
	if cfg.store {
		names = append(names, runStore)
	}
	if cfg.index {
		names = append(names, runIndex)
	}
	if cfg.warmup {
		ws := s
		ws.pages = max(1, cfg.pages/10)
		for _, name := range names {
			if _, err := runOne(name, ws); err != nil {
				return err
			}
		}
	}

	if cfg.cpuProfile != "" {
		f, err := os.Create(cfg.cpuProfile)
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("bench: cpu profile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	if cfg.mutexProfile != "" {
		runtime.SetMutexProfileFraction(5)
		defer writeProfile("mutex", cfg.mutexProfile)
	}

	results := map[string][]result{}
	for round := 1; round <= cfg.repeat; round++ {
		for _, name := range names {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			r, err := runOne(name, s)
			if err != nil {
				return err
			}
			results[name] = append(results[name], r)
			fmt.Printf("round %d %-15s %6d pages %7.2f s %7.0f pages/s   CPU %4.0f µs/page  alloc %4.0f KB/page  %5d conns  %s\n",
				round, r.name, r.pages, r.elapsed.Seconds(), r.perSec(),
				float64(r.cpu.Microseconds())/float64(r.pages), float64(r.alloc)/1000/float64(r.pages), r.conns, r.note)
		}
	}

	fmt.Println()
	for _, name := range names {
		best, median := summary(results[name])
		fmt.Printf("%-15s best %7.0f pages/s, median %7.0f pages/s\n", name, best, median)
	}
	cb, cm := summary(results[runColly])
	ccpu := medianCPU(results[runColly])
	for _, name := range names[1:] {
		b, m := summary(results[name])
		lo, hi := ratioRange(results[name], results[runColly])
		fmt.Printf("ratio %s/colly: best %.2f, median %.2f, per round %.2f–%.2f; CPU-bound %.2f (median CPU %.0f µs/page against %.0f)\n",
			name, b/cb, m/cm, lo, hi, ccpu/medianCPU(results[name]), medianCPU(results[name]), ccpu)
	}
	fmt.Printf("bench: load average after: %s\n", loadAvg())
	return nil
}

// runOne runs the crawler called name once.
func runOne(name string, s setup) (result, error) {
	switch name {
	case runColly:
		return measure(name, s, func(ctx context.Context) (int, string, error) { return crawlColly(ctx, s) })
	case runSitesift:
		return measure(name, s, func(ctx context.Context) (int, string, error) { return crawlSitesift(ctx, s, nil) })
	case runStore:
		st, done, err := openStore()
		if err != nil {
			return result{}, err
		}
		defer done()
		return measure(name, s, func(ctx context.Context) (int, string, error) {
			return crawlSitesift(ctx, s, st.SaveCrawlBatch)
		})
	case runIndex:
		save, done, err := openProject()
		if err != nil {
			return result{}, err
		}
		defer done()
		return measure(name, s, func(ctx context.Context) (int, string, error) { return crawlSitesift(ctx, s, save) })
	}
	return result{}, fmt.Errorf("bench: no crawler %q", name)
}

// summary returns the best and the median pages per second of rs.
func summary(rs []result) (best, median float64) {
	v := make([]float64, len(rs))
	for i, r := range rs {
		v[i] = r.perSec()
	}
	slices.Sort(v)
	n := len(v)
	median = v[n/2]
	if n%2 == 0 {
		median = (v[n/2-1] + v[n/2]) / 2
	}
	return v[n-1], median
}

// medianCPU returns the median CPU time of the process per page of rs, in
// microseconds. When both crawlers are CPU-bound (a busy 2-core machine), the
// ratio of their pages per second tends to the inverse ratio of this.
func medianCPU(rs []result) float64 {
	v := make([]float64, len(rs))
	for i, r := range rs {
		v[i] = float64(r.cpu.Microseconds()) / float64(r.pages)
	}
	slices.Sort(v)
	if n := len(v); n%2 == 0 {
		return (v[n/2-1] + v[n/2]) / 2
	}
	return v[len(v)/2]
}

// ratioRange returns the least and the greatest ratio of a run's pages per
// second to those of the other crawler's run in the same round.
func ratioRange(rs, base []result) (lo, hi float64) {
	for i := range rs {
		q := rs[i].perSec() / base[i].perSec()
		if i == 0 || q < lo {
			lo = q
		}
		if i == 0 || q > hi {
			hi = q
		}
	}
	return lo, hi
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func writeProfile(name, file string) {
	f, err := os.Create(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		return
	}
	defer f.Close()
	if err := pprof.Lookup(name).WriteTo(f, 0); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", name, "profile:", err)
	}
}
