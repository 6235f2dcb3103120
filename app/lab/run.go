package lab

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"sitesift/app/plot"
	"sitesift/importance"
	ilab "sitesift/importance/lab"
	"sitesift/sites/edgelist"
)

// Graph is the graph of a convergence run and how the plots name it.
type Graph struct {
	Graph *importance.Graph
	Desc  string
}

// EdgeListGraph makes the graph of a run on the edge list el read from the
// file path, weighted as weighting says.
func EdgeListGraph(el *edgelist.Graph, path, weighting string) (Graph, error) {
	edges := make([]importance.WeightedEdge, len(el.From))
	for k := range edges {
		edges[k] = importance.WeightedEdge{From: int(el.From[k]), To: int(el.To[k]), Weight: el.Weight[k]}
	}
	g, err := importance.NewGraph(len(el.Names), edges)
	if err != nil {
		return Graph{}, fmt.Errorf("edge list %s: %w", path, err)
	}
	return NewGraph(g, weighting, filepath.Base(path))
}

// NewGraph makes the graph of a run on g, named desc, weighted as weighting
// says; a graph of fewer than two nodes is a ParamError.
func NewGraph(g *importance.Graph, weighting, desc string) (Graph, error) {
	if g.N < 2 {
		return Graph{}, paramErrorf("convergence: the graph %s has %d nodes, want at least 2", desc, g.N)
	}
	if weighting == WeightingBinary {
		g = g.Binary()
		desc += ", binary"
	}
	return Graph{g, desc}, nil
}

// SyntheticGraph builds the synthetic graph of a convergence run.
func SyntheticGraph(p *ConvergenceParams) Graph {
	return Graph{importance.Synthetic(p.N, p.AvgOut, p.Seed),
		fmt.Sprintf("synthetic, N = %d, mean out-degree %g", p.N, p.AvgOut)}
}

