package crawling

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"sitesift/app/fault"
	"sitesift/app/internal/wire"
	"sitesift/app/project"
	"sitesift/crawl"
	"sitesift/importance"
	"sitesift/sites"
	"sitesift/sites/store"
)

// A recrawl (CrawlRequest.Recrawl) revisits the pages of a project, as a
// crawl continuing weeks later would, politely and with the project's
// settings, and follows what changed: a changed page's links and text are
// replaced, a page gone is marked so and loses its out-links, a passing
// failure changes nothing (store.SaveRecrawlBatch). Each recrawl is a
// numbered round of the store; when it ends, every site's importance
// reading of the round (the cash it received over the cash read) is kept,
// and the sites' importance becomes what the project's window policy of
// Adaptive OPIC estimates from the recent readings, so that it follows the
// web as it is now rather than the average of its whole history.

// RecrawlReport is what a recrawl found, in CrawlStatus while it runs and
// once it ended.
type RecrawlReport struct {
	// Round is the recrawl's number (the first crawl is round 0).
	Round int `json:"round"`
	// Revisit counts the pages the recrawl set out to revisit (a continued
	// recrawl: those left).
	Revisit int `json:"revisit"`
	RecrawlCounts
	// Finished is set once the round is closed and the importance moved.
	Finished bool `json:"finished"`
	// Moved are the sites whose importance moved most, most first.
	Moved []SiteMove `json:"moved"`
}

