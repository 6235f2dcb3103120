package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"sitesift/app/export"
	"sitesift/app/plot"
	"sitesift/importance"
	"sitesift/importance/lab"
)

// The lab experiments reproduce the papers' figures (importance/lab does
// the computing): the command line writes their CSV and SVG files into a
// directory, the API (labapi.go) runs them as background jobs for the
// app's Lab page. Both go through the same parameter types and the same
// run functions, so a figure in the app is the figure of the command.

// Lab experiment names, as in `sitesift lab NAME` and POST /api/lab/NAME.
const (
	LabConvergence = "convergence"
	LabWindows     = "windows"
	LabNormLeak    = "normleak"
)

// Graph sources of the convergence experiment.
const (
	LabGraphSynthetic = "synthetic" // importance.Synthetic(N, AvgOut, Seed)
	LabGraphProject   = "project"   // the open project's site graph (API)
	LabGraphEdges     = "edges"     // an edge list file (command line)
)

// Bounds on what a lab run may ask for, so that a typing slip does not
// start an hour of work or fill the disk with points.
const (
	labMaxNodes  = 10_000_000
	labMaxArcs   = 50_000_000 // n·avg_out of a synthetic graph: about 1 GB at most
	labMaxPoints = 10_000     // measures per series
	labMaxIter   = 100_000
)

// ConvergenceParams sets up the convergence experiment (lab.Convergence).
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

// WindowsParams sets up the Adaptive OPIC experiment (lab.Windows). Zero
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

// NormLeakParams sets up the norm-leak experiment (lab.NormLeak).
type NormLeakParams struct {
	Iterations int     `json:"iterations"` // default 20 (the paper's)
	Damping    float64 `json:"damping"`    // the dampening factor d; default 0.15
}

// LabFile is one output of an experiment.
type LabFile struct {
	Name string
	Data []byte
}

// LabOutput is what an experiment produced: its files, the main CSV and
// SVG first, and a few lines that sum the result up.
type LabOutput struct {
	Experiment string
	Files      []LabFile
	Summary    []string
}

// File returns the output named name.
func (o *LabOutput) File(name string) (LabFile, bool) {
	for _, f := range o.Files {
		if f.Name == name {
			return f, true
		}
	}
	return LabFile{}, false
}

// labError is a bad parameter: a usage error on the command line, a bad
// request in the API.
type labError struct{ msg string }

func (e labError) Error() string { return e.msg }

func labErrorf(format string, args ...any) error { return labError{fmt.Sprintf(format, args...)} }

// check fills in the defaults that do not depend on the graph and checks
// the parameters.
func (p *ConvergenceParams) check() error {
	if p.Graph == "" {
		p.Graph = LabGraphSynthetic
		if p.Edges != "" {
			p.Graph = LabGraphEdges
		}
	}
	switch p.Graph {
	case LabGraphSynthetic:
		if p.N < 2 || p.N > labMaxNodes {
			return labErrorf("convergence: a synthetic graph needs n from 2 to %d nodes, not %d", labMaxNodes, p.N)
		}
	case LabGraphEdges:
		if p.Edges == "" {
			return labErrorf("convergence: no edge list given")
		}
	case LabGraphProject:
	default:
		return labErrorf("convergence: unknown graph %q (want synthetic or project)", p.Graph)
	}
	if p.Graph != LabGraphSynthetic && p.N != 0 {
		return labErrorf("convergence: n goes with the synthetic graph only")
	}
	if p.AvgOut == 0 {
		p.AvgOut = 8
	}
	if !(p.AvgOut > 0 && p.AvgOut <= 1000) {
		return labErrorf("convergence: average out-degree %v not in (0, 1000]", p.AvgOut)
	}
	if p.Graph == LabGraphSynthetic && float64(p.N)*p.AvgOut > labMaxArcs {
		return labErrorf("convergence: n·avg_out = %.0f arcs; at most %d", float64(p.N)*p.AvgOut, labMaxArcs)
	}
	if p.Weighting == "" {
		p.Weighting = WeightingLinks
	}
	if p.Weighting != WeightingLinks && p.Weighting != WeightingBinary {
		return labErrorf("convergence: unknown weighting %q (want links or binary)", p.Weighting)
	}
	if len(p.Strategies) == 0 {
		p.Strategies = []string{string(importance.Greedy), string(importance.Random), string(importance.Cycle)}
	}
	seen := map[string]bool{}
	for _, s := range p.Strategies {
		if _, err := importance.ParseStrategy(s); err != nil {
			return labErrorf("convergence: unknown strategy %q (want greedy, random or cycle)", s)
		}
		if seen[s] {
			return labErrorf("convergence: strategy %q given twice", s)
		}
		seen[s] = true
	}
	if p.Teleport == 0 {
		p.Teleport = importance.DefaultTeleport
	}
	if !(p.Teleport > 0 && p.Teleport < 1) {
		return labErrorf("convergence: teleport %v not in (0, 1)", p.Teleport)
	}
	if p.Seed == 0 {
		p.Seed = 1
	}
	return checkLabSteps("convergence", p.Steps, p.Every)
}

