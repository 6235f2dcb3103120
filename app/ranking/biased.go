package ranking

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"sitesift/app/fault"
	"sitesift/importance"
	"sitesift/sites/store"
)

// DefaultBias is the teleport boost of the biased ranking: a site whose
// mean rating is 3 or more gets 1 + DefaultBias = 10 times the teleport of
// any other site. Ten to one is strong enough to reorder the sites near the
// favoured ones and weak enough that the rest of the graph still counts.
const DefaultBias = 9.0

// FavouredRating is the mean rating from which a site is favoured by the
// biased ranking: the upper half of the 1–4 scale.
const FavouredRating = 3.0

// BiasedRanking is the PageRank of the site graph biased towards the sites
// librarians value.
type BiasedRanking struct {
	// Bias is the boost used.
	Bias float64
	// Favoured is the number of sites whose mean rating is at least
	// FavouredRating.
	Favoured int
	// Rank and Plain are the biased and the ordinary PageRank of every
	// site, by name.
	Rank, Plain map[string]float64
}

// CheckBias returns the bias to use: DefaultBias for 0.
func CheckBias(bias float64) (float64, error) {
	if bias == 0 {
		return DefaultBias, nil
	}
	if !(bias > 0) || math.IsInf(bias, 1) {
		return 0, fault.Invalid(fmt.Errorf("bias %v must be a positive number", bias))
	}
	return bias, nil
}

// BiasVector is the personalisation of the biased PageRank over the sites
// names: 1 for every site, plus bias for a site whose mean rating (in
// means) is at least FavouredRating. The teleport (and a dangling site's
// rank) then goes to the favoured sites preferentially, as the OPIC paper
// suggests importance "can also be biased to take into account specific
// fields of interest", while every site keeps some.
func BiasVector(names []string, means map[string]float64, bias float64) (p []float64, favoured int) {
	p = make([]float64, len(names))
	for i, n := range names {
		p[i] = 1
		if m, ok := means[n]; ok && m >= FavouredRating {
			p[i] += bias
			favoured++
		}
	}
	return p, favoured
}

// MeanRatings returns the mean rating of every rated site.
func MeanRatings(rs []store.Rating) map[string]float64 {
	sum, n := map[string]int{}, map[string]int{}
	for _, r := range rs {
		sum[r.Site] += r.Rating
		n[r.Site]++
	}
	out := make(map[string]float64, len(n))
	for s, k := range n {
		out[s] = float64(sum[s]) / float64(k)
	}
	return out
}

// ProjectGraph loads the site graph of the project.
func (s *Service) ProjectGraph(ctx context.Context) ([]string, *importance.Graph, error) {
	names, edges, err := s.store.SiteGraph(ctx)
	if err != nil {
		return nil, nil, err
	}
	g, err := siteGraph(names, edges)
	if err != nil {
		return nil, nil, err
	}
	return names, g, nil
}

// PageRank runs PageRank over g with the app's teleport and a
// personalisation (nil: uniform).
func (s *Service) PageRank(g *importance.Graph, p []float64) ([]float64, error) {
	opt := rankPageRankOptions(s.teleport)
	opt.Personalization = p
	res, err := importance.PageRank(g, opt)
	if err != nil {
		return nil, fmt.Errorf("pagerank: %w", err)
	}
	return res.Rank, nil
}

// BiasedPageRank computes the biased and the ordinary PageRank of the site
// graph; bias 0 is DefaultBias. Nothing is stored: ratings change too
// often, and the stored PageRank stays the unbiased one.
func (s *Service) BiasedPageRank(ctx context.Context, bias float64) (BiasedRanking, error) {
	bias, err := CheckBias(bias)
	if err != nil {
		return BiasedRanking{}, err
	}
	names, g, err := s.ProjectGraph(ctx)
	if err != nil {
		return BiasedRanking{}, err
	}
	rs, err := s.store.Ratings(ctx)
	if err != nil {
		return BiasedRanking{}, err
	}
	p, favoured := BiasVector(names, MeanRatings(rs), bias)
	biased, err := s.PageRank(g, p)
	if err != nil {
		return BiasedRanking{}, err
	}
	plain, err := s.PageRank(g, nil)
	if err != nil {
		return BiasedRanking{}, err
	}
	out := BiasedRanking{Bias: bias, Favoured: favoured, Rank: map[string]float64{}, Plain: map[string]float64{}}
	for i, n := range names {
		out.Rank[n], out.Plain[n] = biased[i], plain[i]
	}
	return out, nil
}

// BiasedRankRow is one line of `sitesift rank --biased`.
type BiasedRankRow struct {
	Site     string  `json:"site"`
	Biased   float64 `json:"biased_pagerank"`
	PageRank float64 `json:"pagerank"`
	OPIC     float64 `json:"opic"`
	// MeanRating is the mean of the site's ratings, null when unrated.
	MeanRating *float64 `json:"mean_rating"`
	// Favoured tells whether the bias favoured the site.
	Favoured bool `json:"favoured"`
}

// RankBiased returns every site by biased PageRank, highest first (ties by
// name); limit > 0 keeps the first limit.
func (s *Service) RankBiased(ctx context.Context, limit int, bias float64) ([]BiasedRankRow, error) {
	if err := s.RequireImportance(ctx, "rank"); err != nil {
		return nil, err
	}
	br, err := s.BiasedPageRank(ctx, bias)
	if err != nil {
		return nil, err
	}
	rs, err := s.store.Ratings(ctx)
	if err != nil {
		return nil, err
	}
	means := MeanRatings(rs)
	rows, err := s.AllSites(ctx, 0)
	if err != nil {
		return nil, err
	}
	out := make([]BiasedRankRow, len(rows))
	for i, r := range rows {
		out[i] = BiasedRankRow{Site: r.Site, Biased: br.Rank[r.Site], PageRank: br.Plain[r.Site], OPIC: r.OPIC}
		if m, ok := means[r.Site]; ok {
			out[i].MeanRating = &m
			out[i].Favoured = m >= FavouredRating
		}
	}
	slices.SortFunc(out, func(x, y BiasedRankRow) int {
		if c := cmp.Compare(y.Biased, x.Biased); c != 0 {
			return c
		}
		return cmp.Compare(x.Site, y.Site)
	})
	if limit > 0 && limit < len(out) {
		out = out[:limit]
	}
	return out, nil
}
