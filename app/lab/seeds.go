package lab

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"time"

	"sitesift/app/plot"
	"sitesift/importance"
	"sitesift/sites/edgelist"
)

// SeedEvalOptions sets up [EvaluateSeeds].
type SeedEvalOptions struct {
	// Count is the number of seeds to extract.
	Count int
	// Cores sets up the extraction; importance.DefaultCoreOptions is the
	// paper's.
	Cores importance.CoreOptions
	// DistanceSources is the number of BFS sources of the average-distance
	// estimate (importance.AverageDistance); 0 means
	// DefaultDistanceSources.
	DistanceSources int
	// RandomSeed seeds the draw of the random seeds and of the distance
	// sources, so a run can be repeated exactly.
	RandomSeed uint64
	// MaxDepth bounds the simulated crawls; < 0 crawls until no new page
	// is reached.
	MaxDepth int
}

// DefaultDistanceSources is the default sample of the average-distance
// estimate: on the graphs sitesift meets (thousands to a few hundred
// thousand nodes) a thousand BFS runs give the mean to about 1%, and it is
// exact on graphs of fewer nodes.
const DefaultDistanceSources = 1000

// SeedGraphs are the graphs of a seed evaluation: the seeds are extracted
// from Extract and measured on Eval. For a project, Extract is the page
// graph without the links inside sites (the method's input) and Eval the
// whole page graph, as the seeds paper estimates distances and crawls on
// the unpruned graph. ToEval maps a node of Extract to its node of Eval;
// nil when the two are one graph.
type SeedGraphs struct {
	Extract, Eval *importance.Graph
	ToEval        []int
}

// SeedEval is the evaluation of the seeds paper (section 3.5) on one graph.
type SeedEval struct {
	// Nodes and Arcs are the size of the evaluation graph; ExtractArcs the
	// links the extraction ran on.
	Nodes, Arcs, ExtractArcs int
	// Cores are the extracted cores, in order, with node ids of the
	// evaluation graph; Seeds their seeds.
	Cores []importance.Core
	Seeds []int
	// Extraction is how long Extract-Seeds took.
	Extraction time.Duration
	// CoreDistances[i][j] is the shortest directed path from core i to
	// core j, -1 when there is none (importance.CoreDistances).
	CoreDistances [][]int
	// Distance is the estimated average connected distance of the graph.
	Distance importance.DistanceEstimate
	// RandomSeeds are as many random nodes with out-links as there are
	// seeds (importance.RandomSeeds).
	RandomSeeds []int
	// SeedCrawl and RandomCrawl are the simulated BFS crawls from Seeds
	// and from RandomSeeds, scored by the PageRank of the graph.
	SeedCrawl, RandomCrawl []importance.CrawlDepth
}

// EvaluateSeeds extracts opt.Count seeds from gs.Extract and measures them
// on gs.Eval as the seeds paper does: the cores' sizes, the distances
// between cores against the graph's average distance, and a BFS crawl from
// the seeds against one from as many random seeds, by the PageRank
// (importance.PageRank, default options) of the pages each visits per depth.
func EvaluateSeeds(gs SeedGraphs, opt SeedEvalOptions) (SeedEval, error) {
	if opt.DistanceSources == 0 {
		opt.DistanceSources = DefaultDistanceSources
	}
	g := gs.Eval
	ev := SeedEval{Nodes: g.N, Arcs: g.Arcs(), ExtractArcs: gs.Extract.Arcs()}
	start := time.Now()
	cores, err := importance.ExtractSeeds(gs.Extract, opt.Count, opt.Cores)
	if err != nil {
		return ev, err
	}
	ev.Extraction = time.Since(start)
	toEval := func(ids []int) []int {
		if gs.ToEval == nil {
			return ids
		}
		out := make([]int, len(ids))
		for i, v := range ids {
			out[i] = gs.ToEval[v]
		}
		return out
	}
	for _, c := range cores {
		c.Hubs, c.Authorities = toEval(c.Hubs), toEval(c.Authorities)
		c.Seed = toEval([]int{c.Seed})[0]
		ev.Cores = append(ev.Cores, c)
		ev.Seeds = append(ev.Seeds, c.Seed)
	}
	if ev.CoreDistances, err = importance.CoreDistances(g, ev.Cores); err != nil {
		return ev, err
	}
	ev.Distance = importance.AverageDistance(g, opt.DistanceSources, opt.RandomSeed)
	pr, err := importance.PageRank(g, importance.DefaultPageRankOptions())
	if err != nil && !errors.Is(err, importance.ErrNotConverged) {
		return ev, err
	}
	// Compare equal numbers of seeds: fewer cores than asked for means
	// fewer random seeds too.
	ev.RandomSeeds = importance.RandomSeeds(g, len(ev.Seeds), opt.RandomSeed)
	if ev.SeedCrawl, err = importance.SimulateBFS(g, ev.Seeds, pr.Rank, opt.MaxDepth); err != nil {
		return ev, err
	}
	if ev.RandomCrawl, err = importance.SimulateBFS(g, ev.RandomSeeds, pr.Rank, opt.MaxDepth); err != nil {
		return ev, err
	}
	return ev, nil
}

