package lab

import (
	"fmt"
	"math"

	"sitesift/importance"
)

// Experiment names, as in `sitesift lab NAME` and POST /api/lab/NAME.
const (
	Convergence = "convergence"
	Windows     = "windows"
	NormLeak    = "normleak"
	Seeds       = "seeds" // command line only
)

// NewParams returns zero parameters of the experiment named name, to be
// filled by a request and started, or false when the app runs no
// experiment of that name (Seeds runs from the command line only).
func NewParams(name string) (any, bool) {
	switch name {
	case Links:
		return &LinksParams{}, true
	case Convergence:
		return &ConvergenceParams{}, true
	case Windows:
		return &WindowsParams{}, true
	case NormLeak:
		return &NormLeakParams{}, true
	}
	return nil, false
}

// Graph sources of the convergence experiment.
const (
	GraphSynthetic = "synthetic" // importance.Synthetic(N, AvgOut, Seed)
	GraphProject   = "project"   // the open project's site graph (API)
	GraphEdges     = "edges"     // an edge list file (command line)
)

// Weightings of a convergence run's graph. They are the names of the
// app's weightings of the site graph (ranking.WeightingLinks and
// ranking.WeightingBinary), which this package cannot import.
const (
	WeightingLinks  = "links"  // an arc weighs its weight
	WeightingBinary = "binary" // each linked pair counts once
)

// Bounds on what a lab run may ask for, so that a typing slip does not
// start an hour of work or fill the disk with points.
const (
	maxNodes  = 10_000_000
	maxArcs   = 50_000_000 // n·avg_out of a synthetic graph: about 1 GB at most
	maxPoints = 10_000     // measures per series
	maxIter   = 100_000
)

// The bounds of a lab job started through the API, tighter than the command
// line's (above): the API answers a UI, maybe on a network, and its graph
// lives in the serving process. A synthetic graph of 8 million arcs took
// about 800 MB; the paper's graph has 800,208.
const (
	maxAPINodes = 1_000_000
	maxAPIArcs  = 4_000_000
	maxAPISteps = 1_000_000_000 // reads per strategy; only time, and cancellable
)

// ConvergenceParams sets up the convergence experiment (RunConvergence).
// Zero values take the defaults given.
type ConvergenceParams struct {
	// Graph is where the graph comes from: "synthetic" (default), "project"
	// (API only) or "edges" (command line only, from Edges).
	Graph string `json:"graph"`
	N     int    `json:"n"` // synthetic: number of nodes
	Edges string `json:"-"` // edges: the edge list file
	// AvgOut is the synthetic graph's mean out-degree; default 8.
	AvgOut float64 `json:"avg_out"`
	// Weighting is links (default: an arc weighs its weight) or binary.
	Weighting  string   `json:"weighting"`
	Strategies []string `json:"strategies"` // default greedy, random, cycle
	Steps      int      `json:"steps"`      // reads per strategy; default 10·N
	Every      int      `json:"every"`      // reads between measures; default Steps/10
	Teleport   float64  `json:"teleport"`   // default 0.15
	Seed       uint64   `json:"seed"`       // synthetic graph and Random; default 1
	// LogX draws the plots' reads on a log scale, where an error falling
	// as 1/reads is a straight line: for long runs.
	LogX bool `json:"log_x"`
}

// WindowsParams sets up the Adaptive OPIC experiment (RunWindows). Zero
// values take the defaults given; N and ChangeRate are required.
type WindowsParams struct {
	N          int      `json:"n"`
	AvgOut     float64  `json:"avg_out"`     // default 8
	ChangeRate *float64 `json:"change_rate"` // share of the graph changed every N reads, in [0, 1]
	Steps      int      `json:"steps"`       // default 10·N
	Every      int      `json:"every"`       // default Steps/20
	// Window is T, the length of the fixed windows and interpolation, in
	// reads; default 4·N (about 4 measures a node).
	Window float64 `json:"window"`
	// Measures is k, the variable window's measures; default 4.
	Measures int `json:"measures"`
	// MinMeasures is the improved fixed window's minimum; default 3 (the
	// paper's).
	MinMeasures int     `json:"min_measures"`
	Teleport    float64 `json:"teleport"` // default 0.15
	Seed        uint64  `json:"seed"`     // default 1
	LogX        bool    `json:"log_x"`    // reads on a log scale in the plots
}

