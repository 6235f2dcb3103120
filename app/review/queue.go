package review

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"sitesift/app/fault"
	"sitesift/app/internal/memo"
	"sitesift/app/ranking"
	"sitesift/sites/index"
	"sitesift/sites/store"
)

// Orders of the review queue.
const (
	// OrderImportance proposes the most important sites by OPIC first.
	OrderImportance = "importance"
	// OrderBiased proposes the sites of highest biased PageRank first (see
	// [Service.BiasedPageRank]): those the sites librarians rated 3–4 lead to.
	OrderBiased = "biased"
	// OrderCommunity groups the sites by the community (bipartite core)
	// of the current communities extraction they belong to, in the order
	// of extraction, each group by OPIC; then the sites of no community.
	OrderCommunity = "community"
	// OrderSearch proposes the sites of the pages matching a full-text
	// query, in the order of their best page.
	OrderSearch = "search"
)

// Review queue bounds.
const (
	DefaultQueueLimit = 50
	MaxQueueLimit     = 500
	// queueSearchHits bounds the hits read for an OrderSearch queue: a
	// common word can match most pages, and the sites of the first
	// thousand are more than a session of review.
	queueSearchHits = 1000
)

// QueueRequest asks for a librarian's review queue.
type QueueRequest struct {
	Librarian string
	// Order is one of the Order constants; "" is OrderImportance.
	Order string
	// Q is the full-text query of OrderSearch; with the other orders it
	// keeps the sites whose name contains it.
	Q string
	// Limit caps the rows: 0 is DefaultQueueLimit, at most MaxQueueLimit.
	Limit int
	// Bias is the boost of OrderBiased (see [Service.BiasedPageRank]); 0 is
	// ranking.DefaultBias.
	Bias float64
	// IncludeFailed keeps the sites whose crawl gave nothing worth
	// archiving (dead, closed to robots, errors only: sites.Failed), which
	// the queue leaves out by default.
	IncludeFailed bool
	// IncludePlatforms keeps the platform sites (social networks, video
	// platforms, shorteners, CDNs, ad hosts), which the queue leaves out
	// by default.
	IncludePlatforms bool
}

// ReviewQueue is the next sites a librarian has to rate.
type ReviewQueue struct {
	Librarian string `json:"librarian"`
	Order     string `json:"order"`
	// Total is the number of sites the queue could hold: the sites the
	// librarian has not rated (and whose name contains Q), or for
	// OrderSearch the unrated sites among the first hits.
	Total int         `json:"total"`
	Rows  []QueueItem `json:"rows"`
	// Excluded is the number of unrated sites (whose name contains Q) left
	// out because their crawl gave nothing worth archiving; 0 with
	// IncludeFailed. A platform site is counted in Platforms alone.
	Excluded int `json:"excluded"`
	// Platforms is the number of unrated platform sites (whose name
	// contains Q) left out; 0 with IncludePlatforms.
	Platforms int `json:"platforms"`
}

// QueueItem is one site of the review queue.
type QueueItem struct {
	Site     string  `json:"site"`
	OPIC     float64 `json:"opic"`
	PageRank float64 `json:"pagerank"`
	Pages    int     `json:"pages"`
	InSites  int     `json:"in_sites"`
	OutSites int     `json:"out_sites"`
	// Status is the site's selection status.
	Status string `json:"status"`
	// Platform is true of a platform site (only with IncludePlatforms).
	Platform bool `json:"platform,omitempty"`
	// Biased is its biased PageRank (OrderBiased only).
	Biased *float64 `json:"biased,omitempty"`
	// Standing is its rank and 0–100 score among all sites.
	ranking.Standing
	// Community is the index of its community (OrderCommunity only; null
	// for a site in none).
	Community *int `json:"community,omitempty"`
	// Title and Snippet are those of its best matching page (OrderSearch
	// only).
	Title   string `json:"title,omitempty"`
	Snippet string `json:"snippet,omitempty"`
}