// RunConvergence runs the experiment on lg and draws its files:
// convergence.csv (the columns below, exactly), convergence-more.csv (the
// other measures), convergence.svg (OPIC's error) and
// convergence-received.svg (the received-cash estimate's; see
// ReceivedEstimate in sitesift/importance/lab).
func RunConvergence(ctx context.Context, p ConvergenceParams, lg Graph, progress ilab.Progress) (*Output, error) {
	strategies := make([]importance.Strategy, len(p.Strategies))
	for i, s := range p.Strategies {
		strategies[i] = importance.Strategy(s)
	}
	pts, err := ilab.Convergence(ctx, lg.Graph, strategies, p.Steps, p.Every, p.Teleport, p.Seed, progress)
	if err != nil {
		return nil, err
	}
	n := lg.Graph.N
	main := [][]string{{"strategy", "step", "mean_rel_error_pct", "top1pct_rel_error_pct", "spearman"}}
	more := [][]string{{"strategy", "step", "reads_per_node", "top10pct_rel_error_pct", "g",
		"received_mean_rel_error_pct", "received_top1pct_rel_error_pct"}}
	for _, q := range pts {
		main = append(main, []string{string(q.Strategy), strconv.Itoa(q.Step),
			num(q.MeanRelErrPct), num(q.Top1PctRelErrPct), num(q.Spearman)})
		more = append(more, []string{string(q.Strategy), strconv.Itoa(q.Step), num(float64(q.Step) / float64(n)),
			num(q.Top10PctRelErrPct), num(q.G), num(q.ReceivedMeanRelErrPct), num(q.ReceivedTop1PctRelErrPct)})
	}
	chart := func(title string, all, top func(ilab.ConvergencePoint) float64) plot.Chart {
		c := plot.Chart{Title: title, Subtitle: fmt.Sprintf("%s; teleport %g; solid: all nodes, dashed: top 1%% by PageRank", lg.Desc, p.Teleport),
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
		func(q ilab.ConvergencePoint) float64 { return q.MeanRelErrPct },
		func(q ilab.ConvergencePoint) float64 { return q.Top1PctRelErrPct })
	received := chart("Received-cash estimate (H + C − C₀)/G against the PageRank fixpoint",
		func(q ilab.ConvergencePoint) float64 { return q.ReceivedMeanRelErrPct },
		func(q ilab.ConvergencePoint) float64 { return q.ReceivedTop1PctRelErrPct })

	out, err := newOutput(Convergence, file{"convergence.csv", main, nil}, file{"convergence.svg", nil, &opic},
		file{"convergence-more.csv", more, nil}, file{"convergence-received.svg", nil, &received})
	if err != nil {
		return nil, err
	}
	out.Summary = append(out.Summary, fmt.Sprintf("graph %s: %d nodes, %d arcs", lg.Desc, n, lg.Graph.Arcs()))
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

// RunWindows runs the Adaptive OPIC experiment: windows.csv (the columns
// below, exactly), windows-more.csv, windows.svg (error over time) and
// windows-measures.svg (memory over time).
func RunWindows(ctx context.Context, p WindowsParams, progress ilab.Progress) (*Output, error) {
	policies, err := ilab.PaperPolicies(p.Window, p.Measures, p.MinMeasures)
	if err != nil {
		return nil, paramErrorf("windows: %v", err)
	}
	pts, err := ilab.Windows(ctx, p.N, p.AvgOut, *p.ChangeRate, p.Steps, p.Every, policies, p.Teleport, p.Seed, progress)
	if err != nil {
		return nil, err
	}
	main := [][]string{{"policy", "step", "mean_rel_error_pct", "top1pct_rel_error_pct", "measures_per_node"}}
	more := [][]string{{"policy", "step", "reads_per_node", "top10pct_rel_error_pct", "nodes_replaced", "arcs_rewired"}}
	for _, q := range pts {
		main = append(main, []string{q.Policy, strconv.Itoa(q.Step), num(q.MeanRelErrPct), num(q.Top1PctRelErrPct), num(q.MeasuresPerNode)})
		more = append(more, []string{q.Policy, strconv.Itoa(q.Step), num(float64(q.Step) / float64(p.N)),
			num(q.Top10PctRelErrPct), strconv.Itoa(q.Replaced), strconv.Itoa(q.Rewired)})
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
	out, err := newOutput(Windows, file{"windows.csv", main, nil}, file{"windows.svg", nil, &errs},
		file{"windows-more.csv", more, nil}, file{"windows-measures.svg", nil, &mem})
	if err != nil {
		return nil, err
	}
	out.Summary = append(out.Summary, desc)
	for _, q := range pts[len(pts)-len(policies):] {
		out.Summary = append(out.Summary, fmt.Sprintf("%-13s after %d reads: mean error %.2f%%, top 1%% %.2f%%, %.2f measures a node (%d nodes replaced, %d arcs rewired)",
			q.Policy, q.Step, q.MeanRelErrPct, q.Top1PctRelErrPct, q.MeasuresPerNode, q.Replaced, q.Rewired))
	}
	// One point is noisy on a graph that keeps changing: the mean over the
	// second half of the run, once every window has filled, compares the
	// policies.
	for _, pol := range policies {
		var all, top float64
		n := 0
		for _, q := range pts {
			if q.Policy == pol.Name && 2*q.Step > p.Steps {
				all, top, n = all+q.MeanRelErrPct, top+q.Top1PctRelErrPct, n+1
			}
		}
		if n > 0 {
			out.Summary = append(out.Summary, fmt.Sprintf("%-13s over the second half (%d measures): mean error %.2f%%, top 1%% %.2f%%",
				pol.Name, n, all/float64(n), top/float64(n)))
		}
	}
	return out, nil
}

// RunNormLeak runs the Kim–Lee experiment: normleak.csv and normleak.svg.
func RunNormLeak(p NormLeakParams) (*Output, error) {
	pts, err := ilab.NormLeak(p.Iterations, p.Damping)
	if err != nil {
		return nil, paramErrorf("%v", err)
	}
	rows := [][]string{{"case", "dangling_pages", "matrix", "iteration", "norm"}}
	for _, q := range pts {
		rows = append(rows, []string{strconv.Itoa(q.Case), strconv.Itoa(q.Dangling), q.Matrix, strconv.Itoa(q.Iteration), num(q.Norm)})
	}
	c := plot.Chart{Title: "Norm of the rank vector on Kim and Lee's ten-page web",
		Subtitle: fmt.Sprintf("dampening factor d = %g; M′ solid, M* dashed", p.Damping),
		XLabel:   "iteration", YLabel: "L1 norm", YMin: 0, YMax: 1.05}
	var last []string
	for ci, dangling := range []int{0, 1, 3} {
		for _, m := range []string{ilab.MatrixLeaky, ilab.MatrixFixed} {
			var xs, ys []float64
			for _, q := range pts {
				if q.Dangling == dangling && q.Matrix == m {
					xs, ys = append(xs, float64(q.Iteration)), append(ys, q.Norm)
				}
			}
			name := fmt.Sprintf("%s, %d dangling", strings.Replace(m, "'", "′", 1), dangling)
			c.Series = append(c.Series, plot.Series{Name: name, X: xs, Y: ys, Color: plot.Palette[ci], Dash: m == ilab.MatrixFixed})
			last = append(last, fmt.Sprintf("%s: norm %.6f after %d iterations", name, ys[len(ys)-1], p.Iterations))
		}
	}
	out, err := newOutput(NormLeak, file{"normleak.csv", rows, nil}, file{"normleak.svg", nil, &c})
	if err != nil {
		return nil, err
	}
	out.Summary = last
	return out, nil
}
