package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"sitesift/app"
	"sitesift/app/communities"
	"sitesift/app/lab"
	"sitesift/app/ranking"
	"sitesift/importance"
	"sitesift/sites"
	"sitesift/sites/edgelist"
)

// The command line of the lab experiments (package app/lab runs them and
// renders their files): `sitesift lab NAME` parses its flags, runs the
// experiment with a progress line on stderr, writes the files into --out
// and prints a summary.

// lab runs `sitesift lab EXPERIMENT`.
func (c CLI) lab(ctx context.Context, args []string) error {
	exp, args := subcommand(args)
	switch exp {
	case lab.Convergence:
		return c.labConvergence(ctx, args)
	case lab.Windows:
		return c.labWindows(ctx, args)
	case lab.NormLeak:
		return c.labNormLeak(ctx, args)
	case lab.Seeds:
		return c.labSeeds(ctx, args)
	case lab.Links:
		return c.labLinks(ctx, args)
	case "help":
		return c.commandHelp("lab")
	case "":
		return usageError{"lab: name an experiment: convergence, windows, normleak, seeds or links (sitesift lab help)"}
	}
	return usageError{fmt.Sprintf("lab: unknown experiment %q (want convergence, windows, normleak, seeds or links)", exp)}
}

// labLinks runs `sitesift lab links`: PageRank on a project's editorial
// links against all its links.
func (c CLI) labLinks(ctx context.Context, args []string) error {
	f := c.newFlags("lab links")
	dir := f.project
	out := f.String("out", "", "directory for the CSV files")
	top := f.Int("top", lab.DefaultLinksTop, "top sites of each graph listed side by side")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	switch {
	case *dir == "":
		return usageError{"lab links: --project DIR is required"}
	case *out == "":
		return usageError{"lab links: --out DIR is required"}
	case *top <= 0:
		return usageError{fmt.Sprintf("lab links: --top %d must be positive", *top)}
	}
	var gs lab.LinkGraphs
	var teleport float64
	err := c.readProject(*dir, func(a *app.App) error {
		var err error
		gs, teleport, err = a.Lab.LinkGraphs(ctx)
		return err
	})
	if err != nil {
		return err
	}
	res, err := lab.LinksOutput(gs, *top, teleport, *dir)
	if err != nil {
		return labUsageError(err)
	}
	return c.finishLab(*out, res)
}

// labUsageError turns a parameter error into a usage error (exit 2).
func labUsageError(err error) error {
	var pe lab.ParamError
	if errors.As(err, &pe) {
		return usageError{"lab " + pe.Error()}
	}
	return err
}

func (c CLI) labConvergence(ctx context.Context, args []string) error {
	f := c.newFlags("lab convergence")
	var p lab.ConvergenceParams
	f.StringVar(&p.Edges, "edges", "", "edge list file (SRC DST [WEIGHT] a line, .gz read directly)")
	f.IntVar(&p.N, "synthetic", 0, "run on a synthetic power-law graph of N nodes")
	f.Float64Var(&p.AvgOut, "avg-out", 8, "mean out-degree of the synthetic graph")
	f.StringVar(&p.Weighting, "weighting", ranking.WeightingLinks, "links (arcs weigh their weight) or binary")
	strategies := f.String("strategies", "greedy,random,cycle", "comma-separated strategies")
	f.IntVar(&p.Steps, "steps", 0, "reads per strategy (default 10·N)")
	f.IntVar(&p.Every, "every", 0, "reads between two measures (default steps/10)")
	f.Float64Var(&p.Teleport, "teleport", importance.DefaultTeleport, "teleport share (PageRank's 1 − damping)")
	f.Uint64Var(&p.Seed, "seed", 1, "seed of the synthetic graph and of the random strategy")
	f.BoolVar(&p.LogX, "log-x", false, "plot the reads on a log scale (for long runs)")
	out := f.String("out", "", "directory to write convergence.csv and convergence.svg into")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	switch {
	case (p.Edges == "") == (p.N == 0):
		return usageError{"lab convergence: give --edges FILE or --synthetic N"}
	case *out == "":
		return usageError{"lab convergence: --out DIR is required"}
	case p.Teleport <= 0 || p.AvgOut <= 0 || p.Seed == 0:
		return usageError{"lab convergence: --teleport, --avg-out and --seed must be positive"}
	case p.Steps < 0 || p.Every < 0 || (labFlagGiven(f, "steps") && p.Steps == 0) || (labFlagGiven(f, "every") && p.Every == 0):
		return usageError{"lab convergence: --steps and --every must be positive"}
	}
	for _, s := range strings.Split(*strategies, ",") {
		if s = strings.TrimSpace(s); s != "" {
			p.Strategies = append(p.Strategies, s)
		}
	}
	if len(p.Strategies) == 0 {
		return usageError{"lab convergence: --strategies names no strategy"}
	}
	if p.Edges != "" {
		p.N = 0
	}
	if err := p.Check(); err != nil {
		return labUsageError(err)
	}
	lg, err := labGraph(&p)
	if err != nil {
		return err
	}
	if err := p.FillSteps(lg.Graph.N); err != nil {
		return labUsageError(err)
	}
	bar := newLabProgress(c.Stderr, "lab convergence: reads")
	res, err := lab.RunConvergence(ctx, p, lg, bar.update)
	bar.done()
	if err != nil {
		return labUsageError(err)
	}
	return c.finishLab(*out, res)
}

