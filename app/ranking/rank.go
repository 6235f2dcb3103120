package ranking

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"sitesift/app/fault"
	"sitesift/importance"
	"sitesift/sites"
	"sitesift/sites/edgelist"
	"sitesift/sites/store"
)

// Weightings of the site graph's edges for PageRank.
const (
	// WeightingLinks weighs an edge by its weight: on a crawled graph the
	// number of pages of one site linking to the other, on an imported one
	// the file's weights (repeats added).
	WeightingLinks = "links"
	// WeightingBinary counts each linked site pair once, whatever its weight.
	WeightingBinary = "binary"
)

// checkWeighting returns an error for a weighting that is not known.
func checkWeighting(w string) error {
	if w != WeightingLinks && w != WeightingBinary {
		return fault.Invalid(fmt.Errorf("rank: unknown weighting %q (want links or binary)", w))
	}
	return nil
}

// RankTolerance is the L1 residual at which `rank` stops PageRank's power
// iteration. M* is a contraction of factor 1−d in L1, so the distance to the
// fixpoint is at most (1−d)/d times the last residual: 5.7e-10 at d = 0.15,
// below the 1e-9 the rank is reported to.
const RankTolerance = 1e-10

// RankWeighted is [Service.Rank] with PageRank computed under a weighting, and
// with the platform sites when includePlatforms. With WeightingLinks the
// stored PageRank is recomputed and saved. With WeightingBinary the
// PageRank of the binary graph is computed for the answer only; the stored
// (links-weighted) PageRank is left as it is. Either way the graph is the
// whole site graph, platforms included.
func (s *Service) RankWeighted(ctx context.Context, limit int, weighting string, includePlatforms bool) ([]RankRow, error) {
	if err := checkWeighting(weighting); err != nil {
		return nil, err
	}
	if weighting == WeightingLinks {
		return s.rank(ctx, limit, includePlatforms)
	}
	if err := s.RequireImportance(ctx, "rank"); err != nil {
		return nil, err
	}
	sg, err := s.store.SiteGraphCSR(ctx)
	if err != nil {
		return nil, err
	}
	res, err := importance.PageRank(CSRGraph(sg).Binary(), rankPageRankOptions(s.teleport))
	if err != nil {
		return nil, fmt.Errorf("rank: %w", err)
	}
	byName := make(map[string]float64, len(sg.Names))
	for i, n := range sg.Names {
		byName[n] = res.Rank[i]
	}
	rows, err := s.rankedSites(ctx, limit, includePlatforms)
	if err != nil {
		return nil, err
	}
	st, err := s.Standings(ctx)
	if err != nil {
		return nil, err
	}
	st.PageRank = NewRanking(res.Rank) // the binary graph's, not the stored one
	graph, err := s.LinkGraph(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]RankRow, len(rows))
	for i, r := range rows {
		out[i] = RankRow{Site: r.Site, OPIC: r.OPIC, PageRank: byName[r.Site], InSites: r.InSites, OutSites: r.OutSites, Pages: r.Pages,
			Graph: graph.Label}
		out[i].Standing = st.OfSite(r.Platform, r.OPIC, out[i].PageRank)
	}
	return out, nil
}

func rankPageRankOptions(teleport float64) importance.PageRankOptions {
	opt := importance.DefaultPageRankOptions()
	opt.Teleport = teleport
	opt.Tolerance = RankTolerance
	return opt
}

// EdgeRankOptions sets up [RankEdgeFile].
type EdgeRankOptions struct {
	// Weighting is WeightingLinks (the default, "") or WeightingBinary.
	Weighting string
	// Teleport is PageRank's teleport probability and OPIC's teleport
	// share; 0 means importance.DefaultTeleport.
	Teleport float64
	// NoOPIC skips OPIC's fixpoint: the opic column is then 0.
	NoOPIC bool
	// Limit > 0 keeps the first Limit rows.
	Limit int
	// Strict refuses a file with a bad line; by default bad lines are
	// skipped (see [edgelist.Options]).
	Strict bool
	// OnRead, when set, is told what the reading says of the file (its
	// skipped lines, whether it is a graph of ids) before the ranking.
	OnRead func(edgelist.Summary)
}

