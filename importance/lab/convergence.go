package lab

import (
	"context"
	"errors"
	"fmt"
	"math"

	"sitesift/importance"
)

// Progress is told, from the experiment's own goroutine, how much of the
// work is done: done out of total units (reads, or iterations). It may be
// nil. It is called at every measure and often enough in between to drive
// a progress bar, so it must be cheap.
type Progress func(done, total int)

// progressEvery is how many reads pass between two progress reports (and
// two checks of the context) between measures: small enough to cancel at
// once, large enough to cost nothing.
const progressEvery = 1 << 14

// ReferenceTolerance is the L1 tolerance to which the experiments compute
// their PageRank reference. At N = 100 000 a node's rank is about 1e-5, so
// its relative error is far below the errors measured.
const ReferenceTolerance = 1e-10

// ConvergencePoint is one measure of the convergence experiment: how far
// OPIC's estimate is from the PageRank fixpoint after Step reads.
type ConvergencePoint struct {
	Strategy importance.Strategy
	Step     int // reads done
	// MeanRelErrPct is the mean relative error over all nodes, in percent
	// (the paper's error measure).
	MeanRelErrPct float64
	// Top1PctRelErrPct and Top10PctRelErrPct are the same over the 1% and
	// 10% of nodes with the highest PageRank (at least one node).
	Top1PctRelErrPct  float64
	Top10PctRelErrPct float64
	// Spearman is the rank correlation of the estimate with PageRank.
	Spearman float64

	// G is the total cash read so far, the paper's clock: a strategy that
	// reads richer nodes moves it faster, and the error falls as 1/G.
	G float64
	// ReceivedMeanRelErrPct and ReceivedTop1PctRelErrPct are the errors
	// of the received-cash estimate (H + C − C₀)/G instead of OPIC's
	// (H + C)/(G + 1): see [ReceivedEstimate].
	ReceivedMeanRelErrPct    float64
	ReceivedTop1PctRelErrPct float64
}

// Convergence runs the OPIC paper's experiment on the selection strategies
// (section 4, "Impact of the page selection strategy"): for each strategy,
// OPIC starts from uniform cash on g and reads steps nodes in the order the
// strategy chooses; at step 0 and every every reads (and at the last read)
// its estimate is compared with the PageRank fixpoint of g (Kim–Lee M*,
// the same teleport, tolerance [ReferenceTolerance]).
//
// The points come strategy by strategy, in step order. The Random strategy
// draws from a generator seeded with seed. Progress counts reads, over all
// strategies. A cancelled ctx stops the run with ctx's error.
func Convergence(ctx context.Context, g *importance.Graph, strategies []importance.Strategy, steps, every int, teleport float64, seed uint64, progress Progress) ([]ConvergencePoint, error) {
	if g == nil || g.N == 0 {
		return nil, errors.New("lab: convergence: empty graph")
	}
	if err := checkSteps("convergence", steps, every); err != nil {
		return nil, err
	}
	if len(strategies) == 0 {
		return nil, errors.New("lab: convergence: no strategy")
	}
	seen := map[importance.Strategy]bool{}
	for _, s := range strategies {
		if _, err := importance.ParseStrategy(string(s)); err != nil {
			return nil, fmt.Errorf("lab: convergence: %w", err)
		}
		if seen[s] {
			return nil, fmt.Errorf("lab: convergence: strategy %q given twice", s)
		}
		seen[s] = true
	}
	ref, err := reference(g, teleport)
	if err != nil {
		return nil, fmt.Errorf("lab: convergence: %w", err)
	}
	total := steps * len(strategies)
	report(progress, 0, total)
	var pts []ConvergencePoint
	for k, st := range strategies {
		o, err := importance.LoadGraph(g, teleport)
		if err != nil {
			return nil, fmt.Errorf("lab: convergence: %w", err)
		}
		sel, err := importance.NewSelector(o, st, seed)
		if err != nil {
			return nil, fmt.Errorf("lab: convergence: %w", err)
		}
		c0 := 1 / float64(g.N) // LoadGraph's uniform start
		measure := func(step int) error {
			est := o.Estimate()
			rec := ReceivedEstimate(o, c0)
			pts = append(pts, ConvergencePoint{
				Strategy:          st,
				Step:              step,
				MeanRelErrPct:     importance.MeanRelativeError(est, ref),
				Top1PctRelErrPct:  importance.TopRelativeError(est, ref, 0.01),
				Top10PctRelErrPct: importance.TopRelativeError(est, ref, 0.10),
				Spearman:          importance.Spearman(est, ref),
				G:                 o.G(),

				ReceivedMeanRelErrPct:    importance.MeanRelativeError(rec, ref),
				ReceivedTop1PctRelErrPct: importance.TopRelativeError(rec, ref, 0.01),
			})
			report(progress, k*steps+step, total)
			return nil
		}
		measure(0)
		err = run(ctx, steps, every, func(int) error { sel.Step(); return nil },
			measure, func(step int) { report(progress, k*steps+step, total) })
		if err != nil {
			return nil, err
		}
	}
	return pts, nil
}

