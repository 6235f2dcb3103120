package app

import (
	"context"
	"flag"
	"fmt"
	"slices"

	"sitesift/app/lab"
	"sitesift/importance"
	"sitesift/sites/edgelist"
)

// labSeeds runs `sitesift lab seeds`: the seeds paper's evaluation on an
// edge list or a project, written as CSV files (and plots) into --out.
func (c CLI) labSeeds(ctx context.Context, args []string) error {
	f := c.newFlags("lab seeds")
	edges := f.String("edges", "", "edge list to evaluate on (SRC DST [WEIGHT] a line; see sitesift import)")
	dir := f.String("project", "", "project whose page graph to evaluate on")
	count := f.Int("count", DefaultCommunityCount, "number of seeds to extract")
	out := f.String("out", "", "directory to write the results into (created)")
	def := importance.DefaultCoreOptions()
	density := f.Float64("density", def.CoverDensity, "least cover density of a core, in percent")
	coreSize := f.Int("core-size", 0, "grow each core to this many members instead (fixed-size extraction)")
	newMembers := f.Int("new-members", 1, "with --core-size: hubs and authorities added per step")
	iterations := f.Int("hits-iterations", def.HITS.MaxIter, "HITS iterations before each core")
	sources := f.Int("distance-sources", lab.DefaultDistanceSources, "BFS sources sampled to estimate the average distance")
	seed := f.Uint64("seed", 1, "random seed of the random seeds and the distance sample")
	maxDepth := f.Int("max-depth", -1, "depth at which the simulated crawls stop (-1: when nothing new is reached)")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	set := map[string]bool{}
	f.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case (*edges == "") == (*dir == ""):
		return usageError{"lab seeds: give --edges FILE or --project DIR"}
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
	opt := lab.SeedEvalOptions{Count: *count, Cores: def, DistanceSources: *sources, RandomSeed: *seed, MaxDepth: *maxDepth}
	opt.Cores.HITS.MaxIter, opt.Cores.CoverDensity, opt.Cores.CoreSize, opt.Cores.NewMembers =
		*iterations, *density, *coreSize, *newMembers
	if err := CheckCoreOptions(opt.Cores); err != nil {
		return usageError{"lab seeds: " + err.Error()}
	}

	var gs lab.SeedGraphs
	var labels []string
	source := *edges
	if *edges != "" {
		el, err := edgelist.ReadFile(*edges)
		if err != nil {
			return err
		}
		if gs, labels, err = lab.EdgeListSeedGraphs(el, *edges); err != nil {
			return err
		}
	} else {
		source = *dir
		err := c.withProject(*dir, func(a *App) error {
			var err error
			gs, labels, err = a.seedGraphs(ctx)
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

// seedGraphs reads the two graphs of a project's evaluation: the page
// graph the method runs on, and the whole page graph, whose URLs label the
// results.
func (a *App) seedGraphs(ctx context.Context) (lab.SeedGraphs, []string, error) {
	cg, err := a.loadCommunityGraph(ctx)
	if err != nil {
		return lab.SeedGraphs{}, nil, err
	}
	urls, arcs, err := a.store.FullPageGraph(ctx)
	if err != nil {
		return lab.SeedGraphs{}, nil, err
	}
	wes := make([]importance.WeightedEdge, len(arcs))
	for i, arc := range arcs {
		wes[i] = importance.WeightedEdge{From: int(arc[0]), To: int(arc[1]), Weight: 1}
	}
	full, err := importance.NewGraph(len(urls), wes)
	if err != nil {
		return lab.SeedGraphs{}, nil, fmt.Errorf("lab seeds: %w", err)
	}
	// Both URL lists are sorted, and every node of the pruned graph is one
	// of the whole graph.
	toEval := make([]int, len(cg.urls))
	for i, u := range cg.urls {
		j, ok := slices.BinarySearch(urls, u)
		if !ok {
			return lab.SeedGraphs{}, nil, fmt.Errorf("lab seeds: %s is in the pruned page graph only", u)
		}
		toEval[i] = j
	}
	return lab.SeedGraphs{Extract: cg.g, Eval: full, ToEval: toEval}, urls, nil
}
