package importance

import (
	"fmt"
	"math"
	"slices"
)

// The agreement statistics follow the librarian experiment of the OPIC
// paper (end of section 4): several librarians rate each site on a 1–4
// scale, a reference rank per site is the average of their ratings, and each
// librarian — and each computed measure — is scored by the share of sites
// where its rank equals the reference.

// Levels is the number of rating levels: ratings run from 1 to Levels.
const Levels = 4

// Ratings holds every librarian's ratings of a set of sites: R[l][s] is
// librarian l's rating of site s, 1..Levels, or 0 when l did not rate s.
type Ratings struct {
	Sites      []string
	Librarians []string
	R          [][]int
}

// Validate checks the shape of r and that every rating lies in 0..Levels.
func (r Ratings) Validate() error {
	if len(r.R) != len(r.Librarians) {
		return fmt.Errorf("importance: %d rating rows for %d librarians", len(r.R), len(r.Librarians))
	}
	for l, row := range r.R {
		if len(row) != len(r.Sites) {
			return fmt.Errorf("importance: librarian %s has %d ratings for %d sites", r.Librarians[l], len(row), len(r.Sites))
		}
		for s, v := range row {
			if v < 0 || v > Levels {
				return fmt.Errorf("importance: librarian %s rates %s %d, not in 1..%d", r.Librarians[l], r.Sites[s], v, Levels)
			}
		}
	}
	return nil
}

// RoundHalfUp rounds a mean rating to the nearest level, halves up (2.5 → 3).
func RoundHalfUp(x float64) int { return int(math.Floor(x + 0.5)) }

// Reference is the reference of each site: the mean of the librarians'
// ratings and that mean rounded half up. Sites rated by fewer than two
// librarians have no reference (Rank 0): one opinion is no consensus.
type Reference struct {
	Rank  []int     // 1..Levels, or 0 for a site without a reference
	Mean  []float64 // NaN for a site without a reference
	Count []int     // number of librarians who rated the site
	// Excluded counts the sites rated by exactly one librarian.
	Excluded int
}

// NewReference computes the reference of every site of r, leaving out
// librarian skip (−1 for none): with skip set it is the leave-one-out
// reference of that librarian, the mean of the others only, and a site then
// needs one other librarian's rating.
func NewReference(r Ratings, skip int) Reference {
	need := 2
	if skip >= 0 {
		need = 1
	}
	ref := Reference{Rank: make([]int, len(r.Sites)), Mean: make([]float64, len(r.Sites)), Count: make([]int, len(r.Sites))}
	for s := range r.Sites {
		sum, n := 0, 0
		for l, row := range r.R {
			if l != skip && row[s] > 0 {
				sum += row[s]
				n++
			}
		}
		ref.Count[s] = n
		if n < need {
			ref.Mean[s] = math.NaN()
			if n == 1 && skip < 0 {
				ref.Excluded++
			}
			continue
		}
		ref.Mean[s] = float64(sum) / float64(n)
		ref.Rank[s] = RoundHalfUp(ref.Mean[s])
	}
	return ref
}

// Score is how one rater agrees with the reference.
type Score struct {
	// Sites is the number of sites that both the rater and the reference rank.
	Sites int
	// Pct is the paper's score: the percentage of those sites where the
	// rater's rank equals the reference.
	Pct float64
	// KappaW is Cohen's kappa with quadratic weights between the rater's
	// ranks and the reference; NaN when it is undefined (no site, or both
	// constant).
	KappaW float64
	// Spearman is Spearman's correlation between the rater's values and the
	// mean rating of the sites.
	Spearman float64
	// Confusion[i][j] counts the sites of reference rank i+1 that the rater
	// ranked j+1.
	Confusion [Levels][Levels]int
}

// Agree scores ranks (1..Levels, 0 = not ranked) against a reference;
// values are what Spearman's correlation uses (the ratings themselves for a
// librarian, the measure for a computed one).
func Agree(ranks []int, values []float64, ref Reference) Score {
	var sc Score
	var a, b []int
	var x, y []float64
	for s, rk := range ranks {
		if rk == 0 || ref.Rank[s] == 0 {
			continue
		}
		sc.Sites++
		sc.Confusion[ref.Rank[s]-1][rk-1]++
		a, b = append(a, ref.Rank[s]), append(b, rk)
		x, y = append(x, values[s]), append(y, ref.Mean[s])
	}
	sc.Pct, sc.KappaW, sc.Spearman = math.NaN(), math.NaN(), math.NaN()
	if sc.Sites == 0 {
		return sc
	}
	equal := 0
	for i := range a {
		if a[i] == b[i] {
			equal++
		}
	}
	sc.Pct = 100 * float64(equal) / float64(sc.Sites)
	sc.KappaW = WeightedKappa(a, b)
	sc.Spearman = Spearman(x, y)
	return sc
}

// WeightedKappa is Cohen's kappa between two raters' levels (1..Levels)
// with quadratic weights (i−j)²/(Levels−1)²: 1 − Σ w·observed / Σ w·expected,
// expected from the product of the two raters' marginals. NaN when the
// expected disagreement is 0 (both raters give one same level throughout, or
// no item).
func WeightedKappa(a, b []int) float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("importance: WeightedKappa of %d and %d ratings", len(a), len(b)))
	}
	n := float64(len(a))
	var obs [Levels][Levels]float64
	var ma, mb [Levels]float64
	for i := range a {
		obs[a[i]-1][b[i]-1]++
		ma[a[i]-1]++
		mb[b[i]-1]++
	}
	var num, den float64
	for i := range Levels {
		for j := range Levels {
			w := float64((i-j)*(i-j)) / float64((Levels-1)*(Levels-1))
			num += w * obs[i][j] / n
			den += w * (ma[i] / n) * (mb[j] / n)
		}
	}
	if den == 0 {
		return math.NaN()
	}
	return 1 - num/den
}

// QuantileRanks turns a computed measure into 1..Levels ranks over the sites
// that have a reference, so that the ranks have the same distribution as the
// reference ranks there: the lowest-valued sites get as many 1s as the
// reference has, and so on. Ties in value are broken by site order, so the
// result is deterministic. Sites without a reference, or whose value is NaN,
// get 0. Thresholds[k] is the least value ranked k+2 (NaN when no site got
// that rank), so rank = 1 + the number of thresholds ≤ value, up to ties.
func QuantileRanks(values []float64, ref Reference) (ranks []int, thresholds [Levels - 1]float64) {
	ranks = make([]int, len(values))
	var idx []int
	var count [Levels]int
	for s, v := range values {
		if ref.Rank[s] > 0 && !math.IsNaN(v) {
			idx = append(idx, s)
			count[ref.Rank[s]-1]++
		}
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		switch {
		case values[i] < values[j]:
			return -1
		case values[i] > values[j]:
			return 1
		}
		return 0
	})
	for k := range thresholds {
		thresholds[k] = math.NaN()
	}
	pos := 0
	for level := range Levels {
		for c := 0; c < count[level]; c++ {
			s := idx[pos]
			ranks[s] = level + 1
			if c == 0 && level > 0 {
				thresholds[level-1] = values[s]
			}
			pos++
		}
	}
	return ranks, thresholds
}
