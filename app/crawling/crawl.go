package crawling

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"sitesift/app/fault"
	"sitesift/app/internal/jobs"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/crawl"
	"sitesift/sites"
	"sitesift/sites/store"
)

// crawlJobs runs the App's crawls and recrawls, one at a time, keeping
// the last. A job's request is the crawl itself, which its status reads
// while it runs; its result is its end state (StateDone, StateStopped or
// StateFailed) and its error what went wrong, a crawl done whose last
// PageRank failed included.
type crawlJobs = jobs.Runner[*crawlJob, struct{}, string]

type crawlStatus = jobs.Status[*crawlJob, struct{}, string]

type crawlJob struct {
	req     CrawlRequest
	recrawl *recrawlJob // nil for a crawl
	crawler *crawl.Crawler

	mu       sync.Mutex
	stopping bool
}

// ErrCrawlRunning is returned when a crawl is asked for while one runs.
var ErrCrawlRunning = errors.New("a crawl is already running")

// Start starts a crawl and returns at once; follow it with
// CrawlStatus, stop it with StopCrawl.
func (svc *Service) Start(req CrawlRequest) (CrawlStatus, error) {
	js, err := svc.startCrawl(req)
	if err != nil {
		return CrawlStatus{}, err
	}
	return svc.jobStatus(js), nil
}

// Run runs a crawl to its end, calling progress about every interval.
// Cancelling ctx stops the crawl; what was fetched until then is kept.
func (svc *Service) Run(ctx context.Context, req CrawlRequest, interval time.Duration, progress func(CrawlStatus)) (CrawlStatus, error) {
	js, err := svc.startCrawl(req)
	if err != nil {
		return CrawlStatus{}, err
	}
	done, err := svc.crawls.Done(js.ID)
	if err != nil {
		return CrawlStatus{}, err
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			svc.Stop()
			<-done
		case <-t.C:
			if progress != nil {
				if js, err := svc.crawls.Get(js.ID); err == nil {
					progress(svc.jobStatus(js))
				}
			}
			continue
		case <-done:
		}
		end, err := svc.crawls.Wait(context.Background(), js.ID)
		if err != nil {
			return CrawlStatus{}, err
		}
		st := svc.jobStatus(end)
		if progress != nil {
			progress(st)
		}
		return st, end.Err
	}
}