// NormLeakParams sets up the norm-leak experiment (RunNormLeak).
type NormLeakParams struct {
	Iterations int     `json:"iterations"` // default 20 (the paper's)
	Damping    float64 `json:"damping"`    // the dampening factor d; default 0.15
}

// maxLinksTop bounds LinksParams.Top: the top sites are listed side by
// side for a reader, and links-sites.csv has every site anyway.
const maxLinksTop = 1000

// LinksParams sets up the comparison of a project's two site graphs
// (LinksOutput), on the graphs of the open project.
type LinksParams struct {
	// Top is how many of the top sites of each graph are listed side by
	// side; default DefaultLinksTop.
	Top int `json:"top"`
}

// Check fills in the default and checks the parameters.
func (p *LinksParams) Check() error {
	if p.Top == 0 {
		p.Top = DefaultLinksTop
	}
	if p.Top < 1 || p.Top > maxLinksTop {
		return paramErrorf("links: top %d, want 1 to %d", p.Top, maxLinksTop)
	}
	return nil
}

// ParamError is a bad parameter of an experiment: the command line makes it
// a usage error, the API a bad request. Its message starts with the
// experiment's name.
type ParamError struct{ msg string }

func (e ParamError) Error() string { return e.msg }

func paramErrorf(format string, args ...any) error {
	return ParamError{fmt.Sprintf(format, args...)}
}

// Check fills in the defaults that do not depend on the graph and checks
// the parameters; FillSteps does the rest once the graph is known.
func (p *ConvergenceParams) Check() error {
	if p.Graph == "" {
		p.Graph = GraphSynthetic
		if p.Edges != "" {
			p.Graph = GraphEdges
		}
	}
	switch p.Graph {
	case GraphSynthetic:
		if p.N < 2 || p.N > maxNodes {
			return paramErrorf("convergence: a synthetic graph needs n from 2 to %d nodes, not %d", maxNodes, p.N)
		}
	case GraphEdges:
		if p.Edges == "" {
			return paramErrorf("convergence: no edge list given")
		}
	case GraphProject:
	default:
		return paramErrorf("convergence: unknown graph %q (want synthetic or project)", p.Graph)
	}
	if p.Graph != GraphSynthetic && p.N != 0 {
		return paramErrorf("convergence: n goes with the synthetic graph only")
	}
	if p.AvgOut == 0 {
		p.AvgOut = 8
	}
	if !(p.AvgOut > 0 && p.AvgOut <= 1000) {
		return paramErrorf("convergence: average out-degree %v not in (0, 1000]", p.AvgOut)
	}
	if p.Graph == GraphSynthetic && float64(p.N)*p.AvgOut > maxArcs {
		return paramErrorf("convergence: n·avg_out = %.0f arcs; at most %d", float64(p.N)*p.AvgOut, maxArcs)
	}
	if p.Weighting == "" {
		p.Weighting = WeightingLinks
	}
	if p.Weighting != WeightingLinks && p.Weighting != WeightingBinary {
		return paramErrorf("convergence: unknown weighting %q (want links or binary)", p.Weighting)
	}
	if len(p.Strategies) == 0 {
		p.Strategies = []string{string(importance.Greedy), string(importance.Random), string(importance.Cycle)}
	}
	seen := map[string]bool{}
	for _, s := range p.Strategies {
		if _, err := importance.ParseStrategy(s); err != nil {
			return paramErrorf("convergence: unknown strategy %q (want greedy, random or cycle)", s)
		}
		if seen[s] {
			return paramErrorf("convergence: strategy %q given twice", s)
		}
		seen[s] = true
	}
	if err := fillTeleportSeed("convergence", &p.Teleport, &p.Seed); err != nil {
		return err
	}
	return checkSteps("convergence", p.Steps, p.Every)
}

// FillSteps sets the defaults that depend on the graph's size n, and checks
// the number of measures they make.
func (p *ConvergenceParams) FillSteps(n int) error {
	if p.Steps == 0 {
		p.Steps = 10 * n
	}
	if p.Every == 0 {
		p.Every = max(1, p.Steps/10)
	}
	return checkPoints("convergence", p.Steps, p.Every)
}

