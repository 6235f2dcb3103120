package importance

import (
	"math"
	"testing"
)

// TestOPICSharesApproachPersonalizedPageRank: with teleport shares, the
// virtual page hands its cash out in proportion to them, and OPIC's estimate
// tends to PageRank with the shares (normalised) as personalisation.
func TestOPICSharesApproachPersonalizedPageRank(t *testing.T) {
	g := randomGraph(t, 100, 3, 5)
	shares := make([]float64, g.N)
	for i := range shares {
		shares[i] = 1
		if i%7 == 0 {
			shares[i] = 10 // the "rated 3–4" sites
		}
	}
	opt := DefaultPageRankOptions()
	opt.Personalization = shares
	pr, err := PageRank(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := PageRank(g, DefaultPageRankOptions())
	for _, st := range []Strategy{Random, Cycle} {
		o, _ := LoadGraph(g, DefaultTeleport)
		for i, w := range shares {
			if err := o.SetShare(i, w); err != nil {
				t.Fatal(err)
			}
		}
		sel, err := NewSelector(o, st, 4)
		if err != nil {
			t.Fatal(err)
		}
		for step := range 300 * g.N {
			sel.Step()
			if step%997 == 0 {
				if tc := o.TotalCash(); math.Abs(tc-1) > 1e-12 {
					t.Fatalf("%s step %d: total cash %.17g", st, step, tc)
				}
			}
		}
		est := o.Estimate()
		mre := MeanRelativeError(est, pr.Rank)
		t.Logf("%s: %.3f%% from the personalised PageRank, %.1f%% from the plain one", st, mre, MeanRelativeError(est, plain.Rank))
		if mre >= 1 {
			t.Errorf("%s: mean relative error %.3f%% from the personalised PageRank, want < 1%%", st, mre)
		}
		if MeanRelativeError(est, plain.Rank) < 10 {
			t.Errorf("%s: the biased estimate is as close to the plain PageRank as to the personalised one", st)
		}
	}
}

func TestOPICShareErrors(t *testing.T) {
	o, _ := NewOPIC(0.15)
	o.AddNode()
	o.AddNode()
	o.Seed()
	for _, w := range []float64{0, -1, math.Inf(1), math.NaN()} {
		if err := o.SetShare(0, w); err == nil {
			t.Errorf("share %v accepted", w)
		}
	}
	if err := o.SetShare(1, 3); err != nil {
		t.Fatal(err)
	}
	if _, err := NewSelector(o, Greedy, 1); err == nil {
		t.Error("a greedy selector accepted non-uniform shares")
	}
	// Node 0 is dangling: reading it sends its 1/2 to the virtual page,
	// which gives node 1 three quarters of it.
	o.Read(0)
	if c1 := o.Cash(1); math.Abs(c1-(0.5+0.375)) > 1e-15 {
		t.Errorf("cash of node 1 = %v, want 0.875", c1)
	}
}
