package importance

import (
	"runtime"
	"testing"
)

// BenchmarkExtractSeeds100 is the scale check: 100 seeds from a
// synthetic graph of 320 000 nodes and about 3.2 million arcs. Run it with
// -benchtime=1x; it reports the graph size and the heap in use at the end.
func BenchmarkExtractSeeds100(b *testing.B) {
	if testing.Short() {
		b.Skip("about a minute per run")
	}
	g := Synthetic(320000, 10, 1)
	b.ResetTimer()
	for b.Loop() {
		cores, err := ExtractSeeds(g, 100, DefaultCoreOptions())
		if err != nil {
			b.Fatal(err)
		}
		if len(cores) != 100 {
			b.Fatalf("%d cores", len(cores))
		}
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	// Metrics reported before the loop are reset with the timer.
	b.ReportMetric(float64(g.Arcs()), "arcs")
	b.ReportMetric(float64(m.HeapInuse)/(1<<20), "heap-MiB")
}