// ReceivedEstimate returns the importance of every node of o counting only
// the cash it received from reads: H + C − C₀ (C₀ = c0, the cash every node
// started with), normalised to sum 1; all 0 before the first read.
//
// OPIC's estimate (H + C)/(G + 1) keeps the starting cash, a uniform prior
// of 1/N that fades only as 1/G: on a node whose importance is a fraction
// of 1/N — most nodes of a power-law graph — it is the larger part of the
// error for the first tens of N reads. With the virtual page handing its
// cash out after every read, the cash node i received is exactly
// Σⱼ M*ᵢⱼ H[j], so this estimate is the history estimate H/G after one
// power iteration of M*: the prior is gone and the noise of the unread
// cash is smoothed away. The experiment reports both.
func ReceivedEstimate(o *importance.OPIC, c0 float64) []float64 {
	est := make([]float64, o.Len())
	var sum float64
	for i := range est {
		est[i] = max(0, o.History(i)+o.Cash(i)-c0)
		sum += est[i]
	}
	if sum > 0 {
		for i := range est {
			est[i] /= sum
		}
	}
	return est
}

// run calls step for steps 1..steps, measure after every every-th step
// and after the last, and tick (and a check of ctx) every progressEvery
// steps in between. It stops at the first error.
func run(ctx context.Context, steps, every int, step func(s int) error, measure func(s int) error, tick func(s int)) error {
	for s := 1; s <= steps; s++ {
		if err := step(s); err != nil {
			return err
		}
		if s%every == 0 || s == steps {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := measure(s); err != nil {
				return err
			}
		} else if s%progressEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			tick(s)
		}
	}
	return ctx.Err()
}

func checkSteps(exp string, steps, every int) error {
	if steps < 0 {
		return fmt.Errorf("lab: %s: %d steps, want 0 or more", exp, steps)
	}
	if every < 1 {
		return fmt.Errorf("lab: %s: measure every %d steps, want 1 or more", exp, every)
	}
	return nil
}

func report(p Progress, done, total int) {
	if p != nil {
		p(done, total)
	}
}

// reference returns the PageRank fixpoint of g with the given teleport.
func reference(g *importance.Graph, teleport float64) ([]float64, error) {
	if !(teleport > 0 && teleport < 1) {
		return nil, fmt.Errorf("teleport %v not in (0, 1)", teleport)
	}
	opt := importance.DefaultPageRankOptions()
	opt.Teleport = teleport
	opt.Tolerance = ReferenceTolerance
	// The convergence rate is 1 − teleport per iteration: allow what the
	// tolerance needs at small teleports, with room to spare.
	opt.MaxIter = max(opt.MaxIter, int(3*math.Log(ReferenceTolerance)/math.Log(1-teleport)))
	res, err := importance.PageRank(g, opt)
	if err != nil {
		return nil, fmt.Errorf("reference pagerank: %w", err)
	}
	return res.Rank, nil
}
