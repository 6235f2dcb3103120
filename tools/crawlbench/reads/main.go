// Command reads measures how fast sitesift's HTTP API answers readers: N
// clients, each asking in turn for the sites table, the review queue, a
// full-text search and a site's page, for a fixed time, every request with a
// timeout. It prints the requests per second, the latency percentiles
// (overall and per kind of request), the time-outs and the errors.
//
//	go run ./tools/crawlbench/reads -api http://127.0.0.1:7777 -clients 20 -duration 30s -librarian bench
//
// reads.sh beside tools/crawlbench runs it against `sitesift serve` while the
// project is being crawled, once on an idle machine and once with every core
// busy.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// kinds are the requests every client makes in turn.
var kinds = []string{"sites", "queue", "search", "site"}

// words are searched for, one or two a query: words of the bench web's
// pages (tools/crawlbench/web.go).
var words = strings.Fields(`archive library museum letter photograph map newspaper journal river market
harbour bridge festival concert choir orchestra jazz folk poetry novel science physics telescope recipe
bread cheese garden harvest football rugby cycling stadium election school transport housing`)

func main() {
	var (
		api       = flag.String("api", "", "base URL of the sitesift API (http://127.0.0.1:7777)")
		clients   = flag.Int("clients", 20, "readers at once, each one request at a time")
		duration  = flag.Duration("duration", 30*time.Second, "how long the readers read")
		timeout   = flag.Duration("timeout", 10*time.Second, "a request not answered in this time counts as a time-out")
		librarian = flag.String("librarian", "", "librarian whose review queue and ratings are read (must exist)")
	)
	flag.Parse()
	if *api == "" || *librarian == "" || *clients < 1 || *duration <= 0 || *timeout <= 0 {
		fmt.Fprintln(os.Stderr, "reads: -api and -librarian are required; -clients, -duration and -timeout must be positive")
		os.Exit(2)
	}
	r := &reader{
		api:       strings.TrimSuffix(*api, "/"),
		librarian: *librarian,
		timeout:   *timeout,
		client: &http.Client{Transport: &http.Transport{
			MaxIdleConns: *clients, MaxIdleConnsPerHost: *clients, IdleConnTimeout: time.Minute,
		}},
		lat: map[string][]time.Duration{},
	}
	if err := r.loadSites(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	start := time.Now()
	ctx, cancel := context.WithDeadline(context.Background(), start.Add(*duration))
	defer cancel()
	var wg sync.WaitGroup
	for c := range *clients {
		wg.Go(func() { r.run(ctx, c) })
	}
	wg.Wait()
	r.report(time.Since(start))
}

type reader struct {
	api       string
	librarian string
	timeout   time.Duration
	client    *http.Client
	sites     atomic.Pointer[[]string] // site names of the last sites table read

	mu       sync.Mutex
	lat      map[string][]time.Duration // answered requests by kind, time-outs and errors included
	timeouts map[string]int
	errs     map[string]int
	firstErr []string // the first few error messages
}

// loadSites reads the first page of the sites table, whose names the site
// requests pick from until the readers' own reads of it replace them.
func (r *reader) loadSites(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	names, err := r.get(ctx, "/api/sites?limit=200")
	if err != nil {
		return fmt.Errorf("reads: first sites table: %w", err)
	}
	if len(names) == 0 {
		return errors.New("reads: the project has no sites yet: start the crawl first")
	}
	r.sites.Store(&names)
	return nil
}

// run makes one request after another until ctx ends, the kinds in turn,
// starting at a kind that depends on the client so that every kind is
// asked for at every moment.
func (r *reader) run(ctx context.Context, client int) {
	rng := rand.New(rand.NewPCG(uint64(client), 7))
	for i := client; ctx.Err() == nil; i++ {
		kind := kinds[i%len(kinds)]
		path := r.path(kind, rng)
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.timeout)
		t0 := time.Now()
		names, err := r.get(rctx, path)
		d := time.Since(t0)
		cancel()
		if kind == "sites" && err == nil && len(names) > 0 {
			r.sites.Store(&names)
		}
		r.record(kind, path, d, err)
	}
}

// path is the request of one kind, with its parameters drawn from rng.
func (r *reader) path(kind string, rng *rand.Rand) string {
	lib := url.QueryEscape(r.librarian)
	switch kind {
	case "sites":
		sorts := []string{"opic", "pagerank", "pages", "site"}
		return fmt.Sprintf("/api/sites?sort=%s&order=desc&offset=%d&limit=50&librarian=%s",
			sorts[rng.IntN(len(sorts))], 50*rng.IntN(4), lib)
	case "queue":
		return "/api/review/queue?librarian=" + lib + "&limit=50"
	case "search":
		q := words[rng.IntN(len(words))]
		if rng.IntN(2) == 0 {
			q += " " + words[rng.IntN(len(words))]
		}
		return "/api/search?q=" + url.QueryEscape(q) + "&limit=20"
	default:
		names := *r.sites.Load()
		return "/api/sites/" + url.PathEscape(names[rng.IntN(len(names))]) + "?librarian=" + lib
	}
}

// get asks for path and reads the answer whole; for a sites table it
// returns the site names of its rows.
func (r *reader) get(ctx context.Context, path string) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.api+path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s: %s", path, resp.Status, strings.TrimSpace(string(body)))
	}
	if !strings.HasPrefix(path, "/api/sites?") {
		return nil, nil
	}
	var env struct {
		Data struct {
			Rows []struct {
				Site string `json:"site"`
			} `json:"rows"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	names := make([]string, len(env.Data.Rows))
	for i, row := range env.Data.Rows {
		names[i] = row.Site
	}
	return names, nil
}

func (r *reader) record(kind, path string, d time.Duration, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.timeouts == nil {
		r.timeouts, r.errs = map[string]int{}, map[string]int{}
	}
	r.lat[kind] = append(r.lat[kind], d)
	switch {
	case err == nil:
		return
	case errors.Is(err, context.DeadlineExceeded):
		r.timeouts[kind]++
	default:
		r.errs[kind]++
	}
	if len(r.firstErr) < 5 {
		r.firstErr = append(r.firstErr, fmt.Sprintf("%s after %s: %v", path, d.Round(time.Millisecond), err))
	}
}

// report prints the figures of every kind and of all requests.
func (r *reader) report(elapsed time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var all []time.Duration
	fmt.Printf("%-7s %8s %8s %8s %8s %8s %8s %9s %7s\n", "kind", "requests", "req/s", "p50", "p95", "p99", "max", "time-outs", "errors")
	line := func(kind string, lat []time.Duration, timeouts, errs int) {
		slices.Sort(lat)
		fmt.Printf("%-7s %8d %8.1f %8s %8s %8s %8s %9d %7d\n", kind, len(lat), float64(len(lat))/elapsed.Seconds(),
			ms(pct(lat, 50)), ms(pct(lat, 95)), ms(pct(lat, 99)), ms(pct(lat, 100)), timeouts, errs)
	}
	var timeouts, errs int
	for _, k := range kinds {
		line(k, r.lat[k], r.timeouts[k], r.errs[k])
		all = append(all, r.lat[k]...)
		timeouts += r.timeouts[k]
		errs += r.errs[k]
	}
	line("all", all, timeouts, errs)
	for _, e := range r.firstErr {
		fmt.Println("error:", e)
	}
}

// pct is the p-th percentile of the sorted durations (nearest rank), 0 for
// none.
func pct(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (p*len(sorted)+99)/100 - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.0fms", float64(d)/float64(time.Millisecond))
}