func (svc *Service) startCrawl(req CrawlRequest) (crawlStatus, error) {
	if err := svc.refuseImported(context.Background()); err != nil {
		return crawlStatus{}, err
	}
	var rj *recrawlJob
	var recrawlPrior crawl.Prior
	if req.Recrawl {
		var err error
		if rj, recrawlPrior, err = svc.startRecrawl(&req); err != nil {
			return crawlStatus{}, err
		}
	}
	req.withDefaults()
	seeds, strategy, err := req.validate()
	if err != nil {
		return crawlStatus{}, err
	}
	settings, err := svc.project.Settings(context.Background())
	if err != nil {
		return crawlStatus{}, err
	}
	if settings, err = req.SettingsUpdate.Apply(settings); err != nil {
		return crawlStatus{}, err
	}
	if err := checkContact(settings, seeds); err != nil {
		return crawlStatus{}, err
	}
	// The site rule is the project's, chosen before its first sites: a
	// crawl of a new project may choose it, and must do so before the
	// crawler maps its first URL.
	if err := svc.store.SetSiteRule(context.Background(), sites.Rule(settings.SiteRule)); err != nil {
		return crawlStatus{}, err
	}
	// One crawl starts at a time: the check and the start below are under
	// one lock, and what lies between opens the crawl's journal and WARC
	// files, which a second crawl must not open too.
	svc.mu.Lock()
	defer svc.mu.Unlock()
	if _, ok := svc.crawls.Running(); ok {
		return crawlStatus{}, fault.Conflict(ErrCrawlRunning)
	}
	j := &crawlJob{req: req, recrawl: rj}
	s := &sink{svc: svc, recrawl: rj, log: newFetchLog(svc.project.CrawlLog(), func(err error) { svc.log.Error("crawl log", "err", err) })}
	opts := []crawl.Option{
		crawl.MaxPages(req.MaxPages),
		crawl.MaxFailures(cmp.Or(req.MaxFailures, req.MaxPages)),
		crawl.MaxPagesPerSite(req.MaxPagesPerSite),
		crawl.Delay(ms(settings.DelayMS)),
		crawl.Parallel(settings.Parallel),
		crawl.MaxDelay(ms(settings.MaxDelayMS)),
		crawl.UserAgent(settings.EffectiveUserAgent),
		crawl.From(settings.From()),
		crawl.WithStrategy(strategy),
		crawl.Teleport(svc.teleport),
		crawl.Logger(svc.baseLog),
		crawl.OnBatch(s.save),
		crawl.AllowPrivate(req.AllowPrivate),
		crawl.SiteRule(svc.store.SiteRule()),
		// A site is handed to a crawler from its home page where the
		// crawl saw it answer (project.SeedURLs): ask it of each site.
		crawl.HomePages(true),
		// The online OPIC hands cash along the links of the graph the
		// project ranks on, as the offline ranking after the crawl does.
		crawl.AllLinksForImportance(settings.Links == string(store.AllLinks)),
	}
	opts = append(opts, req.scopeOptions()...)
	opts = append(opts, crawl.FollowLinks(crawl.Follow(req.Follow)))
	if req.IdleReads != nil {
		opts = append(opts, crawl.IdleReads(*req.IdleReads))
	}
	if req.Proxy != "" {
		opts = append(opts, crawl.Proxy(req.Proxy))
	}
	if req.Bias != 0 {
		shares, err := svc.crawlShares(context.Background(), req.Bias)
		if err != nil {
			return crawlStatus{}, err
		}
		opts = append(opts, crawl.Shares(shares))
	}
	// A project that has pages continues its crawl: its OPIC state goes on
	// and no URL is fetched twice, so the store never mixes the states of a
	// fresh OPIC with stale ones of the sites the new crawl does not reach.
	states, edges, fetched, frontier, err := svc.store.Prior(context.Background())
	if err != nil {
		return crawlStatus{}, err
	}
	switch {
	case rj != nil:
		opts = append(opts, crawl.Resume(recrawlPrior), crawl.Revisit(rj.urls))
	case len(fetched) > 0:
		if req.FreshFrontier {
			frontier = nil
		}
		opts = append(opts, crawl.Resume(crawl.Prior{States: states, Edges: edges, Fetched: fetched, Frontier: frontier}))
	}
	warcs, err := svc.openWARCs(req, settings)
	if err != nil {
		return crawlStatus{}, err
	}
	if warcs != nil {
		opts = append(opts, crawl.OnCapture(s.log.capturer(warcs)))
	}
	journalFile := project.JournalFile
	if rj != nil {
		journalFile = project.RecrawlJournalFile
	}
	jl, err := project.OpenJournal(svc.project.Dir, journalFile, svc.log)
	if err != nil {
		closeWARCs(warcs)
		return crawlStatus{}, err
	}
	opts = append(opts, crawl.OnRecord(jl.Write))
	abandon := func() { // the crawl does not start: nothing was written
		closeWARCs(warcs)
		jl.Close(true)
	}
	c, err := crawl.New(opts...)
	if err != nil {
		abandon()
		return crawlStatus{}, fault.Invalid(err)
	}
	j.crawler = c
	bg := context.Background()
	// The crawl starts: what it changed of the settings is kept for the
	// next ones, and its record says what it used.
	if _, err := svc.ranking.SetSettings(bg, req.SettingsUpdate); err != nil {
		abandon()
		return crawlStatus{}, err
	}
	rec := req
	rec.SettingsUpdate = settings.Update()
	if rj != nil {
		rec.Seeds = nil // the project's pages: the round says which
	}
	id, err := svc.store.StartCrawl(bg, rec)
	if err != nil {
		abandon()
		return crawlStatus{}, err
	}
	s.crawler, s.crawl = c, id
	kind := "crawl"
	if rj != nil {
		kind = "recrawl"
	}
	js, err := svc.crawls.Start(kind, j, func(ctx context.Context, _ func(struct{})) (string, error) {
		err := c.Run(ctx, seeds)
		final := StateDone
		j.mu.Lock()
		switch {
		case j.stopping && errors.Is(err, context.Canceled):
			final, err = StateStopped, nil
		case err != nil:
			final = StateFailed
			svc.log.Error("crawl failed", "err", err)
		}
		j.mu.Unlock()
		// Every record of a crawl that ended or was stopped is saved (the
		// last batch is flushed whatever the end); a failed save keeps the
		// journal for the next open.
		if jerr := jl.Close(err == nil); jerr != nil {
			svc.log.Error("crawl journal", "err", jerr)
		}
		if werr := closeWARCs(warcs); werr != nil {
			svc.log.Error("closing the WARC files", "err", werr)
			final, err = StateFailed, errors.Join(err, werr)
		}
		// The last importance, on the final graph, whatever the end.
		if _, perr := svc.ranking.UpdateImportance(bg); perr != nil {
			svc.log.Error("pagerank", "err", perr)
			err = errors.Join(err, perr)
		}
		// A recrawl that ended (not stopped, not failed) closes its round,
		// and reports what moved from the importance just computed; one
		// stopped or killed is continued by the next recrawl.
		if rj != nil && final == StateDone {
			if rerr := svc.finishRecrawl(bg, rj); rerr != nil {
				svc.log.Error("finishing the recrawl", "err", rerr)
				final, err = StateFailed, errors.Join(err, rerr)
			}
		}
		if _, serr := svc.store.SnapshotOPIC(bg); serr != nil { // the series ends at the final state
			svc.log.Error("OPIC snapshot", "err", serr)
		}
		cs := c.Status()
		if ferr := svc.store.FinishCrawl(bg, id, final, cs.EndReason, countsOf(cs)); ferr != nil {
			err = errors.Join(err, ferr)
		}
		return final, err
	})
	if err != nil { // the app is closing: the crawl never ran
		abandon()
		if ferr := svc.store.FinishCrawl(bg, id, StateFailed, "the app closed before the crawl started", store.CrawlCounts{}); ferr != nil {
			err = errors.Join(err, ferr)
		}
		return crawlStatus{}, fault.Conflict(fmt.Errorf("crawl: %w", err))
	}
	return js, nil
}

