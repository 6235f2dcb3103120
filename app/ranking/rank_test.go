package ranking_test

import (
	"context"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/ranking"
	"sitesift/sites"
)

// BenchmarkRankEdgeFile times `sitesift rank --edges --no-opic` on a
// 100 000-node, 1M-arc synthetic graph: parse, build, PageRank, sort.
func BenchmarkRankEdgeFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "synthetic.txt")
	apptest.WriteSynthetic(b, path, 100000, 10)
	for b.Loop() {
		if _, err := ranking.RankEdgeFile(context.Background(), path, ranking.EdgeRankOptions{NoOPIC: true, Weighting: ranking.WeightingBinary}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRankEdgeFileCollectsAfterItsSteps: at the command line's low GOGC,
// ranking an edge list starts no more automatic collections than reading
// it does. The steps after the read (the graph, PageRank, the sort) keep
// what they allocate and collect their garbage themselves; a collection
// started by the heap's growth marks the whole heap to free nothing.
func TestRankEdgeFileCollectsAfterItsSteps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "synthetic.txt")
	apptest.WriteSynthetic(t, path, 100000, 10)
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	automatic := func() uint64 {
		s := []metrics.Sample{{Name: "/gc/cycles/automatic:gc-cycles"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	// The collections of a read vary by a few with the heap it starts
	// from: the most of three.
	var read uint64
	for range 3 {
		runtime.GC()
		before := automatic()
		if _, err := ranking.ReadEdgeList(path, sites.RuleHost); err != nil {
			t.Fatal(err)
		}
		read = max(read, automatic()-before)
	}
	runtime.GC()
	before := automatic()
	rows, err := ranking.RankEdgeFile(context.Background(), path, ranking.EdgeRankOptions{NoOPIC: true, Weighting: ranking.WeightingBinary})
	if err != nil {
		t.Fatal(err)
	}
	ranked := automatic() - before
	t.Logf("automatic collections: %d reading, %d ranking", read, ranked)
	if len(rows) < 90000 {
		t.Fatalf("%d sites ranked, want the graph's", len(rows))
	}
	if ranked > read+1 {
		t.Errorf("ranking started %d automatic collections, reading the same file %d: the steps after the read should start none", ranked, read)
	}
	if got := debug.SetGCPercent(10); got != 10 {
		t.Errorf("GOGC after ranking is %d, want 10 as it was", got)
	}
}