// RankEdgeFile ranks the sites of an edge list without a project: PageRank
// (Kim–Lee M*, to [RankTolerance]) and, unless NoOPIC, OPIC carried on to
// its fixpoint ([importance.Fixpoint], to [FixpointTolerance]), both on
// the graph under the weighting. InSites and OutSites come from the graph;
// Pages is 0. Rows are sorted by OPIC, then PageRank, highest first, then by
// site name. It is meant for a process that does nothing else meanwhile, as
// the command line's rank --edges: it collects garbage when its steps end
// and holds the collector during its steps but the read, for the whole
// process.
func RankEdgeFile(ctx context.Context, path string, o EdgeRankOptions) ([]RankRow, error) {
	if o.Weighting == "" {
		o.Weighting = WeightingLinks
	}
	if err := checkWeighting(o.Weighting); err != nil {
		return nil, err
	}
	if o.Teleport == 0 {
		o.Teleport = importance.DefaultTeleport
	}
	el, err := ReadEdgeListOptions(path, edgelist.Options{Rule: sites.RuleHost, Strict: o.Strict})
	if err != nil {
		return nil, err
	}
	if o.OnRead != nil {
		o.OnRead(el.Summary)
	}
	weights := el.Weight
	if o.Weighting == WeightingBinary {
		weights = nil // every line counts 1; Binary below handles repeats
	}
	ReleaseMemory() // the reader's tables, before the graph takes as much again
	// The graph, PageRank and the sort keep what they allocate, and the
	// steps that leave garbage (the edges read, a weighted copy) collect
	// it, so the collector waits for them: a collection the heap's growth
	// starts finds nothing to free. At the command line's low GOGC it
	// started one at every tenth of growth (nine on a graph of 3.2 million
	// arcs), each marking the whole heap, the 40 MB the program's packages
	// build when it starts included. OPIC's fixpoint allocates its
	// accounts and two vectors once, and leaves no garbage as it goes.
	gogc := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(gogc)
	g, err := importance.FromEdgeList(len(el.Names), el.From, el.To, weights)
	if err != nil {
		return nil, fmt.Errorf("rank %s: %w", path, err)
	}
	// The parser's slices are as large as the edges read; let them go
	// before the iteration allocates its vectors.
	names := el.Names
	el, weights = nil, nil
	ReleaseMemory()
	if o.Weighting == WeightingBinary && g.Arcs() > 0 && slices.Max(g.Weights) > 1 {
		g = g.Binary() // a pair was repeated: its merged weight is above 1
		ReleaseMemory()
	}
	pr, err := importance.PageRank(g, rankPageRankOptions(o.Teleport))
	if err != nil {
		return nil, fmt.Errorf("rank %s: %w", path, err)
	}
	importance.SnapTies(pr.Rank)
	var opic []float64
	if !o.NoOPIC {
		fo := importance.DefaultFixpointOptions()
		fo.Teleport, fo.Tolerance = o.Teleport, FixpointTolerance
		fp, err := importance.Fixpoint(g, fo)
		if err != nil {
			return nil, fmt.Errorf("rank %s: %w", path, err)
		}
		opic = fp.Importance
		importance.SnapTies(opic)
		ReleaseMemory() // the computation's accounts
	}
	in := make([]int, g.N)
	for _, t := range g.Targets {
		in[t]++
	}
	// Sort small keys, not rows (eight words to move), with plain float
	// comparisons: no value is NaN.
	type key struct {
		opic, pr float64
		u        int32
	}
	keys := make([]key, g.N)
	for u := range keys {
		keys[u] = key{pr: pr.Rank[u], u: int32(u)}
		if opic != nil {
			keys[u].opic = opic[u]
		}
	}
	slices.SortFunc(keys, func(a, b key) int {
		switch {
		case a.opic > b.opic:
			return -1
		case a.opic < b.opic:
			return 1
		case a.pr > b.pr:
			return -1
		case a.pr < b.pr:
			return 1
		}
		return strings.Compare(names[a.u], names[b.u])
	})
	st := Standings{OPIC: NewRanking(opic), PageRank: NewRanking(pr.Rank)}
	if o.Limit > 0 && o.Limit < len(keys) {
		keys = keys[:o.Limit]
	}
	rows := make([]RankRow, len(keys))
	for i, k := range keys {
		u := k.u
		rows[i] = RankRow{Site: names[u], OPIC: k.opic, PageRank: k.pr, InSites: in[u], OutSites: g.Offsets[u+1] - g.Offsets[u],
			Graph: GraphNoPages}
		rows[i].Standing = st.Of(k.opic, k.pr)
	}
	return rows, nil
}

// Ranking places values among a set of values of one measure: rank 1 is the
// highest; equal values share a rank and the next rank skips as many
// ("1, 2, 2, 4", standard competition ranking), so a rank always says how
// many values are above: rank − 1. Values closer than [TieTolerance] × the
// highest value count as equal: sites of the same link structure get shares
// that differ in the last bit of a float (0.010777431031738978 and
// …977 on the demo web), which no reader could tell apart. The score is 100 × value / highest
// value, rounded half away from zero: the top scores 100, a value half the
// top's 50. Scores are relative to the set: the same share of OPIC scores
// differently in a project whose top site is more or less dominant.
type Ranking struct {
	desc []float64 // the values, highest first, NaN left out
}