// fillSteps sets the defaults that depend on the graph's size n.
func (p *ConvergenceParams) fillSteps(n int) error {
	if p.Steps == 0 {
		p.Steps = 10 * n
	}
	if p.Every == 0 {
		p.Every = max(1, p.Steps/10)
	}
	return checkLabPoints("convergence", p.Steps, p.Every)
}

func checkLabSteps(exp string, steps, every int) error {
	if steps < 0 || every < 0 {
		return labErrorf("%s: steps %d and every %d must not be negative", exp, steps, every)
	}
	return nil
}

func checkLabPoints(exp string, steps, every int) error {
	if every > 0 && steps/every > labMaxPoints {
		return labErrorf("%s: %d steps measured every %d makes %d points a series; at most %d", exp, steps, every, steps/every, labMaxPoints)
	}
	return nil
}

func (p *WindowsParams) check() error {
	if p.N < 2 || p.N > labMaxNodes {
		return labErrorf("windows: a synthetic graph needs n from 2 to %d nodes, not %d", labMaxNodes, p.N)
	}
	if p.AvgOut == 0 {
		p.AvgOut = 8
	}
	if !(p.AvgOut > 0 && p.AvgOut <= 1000) {
		return labErrorf("windows: average out-degree %v not in (0, 1000]", p.AvgOut)
	}
	if float64(p.N)*p.AvgOut > labMaxArcs {
		return labErrorf("windows: n·avg_out = %.0f arcs; at most %d", float64(p.N)*p.AvgOut, labMaxArcs)
	}
	if p.ChangeRate == nil {
		return labErrorf("windows: the change rate is required (the share of the graph changed every N reads, 0 to 1)")
	}
	if r := *p.ChangeRate; !(r >= 0 && r <= 1) {
		return labErrorf("windows: change rate %v not in [0, 1]", r)
	}
	if err := checkLabSteps("windows", p.Steps, p.Every); err != nil {
		return err
	}
	if p.Steps == 0 {
		p.Steps = 10 * p.N
	}
	if p.Every == 0 {
		p.Every = max(1, p.Steps/20)
	}
	if err := checkLabPoints("windows", p.Steps, p.Every); err != nil {
		return err
	}
	if p.Window == 0 {
		p.Window = 4 * float64(p.N)
	}
	if !(p.Window > 0) || math.IsInf(p.Window, 0) {
		return labErrorf("windows: window %v must be positive", p.Window)
	}
	if p.Measures == 0 {
		p.Measures = 4
	}
	if p.MinMeasures == 0 {
		p.MinMeasures = 3
	}
	if p.Measures < 1 || p.MinMeasures < 1 {
		return labErrorf("windows: measures %d and min measures %d must be at least 1", p.Measures, p.MinMeasures)
	}
	if p.Teleport == 0 {
		p.Teleport = importance.DefaultTeleport
	}
	if !(p.Teleport > 0 && p.Teleport < 1) {
		return labErrorf("windows: teleport %v not in (0, 1)", p.Teleport)
	}
	if p.Seed == 0 {
		p.Seed = 1
	}
	return nil
}

func (p *NormLeakParams) check() error {
	if p.Iterations == 0 {
		p.Iterations = 20
	}
	if p.Damping == 0 {
		p.Damping = importance.DefaultTeleport
	}
	if p.Iterations < 1 || p.Iterations > labMaxIter {
		return labErrorf("normleak: %d iterations, want 1 to %d", p.Iterations, labMaxIter)
	}
	if !(p.Damping > 0 && p.Damping <= 1) {
		return labErrorf("normleak: damping %v not in (0, 1]", p.Damping)
	}
	return nil
}

// labGraph is the graph of a convergence run and how to name it.
type labGraph struct {
	g    *importance.Graph
	desc string
}

