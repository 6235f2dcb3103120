package importance

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"
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

// HubZero is the HITS score (of a vector summing to 1) at or below which a
// node is not on the main eigenvector: power iteration leaves a node off it
// a remnant that shrinks by the ratio of the eigenvalues at every
// iteration (4.8e-66 after 60 for a 2×2 core beside a 49-link star), a
// figure that says only that the node is off it, not how good a hub it is.
const HubZero = 1e-20

// OnMainEigenvector reports whether a HITS hub or authority score is above
// HubZero.
func OnMainEigenvector(score float64) bool { return math.Abs(score) > HubZero }

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
// Each iteration costs O(N + arcs), plus one reversal of g's arcs per call;
// each step of an iteration is shared among up to GOMAXPROCS goroutines,
// which changes neither the result nor the work, only the time it takes.
func HITS(g *Graph, opt HITSOptions) (HITSResult, error) {
	if err := checkHITS(opt); err != nil {
		return HITSResult{}, err
	}
	var in Graph
	reverseInto(&in, g, opt.Weighted)
	return hits(g, &in, opt, &hitsVectors{}, hitsWorkers(g.Arcs()))
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
// ErrHITSNotConverged is the one error it returns, in res. workers
// goroutines share each step's rows (see hitsWorkers).
//
// Both steps gather: a(v) along v's in-arcs (in's row v), h(u) along u's
// out-arcs. In-arcs are in order of source, so a(v) adds the h(u) in
// increasing u, the order in which scattering h along the out-arcs would
// add them: the vectors are the same to the last bit, and each entry is
// written by one worker, once. The sums that normalise them are taken in
// node order, as normalize1 takes them, whatever the workers. A vector is
// kept as summed, with the factor that normalises it: each h(u) is
// multiplied by it where it is read, which gives the same number as
// multiplying it beforehand without a pass over the vector for it. The
// residual is computed only where it is read (each iteration with a
// Tolerance, the last one without).
func hits(g, in *Graph, opt HITSOptions, buf *hitsVectors, workers int) (res HITSResult, err error) {
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
	// h·hScale and a·aScale are the normalised vectors; a factor of 1 (a
	// vector normalised already, or all zero) changes nothing.
	hScale, aScale := 1.0, 1.0
	inRows, outRows := splitRows(in, workers), splitRows(g, workers)
	for it := 1; it <= opt.MaxIter; it++ {
		// Authority: what the hubs pointing at v vouch for it.
		sumA := inRows.gather(in, opt.Weighted, h, hScale, nextA)
		// Hub: the authority of what u points at, gathered along its row
		// from a before it is normalised, as the iteration was written.
		sumH := outRows.gather(g, opt.Weighted, nextA, 1, nextH)
		// With at least one arc and positive weights both sums are
		// positive: h starts positive everywhere, a is then positive on
		// every node with an in-arc, and h on every node with an out-arc.
		nextHScale, nextAScale := normalizer(sumH), normalizer(sumA)
		if opt.Tolerance > 0 || it == opt.MaxIter {
			var diff float64
			for i := range n {
				diff += math.Abs(nextH[i]*nextHScale-h[i]*hScale) + math.Abs(nextA[i]*nextAScale-a[i]*aScale)
			}
			res.Residual = diff
		}
		h, nextH, hScale = nextH, h, nextHScale
		a, nextA, aScale = nextA, a, nextAScale
		res.Iterations = it
		if opt.Tolerance > 0 && res.Residual < opt.Tolerance {
			break
		}
	}
	for i := range n {
		h[i] *= hScale
		a[i] *= aScale
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

// normalizer is the factor that scales a vector of sum s to sum 1, as
// normalize1 computes it: 1/s, or 1 for s = 0, a zero vector being left
// alone.
func normalizer(s float64) float64 {
	if s > 0 {
		return 1 / s
	}
	return 1
}

// gather sets out[v] to the sum of x·scale along row v of c, for v in
// [lo, hi): Σ x[t]·scale over the row's targets t in their order, each
// times the arc's weight if weighted. It returns the sum of those out[v],
// taken in order of v.
func gather(c *Graph, weighted bool, x []float64, scale float64, out []float64, lo, hi int) (total float64) {
	for v := lo; v < hi; v++ {
		b, e := c.Offsets[v], c.Offsets[v+1]
		var s float64
		if weighted {
			w := c.Weights[b:e]
			for k, t := range c.Targets[b:e] {
				s += w[k] * (x[t] * scale)
			}
		} else {
			for _, t := range c.Targets[b:e] {
				s += x[t] * scale
			}
		}
		out[v] = s
		total += s
	}
	return total
}

// minArcsPerWorker is the least share of a graph's arcs worth a goroutine
// of its own in a step of HITS: below it, starting and joining the
// goroutine costs more than the share.
const minArcsPerWorker = 1 << 14

// hitsWorkers is the number of goroutines a HITS step on arcs arcs uses:
// one per processor Go may use, fewer for a graph too small to share.
func hitsWorkers(arcs int) int {
	return max(1, min(runtime.GOMAXPROCS(0), arcs/minArcsPerWorker))
}

// rowRanges are consecutive ranges of rows, r[i] up to r[i+1] for ranges r.
type rowRanges []int

// splitRows cuts the rows of c into up to workers ranges of about the same
// number of arcs.
func splitRows(c *Graph, workers int) rowRanges {
	bounds := rowRanges{0}
	arcs := c.Arcs()
	for i := 1; i < workers; i++ {
		// The first row whose arcs begin at or after i/workers of them.
		v := sort.SearchInts(c.Offsets[:c.N+1], arcs*i/workers)
		if v > bounds[len(bounds)-1] && v < c.N {
			bounds = append(bounds, v)
		}
	}
	return append(bounds, c.N)
}

// gather is [gather] over all rows of c, the ranges r shared among
// goroutines, the first range in this one. The sum of out is taken in
// node order: by gather itself for a single range, in a pass of its own
// after the goroutines for several, whose partial sums would add up in
// another order.
func (r rowRanges) gather(c *Graph, weighted bool, x []float64, scale float64, out []float64) float64 {
	if len(r) == 2 {
		return gather(c, weighted, x, scale, out, r[0], r[1])
	}
	var wg sync.WaitGroup
	for i := 1; i+1 < len(r); i++ {
		wg.Go(func() { gather(c, weighted, x, scale, out, r[i], r[i+1]) })
	}
	gather(c, weighted, x, scale, out, r[0], r[1])
	wg.Wait()
	var s float64
	for _, v := range out {
		s += v
	}
	return s
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
