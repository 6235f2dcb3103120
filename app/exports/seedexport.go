package exports

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"sitesift/app/communities"
	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/importance"
	"sitesift/sites/store"
)

// Seed-list methods of `sitesift seeds` and GET /api/export/seeds.
const (
	// MethodCommunities proposes one hub of each bipartite core found by
	// the seeds paper's method (see [Service.Communities]); the default.
	MethodCommunities = "communities"
	// MethodImportance proposes the home pages of the sites with the most
	// OPIC importance (see [Service.Seeds]).
	MethodImportance = "importance"
)

// DefaultPrecedenceBuckets is the number of precedence values a Heritrix
// precedence file spreads the sites over.
const DefaultPrecedenceBuckets = 10

// Precedence is one line of a Heritrix precedence file.
type Precedence struct {
	URI        string
	Precedence int
}

// HeritrixPrecedence maps the importance ranking to Heritrix precedence
// values, 1 the highest: the sites, by OPIC importance, highest first, are
// cut into min(buckets, sites) groups of (nearly) equal size, quantiles of
// the ranking, and group k gets precedence k. Sites tied on OPIC share the
// precedence of the first of them, so equal importance never gets two
// values. Each site stands for its seed, as in seed lists (see [Seed]):
// Heritrix keys precedence per URI (PreloadedUriPrecedencePolicy looks
// each URI up in its uri-history store and falls back to its default
// policy for a URI it does not find), so a line gives its value to the
// seed URL itself, the URL the seeds file (see [WriteHeritrixSeeds])
// starts the site's crawl from, and not to the site's other URLs.
// The sites an export leaves out by default (see [exportFilter]: failed
// crawls, unless includeFailed, rejected sites, unless includeRejected,
// and platform sites, unless includePlatforms) get no line and no share of the buckets; the second
// result counts them by reason.
//
// Quantiles rather than one value per rank because Heritrix orders queues
// by small integer precedences (its documentation's own example maps a
// PageRank to quintiles), and rather than cuts on the OPIC value because
// OPIC is heavy-tailed: value cuts would put almost every site in the last
// group.
func (s *Service) HeritrixPrecedence(ctx context.Context, buckets int, includeFailed, includeRejected, includePlatforms bool) ([]Precedence, []LeftOut, error) {
	if buckets <= 0 {
		return nil, nil, fault.Invalid(fmt.Errorf("heritrix export: %d buckets; want at least 1", buckets))
	}
	if err := s.ranking.RequireImportance(ctx, "heritrix export"); err != nil {
		return nil, nil, err
	}
	all, err := s.ranking.AllSites(ctx, 0)
	if err != nil {
		return nil, nil, err
	}
	f, err := s.newExportFilter(ctx, includeFailed, includeRejected, includePlatforms)
	if err != nil {
		return nil, nil, err
	}
	rows := all[:0]
	for _, r := range all {
		if f.keep(r.Site, r.CrawlStatus) {
			rows = append(rows, r)
		}
	}
	// The fetched seeds of every site: one read of the pages, not one
	// query a site.
	fetched, err := s.project.SeedURLs(ctx, nil)
	if err != nil {
		return nil, nil, err
	}
	n := len(rows)
	b := min(buckets, n)
	out := make([]Precedence, n)
	first := 0 // rank of the first site tied with the current one
	for r, row := range rows {
		if r > 0 && row.OPIC != rows[r-1].OPIC {
			first = r
		}
		u, _ := project.SeedOf(fetched, row.Site)
		out[r] = Precedence{URI: u, Precedence: 1 + first*b/n}
	}
	return out, f.leftOut(), nil
}

// RatingsTable is the sites table: every site with its measures, crawl
// status, selection status and each librarian's rating.
type RatingsTable struct {
	// Librarians are the rating columns' names, sorted.
	Librarians []string
	Rows       []RatingsRow
	// Graph names the site graph the measures come from (see [ranking.LinkGraph]).
	Graph string
}

// RatingsRow is one site of a [RatingsTable].
type RatingsRow struct {
	Site        string
	CrawlStatus string
	Pages       int
	OPIC        float64
	PageRank    float64
	InSites     int
	OutSites    int
	// Hub and Authority are the site's HITS scores on the site graph.
	Hub, Authority float64
	// Selection is its selection status.
	Selection string
	// Ratings has one entry per librarian of the table, 0 when that
	// librarian has not rated the site (a note alone is no rating).
	Ratings []int
	// Mean is the mean of the ratings given, 0 when there is none.
	Mean float64
}

