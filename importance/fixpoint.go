package importance

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// FixpointOptions sets up [Fixpoint]. The zero value is not valid; start
// from [DefaultFixpointOptions].
type FixpointOptions struct {
	Teleport  float64 // share of a node's cash that goes to the virtual page at each read; default 0.15
	Tolerance float64 // stop when the L1 distance between the importance of two rounds is below it; default 1e-12
	MaxRounds int     // give up after this many rounds; default 1000
}

// DefaultFixpointOptions returns teleport 0.15, tolerance 1e-12, at most 1000 rounds.
func DefaultFixpointOptions() FixpointOptions {
	return FixpointOptions{Teleport: DefaultTeleport, Tolerance: 1e-12, MaxRounds: 1000}
}

// FixpointResult is the outcome of [Fixpoint].
type FixpointResult struct {
	// Importance is each node's share of the cash read in the last round;
	// it sums to 1.
	Importance []float64
	// Rounds is the number of rounds read: each reads every node once.
	Rounds int
	// Residual is the L1 distance between the importance of the last two
	// rounds.
	Residual float64
}

// ErrFixpointNotReached is returned, with the last round's importance, when
// MaxRounds rounds did not bring the residual below the tolerance.
var ErrFixpointNotReached = errors.New("importance: OPIC did not reach its fixpoint")

// Fixpoint carries OPIC on to its fixpoint over the whole graph g: the
// offline use of the online computation, against which the paper measures
// the error of every crawl strategy. From cash 1/N on every node, OPIC reads
// the nodes in the Cycle strategy's order (0, 1, …, N−1, then again), each
// read exactly as a crawl's ([OPIC.Read]: the virtual page, the teleport
// share, a node without out-arcs giving all its cash to the virtual page).
// A round reads every node once. At the fixpoint every round reads the same
// cash from each node, and a node's share of a round's cash is its
// importance: the cash it receives between two of its reads equals the cash
// it is read for. Its importance is that limit, whatever order a crawl read
// the pages in and wherever it stopped: the history of a crawl converges to
// it, and two crawls of one graph, or a crawl and an import of its graph,
// get the same values (to the tolerance).
//
// The rounds converge geometrically (a node reads cash its in-neighbours
// passed it earlier in the same round, as in a Gauss–Seidel sweep), by a
// factor of about 1 − teleport a round at worst. The fixpoint is the
// stationary vector of the matrix M* of [PageRank]: the two computations
// agree to their tolerances, which is how the one checks the other.
func Fixpoint(g *Graph, opt FixpointOptions) (FixpointResult, error) {
	if !(opt.Tolerance > 0) || opt.MaxRounds <= 0 {
		return FixpointResult{}, fmt.Errorf("importance: fixpoint tolerance %v and max rounds %d must be positive", opt.Tolerance, opt.MaxRounds)
	}
	o, err := LoadGraph(g, opt.Teleport)
	if err != nil {
		return FixpointResult{}, err
	}
	n := g.N
	if n == 0 {
		return FixpointResult{Importance: []float64{}}, nil
	}
	last, read := make([]float64, n), make([]float64, n)
	res := FixpointResult{Residual: math.Inf(1)}
	for res.Rounds < opt.MaxRounds {
		var total float64
		for i := range n {
			read[i] = o.Read(i)
			total += read[i]
		}
		res.Rounds++
		if !(total > 0) {
			return FixpointResult{}, fmt.Errorf("importance: fixpoint: round %d read no cash", res.Rounds)
		}
		var diff float64
		for i := range read {
			read[i] /= total
			diff += math.Abs(read[i] - last[i])
		}
		last, read = read, last
		if res.Rounds > 1 {
			res.Residual = diff
			if diff < opt.Tolerance {
				break
			}
		}
	}
	res.Importance = last
	if !(res.Residual < opt.Tolerance) {
		return res, fmt.Errorf("%w: residual %.3g after %d rounds", ErrFixpointNotReached, res.Residual, res.Rounds)
	}
	return res, nil
}

// SnapTies makes the values that are one tie equal: sorted from the highest,
// a tie is a value and those below it by at most TieTolerance × the highest
// value of all, measured from the tie's first value (so a tie never chains
// across a wider spread), and each of its values becomes their mean, which
// keeps the sum. Sites of the same link structure get values that differ
// by the rounding and the convergence of the computation, in an order that
// depends on how the sites were numbered; made equal, they rank and sort
// the same whatever that order. NaN values are left as they are.
func SnapTies(values []float64) {
	idx := make([]int, 0, len(values))
	var scale float64
	for i, v := range values {
		if !math.IsNaN(v) {
			idx = append(idx, i)
			scale = max(scale, math.Abs(v))
		}
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(values[b], values[a]) })
	tol := TieTolerance * scale
	for i := 0; i < len(idx); {
		j, sum := i, 0.0
		for j < len(idx) && values[idx[i]]-values[idx[j]] <= tol {
			sum += values[idx[j]]
			j++
		}
		if j-i > 1 {
			mean := sum / float64(j-i)
			for _, k := range idx[i:j] {
				values[k] = mean
			}
		}
		i = j
	}
}
