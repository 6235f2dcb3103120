package importance

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

func mustGraph(t testing.TB, n int, arcs ...[2]int) *Graph {
	t.Helper()
	e := make([]WeightedEdge, len(arcs))
	for i, a := range arcs {
		e[i] = WeightedEdge{From: a[0], To: a[1], Weight: 1}
	}
	g, err := NewGraph(n, e)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestCoreDistances(t *testing.T) {
	// Core A = {0}→{1}, core B = {4}→{5}, core C = {7}→{8}.
	// 1 → 2 → 3 → 4: A reaches B in 3 arcs (from authority 1).
	// 5 → 0: B reaches A in 1. 6 → 7 only: nothing reaches C, C reaches nothing.
	g := mustGraph(t, 9, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 4}, [2]int{4, 5}, [2]int{5, 0},
		[2]int{6, 7}, [2]int{7, 8})
	cores := []Core{
		{Hubs: []int{0}, Authorities: []int{1}},
		{Hubs: []int{4}, Authorities: []int{5}},
		{Hubs: []int{7}, Authorities: []int{8}},
	}
	d, err := CoreDistances(g, cores)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{
		{0, 3, -1},
		{1, 0, -1},
		{-1, -1, 0},
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("distances = %v, want %v", d, want)
	}
	if _, err := CoreDistances(g, []Core{{Hubs: []int{9}}}); err == nil {
		t.Error("a node outside the graph was accepted")
	}
}

// TestCoreDistancesMatchPairwiseBFS checks the multi-source BFS against
// the definition, a BFS from every member, on random graphs.
func TestCoreDistancesMatchPairwiseBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 20 {
		n := 40
		var arcs [][2]int
		for range 70 {
			arcs = append(arcs, [2]int{rng.IntN(n), rng.IntN(n)})
		}
		g := mustGraph(t, n, arcs...)
		perm := rng.Perm(n)
		cores := []Core{
			{Hubs: perm[0:3], Authorities: perm[3:5]},
			{Hubs: perm[5:6], Authorities: perm[6:9]},
			{Hubs: perm[9:11], Authorities: perm[11:12]},
		}
		d, err := CoreDistances(g, cores)
		if err != nil {
			t.Fatal(err)
		}
		dist := make([]int32, n)
		for i, ci := range cores {
			for j, cj := range cores {
				best := -1
				for _, u := range ci.Members() {
					bfs(g, []int{u}, dist, nil)
					for _, v := range cj.Members() {
						if dv := int(dist[v]); dv >= 0 && (best < 0 || dv < best) {
							best = dv
						}
					}
				}
				if d[i][j] != best {
					t.Fatalf("trial %d: d[%d][%d] = %d, want %d", trial, i, j, d[i][j], best)
				}
			}
		}
	}
}

func TestAverageDistance(t *testing.T) {
	// A path 0 → 1 → 2 → 3: distances 1,2,3 from 0, 1,2 from 1, 1 from 2.
	path := mustGraph(t, 4, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3})
	got := AverageDistance(path, 10, 1)
	if got.Sources != 4 || got.Pairs != 6 || math.Abs(got.Mean-10.0/6) > 1e-12 || got.Max != 3 {
		t.Errorf("path: %+v, want 4 sources, 6 pairs, mean 10/6, max 3", got)
	}
	// On a directed cycle every source sees the same distances 1..n-1, so
	// a sample gives the exact mean n/2.
	n := 50
	var arcs [][2]int
	for i := range n {
		arcs = append(arcs, [2]int{i, (i + 1) % n})
	}
	cycle := mustGraph(t, n, arcs...)
	got = AverageDistance(cycle, 7, 42)
	if got.Sources != 7 || got.Pairs != int64(7*(n-1)) || math.Abs(got.Mean-float64(n)/2) > 1e-12 {
		t.Errorf("cycle: %+v, want 7 sources, mean %v", got, float64(n)/2)
	}
	if again := AverageDistance(cycle, 7, 42); again != got {
		t.Errorf("same seed, different estimate: %+v vs %+v", again, got)
	}
	if e := AverageDistance(mustGraph(t, 3), 5, 1); e.Pairs != 0 || e.Mean != 0 {
		t.Errorf("no arcs: %+v", e)
	}
}

func TestSample(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range [][2]int{{10, 10}, {1000, 7}, {5, 0}, {1, 1}} {
		s := sample(rng, tc[0], tc[1])
		if len(s) != tc[1] {
			t.Fatalf("sample(%d, %d) has %d values", tc[0], tc[1], len(s))
		}
		seen := map[int]bool{}
		for _, v := range s {
			if v < 0 || v >= tc[0] || seen[v] {
				t.Fatalf("sample(%d, %d) = %v: out of range or repeated", tc[0], tc[1], s)
			}
			seen[v] = true
		}
	}
	// Uniform: each of 10 values drawn in about 3 of 10 picks of 3.
	counts := make([]int, 10)
	for range 20000 {
		for _, v := range sample(rng, 10, 3) {
			counts[v]++
		}
	}
	for v, c := range counts {
		if math.Abs(float64(c)-6000) > 300 {
			t.Errorf("value %d drawn %d times in 20000 samples of 3 of 10, want about 6000", v, c)
		}
	}
}