// CoreDistanceStats summarises the distances between distinct cores:
// the least, mean and greatest over the ordered pairs joined by a path, how
// many pairs that is and how many have none.
func (ev SeedEval) CoreDistanceStats() (least int, mean float64, most, pairs, unreachable int) {
	sum := 0
	for i, row := range ev.CoreDistances {
		for j, d := range row {
			switch {
			case i == j:
			case d < 0:
				unreachable++
			default:
				if pairs == 0 || d < least {
					least = d
				}
				most = max(most, d)
				sum += d
				pairs++
			}
		}
	}
	if pairs > 0 {
		mean = float64(sum) / float64(pairs)
	}
	return least, mean, most, pairs, unreachable
}

// EdgeListSeedGraphs makes the graphs of a seed evaluation on the edge
// list el read from the file path: one graph, both extracted from and
// measured on, and the labels of its nodes.
func EdgeListSeedGraphs(el *edgelist.Graph, path string) (SeedGraphs, []string, error) {
	wes := make([]importance.WeightedEdge, len(el.From))
	for k := range wes {
		wes[k] = importance.WeightedEdge{From: int(el.From[k]), To: int(el.To[k]), Weight: 1}
	}
	g, err := importance.NewGraph(len(el.Names), wes)
	if err != nil {
		return SeedGraphs{}, nil, fmt.Errorf("lab seeds: %s: %w", path, err)
	}
	// Repeated edges of the file are one link: HITS and the crawl
	// count a linked pair once.
	g = g.Binary()
	return SeedGraphs{Extract: g, Eval: g}, el.Names, nil
}

// crawlSummary compares the two simulated crawls in a few lines.
func crawlSummary(ev SeedEval) []string {
	var lines []string
	for d := 0; d < max(len(ev.SeedCrawl), len(ev.RandomCrawl)) && d <= 4; d++ {
		s, r := depthAt(ev.SeedCrawl, d), depthAt(ev.RandomCrawl, d)
		lines = append(lines, fmt.Sprintf("depth %d: seeds visit %d pages (mean PageRank %.3g), random seeds %d (%.3g)",
			d, s.Visited, s.MeanScore, r.Visited, r.MeanScore))
	}
	return lines
}

// depthAt returns depth d of a crawl, zero when the crawl ended before it.
func depthAt(crawl []importance.CrawlDepth, d int) importance.CrawlDepth {
	if d < len(crawl) {
		return crawl[d]
	}
	total := 0
	if len(crawl) > 0 {
		total = crawl[len(crawl)-1].Total
	}
	return importance.CrawlDepth{Depth: d, Total: total}
}