func queueItem(r store.SiteRow, statuses map[string]string) QueueItem {
	st := statuses[r.Site]
	if st == "" {
		st = store.StatusCandidate
	}
	return QueueItem{Site: r.Site, OPIC: r.OPIC, PageRank: r.PageRank, Pages: r.Pages,
		InSites: r.InSites, OutSites: r.OutSites, Status: st, Platform: r.Platform}
}

// ReviewQueue returns the sites the librarian has not rated yet, in the
// order asked for, each with its standing among all sites.
func (s *Service) ReviewQueue(ctx context.Context, req QueueRequest) (ReviewQueue, error) {
	q, err := s.reviewQueue(ctx, req)
	if err != nil || len(q.Rows) == 0 {
		return q, err
	}
	st, err := s.ranking.Standings(ctx)
	if err != nil {
		return ReviewQueue{}, err
	}
	for i, r := range q.Rows {
		q.Rows[i].Standing = st.OfSite(r.Platform, r.OPIC, r.PageRank)
	}
	return q, nil
}

func (s *Service) reviewQueue(ctx context.Context, req QueueRequest) (ReviewQueue, error) {
	var err error
	if req.Librarian, err = s.Librarian(ctx, req.Librarian); err != nil {
		return ReviewQueue{}, fmt.Errorf("review queue: %w", err)
	}
	if req.Order == "" {
		req.Order = OrderImportance
	}
	switch {
	case req.Limit == 0:
		req.Limit = DefaultQueueLimit
	case req.Limit < 0 || req.Limit > MaxQueueLimit:
		return ReviewQueue{}, fault.Invalid(fmt.Errorf("review queue: limit %d must lie in 1..%d", req.Limit, MaxQueueLimit))
	}
	statuses, err := s.store.SelectionStatuses(ctx)
	if err != nil {
		return ReviewQueue{}, err
	}
	q := ReviewQueue{Librarian: req.Librarian, Order: req.Order, Rows: []QueueItem{}}
	// Excluded counts the sites whose name contains Q, whatever the order
	// (for OrderSearch too).
	sq := store.QueueQuery{Librarian: req.Librarian, Filter: req.Q, NoFailed: !req.IncludeFailed,
		NoPlatforms: !req.IncludePlatforms}
	if !req.IncludeFailed {
		if q.Excluded, err = s.store.QueueFailed(ctx, sq); err != nil {
			return ReviewQueue{}, err
		}
	}
	if !req.IncludePlatforms {
		if q.Platforms, err = s.store.QueuePlatforms(ctx, sq); err != nil {
			return ReviewQueue{}, err
		}
	}
	// kept is the number of sites the queue holds but for OrderSearch,
	// which counts the sites of its hits.
	kept := 0
	if req.Order != OrderSearch {
		if kept, err = s.store.QueueCount(ctx, sq); err != nil {
			return ReviewQueue{}, err
		}
		kept -= q.Excluded + q.Platforms
	}
	switch req.Order {
	case OrderImportance:
		rows, err := s.store.QueueSites(ctx, sq, nil, req.Limit)
		if err != nil {
			return ReviewQueue{}, err
		}
		q.Total = kept
		for _, r := range rows {
			q.Rows = append(q.Rows, queueItem(r, statuses))
		}
		return q, nil
	case OrderBiased:
		q.Total = kept
		return s.biasedQueue(ctx, req, sq, q, statuses)
	case OrderCommunity:
		q.Total = kept
		return s.communityQueue(ctx, req, sq, q, statuses)
	case OrderSearch:
		sq.Filter = ""
		return s.searchQueue(ctx, req, sq, q, statuses)
	}
	return ReviewQueue{}, fault.Invalid(fmt.Errorf("review queue: unknown order %q (want %s, %s, %s or %s)",
		req.Order, OrderImportance, OrderBiased, OrderCommunity, OrderSearch))
}

