package importance

import (
	"errors"
	"fmt"
	"math"
)

// HITSOptions sets up [HITS]. The zero value is not valid; start from
// [DefaultHITSOptions].
type HITSOptions struct {
	// MaxIter is the number of iterations after which HITS gives up; the
	// seeds paper (HITS-Ranking(G, 60)) runs exactly 60. Default 60.
	MaxIter int
	// Tolerance stops the iteration once the L1 distance between two
	// successive hub vectors plus that between two successive authority
	// vectors (both L1-normalised) is below it. 0 runs exactly MaxIter
	// iterations, as the paper does. Default 0.
	Tolerance float64
	// Weighted makes an arc count with its weight; false (default) counts
	// every arc once, as HITS on a plain link graph does.
	Weighted bool
}

// DefaultHITSOptions returns the seeds paper's setting: exactly 60
// iterations, unweighted.
func DefaultHITSOptions() HITSOptions { return HITSOptions{MaxIter: 60} }

// HITSResult is the outcome of [HITS].
type HITSResult struct {
	Hub       []float64 // h(u), one value per node; sums to 1
	Authority []float64 // a(v), one value per node; sums to 1
	// Iterations is the number of (a, h) updates done.
	Iterations int
	// Residual is the distance (see [HITSOptions.Tolerance]) between the
	// last two iterates.
	Residual float64
}

// ErrHITSNotConverged is returned, with the last iterate, when
// HITSOptions.Tolerance is set and MaxIter is reached before it.
var ErrHITSNotConverged = errors.New("importance: hits did not converge")

// HITS computes Kleinberg's hub and authority scores of every node of g, the
// "HITS-Ranking" step of the seeds paper (section 2.1) run on the whole
// graph: starting from a uniform hub vector h, each iteration sets
//
//	a(v) = Σ_{u→v} h(u),  then  h(u) = Σ_{u→v} a(v)
//
// and normalises both to sum 1. That is power iteration on AᵀA for a and
// on AAᵀ for h (A the adjacency matrix), so h and a tend to the principal
// left and right singular vectors of A: the vectors networkx's hits returns
// (networkx 2.8.8 computes them with ARPACK's svds rather than by
// iteration, which gives the same vectors once both have converged).
//
// Results are always defined and free of NaN:
//   - an empty graph gives empty vectors;
//   - a graph with no arc gives every node hub and authority 1/N (nothing
//     distinguishes one node from another) after 0 iterations;
//   - a node with no in-arc has authority 0, a node with no out-arc hub 0;
//   - disconnected components: the iteration concentrates on the component
//     with the largest singular value and the others tend to 0; components
//     tied for the largest share the scores in proportion to the uniform
//     start (deterministic, unlike an SVD, whose choice inside a repeated
//     singular value is arbitrary).
//
// Each iteration costs O(N + arcs), plus one reversal of g's arcs per call.
func HITS(g *Graph, opt HITSOptions) (HITSResult, error) {
	if err := checkHITS(opt); err != nil {
		return HITSResult{}, err
	}
	var in Graph
	reverseInto(&in, g, opt.Weighted)
	return hits(g, &in, opt, &hitsVectors{})
}

// checkHITS returns what makes opt no setting of HITS.
func checkHITS(opt HITSOptions) error {
	if opt.MaxIter <= 0 {
		return fmt.Errorf("importance: hits max iterations %d must be positive", opt.MaxIter)
	}
	if !(opt.Tolerance >= 0) || math.IsInf(opt.Tolerance, 0) {
		return fmt.Errorf("importance: hits tolerance %v must be finite and not negative", opt.Tolerance)
	}
	return nil
}

// hitsVectors holds the four vectors of a HITS run, so that the rounds of
// ExtractSeeds allocate them once.
type hitsVectors struct{ h, a, nextH, nextA []float64 }