// loadEdgesGraph reads an edge list file into a graph.
func loadEdgesGraph(path, weighting string) (labGraph, error) {
	el, err := ReadEdgeList(path)
	if err != nil {
		return labGraph{}, err
	}
	edges := make([]importance.WeightedEdge, len(el.From))
	for k := range edges {
		edges[k] = importance.WeightedEdge{From: int(el.From[k]), To: int(el.To[k]), Weight: el.Weight[k]}
	}
	g, err := importance.NewGraph(len(el.Names), edges)
	if err != nil {
		return labGraph{}, fmt.Errorf("edge list %s: %w", path, err)
	}
	return finishLabGraph(g, weighting, filepath.Base(path))
}

func finishLabGraph(g *importance.Graph, weighting, desc string) (labGraph, error) {
	if g.N < 2 {
		return labGraph{}, labErrorf("convergence: the graph %s has %d nodes, want at least 2", desc, g.N)
	}
	if weighting == WeightingBinary {
		g = g.Binary()
		desc += ", binary"
	}
	return labGraph{g, desc}, nil
}

// synthGraph builds the synthetic graph of a convergence run.
func synthGraph(p *ConvergenceParams) labGraph {
	return labGraph{importance.Synthetic(p.N, p.AvgOut, p.Seed),
		fmt.Sprintf("synthetic, N = %d, mean out-degree %g", p.N, p.AvgOut)}
}

// runConvergence runs the experiment on g and draws its files:
// convergence.csv (the columns below, exactly), convergence-more.csv (the
// other measures), convergence.svg (OPIC's error) and
// convergence-received.svg (the received-cash estimate's; see
// lab.ReceivedEstimate).
func runConvergence(ctx context.Context, p ConvergenceParams, lg labGraph, progress lab.Progress) (*LabOutput, error) {
	strategies := make([]importance.Strategy, len(p.Strategies))
	for i, s := range p.Strategies {
		strategies[i] = importance.Strategy(s)
	}
	pts, err := lab.Convergence(ctx, lg.g, strategies, p.Steps, p.Every, p.Teleport, p.Seed, progress)
	if err != nil {
		return nil, err
	}
	n := lg.g.N
	main := [][]string{{"strategy", "step", "mean_rel_error_pct", "top1pct_rel_error_pct", "spearman"}}
	more := [][]string{{"strategy", "step", "reads_per_node", "top10pct_rel_error_pct", "g",
		"received_mean_rel_error_pct", "received_top1pct_rel_error_pct"}}
	for _, q := range pts {
		main = append(main, []string{string(q.Strategy), strconv.Itoa(q.Step),
			labNum(q.MeanRelErrPct), labNum(q.Top1PctRelErrPct), labNum(q.Spearman)})
		more = append(more, []string{string(q.Strategy), strconv.Itoa(q.Step), labNum(float64(q.Step) / float64(n)),
			labNum(q.Top10PctRelErrPct), labNum(q.G), labNum(q.ReceivedMeanRelErrPct), labNum(q.ReceivedTop1PctRelErrPct)})
	}
	chart := func(title string, all, top func(lab.ConvergencePoint) float64) plot.Chart {
		c := plot.Chart{Title: title, Subtitle: fmt.Sprintf("%s; teleport %g; solid: all nodes, dashed: top 1%% by PageRank", lg.desc, p.Teleport),
			XLabel: fmt.Sprintf("reads (N = %d)", n),
			YLabel: "mean relative error (%)", LogY: true, LogX: p.LogX}
		for i, s := range strategies {
			color := plot.Palette[i%len(plot.Palette)]
			var xs, ya, yt []float64
			for _, q := range pts {
				if q.Strategy == s {
					xs = append(xs, float64(q.Step))
					ya, yt = append(ya, all(q)), append(yt, top(q))
				}
			}
			c.Series = append(c.Series,
				plot.Series{Name: string(s) + ", all nodes", X: xs, Y: ya, Color: color},
				plot.Series{Name: string(s) + ", top 1%", X: xs, Y: yt, Color: color, Dash: true})
		}
		return c
	}
	opic := chart("OPIC's estimate (H + C)/(G + 1) against the PageRank fixpoint",
		func(q lab.ConvergencePoint) float64 { return q.MeanRelErrPct },
		func(q lab.ConvergencePoint) float64 { return q.Top1PctRelErrPct })
	received := chart("Received-cash estimate (H + C − C₀)/G against the PageRank fixpoint",
		func(q lab.ConvergencePoint) float64 { return q.ReceivedMeanRelErrPct },
		func(q lab.ConvergencePoint) float64 { return q.ReceivedTop1PctRelErrPct })

	out := &LabOutput{Experiment: LabConvergence}
	for _, f := range []struct {
		name string
		rows [][]string
		c    *plot.Chart
	}{{"convergence.csv", main, nil}, {"convergence.svg", nil, &opic},
		{"convergence-more.csv", more, nil}, {"convergence-received.svg", nil, &received}} {
		if err := out.add(f.name, f.rows, f.c); err != nil {
			return nil, err
		}
	}
	out.Summary = append(out.Summary, fmt.Sprintf("graph %s: %d nodes, %d arcs", lg.desc, n, lg.g.Arcs()))
	for _, s := range strategies {
		for _, q := range pts {
			// The last measure, and the one at 10·N reads when there is one
			// before it (the target).
			last := q.Step == p.Steps
			if q.Strategy == s && (last || q.Step == 10*n) {
				out.Summary = append(out.Summary, fmt.Sprintf(
					"%-6s after %d reads (%.4g·N): mean error %.3f%%, top 1%% %.3f%%, Spearman %.5f, G %.1f; received-cash estimate %.3f%%, top 1%% %.3f%%",
					s, q.Step, float64(q.Step)/float64(n), q.MeanRelErrPct, q.Top1PctRelErrPct, q.Spearman, q.G,
					q.ReceivedMeanRelErrPct, q.ReceivedTop1PctRelErrPct))
			}
		}
	}
	return out, nil
}