func TestRandomSeeds(t *testing.T) {
	// Nodes 0..9 link on; 10..19 have no out-arc.
	var arcs [][2]int
	for i := range 10 {
		arcs = append(arcs, [2]int{i, 10 + i})
	}
	g := mustGraph(t, 20, arcs...)
	s := RandomSeeds(g, 4, 9)
	if len(s) != 4 || !slices.IsSorted(s) || len(slices.Compact(slices.Clone(s))) != 4 {
		t.Fatalf("seeds %v: want 4 distinct, sorted", s)
	}
	for _, v := range s {
		if v >= 10 {
			t.Errorf("seed %d has no out-arc", v)
		}
	}
	if !reflect.DeepEqual(s, RandomSeeds(g, 4, 9)) {
		t.Error("same seed, different draw")
	}
	if all := RandomSeeds(g, 50, 1); len(all) != 10 {
		t.Errorf("asking for more than there are gave %v", all)
	}
}

func TestSimulateBFS(t *testing.T) {
	// 0 → 1, 0 → 2, 1 → 3, 2 → 3, 3 → 4; 5 unreachable. Seeds 0 and 0.
	g := mustGraph(t, 6, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 3}, [2]int{2, 3}, [2]int{3, 4})
	score := []float64{0.1, 0.2, 0.4, 0.05, 0.15, 0.1}
	got, err := SimulateBFS(g, []int{0, 0}, score, -1)
	if err != nil {
		t.Fatal(err)
	}
	want := []CrawlDepth{
		{Depth: 0, Visited: 1, MeanScore: 0.1, Total: 1},
		{Depth: 1, Visited: 2, MeanScore: 0.3, Total: 3},
		{Depth: 2, Visited: 1, MeanScore: 0.05, Total: 4},
		{Depth: 3, Visited: 1, MeanScore: 0.15, Total: 5},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Depth != want[i].Depth || got[i].Visited != want[i].Visited || got[i].Total != want[i].Total ||
			math.Abs(got[i].MeanScore-want[i].MeanScore) > 1e-12 {
			t.Errorf("depth %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	short, _ := SimulateBFS(g, []int{0}, score, 1)
	if len(short) != 2 || short[1].Total != 3 {
		t.Errorf("max depth 1: %+v", short)
	}
	if _, err := SimulateBFS(g, []int{6}, score, -1); err == nil {
		t.Error("a seed outside the graph was accepted")
	}
	if _, err := SimulateBFS(g, []int{0}, score[:3], -1); err == nil {
		t.Error("a short score vector was accepted")
	}
}

// TestSeedEvaluationPolblogs runs the whole evaluation on the real graph:
// every seed crawl visits the pages reachable from it, once.
func TestSeedEvaluationPolblogs(t *testing.T) {
	g, _ := loadPolblogs(t)
	cores, err := ExtractSeeds(g, 10, DefaultCoreOptions())
	if err != nil {
		t.Fatal(err)
	}
	d, err := CoreDistances(g, cores)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d {
		if d[i][i] != 0 {
			t.Errorf("d[%d][%d] = %d", i, i, d[i][i])
		}
	}
	pr, err := PageRank(g, DefaultPageRankOptions())
	if err != nil {
		t.Fatal(err)
	}
	seeds := make([]int, len(cores))
	for i, c := range cores {
		seeds[i] = c.Seed
	}
	for _, s := range [][]int{seeds, RandomSeeds(g, len(seeds), 1)} {
		crawl, err := SimulateBFS(g, s, pr.Rank, -1)
		if err != nil {
			t.Fatal(err)
		}
		last := crawl[len(crawl)-1].Total
		if last > g.N || crawl[0].Visited != len(s) {
			t.Errorf("crawl from %v: %+v", s, crawl)
		}
	}
	est := AverageDistance(g, 100, 1)
	if est.Mean < 1 || est.Mean > 10 {
		t.Errorf("polblogs average distance %v, want a small-world value", est.Mean)
	}
	t.Logf("average distance %.3f over %d pairs; core distances %v", est.Mean, est.Pairs, d)
}

func TestTopNodesAndMarkedReached(t *testing.T) {
	// The graph of TestSimulateBFS; 2 and 4 are the top third by score, 1
	// and 5 tie below them and the tie goes to the lower id.
	g := mustGraph(t, 6, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 3}, [2]int{2, 3}, [2]int{3, 4})
	score := []float64{0.1, 0.15, 0.4, 0.05, 0.2, 0.15}
	if got, want := TopNodes(score, 1.0/3), []bool{false, false, true, false, true, false}; !reflect.DeepEqual(got, want) {
		t.Errorf("top third %v, want %v", got, want)
	}
	if got, want := TopNodes(score, 0.5), []bool{false, true, true, false, true, false}; !reflect.DeepEqual(got, want) {
		t.Errorf("top half %v, want %v (the tie at 0.15 to the lower id)", got, want)
	}
	if got := TopNodes(score, 0.01); !reflect.DeepEqual(got, []bool{false, false, true, false, false, false}) {
		t.Errorf("top 1%% of 6 nodes %v, want the best node only", got)
	}
	top := TopNodes(score, 1.0/3)
	got, err := MarkedReached(g, []int{0}, top, -1)
	if err != nil || !reflect.DeepEqual(got, []int{0, 1, 1, 2}) {
		t.Errorf("reached %v, %v; want 0, 1, 1, 2 by depth", got, err)
	}
	if got, _ := MarkedReached(g, []int{3}, top, 0); !reflect.DeepEqual(got, []int{0}) {
		t.Errorf("max depth 0 from 3: %v", got)
	}
	crawl, _ := SimulateBFS(g, []int{1, 5}, score, -1)
	reached, _ := MarkedReached(g, []int{1, 5}, top, -1)
	if len(crawl) != len(reached) || !reflect.DeepEqual(reached, []int{0, 0, 1}) {
		t.Errorf("from 1 and 5: %d depths crawled, reached %v", len(crawl), reached)
	}
	if _, err := MarkedReached(g, []int{0}, top[:2], -1); err == nil {
		t.Error("a short mark vector was accepted")
	}
}