// hits is [HITS] on g, whose reversal (see reverseInto) is in, with opt
// checked; the vectors of the result are buf's, valid until buf's next run.
// ErrHITSNotConverged is the one error it returns, in res.
//
// Both steps gather: a(v) along v's in-arcs (in's row v), h(u) along u's
// out-arcs. In-arcs are in order of source, so a(v) adds the h(u) in
// increasing u, the order in which scattering h along the out-arcs would
// add them: the vectors are the same to the last bit, and gathering writes
// each entry once instead of once an arc. The sums that normalise them are
// taken as the entries are made, in node order, as normalize1 would take
// them; the residual is computed only where it is read (each iteration
// with a Tolerance, the last one without).
func hits(g, in *Graph, opt HITSOptions, buf *hitsVectors) (res HITSResult, err error) {
	n := g.N
	buf.h, buf.a = resize(buf.h, n), resize(buf.a, n)
	res = HITSResult{Hub: buf.h, Authority: buf.a}
	if n == 0 {
		return res, nil
	}
	inv := 1 / float64(n)
	if g.Arcs() == 0 {
		for i := range n {
			res.Hub[i], res.Authority[i] = inv, inv
		}
		return res, nil
	}
	buf.nextH, buf.nextA = resize(buf.nextH, n), resize(buf.nextA, n)
	h, a, nextH, nextA := buf.h, buf.a, buf.nextH, buf.nextA
	for i := range h {
		h[i] = inv
	}
	clear(a)
	for it := 1; it <= opt.MaxIter; it++ {
		// Authority: what the hubs pointing at v vouch for it.
		var sumA float64
		for v := range n {
			lo, hi := in.Offsets[v], in.Offsets[v+1]
			var s float64
			if opt.Weighted {
				w := in.Weights[lo:hi]
				for k, u := range in.Targets[lo:hi] {
					s += w[k] * h[u]
				}
			} else {
				for _, u := range in.Targets[lo:hi] {
					s += h[u]
				}
			}
			nextA[v] = s
			sumA += s
		}
		// Hub: the authority of what u points at, gathered along its row.
		var sumH float64
		for u := range n {
			lo, hi := g.Offsets[u], g.Offsets[u+1]
			var s float64
			if opt.Weighted {
				w := g.Weights[lo:hi]
				for k, v := range g.Targets[lo:hi] {
					s += w[k] * nextA[v]
				}
			} else {
				for _, v := range g.Targets[lo:hi] {
					s += nextA[v]
				}
			}
			nextH[u] = s
			sumH += s
		}
		// With at least one arc and positive weights both sums are
		// positive: h starts positive everywhere, a is then positive on
		// every node with an in-arc, and h on every node with an out-arc.
		// h is gathered from a before a is normalised: both are scaled now.
		scale(nextA, sumA)
		scale(nextH, sumH)
		if opt.Tolerance > 0 || it == opt.MaxIter {
			var diff float64
			for i := range n {
				diff += math.Abs(nextH[i]-h[i]) + math.Abs(nextA[i]-a[i])
			}
			res.Residual = diff
		}
		h, nextH = nextH, h
		a, nextA = nextA, a
		res.Iterations = it
		if opt.Tolerance > 0 && res.Residual < opt.Tolerance {
			break
		}
	}
	// The last iterates may sit in either pair of buf's slices: keep
	// them in buf.h and buf.a.
	buf.h, buf.a, buf.nextH, buf.nextA = h, a, nextH, nextA
	res.Hub, res.Authority = h, a
	if opt.Tolerance > 0 && !(res.Residual < opt.Tolerance) {
		return res, fmt.Errorf("%w after %d iterations (residual %g)", ErrHITSNotConverged, res.Iterations, res.Residual)
	}
	return res, nil
}

// scale divides x by its sum s, taken beforehand; a zero vector (s = 0)
// is left alone. It is normalize1 with the sum given.
func scale(x []float64, s float64) {
	if s > 0 {
		inv := 1 / s
		for i := range x {
			x[i] *= inv
		}
	}
}

// normalize1 scales x to sum 1; a zero vector is left alone.
func normalize1(x []float64) {
	var s float64
	for _, v := range x {
		s += v
	}
	if s > 0 {
		inv := 1 / s
		for i := range x {
			x[i] *= inv
		}
	}
}