// biasedQueue proposes the sites of highest biased PageRank first, ties in
// the order of importance. It walks the sites by biased PageRank (see
// biasedMemo) and reads the queue's rows of a few at a time, each run of
// equal values whole, until it has req.Limit rows.
func (s *Service) biasedQueue(ctx context.Context, req QueueRequest, sq store.QueueQuery, q ReviewQueue,

	statuses map[string]string) (ReviewQueue, error) {
	b, err := s.biasedOrder(ctx, req.Bias)
	if err != nil {
		return ReviewQueue{}, err
	}
	order := b.order
	if f := strings.ToLower(req.Q); f != "" {
		// Site names are lower case (sites.Of), as the store's filter
		// compares them.
		order = slices.DeleteFunc(slices.Clone(order), func(i int32) bool { return !strings.Contains(b.names[i], f) })
	}
	for i, n := 0, 4*req.Limit; i < len(order) && len(q.Rows) < req.Limit; n *= 2 {
		j := min(i+n, len(order))
		for j < len(order) && b.rank[order[j]] == b.rank[order[j-1]] {
			j++
		}
		rank := make(map[string]float64, j-i)
		names := make([]string, 0, j-i)
		for _, k := range order[i:j] {
			rank[b.names[k]] = b.rank[k]
			names = append(names, b.names[k])
		}
		rows, err := s.store.QueueSitesNamed(ctx, sq, names)
		if err != nil {
			return ReviewQueue{}, err
		}
		slices.SortStableFunc(rows, func(x, y store.SiteRow) int {
			return cmp.Compare(rank[y.Site], rank[x.Site]) // ties keep OPIC order
		})
		for _, r := range rows[:min(len(rows), req.Limit-len(q.Rows))] {
			it := queueItem(r, statuses)
			v := rank[r.Site]
			it.Biased = &v
			q.Rows = append(q.Rows, it)
		}
		i = j
	}
	return q, nil

}

// biasedMemo keeps the biased PageRank of the review queue and every site
// in its order, while the sites' importance and the sites the bias favours
// stay the same: ranking the site graph takes seconds at a million sites,
// and a rating of 1 or 2 (most of them), or a second rating that keeps a
// site's mean on the same side of ranking.FavouredRating, leaves the ranking as it
// was. The site graph changes with a crawl or an import, which write the
// sites' importance.
type biasedMemo = memo.Memo[biasedKey, biasedSites]

type biasedKey struct {
	version  int64
	bias     float64
	favoured uint64 // hash of the favoured sites' names, in order
	count    int
}

// biasedSites is the biased PageRank of every site (rank[i] is that of
// names[i]) and the sites' indexes in its order, highest first (ties in no
// particular order): slices, not maps, for the memo holds them for every
// site between requests.
type biasedSites struct {
	names []string
	rank  []float64
	order []int32
}