// NewRanking ranks values (copied; NaN values are left out).
func NewRanking(values []float64) Ranking {
	desc := make([]float64, 0, len(values))
	for _, v := range values {
		if !math.IsNaN(v) {
			desc = append(desc, v)
		}
	}
	slices.SortFunc(desc, func(a, b float64) int { return cmp.Compare(b, a) })
	return Ranking{desc: desc}
}

// Max is the highest value, 0 for an empty ranking.
func (r Ranking) Max() float64 {
	if len(r.desc) == 0 {
		return 0
	}
	return r.desc[0]
}

// TieTolerance is the distance, relative to the highest value, within which
// two values of a [Ranking] share a rank: importance.TieTolerance, the one
// tie rule of the ranks here and of the agreement's quantile ranks.
const TieTolerance = importance.TieTolerance

// Rank is v's rank: 1 + the number of values above v by more than
// TieTolerance × the highest value. A NaN has rank 0.
func (r Ranking) Rank(v float64) int {
	if math.IsNaN(v) {
		return 0
	}
	limit := v + TieTolerance*math.Abs(r.Max())
	above := sort.Search(len(r.desc), func(i int) bool { return r.desc[i] <= limit })
	return above + 1
}

// Ties is the number of other values that share v's rank: those within
// TieTolerance × the highest value of v. A NaN has none.
func (r Ranking) Ties(v float64) int {
	if math.IsNaN(v) {
		return 0
	}
	tol := TieTolerance * math.Abs(r.Max())
	hi := sort.Search(len(r.desc), func(i int) bool { return r.desc[i] < v-tol })
	lo := sort.Search(len(r.desc), func(i int) bool { return r.desc[i] <= v+tol })
	return max(hi-lo-1, 0)
}

// TopTied is how many of the first k values (all when fewer) share their
// rank with another value, within or beyond the first k.
func (r Ranking) TopTied(k int) int {
	k = min(k, len(r.desc))
	tol := TieTolerance * math.Abs(r.Max())
	n := 0
	for i := range k {
		if (i > 0 && r.desc[i-1]-r.desc[i] <= tol) || (i+1 < len(r.desc) && r.desc[i]-r.desc[i+1] <= tol) {
			n++
		}
	}
	return n
}

// LargestTie is the largest number of the first k values (all when fewer)
// that share one rank; 1 when no two do, 0 for no value.
func (r Ranking) LargestTie(k int) int {
	k = min(k, len(r.desc))
	largest := 0
	for i := 0; i < k; {
		v := r.desc[i]
		end := r.Rank(v) - 1 + r.Ties(v) + 1 // the group of v ends there
		largest = max(largest, min(end, k)-i)
		i = max(i+1, end)
	}
	return largest
}

// Len is the number of values ranked.
func (r Ranking) Len() int { return len(r.desc) }

// Score is Score100(v, r.Max()).
func (r Ranking) Score(v float64) int { return Score100(v, r.Max()) }

// Score100 is 100 × v / top, rounded, 0 when top is not positive or v is
// NaN; it is the one rule every 0–100 score of the app follows.
func Score100(v, top float64) int {
	if !(top > 0) || math.IsNaN(v) {
		return 0
	}
	return int(math.Round(100 * v / top))
}

// Standings ranks the project's sites by OPIC and by PageRank.
type Standings struct {
	OPIC, PageRank Ranking
}

// Of is the standing of a site whose OPIC share and PageRank are opic and pr.
func (s Standings) Of(opic, pr float64) Standing {
	return Standing{
		OPICRank: s.OPIC.Rank(opic), OPICScore: s.OPIC.Score(opic), OPICTies: s.OPIC.Ties(opic),
		PageRankRank: s.PageRank.Rank(pr), PageRankScore: s.PageRank.Score(pr),
	}
}

// OfSite is [Standings.Of] for a site that is a platform or not: a
// platform has no place (zero) in a ranking of the sites a librarian
// ranks, which leaves the platforms out (see [LeftOutPlatform]); it would
// otherwise be placed first with a score over 100.
func (s Standings) OfSite(platform bool, opic, pr float64) Standing {
	if platform {
		return Standing{}
	}
	return s.Of(opic, pr)
}

// Standings ranks every site's OPIC share and PageRank, but the
// platforms'. It reads two floats
// of every site when the importance changed since its last call (see
// standingsMemo), so a listing calls it once, not per row.
func (s *Service) Standings(ctx context.Context) (Standings, error) {
	return s.standings.get(ctx, s.store)
}