// runWindows runs the Adaptive OPIC experiment: windows.csv (the columns
// below, exactly), windows-more.csv, windows.svg (error over time) and
// windows-measures.svg (memory over time).
func runWindows(ctx context.Context, p WindowsParams, progress lab.Progress) (*LabOutput, error) {
	policies, err := lab.PaperPolicies(p.Window, p.Measures, p.MinMeasures)
	if err != nil {
		return nil, labErrorf("windows: %v", err)
	}
	pts, err := lab.Windows(ctx, p.N, p.AvgOut, *p.ChangeRate, p.Steps, p.Every, policies, p.Teleport, p.Seed, progress)
	if err != nil {
		return nil, err
	}
	main := [][]string{{"policy", "step", "mean_rel_error_pct", "top1pct_rel_error_pct", "measures_per_node"}}
	more := [][]string{{"policy", "step", "reads_per_node", "top10pct_rel_error_pct", "nodes_replaced", "arcs_rewired"}}
	for _, q := range pts {
		main = append(main, []string{q.Policy, strconv.Itoa(q.Step), labNum(q.MeanRelErrPct), labNum(q.Top1PctRelErrPct), labNum(q.MeasuresPerNode)})
		more = append(more, []string{q.Policy, strconv.Itoa(q.Step), labNum(float64(q.Step) / float64(p.N)),
			labNum(q.Top10PctRelErrPct), strconv.Itoa(q.Replaced), strconv.Itoa(q.Rewired)})
	}
	desc := fmt.Sprintf("N = %d, change rate %g per N reads, T = %g reads, k = %d", p.N, *p.ChangeRate, p.Window, p.Measures)
	errs := plot.Chart{Title: "Adaptive OPIC (Greedy) against the PageRank of the changing graph",
		Subtitle: desc + "; solid: all nodes, dashed: top 1%",
		XLabel:   "reads", YLabel: "mean relative error (%)", LogY: true, LogX: p.LogX}
	mem := plot.Chart{Title: "Measures kept per node", Subtitle: desc, XLabel: "reads", YLabel: "measures per node", LogX: p.LogX}
	for i, pol := range policies {
		color := plot.Palette[i%len(plot.Palette)]
		var xs, ya, yt, ym []float64
		for _, q := range pts {
			if q.Policy == pol.Name {
				xs = append(xs, float64(q.Step))
				ya, yt, ym = append(ya, q.MeanRelErrPct), append(yt, q.Top1PctRelErrPct), append(ym, q.MeasuresPerNode)
			}
		}
		errs.Series = append(errs.Series,
			plot.Series{Name: pol.Name + ", all nodes", X: xs, Y: ya, Color: color},
			plot.Series{Name: pol.Name + ", top 1%", X: xs, Y: yt, Color: color, Dash: true})
		mem.Series = append(mem.Series, plot.Series{Name: pol.Name, X: xs, Y: ym, Color: color})
	}
	out := &LabOutput{Experiment: LabWindows}
	for _, f := range []struct {
		name string
		rows [][]string
		c    *plot.Chart
	}{{"windows.csv", main, nil}, {"windows.svg", nil, &errs},
		{"windows-more.csv", more, nil}, {"windows-measures.svg", nil, &mem}} {
		if err := out.add(f.name, f.rows, f.c); err != nil {
			return nil, err
		}
	}
	out.Summary = append(out.Summary, desc)
	for _, q := range pts[len(pts)-len(policies):] {
		out.Summary = append(out.Summary, fmt.Sprintf("%-13s after %d reads: mean error %.2f%%, top 1%% %.2f%%, %.2f measures a node (%d nodes replaced, %d arcs rewired)",
			q.Policy, q.Step, q.MeanRelErrPct, q.Top1PctRelErrPct, q.MeasuresPerNode, q.Replaced, q.Rewired))
	}
	return out, nil
}

