package importance

import (
	"errors"
	"testing"
)

func BenchmarkSynthetic(b *testing.B) {
	for b.Loop() {
		Synthetic(100000, 8, 1)
	}
}

// BenchmarkOPICStep times one greedy read on a 100 000-node synthetic graph.
func BenchmarkOPICStep(b *testing.B) { benchmarkGreedyRead(b, Synthetic(100000, 8, 1)) }

// BenchmarkOPICStepNational times one greedy read on a graph of national
// size, 5,000,000 nodes and about 50 M arcs (the import's simulation, at
// the scale of importance/bench/scale.sh), where the cash and the heap no
// longer fit in any cache: each arc a read follows costs cache misses, not
// arithmetic.
func BenchmarkOPICStepNational(b *testing.B) { benchmarkGreedyRead(b, Synthetic(5_000_000, 10, 1)) }

// benchmarkGreedyRead times the greedy reads of an OPIC simulation on g,
// from the start.
func benchmarkGreedyRead(b *testing.B, g *Graph) {
	o, err := LoadGraph(g, DefaultTeleport)
	if err != nil {
		b.Fatal(err)
	}
	sel, err := NewSelector(o, Greedy, 1)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		sel.Step()
	}
}

// BenchmarkPageRankIteration times one power iteration (MaxIter 1) on the
// same graph.
func BenchmarkPageRankIteration(b *testing.B) {
	g := Synthetic(100000, 8, 1)
	opt := DefaultPageRankOptions()
	opt.MaxIter = 1
	for b.Loop() {
		if _, err := PageRank(g, opt); err != nil && !errors.Is(err, ErrNotConverged) {
			b.Fatal(err)
		}
	}
}

// BenchmarkHITSIteration times one hub/authority iteration on the same graph.
func BenchmarkHITSIteration(b *testing.B) {
	g := Synthetic(100000, 8, 1)
	for b.Loop() {
		if _, err := HITS(g, HITSOptions{MaxIter: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