// Ratings returns the sites table: every site, by OPIC importance,
// highest first, with its measures, its HITS
// hub and authority scores on the site graph, its crawl and selection
// status and the ratings of every librarian of the project (on a team
// server those the signed-in librarian may see: [review.Service.RatingsSeen]).
func (s *Service) Ratings(ctx context.Context) (RatingsTable, error) {
	if err := s.ranking.RequireImportance(ctx, "sites table"); err != nil {
		return RatingsTable{}, err
	}
	libs, err := s.store.Librarians(ctx)
	if err != nil {
		return RatingsTable{}, err
	}
	col := make(map[string]int, len(libs))
	for i, l := range libs {
		col[l] = i
	}
	// On a team server, the ratings the signed-in librarian may see.
	ratings, err := s.review.RatingsSeen(ctx)
	if err != nil {
		return RatingsTable{}, err
	}
	bySite := map[string][]int{}
	for _, r := range ratings {
		i, ok := col[r.Librarian]
		if !ok { // rated between the two reads
			continue
		}
		row := bySite[r.Site]
		if row == nil {
			row = make([]int, len(libs))
			bySite[r.Site] = row
		}
		row[i] = r.Rating
	}
	statuses, err := s.store.SelectionStatuses(ctx)
	if err != nil {
		return RatingsTable{}, err
	}
	names, g, err := s.ranking.ProjectGraph(ctx)
	if err != nil {
		return RatingsTable{}, err
	}
	hub, auth := map[string]float64{}, map[string]float64{}
	if len(names) > 0 {
		h, err := importance.HITS(g, importance.DefaultHITSOptions())
		if err != nil {
			return RatingsTable{}, fmt.Errorf("sites table: %w", err)
		}
		for i, n := range names {
			hub[n], auth[n] = h.Hub[i], h.Authority[i]
		}
	}
	rows, err := s.ranking.AllSites(ctx, 0)
	if err != nil {
		return RatingsTable{}, err
	}
	graph, err := s.ranking.LinkGraph(ctx)
	if err != nil {
		return RatingsTable{}, err
	}
	t := RatingsTable{Librarians: libs, Rows: make([]RatingsRow, len(rows)), Graph: graph.Label}
	for i, s := range rows {
		rr := RatingsRow{Site: s.Site, CrawlStatus: s.CrawlStatus, Pages: s.Pages, OPIC: s.OPIC, PageRank: s.PageRank,
			InSites: s.InSites, OutSites: s.OutSites, Hub: hub[s.Site], Authority: auth[s.Site],
			Selection: cmp.Or(statuses[s.Site], store.StatusCandidate), Ratings: bySite[s.Site]}
		if rr.Ratings == nil {
			rr.Ratings = make([]int, len(libs))
		}
		sum, n := 0, 0
		for _, v := range rr.Ratings {
			if v > 0 {
				sum, n = sum+v, n+1
			}
		}
		if n > 0 {
			rr.Mean = float64(sum) / float64(n)
		}
		t.Rows[i] = rr
	}
	return t, nil
}

// CollectionName returns the file name of the saved collection c's seed
// list in format: the project's name, then [communities.CollectionFileName]
// ("PROJECT-seeds-jazz-birds.txt"), as every deliverable starts with the
// project's name (see [Service.ExportName]).
func (s *Service) CollectionName(c communities.Collection, format string) string {
	return s.project.Name() + "-" + communities.CollectionFileName(c, format)
}

// CollectionDiffers says how the seed list of the current extraction, the
// seed URLs seeds, differs from the saved collections (edited by
// librarians: seeds unchecked, seeds added by hand), naming at most three
// of those whose seed lists differ, or "" when none does (or none is
// saved): the community seeds are the current extraction, and a librarian
// who edited a collection wants that one, exported by name.
func (s *Service) CollectionDiffers(ctx context.Context, seeds []string) (string, error) {
	list, err := s.communities.Collections(ctx)
	if err != nil {
		return "", err
	}
	have := make(map[string]bool, len(seeds))
	for _, u := range seeds {
		have[u] = true
	}
	var differ []string
	for _, sum := range list {
		c, err := s.communities.Collection(ctx, sum.ID)
		if err != nil {
			return "", err
		}
		saved := communities.CollectionSeeds(c)
		missing, extra := 0, 0
		in := make(map[string]bool, len(saved))
		for _, cs := range saved {
			in[cs.SeedURL] = true
			if !have[cs.SeedURL] {
				extra++
			}
		}
		for u := range have {
			if !in[u] {
				missing++
			}
		}
		var how []string
		if missing > 0 {
			how = append(how, fmt.Sprintf("leaves out %d of these seeds", missing))
		}
		if extra > 0 {
			how = append(how, fmt.Sprintf("has %d of its own", extra))
		}
		if len(how) > 0 {
			differ = append(differ, fmt.Sprintf("%q, which %s", c.Name, strings.Join(how, " and ")))
		}
	}
	if len(differ) == 0 {
		return "", nil
	}
	more := ""
	if len(differ) > 3 {
		more = fmt.Sprintf(" and %d more", len(differ)-3)
		differ = differ[:3]
	}
	return fmt.Sprintf("this is the current extraction of the Communities page, not a saved collection: it differs from the saved collection%s %s%s; "+
		"export a saved collection by name (sitesift export --what collection --name NAME, or the Export page's saved collections)",
		map[bool]string{true: "s", false: ""}[len(differ) > 1], strings.Join(differ, ", "), more), nil
}
