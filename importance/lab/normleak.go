package lab

import (
	"errors"
	"fmt"

	"sitesift/importance"
)

// The ten-page web of Kim and Lee (section 4.2). Their Fig. 7 is not in
// the text, so this graph is rebuilt from what the text states about it:
//
//   - case 1: no dangling page and no RankSink (the graph is strongly
//     connected); pages 5 and 6 have the highest PageRank and page 1 the
//     lowest; page 6 is linked only by page 5, whose one out-link it is;
//   - case 2: removing the link 10→9 makes page 10 dangling, so 10→9 is
//     page 10's only out-link;
//   - case 3: removing the out-links of pages 5, 8 and 10 makes them
//     dangling;
//   - case 4: removing the links 2→4, 3→7 and 7→2 leaves pages 1, 2, 3 (group
//     1) with out-links among themselves only, every page with an
//     out-link, and 9→3 as the only link from the other pages (group 2)
//     into group 1.
//
// The arcs below satisfy all of it (pages numbered 1..10 as in the paper;
// node i−1 in the graph). With d = 0.15, case 1's PageRank is highest on
// pages 5 (0.174) and 6 (0.163) and lowest on page 1 (0.047).
var kimLeeArcs = [][2]int{
	{1, 2},
	{2, 3}, {2, 4},
	{3, 1}, {3, 7},
	{4, 5}, {4, 7},
	{5, 6},
	{6, 4}, {6, 5},
	{7, 2}, {7, 5}, {7, 8},
	{8, 4}, {8, 9}, {8, 10},
	{9, 3}, {9, 8}, {9, 10},
	{10, 9},
}

// KimLeeWeb returns the ten-page web of Kim and Lee's case c (1 to 4; see
// kimLeeArcs for how it was rebuilt): case 1 with no dangling page, case 2
// with page 10 dangling, case 3 with pages 5, 8 and 10 dangling, case 4
// with a RankSink (group 1 = pages 1–3) and no dangling page.
func KimLeeWeb(c int) (*importance.Graph, error) {
	var drop func(from, to int) bool
	switch c {
	case 1:
		drop = func(int, int) bool { return false }
	case 2:
		drop = func(from, _ int) bool { return from == 10 }
	case 3:
		drop = func(from, _ int) bool { return from == 5 || from == 8 || from == 10 }
	case 4:
		drop = func(from, to int) bool {
			return from == 2 && to == 4 || from == 3 && to == 7 || from == 7 && to == 2
		}
	default:
		return nil, fmt.Errorf("lab: Kim–Lee case %d, want 1 to 4", c)
	}
	var edges []importance.WeightedEdge
	for _, a := range kimLeeArcs {
		if !drop(a[0], a[1]) {
			edges = append(edges, importance.WeightedEdge{From: a[0] - 1, To: a[1] - 1, Weight: 1})
		}
	}
	return importance.NewGraph(10, edges)
}

// The two matrices of the norm-leak experiment.
const (
	MatrixLeaky = "M'" // the original M′ = (1−d)M + d[1/N]: dangling columns leak
	MatrixFixed = "M*" // Kim–Lee's M* = (1−d)M⁺ + d[1/N]
)

// NormPoint is the L1 norm of the rank vector after Iteration iterations
// (0: the starting vector [1/N]) of one matrix on one case of the ten-page
// web.
type NormPoint struct {
	Case      int    // 1, 2 or 3
	Dangling  int    // dangling pages in the case: 0, 1 or 3
	Matrix    string // MatrixLeaky or MatrixFixed
	Iteration int
	Norm      float64
}

// NormLeak runs Kim and Lee's experiment on their ten-page web (section
// 4.2): power iteration of M′ and of M* with dampening factor d (the
// teleport probability, in (0, 1]), maxIter iterations (the paper: 20), on
// cases 1, 2 and 3 (0, 1 and 3 dangling pages), recording the norm of the
// rank vector at every iteration. M* keeps it at 1; M′ loses (1−d) times
// the dangling pages' rank at every iteration.
//
// The points come case by case, M′ then M*, iteration 0 to maxIter.
func NormLeak(maxIter int, d float64) ([]NormPoint, error) {
	if maxIter < 1 {
		return nil, fmt.Errorf("lab: norm leak: %d iterations, want 1 or more", maxIter)
	}
	if !(d > 0 && d <= 1) {
		return nil, fmt.Errorf("lab: norm leak: dampening factor %v not in (0, 1]", d)
	}
	var pts []NormPoint
	for c, dangling := range []int{0, 1, 3} {
		g, err := KimLeeWeb(c + 1)
		if err != nil {
			return nil, err
		}
		for _, m := range []string{MatrixLeaky, MatrixFixed} {
			opt := importance.PageRankOptions{Teleport: d, MaxIter: maxIter, Leaky: m == MatrixLeaky,
				// Run every iteration: only an exact fixpoint (no change at
				// all) stops before maxIter.
				Tolerance: 5e-324}
			res, err := importance.PageRank(g, opt)
			if err != nil && !errors.Is(err, importance.ErrNotConverged) {
				return nil, fmt.Errorf("lab: norm leak: case %d, %s: %w", c+1, m, err)
			}
			pts = append(pts, NormPoint{Case: c + 1, Dangling: dangling, Matrix: m, Iteration: 0, Norm: 1})
			norm := 1.0
			for it := 1; it <= maxIter; it++ {
				// An exact fixpoint repeats itself: its norm too.
				if it <= len(res.Norms) {
					norm = res.Norms[it-1]
				}
				pts = append(pts, NormPoint{Case: c + 1, Dangling: dangling, Matrix: m, Iteration: it, Norm: norm})
			}
		}
	}
	return pts, nil
}