// SiteMove is a site's importance before and after a recrawl (shares
// summing to 1).
type SiteMove struct {
	Site   string  `json:"site"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
}

// recrawlJob is the recrawl part of a crawl job.
type recrawlJob struct {
	round   int
	revisit int
	urls    []string // the pages to revisit, in order
	before  map[string]float64

	mu     sync.Mutex
	report RecrawlReport // counts added by the sink; the rest set at the end
}

// snapshot returns a copy of the report.
func (j *recrawlJob) snapshot() *RecrawlReport {
	j.mu.Lock()
	defer j.mu.Unlock()
	r := j.report
	r.Moved = slices.Clone(r.Moved)
	return &r
}

// startRecrawl begins (or continues) the project's recrawl round for req:
// it finds the pages to revisit, in order (the crawler's Revisit option),
// sets req's seeds to those of the project's crawls — they set the scope and
// the hosts that may be private addresses, as they did — and its caps, and
// returns the prior the crawler goes on from: every stored URL but those
// counts as fetched, and there is no frontier: only the links the revisited
// pages have now are followed. A round whose pages were all revisited but
// which a kill kept from closing is closed first, and a new one begun.
func (svc *Service) startRecrawl(req *CrawlRequest) (*recrawlJob, crawl.Prior, error) {
	ctx := context.Background()
	// The request is checked before the round begins, which writes.
	if err := req.CheckRecrawl(); err != nil {
		return nil, crawl.Prior{}, err
	}
	if _, err := svc.running(); err == nil {
		return nil, crawl.Prior{}, fault.Conflict(ErrCrawlRunning)
	}
	var (
		r       store.Round
		revisit []string
	)
	for range 2 {
		var err error
		if r, err = svc.store.StartRound(ctx); errors.Is(err, store.ErrInvalid) {
			return nil, crawl.Prior{}, fault.Invalid(err)
		} else if err != nil {
			return nil, crawl.Prior{}, err
		}
		if revisit, err = svc.store.RevisitList(ctx, r.Round); err != nil {
			return nil, crawl.Prior{}, err
		}
		if len(revisit) > 0 {
			break
		}
		if err := svc.finishRecrawl(ctx, &recrawlJob{round: r.Round}); err != nil {
			return nil, crawl.Prior{}, err
		}
	}
	if len(revisit) == 0 {
		return nil, crawl.Prior{}, fault.Invalid(errors.New("recrawl: the project has no page to revisit"))
	}
	states, edges, fetched, _, err := svc.store.Prior(ctx)
	if err != nil {
		return nil, crawl.Prior{}, err
	}
	again := make(map[string]bool, len(revisit))
	for _, u := range revisit {
		again[u] = true
	}
	done := fetched[:0:0]
	for _, u := range fetched {
		if !again[u] {
			done = append(done, u)
		}
	}
	if req.Seeds, err = svc.crawlSeeds(ctx); err != nil {
		return nil, crawl.Prior{}, err
	}
	recrawlLimits(req, revisit, svc.store.SiteRule())
	before, err := svc.shownShares(ctx)
	if err != nil {
		return nil, crawl.Prior{}, err
	}
	j := &recrawlJob{round: r.Round, revisit: len(revisit), urls: revisit, before: before}
	j.report = RecrawlReport{Round: r.Round, Revisit: len(revisit), Moved: []SiteMove{}}
	return j, crawl.Prior{States: states, Edges: edges, Fetched: done}, nil
}

// LastExclude returns the URL patterns the project's last crawl excluded
// (its request's Exclude): what a crawler configuration made of the
// project leaves out too. None when the project was never crawled.
func (svc *Service) LastExclude(ctx context.Context) ([]string, error) {
	crawls, err := svc.store.Crawls(ctx)
	if err != nil || len(crawls) == 0 {
		return nil, err
	}
	var req CrawlRequest
	if json.Unmarshal(crawls[0].Settings, &req) != nil {
		return nil, nil
	}
	return req.Exclude, nil
}

// crawlSeeds returns the seeds of the project's crawls (recrawls have
// none), each once, in the order they were first given.
func (svc *Service) crawlSeeds(ctx context.Context) ([]string, error) {
	crawls, err := svc.store.Crawls(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, c := range slices.Backward(crawls) { // oldest first
		var req CrawlRequest
		if json.Unmarshal(c.Settings, &req) != nil || req.Recrawl {
			continue
		}
		for _, s := range req.Seeds {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// shownShares is every site's importance as shown (OPIC's fixpoint, a share
// of 1), by name.
func (svc *Service) shownShares(ctx context.Context) (map[string]float64, error) {
	_, rows, err := svc.store.ListSites(ctx, store.SiteQuery{Sort: "site"})
	if err != nil {
		return nil, err
	}
	out := make(map[string]float64, len(rows))
	for _, r := range rows {
		out[r.Site] = r.OPIC
	}
	return out, nil
}

// recrawlLimits are the caps of a recrawl that the request leaves at 0:
// room to revisit every page, and as many new ones again as a crawl's
// defaults allow.
func recrawlLimits(req *CrawlRequest, revisit []string, rule sites.Rule) {
	if req.MaxPages == 0 {
		req.MaxPages = len(revisit) + DefaultMaxPages
	}
	if req.MaxPagesPerSite == 0 {
		per := map[string]int{}
		most := 0
		for _, u := range revisit {
			if s, err := rule.Of(u); err == nil {
				per[s]++
				most = max(most, per[s])
			}
		}
		req.MaxPagesPerSite = most + DefaultMaxPagesPerSite
	}
}

// saveRecrawl saves a batch of the recrawl's records in its round and
// indexes the pages whose stored version changed.
func (s *sink) saveRecrawl(ctx context.Context, pages []sites.Page, states []sites.SiteState) error {
	saved, err := s.svc.store.SaveRecrawlBatch(ctx, s.recrawl.round, pages, states)
	if err != nil {
		return err
	}
	if len(saved.Reindex) > 0 {
		if err := project.IndexPages(ctx, s.svc.store, s.svc.index, saved.Reindex); err != nil {
			return err
		}
	}
	s.recrawl.mu.Lock()
	s.recrawl.report.RecrawlCounts.Add(saved.RecrawlCounts)
	s.recrawl.mu.Unlock()
	return nil
}

// finishRecrawl closes the recrawl's round: the sites' readings are kept,
// and their importance becomes the window policy's estimate.
func (svc *Service) finishRecrawl(ctx context.Context, j *recrawlJob) error {
	readings, rounds, err := svc.store.FinishRound(ctx, j.round)
	if err != nil {
		return err
	}
	settings, err := svc.project.Settings(ctx)
	if err != nil {
		return err
	}
	states, err := svc.store.OPICStates(ctx)
	if err != nil {
		return err
	}
	est, err := windowImportance(settings.Window, settings.WindowSize, readings, rounds, states)
	if err != nil {
		return err
	}
	if err := svc.store.SetRoundImportance(ctx, j.round, est); err != nil {
		return err
	}
	// What moved is the importance shown, which the crawl computed on the
	// graph the round left before it closed the round (the window's
	// estimate does not enter it).
	after, err := svc.shownShares(ctx)
	if err != nil {
		return err
	}
	var moved []SiteMove
	for site, v := range after {
		moved = append(moved, SiteMove{Site: site, Before: j.before[site], After: v})
	}
	slices.SortFunc(moved, func(x, y SiteMove) int {
		if c := cmp.Compare(math.Abs(y.After-y.Before), math.Abs(x.After-x.Before)); c != 0 {
			return c
		}
		return cmp.Compare(x.Site, y.Site)
	})
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, r := range rounds {
		if r.Round == j.round {
			j.report.RecrawlCounts = RecrawlCounts(r.RecrawlCounts) // the continued parts included
		}
	}
	j.report.Moved = moved[:min(len(moved), 10)]
	j.report.Finished = true
	return nil
}

// newWindow returns a fresh window policy by name, of size crawls on a
// clock of one unit a round.
func newWindow(policy string, size int) (importance.Window, error) {
	T := float64(size)
	switch policy {
	case project.WindowFixed:
		// A measure of round k is kept while k ≥ now − T: T − ½ keeps the
		// last size rounds.
		return importance.NewFixedWindow(T - 0.5)
	case project.WindowImproved:
		return importance.NewImprovedFixedWindow(T-0.5, 3)
	case project.WindowVariable:
		return importance.NewVariableWindow(size)
	case project.WindowInterpolation:
		return importance.NewInterpolation(T)
	case project.WindowFullHistory:
		return importance.NewFullHistory(), nil
	}
	return nil, fault.Invalid(fmt.Errorf("window %q is none of %v", policy, project.Windows))
}

// windowImportance estimates every site's importance from the readings of
// the finished rounds under a window policy: each round is a measure of
// the sites it read — the cash a site received in it, at OPIC's clock G of
// the round's end, at time round — and a site's current cash is added as
// OPIC adds it. A site enters the window when first met.
func windowImportance(policy string, size int, readings []store.SiteReading, rounds []store.Round, states []sites.SiteState) (map[string]float64, error) {
	w, err := newWindow(policy, size)
	if err != nil {
		return nil, err
	}
	gOf := map[int]float64{}
	now := 0.0
	for _, r := range rounds {
		if !r.FinishedAt.IsZero() {
			gOf[r.Round] = r.G
			now = max(now, float64(r.Round))
		}
	}
	id := map[string]int{}
	var names []string
	node := func(site string, round int) int {
		i, ok := id[site]
		if !ok {
			i = len(names)
			id[site] = i
			names = append(names, site)
			w.Add(i, gOf[round-1], float64(round-1)) // round 0's start: G = 0
		}
		return i
	}
	for _, r := range readings { // oldest round first
		i := node(r.Site, r.Round)
		if r.Received > 0 {
			w.Record(i, r.Received, gOf[r.Round], float64(r.Round))
		}
	}
	cash := make([]float64, len(names))
	for _, s := range states {
		if i, ok := id[s.Site]; ok {
			cash[i] = s.Cash
		}
	}
	est := w.Estimate(now, gOf[int(now)], cash)
	out := make(map[string]float64, len(names))
	for i, n := range names {
		out[n] = est[i]
	}
	return out, nil
}

// SiteRecrawls is a site's importance over the crawls: one point per
// round (the first crawl, then each recrawl) with what the round found of
// its pages.
type SiteRecrawls struct {
	Site   string      `json:"site"`
	Window string      `json:"window"`
	Size   int         `json:"window_size"`
	Rounds []SiteRound `json:"rounds"`
	// Gone are the site's pages recrawls found gone, latest first.
	Gone []GonePage `json:"gone"`
}

// SiteRecrawls returns site's importance and changes over the crawls.
func (svc *Service) SiteRecrawls(ctx context.Context, site string) (SiteRecrawls, error) {
	rs, err := svc.store.SiteRounds(ctx, site)
	if errors.Is(err, store.ErrNotFound) {
		return SiteRecrawls{}, fault.NotFound(fmt.Errorf("site %q: no such site", site))
	}
	if err != nil {
		return SiteRecrawls{}, err
	}
	s, err := svc.project.Settings(ctx)
	if err != nil {
		return SiteRecrawls{}, err
	}
	gone, err := svc.store.GonePages(ctx, site)
	if err != nil {
		return SiteRecrawls{}, err
	}
	return SiteRecrawls{Site: site, Window: s.Window, Size: s.WindowSize, Rounds: wire.Each(rs, siteRound),
		Gone: wire.Each(gone, func(g store.GonePage) GonePage { return GonePage(g) })}, nil
}

// ChangedSites returns the sites whose pages the last recrawl found
// changed, new or gone.
func (svc *Service) ChangedSites(ctx context.Context) (map[string]RecrawlCounts, error) {
	changed, err := svc.store.ChangedSites(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]RecrawlCounts, len(changed))
	for site, c := range changed {
		out[site] = RecrawlCounts(c)
	}
	return out, nil
}

// CheckRecrawl returns the error a recrawl of r would be refused with that
// can be told before the project is opened: seeds given, negative caps, an
// unknown strategy, a bad proxy or setting.
func (r CrawlRequest) CheckRecrawl() error {
	if len(r.Seeds) > 0 || r.FreshFrontier {
		return fault.Invalid(errors.New("recrawl: a recrawl revisits the project's pages: it takes no seeds and no fresh frontier"))
	}
	r.Seeds = []string{"http://recrawl.test/"} // stands for the project's pages
	return r.Check()
}

// lastRecrawl is the report of the project's last recrawl as the store
// keeps it, for the status of a recrawl run before this process started:
// its counts, and whether its round was closed (the sites that moved are
// said only by the process that ran it).
func (svc *Service) lastRecrawl(ctx context.Context) *RecrawlReport {
	rs, err := svc.store.Rounds(ctx)
	if err != nil || len(rs) == 0 || rs[len(rs)-1].Round == 0 {
		return nil
	}
	r := rs[len(rs)-1]
	return &RecrawlReport{Round: r.Round, RecrawlCounts: RecrawlCounts(r.RecrawlCounts), Finished: !r.FinishedAt.IsZero(), Moved: []SiteMove{}}
}
