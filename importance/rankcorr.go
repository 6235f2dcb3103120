package importance

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// The rank statistics compare two scorings of the same nodes (OPIC against
// PageRank, a crawl against the librarians' ratings) by their order only.
// Values are compared with cmp.Compare, so a NaN counts as smaller than
// every number and equal to another NaN; x and y must have the same length
// (the functions panic otherwise, as indexing past the end would).

// Spearman returns Spearman's rank correlation of x and y: the Pearson
// correlation of their ranks, tied values sharing the average of the ranks
// they span (scipy.stats.spearmanr). It is 1 for the same order, −1 for the
// reverse. When either vector is constant the order says nothing and the
// result is 0 (scipy returns nan; a NaN would not survive JSON). O(n log n).
func Spearman(x, y []float64) float64 {
	mustSameLen("Spearman", x, y)
	rx, ry := averageRanks(x), averageRanks(y)
	n := float64(len(x))
	// Average ranks of n values always have mean (n+1)/2.
	mean := (n + 1) / 2
	var sxy, sxx, syy float64
	for i := range rx {
		dx, dy := rx[i]-mean, ry[i]-mean
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	return clamp1(sxy / math.Sqrt(sxx*syy))
}

// averageRanks returns the 1-based rank of each value of x in ascending
// order, ties sharing the mean of their ranks.
func averageRanks(x []float64) []float64 {
	idx := sortedIndex(x, func(a, b int) int { return cmp.Compare(x[a], x[b]) })
	r := make([]float64, len(x))
	for lo := 0; lo < len(idx); {
		hi := lo + 1
		for hi < len(idx) && cmp.Compare(x[idx[hi]], x[idx[lo]]) == 0 {
			hi++
		}
		// Positions lo..hi-1 hold ranks lo+1..hi; their mean is (lo+1+hi)/2.
		avg := float64(lo+1+hi) / 2
		for _, i := range idx[lo:hi] {
			r[i] = avg
		}
		lo = hi
	}
	return r
}

// KendallTau returns Kendall's tau-b of x and y (scipy.stats.kendalltau's
// default):
//
//	τ_b = (C − D) / √((n₀ − n₁)(n₀ − n₂))
//
// with C and D the concordant and discordant pairs, n₀ = n(n−1)/2, and n₁,
// n₂ the pairs tied in x, in y. It is 1 for the same order, −1 for the
// reverse; 0 when either vector is constant (scipy: nan).
//
// It runs in O(n log n) (Knight's method): sort by (x, y), then count the
// discordant pairs as the inversions of y left by a merge sort.
func KendallTau(x, y []float64) float64 {
	mustSameLen("KendallTau", x, y)
	n := len(x)
	if n < 2 {
		return 0
	}
	idx := sortedIndex(x, func(a, b int) int {
		if c := cmp.Compare(x[a], x[b]); c != 0 {
			return c
		}
		return cmp.Compare(y[a], y[b])
	})
	// Pairs tied in x (n₁) and tied in both (n₃), from runs of the sort.
	var n1, n3 int64
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && cmp.Compare(x[idx[hi]], x[idx[lo]]) == 0 {
			hi++
		}
		n1 += pairs(hi - lo)
		for a := lo; a < hi; {
			b := a + 1
			for b < hi && cmp.Compare(y[idx[b]], y[idx[a]]) == 0 {
				b++
			}
			n3 += pairs(b - a)
			a = b
		}
		lo = hi
	}
	ys := make([]float64, n)
	for k, i := range idx {
		ys[k] = y[i]
	}
	// In x order a pair is discordant exactly when its y values are
	// strictly inverted: pairs tied in x are sorted by y and cannot be.
	d := mergeCountInversions(ys, make([]float64, n))
	var n2 int64
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && cmp.Compare(ys[hi], ys[lo]) == 0 {
			hi++
		}
		n2 += pairs(hi - lo)
		lo = hi
	}
	n0 := pairs(n)
	// Every pair is concordant, discordant, tied in x only, in y only, or
	// in both, so C = n₀ − n₁ − n₂ + n₃ − D.
	cMinusD := n0 - n1 - n2 + n3 - 2*d
	den := float64(n0-n1) * float64(n0-n2)
	if den == 0 {
		return 0
	}
	return clamp1(float64(cMinusD) / math.Sqrt(den))
}

func pairs(t int) int64 { return int64(t) * int64(t-1) / 2 }

// mergeCountInversions sorts a ascending (using buf, of the same length, as
// scratch) and returns the number of pairs i < j with a[i] > a[j].
func mergeCountInversions(a, buf []float64) int64 {
	n := len(a)
	if n < 2 {
		return 0
	}
	m := n / 2
	inv := mergeCountInversions(a[:m], buf[:m]) + mergeCountInversions(a[m:], buf[m:])
	i, j, k := 0, m, 0
	for i < m && j < n {
		// Equal values are taken from the left first: a tie is no inversion.
		if cmp.Compare(a[i], a[j]) <= 0 {
			buf[k] = a[i]
			i++
		} else {
			buf[k] = a[j]
			j++
			inv += int64(m - i) // a[j] is smaller than every remaining left value
		}
		k++
	}
	k += copy(buf[k:], a[i:m])
	copy(buf[k:], a[j:n])
	copy(a, buf)
	return inv
}

// TopKOverlap returns |top-k(x) ∩ top-k(y)| / k: the share of the k nodes
// with the highest x that are also among the k with the highest y, ties
// broken by the lower index. k is capped at len(x); it returns 0 when k ≤ 0
// or x is empty. O(n log n).
func TopKOverlap(x, y []float64, k int) float64 {
	mustSameLen("TopKOverlap", x, y)
	k = min(k, len(x))
	if k <= 0 {
		return 0
	}
	in := make([]bool, len(x))
	for _, i := range topK(x, k) {
		in[i] = true
	}
	var both int
	for _, i := range topK(y, k) {
		if in[i] {
			both++
		}
	}
	return float64(both) / float64(k)
}

// topK returns the indices of the k highest values of v, ties by index.
func topK(v []float64, k int) []int {
	return sortedIndex(v, func(a, b int) int {
		if c := cmp.Compare(v[b], v[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})[:k]
}

// sortedIndex returns 0..len(v)-1 sorted by order.
func sortedIndex(v []float64, order func(a, b int) int) []int {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, order)
	return idx
}

// clamp1 keeps rounding from pushing a correlation past ±1.
func clamp1(r float64) float64 { return max(-1, min(1, r)) }

func mustSameLen(fn string, x, y []float64) {
	if len(x) != len(y) {
		panic(fmt.Sprintf("importance: %s of vectors of lengths %d and %d", fn, len(x), len(y)))
	}
}