// labGraph reads or builds the graph of a convergence run.
func labGraph(p *lab.ConvergenceParams) (lab.Graph, error) {
	if p.Graph != lab.GraphEdges {
		return lab.SyntheticGraph(p), nil
	}
	el, err := ranking.ReadEdgeList(p.Edges, sites.RuleHost)
	if err != nil {
		return lab.Graph{}, err
	}
	return lab.EdgeListGraph(el, p.Edges, p.Weighting)
}

func (c CLI) labWindows(ctx context.Context, args []string) error {
	f := c.newFlags("lab windows")
	var p lab.WindowsParams
	f.IntVar(&p.N, "synthetic", 0, "nodes of the synthetic power-law graph (required)")
	f.Float64Var(&p.AvgOut, "avg-out", 8, "mean out-degree of the synthetic graph")
	rate := f.Float64("change-rate", -1, "share of the graph changed every N reads: R·N nodes replaced and R·arcs rewired (required, 0 to 1)")
	f.IntVar(&p.Steps, "steps", 0, "reads (default 10·N)")
	f.IntVar(&p.Every, "every", 0, "reads between two measures (default steps/20)")
	f.Float64Var(&p.Window, "window", 0, "window T of the fixed windows and interpolation, in reads (default 4·N)")
	f.IntVar(&p.Measures, "measures", 4, "measures k of the variable window")
	f.IntVar(&p.MinMeasures, "min-measures", 3, "least measures a node keeps in the improved fixed window")
	f.Float64Var(&p.Teleport, "teleport", importance.DefaultTeleport, "teleport share")
	f.Uint64Var(&p.Seed, "seed", 1, "seed of the graph and of its changes")
	f.BoolVar(&p.LogX, "log-x", false, "plot the reads on a log scale")
	out := f.String("out", "", "directory to write windows.csv and windows.svg into")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	switch {
	case p.N == 0:
		return usageError{"lab windows: --synthetic N is required"}
	case !labFlagGiven(f, "change-rate"):
		return usageError{"lab windows: --change-rate R is required"}
	case *out == "":
		return usageError{"lab windows: --out DIR is required"}
	case p.Teleport <= 0 || p.AvgOut <= 0 || p.Seed == 0 || p.Measures <= 0 || p.MinMeasures <= 0:
		return usageError{"lab windows: --teleport, --avg-out, --seed, --measures and --min-measures must be positive"}
	case p.Steps < 0 || p.Every < 0 || (labFlagGiven(f, "steps") && p.Steps == 0) || (labFlagGiven(f, "every") && p.Every == 0) || (labFlagGiven(f, "window") && p.Window <= 0):
		return usageError{"lab windows: --steps, --every and --window must be positive"}
	}
	p.ChangeRate = rate
	if err := p.Check(); err != nil {
		return labUsageError(err)
	}
	bar := newLabProgress(c.Stderr, "lab windows: reads")
	res, err := lab.RunWindows(ctx, p, bar.update)
	bar.done()
	if err != nil {
		return labUsageError(err)
	}
	return c.finishLab(*out, res)
}

