package ranking

import (
	"context"
	"fmt"

	"sitesift/sites/store"
)

// BasisTop is how many of the first sites [Basis] looks at for ties: the
// sites a selection team reads first.
const BasisTop = 50

// Basis is what the ranking of a project's sites rests on, and whether it
// can separate them: the numbers behind every site's rank (the sites
// ranked, fetched, linked from one site at most; the pages fetched), the
// ties among the first sites, and how OPIC reached its fixpoint. A crawl of
// 60 pages that meets 564 sites ranks most of them from one link each, and
// ranks them in a few large ties: Thin says so, Advice what would help.
type Basis struct {
	// Sites is the number of sites ranked; FetchedSites those of them with
	// a page fetched (a site's own links are known from its pages alone);
	// Pages the pages fetched; OneLink the sites linked from one other
	// site at most.
	Sites        int `json:"sites"`
	FetchedSites int `json:"fetched_sites"`
	Pages        int `json:"pages"`
	OneLink      int `json:"one_link"`
	// Top is the number of first sites looked at for ties: BasisTop, or
	// all the sites when fewer.
	Top int `json:"top"`
	// TopTied is how many of the Top first sites share their rank with
	// another site; LargestTie the most sites sharing one rank among them.
	TopTied    int `json:"top_tied"`
	LargestTie int `json:"largest_tie"`
	// Fixpoint is how OPIC reached its fixpoint (Rounds 0: not computed).
	Fixpoint Fixpoint `json:"fixpoint"`
	// Thin is true when the ranking cannot separate the sites well: more
	// than a fifth of the first sites share one rank, or more than half of
	// the sites are known from one link at most.
	Thin bool `json:"thin"`
	// Summary says what the ranking rests on, in one sentence.
	Summary string `json:"summary"`
	// Advice says what would separate the sites, one sentence a point;
	// empty when the ranking is not thin.
	Advice []string `json:"advice,omitempty"`
}

// Basis returns what the ranking of the project's sites (its platforms left
// out) rests on.
func (s *Service) Basis(ctx context.Context) (Basis, error) {
	rb, err := s.store.RankBasis(ctx)
	if err != nil {
		return Basis{}, err
	}
	st, err := s.Standings(ctx)
	if err != nil {
		return Basis{}, err
	}
	fp, err := s.store.OPICFixpoint(ctx)
	if err != nil {
		return Basis{}, err
	}
	return NewBasis(rb, st.OPIC, fp), nil
}

// NewBasis judges a ranking of OPIC values from what it rests on.
func NewBasis(rb store.RankBasis, opic Ranking, fp store.Fixpoint) Basis {
	b := Basis{Sites: rb.Sites, FetchedSites: rb.FetchedSites, Pages: rb.Pages, OneLink: rb.OneLink,
		Fixpoint: Fixpoint(fp), Top: min(BasisTop, opic.Len())}
	b.TopTied, b.LargestTie = opic.TopTied(b.Top), opic.LargestTie(b.Top)
	tied := b.Top >= 5 && b.LargestTie*5 > b.Top
	oneLink := b.Sites >= 10 && b.OneLink*2 > b.Sites
	b.Thin = tied || oneLink
	b.Summary = fmt.Sprintf("Ranked from %s on %s: %s, %s linked from one site at most",
		count(b.Pages, "page fetched", "pages fetched"), count(b.FetchedSites, "site", "sites"),
		count(b.Sites, "site ranked", "sites ranked"), count(b.OneLink, "site", "sites"))
	switch {
	case b.Top > 0 && b.TopTied == 1:
		b.Summary += fmt.Sprintf("; 1 of the first %d shares its rank with another site", b.Top)
	case b.Top > 0:
		b.Summary += fmt.Sprintf("; %d of the first %d share their rank with another site", b.TopTied, b.Top)
	}
	b.Summary += "."
	if !b.Thin {
		return b
	}
	if b.FetchedSites*2 < b.Sites {
		b.Advice = append(b.Advice, fmt.Sprintf("%d of the %d sites were met only as the target of a link: a larger page budget (--max-pages) fetches them, and their own links then count.",
			b.Sites-b.FetchedSites, b.Sites))
	}
	if oneLink {
		b.Advice = append(b.Advice, fmt.Sprintf("%d of the %d sites are linked from one site at most: more pages per site (--max-pages-per-site) find more of the links between sites.",
			b.OneLink, b.Sites))
	}
	if tied {
		b.Advice = append(b.Advice, fmt.Sprintf("%d of the first %d sites share one rank: more seeds on the subject, or more pages, give them links that separate them.",
			b.LargestTie, b.Top))
	}
	return b
}

// Fixpoint is how OPIC reached its fixpoint: the rounds read, each reading
// every site once, and the L1 distance between the shares of the last two.
type Fixpoint struct {
	Rounds   int     `json:"rounds"`
	Residual float64 `json:"residual"`
}

// count is n with the singular or plural noun.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