// runNormLeak runs the Kim–Lee experiment: normleak.csv and normleak.svg.
func runNormLeak(p NormLeakParams) (*LabOutput, error) {
	pts, err := lab.NormLeak(p.Iterations, p.Damping)
	if err != nil {
		return nil, labErrorf("%v", err)
	}
	rows := [][]string{{"case", "dangling_pages", "matrix", "iteration", "norm"}}
	for _, q := range pts {
		rows = append(rows, []string{strconv.Itoa(q.Case), strconv.Itoa(q.Dangling), q.Matrix, strconv.Itoa(q.Iteration), labNum(q.Norm)})
	}
	c := plot.Chart{Title: "Norm of the rank vector on Kim and Lee's ten-page web",
		Subtitle: fmt.Sprintf("dampening factor d = %g; M′ solid, M* dashed", p.Damping),
		XLabel:   "iteration", YLabel: "L1 norm", YMin: 0, YMax: 1.05}
	var last []string
	for ci, dangling := range []int{0, 1, 3} {
		for _, m := range []string{lab.MatrixLeaky, lab.MatrixFixed} {
			var xs, ys []float64
			for _, q := range pts {
				if q.Dangling == dangling && q.Matrix == m {
					xs, ys = append(xs, float64(q.Iteration)), append(ys, q.Norm)
				}
			}
			name := fmt.Sprintf("%s, %d dangling", strings.Replace(m, "'", "′", 1), dangling)
			c.Series = append(c.Series, plot.Series{Name: name, X: xs, Y: ys, Color: plot.Palette[ci], Dash: m == lab.MatrixFixed})
			last = append(last, fmt.Sprintf("%s: norm %.6f after %d iterations", name, ys[len(ys)-1], p.Iterations))
		}
	}
	out := &LabOutput{Experiment: LabNormLeak, Summary: last}
	if err := out.add("normleak.csv", rows, nil); err != nil {
		return nil, err
	}
	if err := out.add("normleak.svg", nil, &c); err != nil {
		return nil, err
	}
	return out, nil
}

// add renders rows as CSV or c as SVG into a new file of the output.
func (o *LabOutput) add(name string, rows [][]string, c *plot.Chart) error {
	var buf bytes.Buffer
	if c != nil {
		if err := c.Render(&buf); err != nil {
			return fmt.Errorf("lab %s: %s: %w", o.Experiment, name, err)
		}
	} else {
		w := export.NewCSVWriter(&buf)
		if err := w.WriteAll(rows); err != nil {
			return fmt.Errorf("lab %s: %s: %w", o.Experiment, name, err)
		}
	}
	o.Files = append(o.Files, LabFile{Name: name, Data: buf.Bytes()})
	return nil
}

// labNum writes a measure with the precision it has: 10 significant
// digits are far beyond what any of them means.
func labNum(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }

// writeLabFiles writes the files into dir (created if needed) so that no
// file is ever seen half-written: each goes to a temporary file in dir
// first, and only once all are written are they renamed into place.
func writeLabFiles(dir string, files []LabFile) (err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("lab: output directory: %w", err)
	}
	temps := make([]string, 0, len(files))
	defer func() {
		if err != nil {
			for _, t := range temps {
				os.Remove(t)
			}
		}
	}()
	for _, f := range files {
		tmp, err := os.CreateTemp(dir, "."+f.Name+".*.tmp")
		if err != nil {
			return fmt.Errorf("lab: write %s: %w", f.Name, err)
		}
		temps = append(temps, tmp.Name())
		_, werr := tmp.Write(f.Data)
		serr := tmp.Sync()
		cerr := tmp.Close()
		if err := errors.Join(werr, serr, cerr); err != nil {
			return fmt.Errorf("lab: write %s: %w", f.Name, err)
		}
		if err := os.Chmod(tmp.Name(), 0o644); err != nil {
			return fmt.Errorf("lab: write %s: %w", f.Name, err)
		}
	}
	for i, f := range files {
		if err := os.Rename(temps[i], filepath.Join(dir, f.Name)); err != nil {
			return fmt.Errorf("lab: write %s: %w", f.Name, err)
		}
	}
	return nil
}
