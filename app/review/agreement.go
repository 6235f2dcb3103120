package review

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"sitesift/app/fault"
	"sitesift/app/ranking"
	"sitesift/importance"
	"sitesift/sites/store"
)

// Kinds of rater in an agreement report.
const (
	KindLibrarian = "librarian"
	KindMeasure   = "measure"
)

// Measures scored against the librarians, as the OPIC paper scored its
// page importance: each becomes a 1–4 rank by quantiles (see
// importance.QuantileRanks).
const (
	MeasureOPIC     = "opic"           // the crawl's OPIC importance
	MeasurePageRank = "pagerank"       // PageRank of the site graph (Kim–Lee M*)
	MeasureHITS     = "hits_authority" // HITS authority on the site graph
	MeasureInSites  = "in_sites"       // the number of sites linking in: the baseline
	// MeasureBiased is the biased PageRank (see App.BiasedPageRank). It is
	// biased with the very ratings it is scored against, so its score is
	// in-sample and flatters it; MeasureBiasedCV is the honest figure.
	MeasureBiased = "pagerank_biased"
	// MeasureBiasedCV is the biased PageRank cross-validated: the rated
	// sites are split in BiasFolds folds, and a site's value comes from the
	// PageRank biased by the ratings of the other folds only.
	MeasureBiasedCV = "pagerank_biased_cv"
	// MeasureCCHarmonic and MeasureCCPageRank are Common Crawl's harmonic
	// centrality and PageRank of the site (`import --cc-ranks`), scored
	// when the project holds them; a rated site without them is unranked.
	MeasureCCHarmonic = "cc_harmonic"
	MeasureCCPageRank = "cc_pagerank"
)

// comparisonTopK is the k of MeasureComparison.TopKOverlapPct: the top
// hundred sites, the size of a seed list.
const comparisonTopK = 100

// BiasFolds is the number of folds of MeasureBiasedCV.
const BiasFolds = 5

// Float is a float64 that marshals NaN and infinities as JSON null: a
// statistic that is undefined (no site in common, a constant rater).
type Float float64

// MarshalJSON writes null for NaN and ±Inf.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// AgreementOptions sets up [Service.Agreement].
type AgreementOptions struct {
	// Biased adds the rows of the biased PageRank, in-sample and
	// cross-validated, with boost Bias (0: ranking.DefaultBias).
	Biased bool
	Bias   float64
	// Rater, if set, selects the rater whose confusion matrix is reported:
	// a librarian, else a measure of that name.
	Rater string
}

// Agreement is how each librarian and each computed measure agrees with
// the librarians' reference, as in the experiment at the end of section 4
// of the OPIC paper.
type Agreement struct {
	// Librarians is the number of librarians; RatedSites the sites rated
	// by at least one of them.
	Librarians int `json:"librarians"`
	RatedSites int `json:"rated_sites"`
	// ReferenceSites have a reference: the mean of their ratings, rounded
	// half up, over at least two librarians.
	ReferenceSites int `json:"reference_sites"`
	// Excluded is the number of sites rated by a single librarian, left
	// out of every score: one opinion is no consensus.
	Excluded int `json:"excluded"`
	// Bias is the boost of the biased rows, when they were asked for;
	// Favoured the sites it favoured.
	Bias     *float64 `json:"bias,omitempty"`
	Favoured int      `json:"favoured,omitempty"`
	// Rows are the librarians, by name, then the measures.
	Rows []AgreementRow `json:"rows"`
	// Confusion is the matrix of AgreementOptions.Rater, if asked for.
	Confusion *Confusion `json:"confusion,omitempty"`
	// MeasuresTied is set when no measure computed from the links (and
	// Common Crawl's ranks) can tell the rated sites apart: each is
	// AllTied, and their scores say nothing of the sites. The biased
	// PageRank, which is fed the ratings themselves, is left out.
	MeasuresTied bool `json:"measures_tied"`
	// Comparisons set Common Crawl's ranks beside sitesift's OPIC and
	// PageRank over every site that has them, rated or not; empty without
	// Common Crawl ranks.
	Comparisons []MeasureComparison `json:"comparisons,omitempty"`
	// Disputed are the sites the librarians disagree on most, what a team
	// talks over first: rated by two librarians or more, two steps apart
	// or more, the widest spread first, then the most raters, then by
	// name; at most five.
	Disputed []DisputedSite `json:"disputed"`
}