func (c CLI) labNormLeak(ctx context.Context, args []string) error {
	f := c.newFlags("lab normleak")
	var p lab.NormLeakParams
	f.IntVar(&p.Iterations, "iterations", 20, "power iterations")
	f.Float64Var(&p.Damping, "damping", importance.DefaultTeleport, "dampening factor d (the teleport probability), in (0, 1]")
	out := f.String("out", "", "directory to write normleak.csv and normleak.svg into")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	switch {
	case *out == "":
		return usageError{"lab normleak: --out DIR is required"}
	case p.Iterations <= 0 || p.Damping <= 0:
		return usageError{"lab normleak: --iterations and --damping must be positive"}
	}
	if err := p.Check(); err != nil {
		return labUsageError(err)
	}
	res, err := lab.RunNormLeak(p)
	if err != nil {
		return labUsageError(err)
	}
	return c.finishLab(*out, res)
}

// finishLab writes an experiment's files and prints its summary.
func (c CLI) finishLab(dir string, res *lab.Output) error {
	if err := lab.WriteFiles(dir, res.Files); err != nil {
		return err
	}
	for _, l := range res.Summary {
		fmt.Fprintln(c.Stdout, l)
	}
	for _, f := range res.Files {
		fmt.Fprintf(c.Stdout, "wrote %s\n", filepath.Join(dir, f.Name))
	}
	return nil
}

// labFlagGiven reports whether the flag was given on the command line.
func labFlagGiven(f flags, name string) bool {
	set := false
	f.Visit(func(fl *flag.Flag) {
		if fl.Name == name {
			set = true
		}
	})
	return set
}

// labProgress draws an experiment's progress on one line of a terminal,
// or prints a line every few seconds elsewhere.
type labProgress struct {
	statusLine
	label string
	start time.Time
}

func newLabProgress(w io.Writer, label string) *labProgress {
	return &labProgress{statusLine: newStatusLine(w, 5*time.Second), label: label, start: time.Now()}
}

func (p *labProgress) update(done, total int) {
	if !p.due(done >= total) {
		return
	}
	frac := 1.0
	if total > 0 {
		frac = float64(done) / float64(total)
	}
	p.show(fmt.Sprintf("%s: %5.1f%% (%d/%d) %.0fs", p.label, 100*frac, done, total, time.Since(p.start).Seconds()))
}