// fillTeleportSeed sets the default teleport share and seed of experiment
// exp, and checks the teleport share.
func fillTeleportSeed(exp string, teleport *float64, seed *uint64) error {
	if *teleport == 0 {
		*teleport = importance.DefaultTeleport
	}
	if !(*teleport > 0 && *teleport < 1) {
		return paramErrorf("%s: teleport %v not in (0, 1)", exp, *teleport)
	}
	if *seed == 0 {
		*seed = 1
	}
	return nil
}

func checkSteps(exp string, steps, every int) error {
	if steps < 0 || every < 0 {
		return paramErrorf("%s: steps %d and every %d must not be negative", exp, steps, every)
	}
	return nil
}

func checkPoints(exp string, steps, every int) error {
	if every > 0 && steps/every > maxPoints {
		return paramErrorf("%s: %d steps measured every %d makes %d points a series; at most %d", exp, steps, every, steps/every, maxPoints)
	}
	return nil
}

// Check fills in the defaults and checks the parameters.
func (p *WindowsParams) Check() error {
	if p.N < 2 || p.N > maxNodes {
		return paramErrorf("windows: a synthetic graph needs n from 2 to %d nodes, not %d", maxNodes, p.N)
	}
	if p.AvgOut == 0 {
		p.AvgOut = 8
	}
	if !(p.AvgOut > 0 && p.AvgOut <= 1000) {
		return paramErrorf("windows: average out-degree %v not in (0, 1000]", p.AvgOut)
	}
	if float64(p.N)*p.AvgOut > maxArcs {
		return paramErrorf("windows: n·avg_out = %.0f arcs; at most %d", float64(p.N)*p.AvgOut, maxArcs)
	}
	if p.ChangeRate == nil {
		return paramErrorf("windows: the change rate is required (the share of the graph changed every N reads, 0 to 1)")
	}
	if r := *p.ChangeRate; !(r >= 0 && r <= 1) {
		return paramErrorf("windows: change rate %v not in [0, 1]", r)
	}
	if err := checkSteps("windows", p.Steps, p.Every); err != nil {
		return err
	}
	if p.Steps == 0 {
		p.Steps = 10 * p.N
	}
	if p.Every == 0 {
		p.Every = max(1, p.Steps/20)
	}
	if err := checkPoints("windows", p.Steps, p.Every); err != nil {
		return err
	}
	if p.Window == 0 {
		p.Window = 4 * float64(p.N)
	}
	if !(p.Window > 0) || math.IsInf(p.Window, 0) {
		return paramErrorf("windows: window %v must be positive", p.Window)
	}
	if p.Measures == 0 {
		p.Measures = 4
	}
	if p.MinMeasures == 0 {
		p.MinMeasures = 3
	}
	if p.Measures < 1 || p.MinMeasures < 1 {
		return paramErrorf("windows: measures %d and min measures %d must be at least 1", p.Measures, p.MinMeasures)
	}
	if err := fillTeleportSeed("windows", &p.Teleport, &p.Seed); err != nil {
		return err
	}
	return nil
}

// Check fills in the defaults and checks the parameters.
func (p *NormLeakParams) Check() error {
	if p.Iterations == 0 {
		p.Iterations = 20
	}
	if p.Damping == 0 {
		p.Damping = importance.DefaultTeleport
	}
	if p.Iterations < 1 || p.Iterations > maxIter {
		return paramErrorf("normleak: %d iterations, want 1 to %d", p.Iterations, maxIter)
	}
	if !(p.Damping > 0 && p.Damping <= 1) {
		return paramErrorf("normleak: damping %v not in (0, 1]", p.Damping)
	}
	return nil
}

// CheckAPIBounds applies the API's bounds, tighter than the command line's,
// to experiment exp on a synthetic graph of n nodes of mean out-degree
// avgOut (n 0: the project's graph) read steps times.
func CheckAPIBounds(exp string, n int, avgOut float64, steps int) error {
	if n > maxAPINodes {
		return paramErrorf("%s: n = %d nodes; the app runs at most %d (the command line more)", exp, n, maxAPINodes)
	}
	if arcs := float64(n) * avgOut; arcs > maxAPIArcs {
		return paramErrorf("%s: n·avg_out = %.0f arcs; the app runs at most %d (the command line more)", exp, arcs, maxAPIArcs)
	}
	if steps > maxAPISteps {
		return paramErrorf("%s: %d steps; the app runs at most %d (the command line more)", exp, steps, maxAPISteps)
	}
	return nil
}