// DisputedSite is a site the librarians rate apart: its lowest and highest
// ratings and how many librarians rated it.
type DisputedSite struct {
	Site   string `json:"site"`
	Low    int    `json:"low"`
	High   int    `json:"high"`
	Raters int    `json:"raters"`
}

// maxDisputed bounds Agreement.Disputed.
const maxDisputed = 5

// disputedSites lists the sites of r the librarians disagree on most (see
// Agreement.Disputed); an empty list when none is two steps apart.
func disputedSites(r importance.Ratings) []DisputedSite {
	out := []DisputedSite{}
	for s, site := range r.Sites {
		d := DisputedSite{Site: site, Low: importance.Levels + 1}
		for l := range r.Librarians {
			if v := r.R[l][s]; v > 0 {
				d.Raters++
				d.Low, d.High = min(d.Low, v), max(d.High, v)
			}
		}
		if d.Raters >= 2 && d.High-d.Low >= 2 {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b DisputedSite) int {
		if c := (b.High - b.Low) - (a.High - a.Low); c != 0 {
			return c
		}
		if c := b.Raters - a.Raters; c != 0 {
			return c
		}
		return strings.Compare(a.Site, b.Site)
	})
	return out[:min(len(out), maxDisputed)]
}

// MeasureComparison is how far two measures order the same sites alike:
// Common Crawl's harmonic centrality or PageRank (Measure) against one of
// sitesift's (With).
type MeasureComparison struct {
	Measure string `json:"measure"`
	With    string `json:"with"`
	// Sites is the number of sites both rank.
	Sites int `json:"sites"`
	// Spearman and KendallTau are the rank correlations of the two
	// measures' values over those sites (tau-b: ties counted).
	Spearman   Float `json:"spearman"`
	KendallTau Float `json:"kendall_tau"`
	// TopKOverlapPct is the percentage of Measure's TopK highest sites
	// that are also among With's TopK highest; TopK is 100, or every site
	// when there are fewer.
	TopK           int   `json:"top_k"`
	TopKOverlapPct Float `json:"top_k_overlap_pct"`
}

// AgreementRow is one rater's agreement with the reference.
type AgreementRow struct {
	Rater string `json:"rater"`
	Kind  string `json:"kind"`
	// Sites is the number of sites both the rater and the reference rank.
	Sites int `json:"sites"`
	// ScorePct is the paper's score: the percentage of those sites where
	// the rater's rank equals the reference.
	ScorePct Float `json:"score_pct"`
	// ScoreLOOPct is the score against the leave-one-out reference (the
	// other librarians' mean), for librarians; null for measures.
	ScoreLOOPct Float `json:"score_loo_pct"`
	// KappaW is Cohen's kappa with quadratic weights against the reference.
	KappaW Float `json:"kappa_w"`
	// Spearman is Spearman's correlation of the rater's values with the
	// mean rating.
	Spearman Float `json:"spearman"`
	// Thresholds are, for a measure, the least values ranked 2, 3 and 4
	// (null for a rank no site got).
	Thresholds []Float `json:"thresholds,omitempty"`
	// ThresholdScores are the Thresholds as 0–100 of the measure's highest
	// value over all sites ([Score100]), for the measures whose values
	// come from one vector over all sites (not the cross-validated one).
	ThresholdScores []int `json:"threshold_scores,omitempty"`
	// AllTied is set for a measure that cannot tell the rated sites apart:
	// their values are one tie group (equal to within
	// importance.TieTolerance), every site gets one rank, and KappaW and
	// Spearman, which would say something of that one rank against the
	// reference and nothing of the measure, are null.
	AllTied bool `json:"all_tied,omitempty"`

	confusion [importance.Levels][importance.Levels]int
}