// Bounds of a synthetic graph of lab seeds: the extraction keeps two
// copies of the graph and its reverse, about 40 bytes an arc.
const (
	maxSeedsNodes = 10_000_000
	maxSeedsArcs  = 50_000_000
)

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// labSeeds runs `sitesift lab seeds`: the seeds paper's evaluation on an
// edge list or a project, written as CSV files (and plots) into --out.
func (c CLI) labSeeds(ctx context.Context, args []string) error {
	f := c.newFlags("lab seeds")
	edges := f.String("edges", "", "edge list to evaluate on (SRC DST [WEIGHT] a line; see sitesift import)")
	dir := f.project
	synthetic := f.Int("synthetic", 0, "evaluate on a synthetic power-law graph of N nodes (binary links)")
	avgOut := f.Float64("avg-out", 8, "with --synthetic: mean out-degree")
	draws := f.Int("random-draws", lab.DefaultRandomDraws, "random seed lists the seeds' crawl is compared with (draw i uses --seed + i)")
	count := f.Int("count", communities.DefaultCommunityCount, "number of seeds to extract")
	out := f.String("out", "", "directory to write the results into (created)")
	def := importance.DefaultCoreOptions()
	density := f.Float64("density", def.CoverDensity, "least cover density of a core, in percent")
	coreSize := f.Int("core-size", 0, "grow each core to this many members instead (fixed-size extraction)")
	newMembers := f.Int("new-members", 1, "with --core-size: hubs and authorities added per step")
	iterations := f.Int("hits-iterations", def.HITS.MaxIter, "HITS iterations before each core (1..1000)")
	minHubs := f.Int("min-hubs", def.MinHubs, "fewest hubs a core must have to count as a community")
	minAuths := f.Int("min-authorities", def.MinAuthorities, "fewest authorities a core must have to count as a community")
	sources := f.Int("distance-sources", lab.DefaultDistanceSources, "BFS sources sampled to estimate the average distance")
	seed := f.Uint64("seed", 1, "random seed of the random seeds and the distance sample")
	maxDepth := f.Int("max-depth", -1, "depth at which the simulated crawls stop (-1: when nothing new is reached)")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	set := map[string]bool{}
	f.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case btoi(*edges != "")+btoi(*dir != "")+btoi(set["synthetic"]) != 1:
		return usageError{"lab seeds: give one of --edges FILE, --project DIR or --synthetic N"}
	case set["synthetic"] && (*synthetic < 2 || *synthetic > maxSeedsNodes):
		return usageError{fmt.Sprintf("lab seeds: --synthetic %d must lie in 2..%d", *synthetic, maxSeedsNodes)}
	case set["avg-out"] && !set["synthetic"]:
		return usageError{"lab seeds: --avg-out goes with --synthetic"}
	case !(*avgOut > 0) || float64(*synthetic)**avgOut > maxSeedsArcs:
		return usageError{fmt.Sprintf("lab seeds: --avg-out %g must be positive, with at most %d arcs in all", *avgOut, maxSeedsArcs)}
	case *draws <= 0 || *draws > 100_000:
		return usageError{fmt.Sprintf("lab seeds: --random-draws %d must lie in 1..100000", *draws)}
	case *out == "":
		return usageError{"lab seeds: --out DIR is required"}
	case *count <= 0:
		return usageError{fmt.Sprintf("lab seeds: --count %d must be positive", *count)}
	case *sources <= 0:
		return usageError{fmt.Sprintf("lab seeds: --distance-sources %d must be positive", *sources)}
	case set["density"] && set["core-size"]:
		return usageError{"lab seeds: --density and --core-size are exclusive"}
	case set["new-members"] && !set["core-size"]:
		return usageError{"lab seeds: --new-members goes with --core-size"}
	case *newMembers <= 0:
		return usageError{fmt.Sprintf("lab seeds: --new-members %d must be positive", *newMembers)}
	}
	opt := lab.SeedEvalOptions{Count: *count, Cores: def, DistanceSources: *sources, RandomSeed: *seed, MaxDepth: *maxDepth,
		RandomDraws: *draws}
	opt.Cores.HITS.MaxIter, opt.Cores.CoverDensity, opt.Cores.CoreSize, opt.Cores.NewMembers =
		*iterations, *density, *coreSize, *newMembers
	opt.Cores.MinHubs, opt.Cores.MinAuthorities = *minHubs, *minAuths
	if err := communities.CheckCoreOptions(opt.Cores); err != nil {
		return usageError{"lab seeds: " + err.Error()}
	}

	var gs lab.SeedGraphs
	var labels []string
	source := *edges
	if set["synthetic"] {
		source = fmt.Sprintf("synthetic, N = %d, mean out-degree %g, seed %d", *synthetic, *avgOut, *seed)
		gs, labels = lab.SyntheticSeedGraphs(*synthetic, *avgOut, *seed)
	} else if *edges != "" {
		el, err := edgelist.ReadFile(*edges)
		if err != nil {
			return err
		}
		if gs, labels, err = lab.EdgeListSeedGraphs(el, *edges); err != nil {
			return err
		}
	} else {
		source = *dir
		err := c.readProject(*dir, func(a *app.App) error {
			var err error
			gs, labels, err = a.Lab.SeedGraphs(ctx)
			return err
		})
		if err != nil {
			return err
		}
	}

	ev, err := lab.EvaluateSeeds(gs, opt)
	if err != nil {
		return fmt.Errorf("lab seeds: %w", err)
	}
	res, err := lab.SeedsOutput(ev, labels, opt, source)
	if err != nil {
		return err
	}
	return c.finishLab(*out, res)
}