// biasedOrder returns the biased PageRank of bias (0 is ranking.DefaultBias) with
// the sites in its order, ranked again only when the key of biasedMemo
// moved. The result is shared: callers must not change it.
func (s *Service) biasedOrder(ctx context.Context, bias float64) (biasedSites, error) {
	bias, err := ranking.CheckBias(bias)
	if err != nil {
		return biasedSites{}, err
	}
	version, err := s.store.ImportanceVersion(ctx)
	if err != nil {
		return biasedSites{}, err
	}
	rs, err := s.store.Ratings(ctx)
	if err != nil {
		return biasedSites{}, err
	}
	means := ranking.MeanRatings(rs)
	var favoured []string
	for site, m := range means {
		if m >= ranking.FavouredRating {
			favoured = append(favoured, site)
		}
	}
	slices.Sort(favoured)
	h := fnv.New64a()
	for _, s := range favoured {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	key := biasedKey{version: version, bias: bias, favoured: h.Sum64(), count: len(favoured)}
	return s.biased.Get(ctx, memo.Equal(key), func(ctx context.Context) (biasedSites, biasedKey, error) {
		// The biased PageRank of BiasedPageRank, from the ratings the key
		// was made of, without the ordinary PageRank the queue does not
		// show.
		names, g, err := s.ranking.ProjectGraph(ctx)
		if err != nil {
			return biasedSites{}, key, err
		}
		p, _ := ranking.BiasVector(names, means, bias)
		rank, err := s.ranking.PageRank(g, p)
		if err != nil {
			return biasedSites{}, key, err
		}
		b := biasedSites{names: names, rank: rank, order: make([]int32, len(names))}
		for i := range b.order {
			b.order[i] = int32(i)
		}
		slices.SortFunc(b.order, func(x, y int32) int { return cmp.Compare(rank[y], rank[x]) })
		return b, key, nil
	})
}

// communityQueue proposes the sites of each community of the current
// extraction in turn, each by OPIC, then the sites of no community by
// OPIC: the members are few and read by name, the others by index.
func (s *Service) communityQueue(ctx context.Context, req QueueRequest, sq store.QueueQuery, q ReviewQueue,

	statuses map[string]string) (ReviewQueue, error) {
	member, err := s.communities.Membership(ctx)
	if err != nil {
		return ReviewQueue{}, err
	}
	names := make([]string, 0, len(member))
	for s := range member {
		names = append(names, s)
	}
	rows, err := s.store.QueueSitesNamed(ctx, sq, names)
	if err != nil {
		return ReviewQueue{}, err
	}
	// Within a community the OPIC order stays.
	slices.SortStableFunc(rows, func(x, y store.SiteRow) int {
		return cmp.Compare(member[x.Site][0].Core, member[y.Site][0].Core)
	})
	for _, r := range rows[:min(len(rows), req.Limit)] {
		it := queueItem(r, statuses)
		c := member[r.Site][0].Core
		it.Community = &c
		q.Rows = append(q.Rows, it)
	}
	if len(q.Rows) < req.Limit {
		rest, err := s.store.QueueSites(ctx, sq, names, req.Limit-len(q.Rows))
		if err != nil {
			return ReviewQueue{}, err
		}
		for _, r := range rest {
			q.Rows = append(q.Rows, queueItem(r, statuses))
		}
	}
	return q, nil

}

// searchQueue proposes the sites of the pages matching req.Q in the order
// of their best page, among the first queueSearchHits hits; the hits'
// sites are read by name.
func (s *Service) searchQueue(ctx context.Context, req QueueRequest, sq store.QueueQuery, q ReviewQueue,

	statuses map[string]string) (ReviewQueue, error) {
	if req.Q == "" {
		return ReviewQueue{}, fault.Invalid(errors.New("review queue: order=search needs a query (q)"))
	}
	var hits []index.Hit
	for off := 0; off < queueSearchHits; off += index.MaxLimit {
		res, err := s.search(ctx, index.Query{Text: req.Q, Offset: off, Limit: index.MaxLimit})
		if errors.Is(err, index.ErrBadQuery) {
			return ReviewQueue{}, fault.Invalid(err)
		}
		if err != nil {
			return ReviewQueue{}, err
		}
		hits = append(hits, res.Hits...)
		if uint64(off+len(res.Hits)) >= res.Total || len(res.Hits) == 0 {
			break
		}
	}
	var names []string
	for _, h := range hits {
		names = append(names, h.Site)
	}
	rows, err := s.store.QueueSitesNamed(ctx, sq, names)
	if err != nil {
		return ReviewQueue{}, err
	}
	todo := make(map[string]store.SiteRow, len(rows))
	for _, r := range rows {
		todo[r.Site] = r
	}
	seen := map[string]bool{}
	for _, h := range hits {
		r, ok := todo[h.Site]
		if !ok || seen[h.Site] {
			continue
		}
		seen[h.Site] = true
		q.Total++
		if len(q.Rows) < req.Limit {
			it := queueItem(r, statuses)
			it.Title, it.Snippet = h.Title, h.Snippet
			q.Rows = append(q.Rows, it)
		}
	}
	return q, nil

}