// Confusion is a rater's confusion matrix against the reference.
type Confusion struct {
	Rater string `json:"rater"`
	Kind  string `json:"kind"`
	// Matrix[i][j] counts the sites of reference rank i+1 that the rater
	// ranked j+1.
	Matrix [importance.Levels][importance.Levels]int `json:"matrix"`
}

// Agreement scores every librarian and the measures OPIC, PageRank, HITS
// authority and in-linking sites (Common Crawl's harmonic centrality and
// PageRank when the project has them, and, with Biased, the biased
// PageRank) against the librarians' reference.
func (s *Service) Agreement(ctx context.Context, opt AgreementOptions) (Agreement, error) {
	libs, err := s.store.Librarians(ctx)
	if err != nil {
		return Agreement{}, err
	}
	rs, err := s.store.Ratings(ctx)
	if err != nil {
		return Agreement{}, err
	}
	r := ratingsMatrix(libs, rs)
	ref := importance.NewReference(r, -1)
	out := Agreement{Librarians: len(r.Librarians), RatedSites: len(r.Sites), Excluded: ref.Excluded, Rows: []AgreementRow{},
		Disputed: disputedSites(r)}
	for _, rk := range ref.Rank {
		if rk > 0 {
			out.ReferenceSites++
		}
	}

	for l, name := range r.Librarians {
		values := make([]float64, len(r.Sites))
		for s, v := range r.R[l] {
			values[s] = float64(v)
		}
		sc := importance.Agree(r.R[l], values, ref)
		loo := importance.Agree(r.R[l], values, importance.NewReference(r, l))
		out.Rows = append(out.Rows, AgreementRow{Rater: name, Kind: KindLibrarian, Sites: sc.Sites,
			ScorePct: Float(sc.Pct), ScoreLOOPct: Float(loo.Pct), KappaW: Float(sc.KappaW),
			Spearman: Float(sc.Spearman), confusion: sc.Confusion})
	}

	measures, err := s.measures(ctx, r, opt, &out)
	if err != nil {
		return Agreement{}, err
	}
	for _, m := range measures {
		ranks, th := importance.QuantileRanks(m.values, ref)
		sc := importance.Agree(ranks, importance.TieSnap(m.values, ref), ref)
		row := AgreementRow{Rater: m.name, Kind: KindMeasure, Sites: sc.Sites, ScorePct: Float(sc.Pct),
			ScoreLOOPct: Float(math.NaN()), KappaW: Float(sc.KappaW), Spearman: Float(sc.Spearman), confusion: sc.Confusion}
		if sc.Sites >= 2 && importance.TieGroups(m.values, ref) == 1 {
			row.AllTied, row.KappaW, row.Spearman = true, Float(math.NaN()), Float(math.NaN())
		}
		for _, t := range th {
			row.Thresholds = append(row.Thresholds, Float(t))
			if m.top > 0 {
				row.ThresholdScores = append(row.ThresholdScores, ranking.Score100(t, m.top))
			}
		}
		out.Rows = append(out.Rows, row)
	}

	out.MeasuresTied = measuresTied(out.Rows)

	if opt.Rater != "" {
		i := slices.IndexFunc(out.Rows, func(row AgreementRow) bool { return row.Rater == opt.Rater })
		if i < 0 {
			return Agreement{}, fault.Invalid(fmt.Errorf("agreement: no rater %q (the raters are %s)", opt.Rater, raterNames(out.Rows)))
		}
		out.Confusion = &Confusion{Rater: out.Rows[i].Rater, Kind: out.Rows[i].Kind, Matrix: out.Rows[i].confusion}
	}
	return out, nil
}

