package importance

import (
	"cmp"
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
// that have a reference, so that the ranks follow the distribution of the
// reference ranks there: sorted by value, the lowest-valued sites take as
// many 1s as the reference has, and so on. Sites without a reference, or
// whose value is NaN, get 0.
//
// Equal values get one rank (equal to within [TieTolerance] of the largest
// magnitude among the ranked values, see [Tied]): a measure says nothing about which of two
// sites of the same value comes first, so splitting them by name would
// score a measure on the spelling of site names (a baseline with many ties,
// such as in-linking sites, most of all).
// A tie group takes the class of its median member: sorted by value, the
// group holds positions [i, j) of the n sites, and it takes the class whose
// positions hold (i+j)/2, the class with class k holding positions from the
// reference's count of ranks below k up to its count of ranks up to k. An
// even group whose two middle members fall in two classes takes the upper
// one, as the reference rounds a mean half up. The median member's class
// is where the most of the group would fall by position when the group
// spans two classes, so it moves the fewest sites from their quantile; the
// classes' sizes then differ from the reference's by less than the tie
// groups at their edges. A result depends on the values and the reference
// only, never on the order of the sites.
//
// Thresholds[k] is the least value ranked k+2, NaN when no site got that
// rank; a site's rank is thus the highest level whose threshold is at most
// its value (1 when there is none).
func QuantileRanks(values []float64, ref Reference) (ranks []int, thresholds [Levels - 1]float64) {
	ranks = make([]int, len(values))
	idx, scale := rankedByValue(values, ref)
	var upTo [Levels]int // upTo[k]: reference ranks ≤ k+1
	for _, s := range idx {
		upTo[ref.Rank[s]-1]++
	}
	for k := 1; k < Levels; k++ {
		upTo[k] += upTo[k-1]
	}
	for k := range thresholds {
		thresholds[k] = math.NaN()
	}
	for i := 0; i < len(idx); {
		j := tieGroupEnd(values, idx, i, scale)
		// 2·position against 2·boundary keeps (i+j)/2 exact.
		level := 0
		for level < Levels-1 && i+j >= 2*upTo[level] {
			level++
		}
		for _, s := range idx[i:j] {
			ranks[s] = level + 1
		}
		if level > 0 && math.IsNaN(thresholds[level-1]) {
			thresholds[level-1] = values[idx[i]]
		}
		i = j
	}
	return ranks, thresholds
}

// TieTolerance is the distance, relative to the largest magnitude among the
// values compared, within which two values of a measure are equal. Sites of
// the same link structure get OPIC shares or PageRanks that differ in the
// last bits of a float, by the order the sums were taken in (the order of
// an input file); no reader could tell them apart, and a rank that split
// them would move with that order.
const TieTolerance = 1e-9

// Tied reports whether a and b are equal to within TieTolerance × |scale|,
// scale being the largest magnitude among the values compared.
func Tied(a, b, scale float64) bool {
	return math.Abs(a-b) <= TieTolerance*math.Abs(scale)
}

// rankedByValue returns the sites that QuantileRanks ranks (a reference,
// a value that is not NaN), sorted by value, and the largest magnitude of
// their values, the scale of [Tied].
func rankedByValue(values []float64, ref Reference) (idx []int, scale float64) {
	for s, v := range values {
		if ref.Rank[s] > 0 && !math.IsNaN(v) {
			idx = append(idx, s)
			scale = max(scale, math.Abs(v))
		}
	}
	slices.SortFunc(idx, func(i, j int) int { return cmp.Compare(values[i], values[j]) })
	return idx, scale
}

// tieGroupEnd is the end of the tie group that starts at idx[i]: the sites
// tied with its lowest value. Measured from the lowest value, not from
// neighbour to neighbour, a group never chains across a spread of values
// wider than the tolerance, and the groups depend on the values only.
func tieGroupEnd(values []float64, idx []int, i int, scale float64) int {
	j := i + 1
	for j < len(idx) && Tied(values[idx[j]], values[idx[i]], scale) {
		j++
	}
	return j
}

// TieSnap returns values with the value of each site that QuantileRanks
// ranks replaced by the lowest value of its tie group, the others as they
// are: what Agree's Spearman correlation of a measure reads, so that it
// too sees one value where the ranks see one tie, rather than last bits
// that follow the order of an input file.
func TieSnap(values []float64, ref Reference) []float64 {
	out := slices.Clone(values)
	idx, scale := rankedByValue(values, ref)
	for i := 0; i < len(idx); {
		j := tieGroupEnd(values, idx, i, scale)
		for _, s := range idx[i:j] {
			out[s] = values[idx[i]]
		}
		i = j
	}
	return out
}

// TieGroups is the number of tie groups among the values of the sites that
// QuantileRanks ranks. One group of two sites or more means the measure
// cannot tell those sites apart: every one gets the same rank, and a kappa
// or correlation of it says nothing about the measure.
func TieGroups(values []float64, ref Reference) int {
	idx, scale := rankedByValue(values, ref)
	groups := 0
	for i := 0; i < len(idx); i = tieGroupEnd(values, idx, i, scale) {
		groups++
	}
	return groups
}
