package app_test

import (
	"context"
	"path/filepath"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
)

// BenchmarkRankEdgeFile times `sitesift rank --edges --no-opic` on a
// 100 000-node, 1M-arc synthetic graph: parse, build, PageRank, sort.
func BenchmarkRankEdgeFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "synthetic.txt")
	apptest.WriteSynthetic(b, path, 100000, 10)
	for b.Loop() {
		if _, err := app.RankEdgeFile(context.Background(), path, app.EdgeRankOptions{NoOPIC: true, Weighting: app.WeightingBinary}); err != nil {
			b.Fatal(err)
		}
	}
}
