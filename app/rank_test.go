package app_test

import (
	"context"
	"path/filepath"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/ranking"
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