// SeedsOutput turns an evaluation into the experiment's files: four CSV
// files (summary, cores, core_distances, bfs_crawl) and four plots
// after the paper's figures 4–8: core sizes per iteration, each core's
// distance to the others against the graph's average distance, and the two
// simulated crawls' mean PageRank and pages visited per depth.
func SeedsOutput(ev SeedEval, labels []string, opt SeedEvalOptions, source string) (*Output, error) {
	least, mean, most, pairs, unreachable := ev.CoreDistanceStats()
	summary := [][]string{
		{"key", "value"},
		{"source", source},
		{"nodes", strconv.Itoa(ev.Nodes)},
		{"links", strconv.Itoa(ev.Arcs)},
		{"links_extracted_from", strconv.Itoa(ev.ExtractArcs)},
		{"seeds_asked", strconv.Itoa(opt.Count)},
		{"cores", strconv.Itoa(len(ev.Cores))},
		{"cover_density", num(opt.Cores.CoverDensity)},
		{"core_size", strconv.Itoa(opt.Cores.CoreSize)},
		{"hits_iterations", strconv.Itoa(opt.Cores.HITS.MaxIter)},
		{"extraction_seconds", num(ev.Extraction.Seconds())},
		{"average_distance", num(ev.Distance.Mean)},
		{"average_distance_sources", strconv.Itoa(ev.Distance.Sources)},
		{"average_distance_pairs", strconv.FormatInt(ev.Distance.Pairs, 10)},
		{"longest_distance_seen", strconv.Itoa(ev.Distance.Max)},
		{"core_distance_min", strconv.Itoa(least)},
		{"core_distance_mean", num(mean)},
		{"core_distance_max", strconv.Itoa(most)},
		{"core_pairs_with_path", strconv.Itoa(pairs)},
		{"core_pairs_without_path", strconv.Itoa(unreachable)},
		{"random_seed", strconv.FormatUint(opt.RandomSeed, 10)},
	}

	cores := [][]string{{"core", "seed", "hubs", "authorities", "cover_density", "arcs", "hub_score"}}
	var it, hubs, auths []float64
	for i, c := range ev.Cores {
		cores = append(cores, []string{strconv.Itoa(i), labels[c.Seed], strconv.Itoa(len(c.Hubs)),
			strconv.Itoa(len(c.Authorities)), num(c.Density), strconv.Itoa(c.Arcs), num(c.SeedHub)})
		it = append(it, float64(i))
		hubs, auths = append(hubs, float64(len(c.Hubs))), append(auths, float64(len(c.Authorities)))
	}
	sizes := plot.Chart{Title: fmt.Sprintf("Hubs and authorities of the cores extracted from %s", filepath.Base(source)),
		XLabel: "iteration (core)", YLabel: "members", LogY: true,
		Series: []plot.Series{{Name: "hubs", X: it, Y: hubs}, {Name: "authorities", X: it, Y: auths}}}

	dist := [][]string{{"from_core", "to_core", "distance"}}
	var toNearest, toMean, avg []float64
	for i, row := range ev.CoreDistances {
		nearest, sum, n := math.Inf(1), 0, 0
		for j, d := range row {
			if i == j {
				continue
			}
			dist = append(dist, []string{strconv.Itoa(i), strconv.Itoa(j), strconv.Itoa(d)})
			if d >= 0 {
				nearest, sum, n = math.Min(nearest, float64(d)), sum+d, n+1
			}
		}
		meanI := math.NaN() // no other core reachable: a gap in the line
		if n > 0 {
			meanI = float64(sum) / float64(n)
		} else {
			nearest = math.NaN()
		}
		toNearest, toMean = append(toNearest, nearest), append(toMean, meanI)
		avg = append(avg, ev.Distance.Mean)
	}
	// From 0, so that distances of 1 do not sit on the frame.
	top := ev.Distance.Mean
	for _, v := range toMean {
		if !math.IsNaN(v) {
			top = math.Max(top, v)
		}
	}
	distances := plot.Chart{Title: "Distance from each core to the other cores", XLabel: "iteration (core)",
		YLabel: "shortest directed path (links)", YMin: 0, YMax: math.Ceil(top) + 1, Series: []plot.Series{
			{Name: "mean over the cores reached", X: it, Y: toMean},
			{Name: "nearest core", X: it, Y: toNearest},
			{Name: "graph average distance", X: it, Y: avg, Dash: true},
		}}

	crawl := [][]string{{"depth", "seeds_visited", "seeds_total", "seeds_mean_pagerank",
		"random_visited", "random_total", "random_mean_pagerank"}}
	var depth, sv, rv, sp, rp []float64
	for d := 0; d < max(len(ev.SeedCrawl), len(ev.RandomCrawl)); d++ {
		s, r := depthAt(ev.SeedCrawl, d), depthAt(ev.RandomCrawl, d)
		crawl = append(crawl, []string{strconv.Itoa(d),
			strconv.Itoa(s.Visited), strconv.Itoa(s.Total), num(s.MeanScore),
			strconv.Itoa(r.Visited), strconv.Itoa(r.Total), num(r.MeanScore)})
		depth = append(depth, float64(d))
		sv, rv = append(sv, float64(s.Visited)), append(rv, float64(r.Visited))
		sp, rp = append(sp, meanOrGap(s)), append(rp, meanOrGap(r))
	}
	k := len(ev.Seeds)
	seedsName, randomName := fmt.Sprintf("%d extracted seeds", k), fmt.Sprintf("%d random seeds", k)
	rank := plot.Chart{Title: "Mean PageRank of the pages a BFS crawl visits at each depth",
		XLabel: "crawl depth", YLabel: "mean PageRank", Series: []plot.Series{
			{Name: seedsName, X: depth, Y: sp}, {Name: randomName, X: depth, Y: rp}}}
	visited := plot.Chart{Title: "Pages a BFS crawl visits at each depth", XLabel: "crawl depth",
		YLabel: "pages visited", LogY: true, Series: []plot.Series{
			{Name: seedsName, X: depth, Y: sv}, {Name: randomName, X: depth, Y: rv}}}

	out, err := newOutput(Seeds,
		file{"summary.csv", summary, nil},
		file{"cores.csv", cores, nil}, file{"cores.svg", nil, &sizes},
		file{"core_distances.csv", dist, nil}, file{"core_distances.svg", nil, &distances},
		file{"bfs_crawl.csv", crawl, nil}, file{"bfs_pagerank.svg", nil, &rank}, file{"bfs_visited.svg", nil, &visited})
	if err != nil {
		return nil, err
	}
	out.Summary = append(out.Summary,
		fmt.Sprintf("graph %s: %d nodes, %d links (%d between sites); %d cores in %.2fs",
			source, ev.Nodes, ev.Arcs, ev.ExtractArcs, len(ev.Cores), ev.Extraction.Seconds()),
		fmt.Sprintf("core distances: min %d, mean %.2f, max %d over %d pairs (%d without a path); "+
			"graph average distance %.2f (%d sources)", least, mean, most, pairs, unreachable,
			ev.Distance.Mean, ev.Distance.Sources))
	out.Summary = append(out.Summary, crawlSummary(ev)...)
	return out, nil
}

// meanOrGap is the mean score of a depth, NaN (a gap in the plot) when the
// crawl visited nothing there.
func meanOrGap(d importance.CrawlDepth) float64 {
	if d.Visited == 0 {
		return math.NaN()
	}
	return d.MeanScore
}
