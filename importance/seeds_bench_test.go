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

// BenchmarkExtractSeeds20 is issue 11's case: 20 seeds from the graph that
// `go run ./tools/graphgen` writes with its defaults (320 000 nodes,
// 3,200,858 arcs), as `sitesift seeds --count 20` extracts them from the
// project that graph is imported into, without the store. It reports the
// time a seed (wall time: set GOMAXPROCS=1 for one processor's) and the
// goroutines that share each HITS step.
func BenchmarkExtractSeeds20(b *testing.B) {
	if testing.Short() {
		b.Skip("about ten seconds per run")
	}
	g := Synthetic(320000, 10, 1)
	b.ResetTimer()
	for b.Loop() {
		cores, err := ExtractSeeds(g, 20, DefaultCoreOptions())
		if err != nil {
			b.Fatal(err)
		}
		if len(cores) != 20 {
			b.Fatalf("%d cores", len(cores))
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(20*b.N), "s/seed")
	b.ReportMetric(float64(hitsWorkers(g.Arcs())), "workers")
}

// BenchmarkHITSRound times the HITS of one round of the extraction (60
// iterations, the reversal of the arcs already made) on the same graph,
// and reports the time of one arc read (each iteration reads every arc
// twice), which bounds the time of a seed from below.
func BenchmarkHITSRound(b *testing.B) {
	g := Synthetic(320000, 10, 1)
	var in Graph
	reverseInto(&in, g, false)
	var vec hitsVectors
	opt := DefaultHITSOptions()
	workers := hitsWorkers(g.Arcs())
	b.ResetTimer()
	for b.Loop() {
		if _, err := hits(g, &in, opt, &vec, workers); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*opt.MaxIter*2*g.Arcs()), "ns/arc")
	b.ReportMetric(float64(workers), "workers")
}