// measuresTied reports whether every measure of the links that ranks two
// sites or more is all tied, there being at least one; the biased
// PageRank rows do not count, their values coming from the ratings.
func measuresTied(rows []AgreementRow) bool {
	n := 0
	for _, r := range rows {
		if r.Kind != KindMeasure || r.Rater == MeasureBiased || r.Rater == MeasureBiasedCV || r.Sites < 2 {
			continue
		}
		if !r.AllTied {
			return false
		}
		n++
	}
	return n > 0
}

func raterNames(rows []AgreementRow) string {
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.Rater
	}
	return strings.Join(names, ", ")
}

// ratingsMatrix arranges ratings for importance.Agree: every librarian
// (those without a rating too) by name, every rated site by name.
func ratingsMatrix(libs []string, rs []store.Rating) importance.Ratings {
	var siteNames []string
	for _, x := range rs {
		siteNames = append(siteNames, x.Site)
	}
	slices.Sort(siteNames)
	siteNames = slices.Compact(siteNames)
	names := slices.Clone(libs)
	for _, x := range rs {
		names = append(names, x.Librarian) // rated between the two reads
	}
	slices.Sort(names)
	names = slices.Compact(names)
	r := importance.Ratings{Sites: siteNames, Librarians: names, R: make([][]int, len(names))}
	for l := range names {
		r.R[l] = make([]int, len(siteNames))
	}
	for _, x := range rs {
		l, _ := slices.BinarySearch(names, x.Librarian)
		s, _ := slices.BinarySearch(siteNames, x.Site)
		r.R[l][s] = x.Rating
	}
	return r
}

// measure is a computed value for each rated site.
type measure struct {
	name   string
	values []float64
	// top is the highest value over all sites, 0 when not known.
	top float64
}

// top is the highest of values, NaN left out.
func top(values []float64) float64 {
	return ranking.NewRanking(values).Max()
}

// measures computes the measures over the rated sites of r.
func (s *Service) measures(ctx context.Context, r importance.Ratings, opt AgreementOptions, out *Agreement) ([]measure, error) {
	rows, err := s.ranking.AllSites(ctx, 0)
	if err != nil {
		return nil, err
	}
	row := make(map[string]store.SiteRow, len(rows))
	for _, x := range rows {
		row[x.Site] = x
	}
	names, g, err := s.ranking.ProjectGraph(ctx)
	if err != nil {
		return nil, err
	}
	node := make(map[string]int, len(names))
	for i, n := range names {
		node[n] = i
	}
	// over picks the values of the rated sites out of a vector over the
	// graph's nodes.
	over := func(all []float64) []float64 {
		v := make([]float64, len(r.Sites))
		for s, site := range r.Sites {
			v[s] = math.NaN() // unranked, should a site be rated but not in the graph
			if i, ok := node[site]; ok {
				v[s] = all[i]
			}
		}
		return v
	}
	pr, err := s.ranking.PageRank(g, nil)
	if err != nil {
		return nil, err
	}
	hits, err := importance.HITS(g, importance.DefaultHITSOptions())
	if err != nil {
		return nil, fmt.Errorf("agreement: %w", err)
	}
	opic, in := make([]float64, len(r.Sites)), make([]float64, len(r.Sites))
	for s, site := range r.Sites {
		opic[s], in[s] = row[site].OPIC, float64(row[site].InSites)
	}
	topOPIC, topIn := 0.0, 0.0
	for _, x := range rows {
		topOPIC, topIn = max(topOPIC, x.OPIC), max(topIn, float64(x.InSites))
	}
	ms := []measure{
		{MeasureOPIC, opic, topOPIC},
		{MeasurePageRank, over(pr), top(pr)},
		{MeasureHITS, over(hits.Authority), top(hits.Authority)},
		{MeasureInSites, in, topIn},
	}
	archive, err := s.store.SitesArchive(ctx)
	if err != nil {
		return nil, err
	}
	cc, comparisons := ccMeasures(r.Sites, rows, archive)
	ms = append(ms, cc...)
	out.Comparisons = comparisons
	if !opt.Biased {
		return ms, nil
	}

	bias, err := ranking.CheckBias(opt.Bias)
	if err != nil {
		return nil, err
	}
	rs, err := s.store.Ratings(ctx)
	if err != nil {
		return nil, err
	}
	p, favoured := ranking.BiasVector(names, ranking.MeanRatings(rs), bias)
	biased, err := s.ranking.PageRank(g, p)
	if err != nil {
		return nil, err
	}
	out.Bias, out.Favoured = &bias, favoured
	ms = append(ms, measure{MeasureBiased, over(biased), top(biased)})

	// Cross-validation: fold k holds the rated sites k, k+folds, ... in
	// name order; their values come from a PageRank biased by the ratings
	// of the sites of the other folds.
	cv := make([]float64, len(r.Sites))
	for k := range BiasFolds {
		held := map[string]bool{}
		for s := k; s < len(r.Sites); s += BiasFolds {
			held[r.Sites[s]] = true
		}
		if len(held) == 0 {
			continue
		}
		var train []store.Rating
		for _, x := range rs {
			if !held[x.Site] {
				train = append(train, x)
			}
		}
		p, _ := ranking.BiasVector(names, ranking.MeanRatings(train), bias)
		rank, err := s.ranking.PageRank(g, p)
		if err != nil {
			return nil, err
		}
		for s := k; s < len(r.Sites); s += BiasFolds {
			cv[s] = math.NaN()
			if i, ok := node[r.Sites[s]]; ok {
				cv[s] = rank[i]
			}
		}
	}
	return append(ms, measure{MeasureBiasedCV, cv, 0}), nil
}