// PlaceRows fills the standing of each row.
func (s *Service) PlaceRows(ctx context.Context, rows []store.SiteRow) error {
	if len(rows) == 0 {
		return nil
	}
	st, err := s.Standings(ctx)
	if err != nil {
		return err
	}
	for i := range rows {
		rows[i].Standing = store.Standing(st.OfSite(rows[i].Platform, rows[i].OPIC, rows[i].PageRank))
	}
	return nil
}

// ScoreLinks fills the OPIC score of each linked site.
func ScoreLinks(st Standings, links []store.SiteLink) {
	for i := range links {
		links[i].OPICScore = st.OPIC.Score(links[i].OPIC)
	}
}

// RankRow is one line of `sitesift rank`.
type RankRow struct {
	Site     string  `json:"site"`
	OPIC     float64 `json:"opic"`
	PageRank float64 `json:"pagerank"`
	InSites  int     `json:"in_sites"`
	OutSites int     `json:"out_sites"`
	Pages    int     `json:"pages"`
	// Standing is the site's rank and 0–100 score among all the sites
	// ranked (all the project's, whatever the limit).
	Standing
	// Graph names the site graph the numbers come from (see [LinkGraph]).
	Graph string `json:"graph"`
}

// AllSites returns up to limit sites (all when limit ≤ 0) by OPIC, highest first.
//
// One query, not pages of it: ListSites sorts every site before it can skip
// an offset, so reading an imported graph of 317 000 sites 500 at a time
// sorted them all 634 times (still running after 17 minutes); at once it
// takes 6 s.
func (s *Service) AllSites(ctx context.Context, limit int) ([]store.SiteRow, error) {
	_, rows, err := s.store.ListSites(ctx, store.SiteQuery{Sort: "opic", Desc: true, Limit: max(limit, 0)})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// Rank recomputes PageRank and returns all sites by OPIC, highest first,
// but the platform sites; limit > 0 keeps the first limit.
func (s *Service) Rank(ctx context.Context, limit int) ([]RankRow, error) {
	return s.rank(ctx, limit, false)
}

// rankedSites returns up to limit sites (all when limit ≤ 0) by OPIC,
// highest first, the platform sites among them only when
// includePlatforms. PageRank and OPIC were computed on the whole site
// graph, platforms included: a platform is hidden from the ranking, not
// from the graph (see [LeftOutPlatform]).
func (s *Service) rankedSites(ctx context.Context, limit int, includePlatforms bool) ([]store.SiteRow, error) {
	q := store.SiteQuery{Sort: "opic", Desc: true, Limit: max(limit, 0), Platforms: store.PlatformsNone}
	if includePlatforms {
		q.Platforms = ""
	}
	_, rows, err := s.store.ListSites(ctx, q)
	return rows, err
}

// rank is [Service.Rank], with the platform sites when includePlatforms.
func (s *Service) rank(ctx context.Context, limit int, includePlatforms bool) ([]RankRow, error) {
	if err := s.RequireImportance(ctx, "rank"); err != nil {
		return nil, err
	}
	// Beside the process that holds the project nothing is saved, and
	// the importance that process keeps up to date is read.
	if _, err := s.UpdateImportance(ctx); err != nil {
		return nil, err
	}
	rows, err := s.rankedSites(ctx, limit, includePlatforms)
	if err != nil {
		return nil, err
	}
	st, err := s.Standings(ctx)
	if err != nil {
		return nil, err
	}
	graph, err := s.LinkGraph(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]RankRow, len(rows))
	for i, r := range rows {
		pr := r.PageRank
		out[i] = RankRow{Site: r.Site, OPIC: r.OPIC, PageRank: pr, InSites: r.InSites, OutSites: r.OutSites, Pages: r.Pages,
			Standing: st.OfSite(r.Platform, r.OPIC, pr), Graph: graph.Label}
	}
	return out, nil
}

// ReadEdgeList reads an edge list file, its sites named by rule; a file
// with bad lines is a bad request whose message lists them.
func ReadEdgeList(path string, rule sites.Rule) (*edgelist.Graph, error) {
	return ReadEdgeListOptions(path, edgelist.Options{Rule: rule, Strict: true})
}

// ReadEdgeListOptions is [ReadEdgeList] as o says: unless o.Strict, bad
// lines are skipped and said in the graph's Summary, and only a file
// without a good line is a bad request.
func ReadEdgeListOptions(path string, o edgelist.Options) (*edgelist.Graph, error) {
	g, err := edgelist.ReadFileOptions(path, o)
	if err != nil {
		if pe := (*edgelist.ParseError)(nil); errors.As(err, &pe) {
			return nil, fault.Invalid(err)
		}
		return nil, fmt.Errorf("edge list: %w", err)
	}
	return g, nil
}
