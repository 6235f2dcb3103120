package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"sitesift/app/review"
)

// Every GET of the API is refused when it comes from another web site,
// unless the contract (contract.go) says it is a cheap read; the requests
// that do real work (a search, an extraction of communities, a ranking,
// an export) also take their turn at a gate. Any page the librarian opens
// can make the browser send GET requests here: <img src>, <script src>
// and fetch in no-cors mode need no permission, and the guard's rules for
// writes do not apply to GET. Such a request cannot read the answer, but
// it can make the server work: six image tags of a search for thousands of
// wildcards took gigabytes, and a dozen image tags of the ratings table
// eleven seconds each. Refusing by default, rather than route by route,
// keeps the next costly route from being forgotten: a route is open to
// other sites only once the contract says it is cheap (routes_test.go
// holds every GET to a cost said). Cheap reads are bounded reads of a few
// rows (the project, the sites table, a site, a job's state).

// errCrossSiteWork is the error of a GET from another web site of a route
// that is no cheap read.
var errCrossSiteWork = errors.New("only sitesift's own pages (or a tool that names no other web site) may ask for this, not a page of another web site: open sitesift itself")

// cost is what a GET of a route may cost, and so who may ask for it.
type cost int

const (
	// unsaid is the cost of a route the contract says nothing of: refused
	// from other web sites, as costly.
	unsaid cost = iota
	// cheap is a bounded read of a few rows: any request may ask for it.
	cheap
	// costly is work, a stream or a whole file: refused from other web
	// sites.
	costly
)

// turn names the gate of gates a route waits at.
type turn int

const (
	noTurn turn = iota
	// computeTurn is the project's one turn: extractions, rankings, the
	// site graph, agreement and every export.
	computeTurn
	// searchTurn is a search's.
	searchTurn
)

// crossSite reports whether a request comes from a page of another web
// site: Sec-Fetch-Site says so (same-site is another web site too: another
// port of localhost is same-site), or its Origin is not the app's own. A
// request without either header (the desktop window, command-line tools)
// and one the person made by typing the URL (Sec-Fetch-Site: none) are
// the app's own.
func crossSite(r *http.Request) bool {
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" && s != "none" {
		return true
	}
	o := r.Header.Get("Origin")
	return o != "" && !sameOrigin(o, r)
}

// gate lets a bounded number of costly requests run at once in a project;
// a few more wait their turn, for a bounded time or until their request
// goes away; any more are refused with 429 at once. Waiting rather than
// refusing at once is what a librarian's page expects: the communities
// page asks for the cores and then the graph coloured by them, the review
// page for the queue, and the second request, once the first is done,
// finds the extraction in the service's memo and answers at once. A
// refusal there would show an error for what a moment's wait answers. The
// bounds keep a page that fires many requests (or a script) from piling
// up work: at most running requests work, and at most waiting wait.
type gate struct {
	what    string        // what runs, as the refusal names it
	running chan struct{} // a token for every request at work
	waiting chan struct{} // a token for every request waiting its turn
	wait    time.Duration // the longest wait for a turn
}

func newGate(what string, running, waiting int, wait time.Duration) *gate {
	return &gate{what: what, running: make(chan struct{}, running), waiting: make(chan struct{}, waiting), wait: wait}
}

// enter waits for a turn and returns the function that ends it; it
// returns an error when the request went away meanwhile, or when too many
// wait or the wait was too long.
func (g *gate) enter(ctx context.Context) (leave func(), err error) {
	leave = func() { <-g.running }
	select {
	case g.running <- struct{}{}:
		return leave, nil
	default:
	}
	select {
	case g.waiting <- struct{}{}:
		defer func() { <-g.waiting }()
	default:
		return nil, g.busy()
	}
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.running <- struct{}{}:
		return leave, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for another %s to end: %w", g.what, ctx.Err())
	case <-t.C:
		return nil, g.busy()
	}
}

func (g *gate) busy() error {
	return &apiError{"busy", http.StatusTooManyRequests,
		fmt.Errorf("another %s is running for this project; try again when it ends", g.what)}
}

// The gates of a handler (one handler serves one project).
const (
	// computeWait is the longest wait for an extraction or a ranking:
	// one on a large project takes some tens of seconds.
	computeWait = time.Minute
	// searchesAtOnce is the number of searches that run at once (each is
	// bounded, see index.MaxExpansions); the search page drops the search
	// it no longer shows, so more rarely wait. With two, searches queued
	// behind each other while the other reads did not: beside a crawl on
	// two busy cores their median doubled (tools/crawlbench/reads.sh).
	searchesAtOnce = 4
	// searchesWaiting is the number of searches that may wait for their
	// turn: a team's pages search at once (twenty readers of one served
	// project were refused by the dozen with 8), and a waiting search
	// costs nothing but its request; only the running ones work, each
	// bounded.
	searchesWaiting = 64
)

// computeWaiting is the number of computations that may wait for their
// turn. One page asks for several at once: the Export page for what each of
// its seven files leaves out and its top-K preview, each a ranking or an
// extraction to read. With 4, two of them were refused as busy at every
// visit and their lines went missing; a waiting request costs nothing but
// itself, and only one runs.
const computeWaiting = 32

type gates struct {
	compute *gate // extractions, rankings, the site graph, agreement, exports
	search  *gate
}

func newGates() gates {
	return gates{
		compute: newGate("computation (an extraction of communities, a ranking, the site graph, agreement or an export)", 1, computeWaiting, computeWait),
		search:  newGate("search", searchesAtOnce, searchesWaiting, review.SearchTimeout),
	}
}

// of returns the gate of t, nil for none.
func (g gates) of(t turn) *gate {
	switch t {
	case computeTurn:
		return g.compute
	case searchTurn:
		return g.search
	}
	return nil
}

// policy is what the contract says of each route, applied to its handler
// as the route is registered (routes.go): the refusal of other web sites
// and the turn.
type policy struct {
	routes map[string]Route // the contract by pattern
	gates  gates
	guard  *guard
}

func newPolicy(g gates, gd *guard) *policy {
	p := &policy{routes: map[string]Route{}, gates: g, guard: gd}
	for _, r := range Contract() {
		p.routes[r.Pattern] = r
	}
	return p
}

// apply wraps the handler of pattern: a GET or HEAD from another web site
// is refused unless the contract says the route is cheap (a pattern it
// does not list is not), and a route with a turn waits for it. The
// frontend's files (patterns outside /api/) are left as they are.
func (p *policy) apply(pattern string, next http.Handler) http.Handler {
	_, path, _ := strings.Cut(pattern, " ")
	if path == "" {
		path = pattern
	}
	if !strings.HasPrefix(path, "/api/") {
		return next
	}
	route := p.routes[pattern]
	g := p.gates.of(route.turn)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && route.cost != cheap && p.guard.foreign(r) {
			writeError(w, &apiError{"forbidden", http.StatusForbidden, fmt.Errorf("%s %s: %w", r.Method, r.URL.Path, errCrossSiteWork)})
			return
		}
		if g == nil {
			next.ServeHTTP(w, r)
			return
		}
		takeTurn(g, next.ServeHTTP)(w, r)
	})
}

// takeTurn wraps a handler so that it runs in its turn at g: for a route
// whose turn depends on its request (the review queue's orders).
func takeTurn(g *gate, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		leave, err := g.enter(r.Context())
		if err != nil {
			writeError(w, err)
			return
		}
		defer leave()
		next(w, r)
	}
}
