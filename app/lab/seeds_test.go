package lab

import (
	"math"
	"reflect"
	"testing"

	"sitesift/importance"
)

func TestBand(t *testing.T) {
	// 1..20 against 15.5: mean 10.5, sd √35, CI 10.5 ± 1.96·√35/√20.
	var xs []float64
	for v := 20; v >= 1; v-- {
		xs = append(xs, float64(v))
	}
	xs = append(xs, math.NaN()) // a draw with no value there
	b := band(xs, 15.5)
	half := 1.96 * math.Sqrt(35) / math.Sqrt(20)
	if b.Draws != 20 || b.Mean != 10.5 || math.Abs(b.Lo95-(10.5-half)) > 1e-12 || math.Abs(b.Hi95-(10.5+half)) > 1e-12 {
		t.Errorf("band %+v", b)
	}
	// Percentiles by linear interpolation: position 0.05·19 = 0.95.
	if math.Abs(b.P5-1.95) > 1e-12 || math.Abs(b.P95-19.05) > 1e-12 {
		t.Errorf("percentiles %v, %v; want 1.95, 19.05", b.P5, b.P95)
	}
	if b.Below != 15 || b.Above != 5 {
		t.Errorf("below %d above %d, want 15 and 5", b.Below, b.Above)
	}
	if one := band([]float64{3}, 3); one.Draws != 1 || one.Lo95 != 3 || one.Hi95 != 3 || one.P5 != 3 || one.Below+one.Above != 0 {
		t.Errorf("one draw %+v", one)
	}
	if none := band([]float64{math.NaN()}, 1); none.Draws != 0 || !math.IsNaN(none.Mean) {
		t.Errorf("no draw %+v", none)
	}
}

func TestCoreShapes(t *testing.T) {
	c := func(h, a int) importance.Core {
		return importance.Core{Hubs: make([]int, h), Authorities: make([]int, a)}
	}
	got := CoreShapes([]importance.Core{c(3, 4), c(2, 2), c(3, 4), c(2, 3), c(10, 10)})
	want := []CoreShape{{2, 2, 1}, {2, 3, 1}, {3, 4, 2}, {10, 10, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("shapes %v, want %v", got, want)
	}
	if s := shapeSummary(want); s != "2×2: 1, 2×3: 1, 3×4: 2, 10×10: 1" {
		t.Errorf("summary %q", s)
	}
}

func TestEvaluateSeedsDraws(t *testing.T) {
	// Two 2×2 cores and a tail: 0,1 → 2,3; 4,5 → 6,7; 3 → 8 → 9.
	var edges []importance.WeightedEdge
	for _, c := range [][2][]int{{{0, 1}, {2, 3}}, {{4, 5}, {6, 7}}} {
		for _, h := range c[0] {
			for _, a := range c[1] {
				edges = append(edges, importance.WeightedEdge{From: h, To: a, Weight: 1})
			}
		}
	}
	edges = append(edges, importance.WeightedEdge{From: 3, To: 8, Weight: 1}, importance.WeightedEdge{From: 8, To: 9, Weight: 1})
	g, err := importance.NewGraph(10, edges)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ draws, want int }{{0, DefaultRandomDraws}, {7, 7}} {
		ev, err := EvaluateSeeds(SeedGraphs{Extract: g, Eval: g}, SeedEvalOptions{Count: 2, Cores: importance.DefaultCoreOptions(),
			RandomSeed: 3, MaxDepth: -1, RandomDraws: tc.draws})
		if err != nil {
			t.Fatal(err)
		}
		if len(ev.Cores) != 2 || len(ev.Draws) != tc.want || !reflect.DeepEqual(ev.RandomSeeds, ev.Draws[0].Seeds) {
			t.Fatalf("draws %d: %d cores, %d draws", tc.draws, len(ev.Cores), len(ev.Draws))
		}
		// Draw i uses random seed RandomSeed+i.
		if !reflect.DeepEqual(ev.Draws[1].Seeds, importance.RandomSeeds(g, 2, 4)) {
			t.Errorf("draw 1 seeds %v, want those of random seed 4", ev.Draws[1].Seeds)
		}
		if ev.TopCount != 1 || len(ev.SeedTop) != len(ev.SeedCrawl) {
			t.Errorf("top count %d, seed top %v for %d depths", ev.TopCount, ev.SeedTop, len(ev.SeedCrawl))
		}
		for _, b := range ev.Bands() {
			if b.Measure == MeasureVisited && b.Depth == 0 && (b.Seeds != 2 || b.Random.Mean != 2 || b.Random.Draws != tc.want) {
				t.Errorf("depth 0 visited %+v", b)
			}
		}
	}
}
