package importance

import (
	"math"
	"sort"
)

// MeanRelativeError returns the mean over nodes of |est−ref|/ref, in
// percent, as in the OPIC paper's experiments. Nodes whose reference is 0
// are skipped.
func MeanRelativeError(est, ref []float64) float64 {
	var sum float64
	var n int
	for i, r := range ref {
		if r > 0 {
			sum += math.Abs(est[i]-r) / r
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return 100 * sum / float64(n)
}

// TopRelativeError is [MeanRelativeError] over the fraction frac (0.01 for
// the top 1%) of nodes with the highest reference value, at least one node.
func TopRelativeError(est, ref []float64, frac float64) float64 {
	idx := make([]int, len(ref))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return ref[idx[a]] > ref[idx[b]] })
	k := max(1, int(math.Round(frac*float64(len(ref)))))
	k = min(k, len(ref))
	e, r := make([]float64, k), make([]float64, k)
	for j, i := range idx[:k] {
		e[j], r[j] = est[i], ref[i]
	}
	return MeanRelativeError(e, r)
}