// ccMeasures returns Common Crawl's harmonic centrality and PageRank as
// measures over the rated sites (NaN for a site without them), and their
// comparisons with sitesift's OPIC and stored PageRank (rows, every site)
// over the sites that have them; nothing when no site has them.
func ccMeasures(rated []string, rows []store.SiteRow, archive map[string]store.SiteArchiveInfo) ([]measure, []MeasureComparison) {
	type ccValue struct {
		name string
		of   func(store.SiteArchiveInfo) *float64
	}
	var ms []measure
	var cmps []MeasureComparison
	for _, m := range []ccValue{
		{MeasureCCHarmonic, func(i store.SiteArchiveInfo) *float64 { return i.CCHarmonic }},
		{MeasureCCPageRank, func(i store.SiteArchiveInfo) *float64 { return i.CCPageRank }},
	} {
		// Over every site that has the value, in the order of rows.
		var cc, opic, pr []float64
		for _, x := range rows {
			if v := m.of(archive[x.Site]); v != nil && !math.IsNaN(*v) {
				cc, opic, pr = append(cc, *v), append(opic, x.OPIC), append(pr, x.PageRank)
			}
		}
		if len(cc) == 0 {
			continue
		}
		values := make([]float64, len(rated))
		for s, site := range rated {
			values[s] = math.NaN()
			if v := m.of(archive[site]); v != nil {
				values[s] = *v
			}
		}
		ms = append(ms, measure{m.name, values, top(cc)})
		k := min(comparisonTopK, len(cc))
		for _, with := range []struct {
			name   string
			values []float64
		}{{MeasureOPIC, opic}, {MeasurePageRank, pr}} {
			cmps = append(cmps, MeasureComparison{Measure: m.name, With: with.name, Sites: len(cc),
				Spearman: Float(importance.Spearman(cc, with.values)), KendallTau: Float(importance.KendallTau(cc, with.values)),
				TopK: k, TopKOverlapPct: Float(100 * importance.TopKOverlap(cc, with.values, k))})
		}
	}
	return ms, cmps
}