// crawlShares returns the teleport shares of a biased crawl: 1 + bias for
// the sites librarians rated ranking.FavouredRating or more on average (the others
// keep the default 1), as in the biased PageRank (BiasVector).
func (svc *Service) crawlShares(ctx context.Context, bias float64) (map[string]float64, error) {
	rs, err := svc.store.Ratings(ctx)
	if err != nil {
		return nil, err
	}
	shares := map[string]float64{}
	for site, m := range ranking.MeanRatings(rs) {
		if m >= ranking.FavouredRating {
			shares[site] = 1 + bias
		}
	}
	return shares, nil
}

func (svc *Service) running() (crawlStatus, error) {
	js, ok := svc.crawls.Running()
	if !ok {
		return js, fault.Conflict(errors.New("no crawl is running"))
	}
	return js, nil
}

// Pause pauses the running crawl: fetches under way finish, no new one starts.
func (svc *Service) Pause() (CrawlStatus, error) {
	js, err := svc.running()
	if err != nil {
		return CrawlStatus{}, err
	}
	js.Request.crawler.Pause()
	return svc.jobStatus(js), nil
}

// Resume resumes a paused crawl.
func (svc *Service) Resume() (CrawlStatus, error) {
	js, err := svc.running()
	if err != nil {
		return CrawlStatus{}, err
	}
	js.Request.crawler.Resume()
	return svc.jobStatus(js), nil
}

// Stop stops the running crawl; what was fetched is kept.
func (svc *Service) Stop() (CrawlStatus, error) {
	js, err := svc.running()
	if err != nil {
		return CrawlStatus{}, err
	}
	j := js.Request
	j.mu.Lock()
	j.stopping = true
	j.mu.Unlock()
	if err := svc.crawls.Cancel(js.ID); err != nil && !errors.Is(err, jobs.ErrNotRunning) {
		return CrawlStatus{}, err
	}
	return svc.jobStatus(js), nil
}

// ErrImportedGraph is returned (wrapped, as a conflict) when a crawl is asked
// of a project that holds an imported site graph.
var ErrImportedGraph = errors.New("the project holds an imported site graph")

// refuseImported returns a conflict error when the project holds an
// imported graph: a crawl would add page-counted edges to a graph whose
// weights mean something else, and continue an OPIC that never read a page.
func (svc *Service) refuseImported(ctx context.Context) error {
	has, err := svc.store.HasImport(ctx)
	if err != nil {
		return err
	}
	if has {
		return fault.Conflict(fmt.Errorf("crawl: %w (sitesift import); crawl into a new project (Projects, then New project…, in the app; sitesift crawl --project NEW-DIR on the command line)", ErrImportedGraph))
	}
	return nil
}

// countsOf is what a crawl's record keeps of its status.
func countsOf(cs crawl.Status) store.CrawlCounts {
	return store.CrawlCounts{Pages: cs.Pages, Retries: cs.Retries,
		TemplateLinksLeftOut: cs.TemplateLeftOut, TemplateSitesLeftOut: cs.TemplateSitesLeftOut}
}
