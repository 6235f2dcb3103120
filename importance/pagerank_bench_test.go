package importance

import (
	"errors"
	"testing"
	"time"
)

// BenchmarkPageRankPerIteration separates PageRank's fixed cost (allocating
// the vectors and transposing the arcs, which the pull-based product reads)
// from the cost of one power iteration, on the 100 000-node synthetic
// graph: it times runs of 1 and of 11 iterations and reports the fixed cost
// and the difference over 10 as ns/iteration. BenchmarkPageRankIteration
// (MaxIter 1) measures the two together.
func BenchmarkPageRankPerIteration(b *testing.B) {
	g := Synthetic(100000, 8, 1)
	run := func(iters int) time.Duration {
		opt := DefaultPageRankOptions()
		opt.MaxIter = iters
		start := time.Now()
		if _, err := PageRank(g, opt); err != nil && !errors.Is(err, ErrNotConverged) {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	var one, eleven time.Duration
	n := 0
	for b.Loop() {
		one += run(1)
		eleven += run(11)
		n++
	}
	b.ReportMetric(float64((eleven-one).Nanoseconds())/float64(10*n), "ns/iteration")
	b.ReportMetric(float64(one.Nanoseconds())/float64(n)-float64((eleven-one).Nanoseconds())/float64(10*n), "ns/setup")
}

// BenchmarkPageRankNational times PageRank to the default tolerance on the
// graph of importance/bench/scale.sh, 5,000,000 nodes and about 50 M arcs,
// and reports the iterations it took: at this size the rounding of the sums
// over all nodes decides when the residual falls below 1e-12.
func BenchmarkPageRankNational(b *testing.B) {
	g := Synthetic(5_000_000, 10, 1)
	var res PageRankResult
	for b.Loop() {
		var err error
		if res, err = PageRank(g, DefaultPageRankOptions()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(res.Iterations), "iterations")
}
