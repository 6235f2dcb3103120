package lab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"sitesift/importance"
)

// Policy is a window policy of Adaptive OPIC under a name, as the
// experiment reports it. Each Window must be fresh and used once.
type Policy struct {
	Name   string
	Window importance.Window
}

// PaperPolicies returns the policies the OPIC paper compares (section 4,
// "Impact of the window policy"), plus plain OPIC as the baseline, on a
// clock of one unit per read:
//
//	fixed          Fixed Window of T reads
//	improved       Improved Fixed Window of T reads, at least m measures (the paper: 3)
//	variable       Variable Window of the last k measures
//	interpolation  Interpolation over T reads
//	full-history   no window: OPIC's whole history
//
// With Greedy reading N nodes in N reads, a Fixed Window of T reads keeps
// T/N measures per node on average: the paper's policies kept 4 to 8.
func PaperPolicies(T float64, k, m int) ([]Policy, error) {
	fixed, err := importance.NewFixedWindow(T)
	if err != nil {
		return nil, err
	}
	improved, err := importance.NewImprovedFixedWindow(T, m)
	if err != nil {
		return nil, err
	}
	variable, err := importance.NewVariableWindow(k)
	if err != nil {
		return nil, err
	}
	interp, err := importance.NewInterpolation(T)
	if err != nil {
		return nil, err
	}
	return []Policy{
		{"fixed", fixed},
		{"improved", improved},
		{"variable", variable},
		{"interpolation", interp},
		{"full-history", importance.NewFullHistory()},
	}, nil
}

// WindowPoint is one measure of the window experiment: how far a policy's
// estimate is from the PageRank of the graph as it is after Step reads.
type WindowPoint struct {
	Policy string
	Step   int // reads done, the experiment's clock
	// The errors, in percent, against the PageRank of the current graph
	// (same measures as [ConvergencePoint]).
	MeanRelErrPct     float64
	Top1PctRelErrPct  float64
	Top10PctRelErrPct float64
	// MeasuresPerNode is the average number of measures the policy keeps
	// per live node: its memory.
	MeasuresPerNode float64
	// Replaced and Rewired count the nodes replaced and arcs rewired since
	// the start (the same for every policy).
	Replaced, Rewired int
}

// Windows runs the Adaptive OPIC experiment: a synthetic graph of n nodes
// and about n·avgOut arcs ([importance.Synthetic] with seed) changes at
// changeRate (see the changing graph model in changing.go: every n reads,
// changeRate·n nodes are replaced and changeRate·A arcs rewired), while
// Adaptive OPIC reads it with the Greedy strategy, one read per unit of
// time, and feeds every read to each policy. At step 0, every every reads
// and at the last read, each policy's estimate is compared with the
// PageRank (Kim–Lee M*, the same teleport, tolerance [ReferenceTolerance])
// of the graph as it is at that moment.
//
// All policies see the same reads: Greedy depends on the cash only, and
// the windows do not touch the cash, so one OPIC feeds them all. The
// points come measure by measure, in the order of policies. Progress
// counts reads. A cancelled ctx stops the run with ctx's error.
func Windows(ctx context.Context, n int, avgOut, changeRate float64, steps, every int, policies []Policy, teleport float64, seed uint64, progress Progress) ([]WindowPoint, error) {
	if n < 2 || n > math.MaxInt32/2 {
		return nil, fmt.Errorf("lab: windows: %d nodes, want 2 to %d", n, math.MaxInt32/2)
	}
	if !(avgOut > 0) || math.IsInf(avgOut, 0) {
		return nil, fmt.Errorf("lab: windows: average out-degree %v must be positive", avgOut)
	}
	if !(changeRate >= 0 && changeRate <= 1) {
		return nil, fmt.Errorf("lab: windows: change rate %v not in [0, 1]", changeRate)
	}
	if err := checkSteps("windows", steps, every); err != nil {
		return nil, err
	}
	if !(teleport > 0 && teleport < 1) {
		return nil, fmt.Errorf("lab: windows: teleport %v not in (0, 1)", teleport)
	}
	if len(policies) == 0 {
		return nil, errors.New("lab: windows: no policy")
	}
	names := map[string]bool{}
	fan := make(tee, len(policies))
	for i, p := range policies {
		if p.Window == nil || p.Name == "" {
			return nil, fmt.Errorf("lab: windows: policy %d has no name or no window", i)
		}
		if names[p.Name] {
			return nil, fmt.Errorf("lab: windows: policy %q given twice", p.Name)
		}
		names[p.Name] = true
		fan[i] = p.Window
	}

	g := importance.Synthetic(n, avgOut, seed)
	a, err := importance.LoadAdaptive(g, teleport, fan)
	if err != nil {
		return nil, fmt.Errorf("lab: windows: %w", err)
	}
	cg := newChangingGraph(a, g, avgOut, changeRate, rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d)))

	report(progress, 0, steps)
	var pts []WindowPoint
	var cash []float64
	measure := func(step int) error {
		cur, ids := a.Graph()
		ref, err := reference(cur, teleport)
		if err != nil {
			return fmt.Errorf("lab: windows: at step %d: %w", step, err)
		}
		cash = cash[:0]
		for i := range a.Len() {
			cash = append(cash, a.Cash(i))
		}
		e := make([]float64, len(ids))
		for _, p := range policies {
			est := p.Window.Estimate(a.Now(), a.G(), cash)
			for k, id := range ids {
				e[k] = est[id]
			}
			pts = append(pts, WindowPoint{
				Policy:            p.Name,
				Step:              step,
				MeanRelErrPct:     importance.MeanRelativeError(e, ref),
				Top1PctRelErrPct:  importance.TopRelativeError(e, ref, 0.01),
				Top10PctRelErrPct: importance.TopRelativeError(e, ref, 0.10),
				MeasuresPerNode:   p.Window.MeasuresKept(),
				Replaced:          cg.replaced,
				Rewired:           cg.rewired,
			})
		}
		report(progress, step, steps)
		return nil
	}
	if err := measure(0); err != nil {
		return nil, err
	}
	err = run(ctx, steps, every, func(s int) error {
		if err := cg.change(); err != nil {
			return err
		}
		_, err := a.Step(float64(s))
		return err
	}, measure, func(s int) { report(progress, s, steps) })
	if err != nil {
		return nil, err
	}
	return pts, nil
}

// tee is a Window that hands every change and read on to several windows,
// so that one AdaptiveOPIC feeds them all. Its own Estimate and
// MeasuresKept are those of the first window; the experiment asks each
// window directly.
type tee []importance.Window

func (t tee) Add(i int, g, now float64) {
	for _, w := range t {
		w.Add(i, g, now)
	}
}

func (t tee) Remove(i int) {
	for _, w := range t {
		w.Remove(i)
	}
}

func (t tee) Record(i int, cash, g, now float64) {
	for _, w := range t {
		w.Record(i, cash, g, now)
	}
}

func (t tee) Estimate(now, g float64, cash []float64) []float64 { return t[0].Estimate(now, g, cash) }

func (t tee) MeasuresKept() float64 { return t[0].MeasuresKept() }
