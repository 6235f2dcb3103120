package crawling

import (
	"context"
	"time"

	"sitesift/app/project"
	"sitesift/crawl"
	"sitesift/sites"
)

// sink saves what the crawler hands over: pages, links and OPIC state in one
// store transaction, the pages into the index in one batch, and every few
// seconds a fresh PageRank. The crawler calls it from one goroutine.
type sink struct {
	svc       *Service
	lastRank  time.Time
	lastSnap  time.Time
	snapPages int // pages saved since the last snapshot
	// log writes the crawl's crawl.log.
	log *fetchLog
	// crawler and crawl are the crawl and its record, set before it runs:
	// each batch records the crawl's progress, which a kill then keeps.
	crawler *crawl.Crawler
	crawl   int64
	// recrawl is the recrawl the sink saves, nil for a crawl.
	recrawl *recrawlJob
}

// The sink records every site's importance shown (OPIC's fixpoint), the
// points of a site's importance over the crawl on its review page, every opicSnapshotEvery or
// every opicSnapshotPages pages, whichever comes first: a fast crawl still
// gets a curve, a slow one a point every few seconds. The store thins old
// snapshots, so a long crawl stays bounded.
const (
	opicSnapshotEvery = 3 * time.Second
	opicSnapshotPages = 50
)

func (s *sink) save(ctx context.Context, pages []sites.Page, states []sites.SiteState) error {
	// The final flush comes after cancellation: it must still be written.
	ctx = context.WithoutCancel(ctx)
	if s.recrawl != nil {
		if err := s.saveRecrawl(ctx, pages, states); err != nil {
			return err
		}
	} else {
		if err := s.svc.store.SaveCrawlBatch(ctx, pages, states); err != nil {
			return err
		}
		if err := project.IndexPages(ctx, s.svc.store, s.svc.index, pages); err != nil {
			return err
		}
	}
	if s.crawler != nil {
		st := s.crawler.Status()
		if err := s.svc.store.CrawlProgress(ctx, s.crawl, countsOf(st)); err != nil {
			return err
		}
	}
	s.log.pages(pages, time.Now())
	s.snapPages += len(pages)
	snap := time.Since(s.lastSnap) > opicSnapshotEvery || s.snapPages >= opicSnapshotPages
	// A snapshot records the importance shown, so it is computed on the
	// graph as it is first: a point of the chart is the fixpoint of the
	// links known then, not the last one computed.
	if snap || time.Since(s.lastRank) > 2*time.Second {
		s.lastRank = time.Now()
		if _, err := s.svc.ranking.UpdateImportance(ctx); err != nil {
			return err
		}
	}
	if snap {
		s.lastSnap, s.snapPages = time.Now(), 0
		// A failed snapshot costs a point of a chart, not the crawl.
		if _, err := s.svc.store.SnapshotOPIC(ctx); err != nil {
			s.svc.log.Error("OPIC snapshot", "err", err)
		}
	}
	return nil
}
