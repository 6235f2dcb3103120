package lab

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
	// RandomDraws is the number of random seed lists the seeds' crawl is
	// compared with; 0 means DefaultRandomDraws. Draw i uses the random
	// seed RandomSeed+i.
	RandomDraws int
}

// DefaultRandomDraws is the default number of random seed lists: one draw
// (the paper's figure) says little, as a second draw can come out the
// other way; with 100 the 5–95% range of the draws and the 95% confidence
// interval of their mean are read to about a percent.
const DefaultRandomDraws = 100

// TopFraction is the share of the nodes, by PageRank, whose reach per depth
// the evaluation reports beside the mean PageRank: the top 1%.
const TopFraction = 0.01

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
	// Draws are the crawls from all the random seed lists, RandomSeeds
	// and RandomCrawl being the first.
	Draws []SeedDraw
	// TopCount is the number of nodes in the top TopFraction by PageRank;
	// SeedTop[d] how many of them the seeds' crawl visited up to depth d.
	TopCount int
	SeedTop  []int
}

// SeedDraw is the crawl from one random seed list.
type SeedDraw struct {
	Seeds []int
	Crawl []importance.CrawlDepth
	// Top[d] is how many of the top TopFraction nodes by PageRank the
	// crawl visited up to depth d.
	Top []int
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
	if opt.RandomDraws <= 0 {
		opt.RandomDraws = DefaultRandomDraws
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
	top := importance.TopNodes(pr.Rank, TopFraction)
	for _, t := range top {
		if t {
			ev.TopCount++
		}
	}
	if ev.SeedCrawl, err = importance.SimulateBFS(g, ev.Seeds, pr.Rank, opt.MaxDepth); err != nil {
		return ev, err
	}
	if ev.SeedTop, err = importance.MarkedReached(g, ev.Seeds, top, opt.MaxDepth); err != nil {
		return ev, err
	}
	// Compare equal numbers of seeds: fewer cores than asked for means
	// fewer random seeds too.
	for i := range uint64(opt.RandomDraws) {
		var d SeedDraw
		d.Seeds = importance.RandomSeeds(g, len(ev.Seeds), opt.RandomSeed+i)
		if d.Crawl, err = importance.SimulateBFS(g, d.Seeds, pr.Rank, opt.MaxDepth); err != nil {
			return ev, err
		}
		if d.Top, err = importance.MarkedReached(g, d.Seeds, top, opt.MaxDepth); err != nil {
			return ev, err
		}
		ev.Draws = append(ev.Draws, d)
	}
	ev.RandomSeeds, ev.RandomCrawl = ev.Draws[0].Seeds, ev.Draws[0].Crawl
	return ev, nil
}

// Band sums up the random draws' values of one measure at one depth
// against the seeds' value there.
type Band struct {
	// Draws counts the draws with a value (a crawl that reached no page at
	// a depth has no mean PageRank there).
	Draws int
	// Mean is the draws' mean; Lo95 and Hi95 its 95% confidence interval
	// under the normal approximation (mean ± 1.96·sd/√Draws).
	Mean, Lo95, Hi95 float64
	// P5 and P95 are the 5th and 95th percentiles of the draws (linear
	// interpolation between order statistics).
	P5, P95 float64
	// Below and Above count the draws whose value is below, or above, the
	// seeds' value.
	Below, Above int
}

// band sums up vals (NaN values left out) against the seeds' value ref.
func band(vals []float64, ref float64) Band {
	var xs []float64
	for _, v := range vals {
		if !math.IsNaN(v) {
			xs = append(xs, v)
		}
	}
	b := Band{Draws: len(xs), Mean: math.NaN(), Lo95: math.NaN(), Hi95: math.NaN(), P5: math.NaN(), P95: math.NaN()}
	if len(xs) == 0 {
		return b
	}
	slices.Sort(xs)
	var sum float64
	for _, v := range xs {
		sum += v
		if v < ref {
			b.Below++
		} else if v > ref {
			b.Above++
		}
	}
	b.Mean = sum / float64(len(xs))
	var ss float64
	for _, v := range xs {
		ss += (v - b.Mean) * (v - b.Mean)
	}
	half := 0.0
	if len(xs) > 1 {
		half = 1.96 * math.Sqrt(ss/float64(len(xs)-1)/float64(len(xs)))
	}
	b.Lo95, b.Hi95 = b.Mean-half, b.Mean+half
	b.P5, b.P95 = quantile(xs, 0.05), quantile(xs, 0.95)
	return b
}

// quantile is the q-quantile of sorted xs, interpolating linearly between
// order statistics.
func quantile(xs []float64, q float64) float64 {
	pos := q * float64(len(xs)-1)
	i := int(pos)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + (pos-float64(i))*(xs[i+1]-xs[i])
}

// Measures of a crawl per depth, as the evaluation compares them.
const (
	MeasureMeanPageRank = "mean_pagerank" // mean PageRank of the pages first visited at the depth
	MeasureTopShare     = "top1pct_share" // share of the top 1% by PageRank visited up to the depth
	MeasureVisited      = "visited"       // pages first visited at the depth
)

// DepthBand is one measure at one depth: the seeds' value and the random
// draws' band.
type DepthBand struct {
	Depth   int
	Measure string
	Seeds   float64
	Random  Band
}

// Bands compares the seeds' crawl with the random draws, per depth and
// measure, over as many depths as the longest crawl.
func (ev SeedEval) Bands() []DepthBand {
	depths := len(ev.SeedCrawl)
	for _, d := range ev.Draws {
		depths = max(depths, len(d.Crawl))
	}
	share := func(top []int, d int) float64 {
		if ev.TopCount == 0 || len(top) == 0 {
			return math.NaN()
		}
		return float64(top[min(d, len(top)-1)]) / float64(ev.TopCount)
	}
	var out []DepthBand
	for d := range depths {
		vals := make([][]float64, 3)
		for _, dr := range ev.Draws {
			c := depthAt(dr.Crawl, d)
			vals[0] = append(vals[0], meanOrGap(c))
			vals[1] = append(vals[1], share(dr.Top, d))
			vals[2] = append(vals[2], float64(c.Visited))
		}
		s := depthAt(ev.SeedCrawl, d)
		out = append(out,
			DepthBand{d, MeasureMeanPageRank, meanOrGap(s), band(vals[0], meanOrGap(s))},
			DepthBand{d, MeasureTopShare, share(ev.SeedTop, d), band(vals[1], share(ev.SeedTop, d))},
			DepthBand{d, MeasureVisited, float64(s.Visited), band(vals[2], float64(s.Visited))})
	}
	return out
}

// CoreShape is a shape of core, hubs × authorities, and how many cores
// have it.
type CoreShape struct{ Hubs, Authorities, Cores int }

// CoreShapes counts the cores by shape, by hubs then authorities.
func CoreShapes(cores []importance.Core) []CoreShape {
	n := map[[2]int]int{}
	for _, c := range cores {
		n[[2]int{len(c.Hubs), len(c.Authorities)}]++
	}
	var out []CoreShape
	for k, v := range n {
		out = append(out, CoreShape{k[0], k[1], v})
	}
	slices.SortFunc(out, func(a, b CoreShape) int {
		if a.Hubs != b.Hubs {
			return a.Hubs - b.Hubs
		}
		return a.Authorities - b.Authorities
	})
	return out
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

// SyntheticSeedGraphs makes the graph of a seed evaluation on
// importance.Synthetic(n, avgOut, seed), links counted once, and the labels
// of its nodes ("n0", "n1", ...).
func SyntheticSeedGraphs(n int, avgOut float64, seed uint64) (SeedGraphs, []string) {
	g := importance.Synthetic(n, avgOut, seed).Binary()
	labels := make([]string, n)
	for i := range labels {
		labels[i] = "n" + strconv.Itoa(i)
	}
	return SeedGraphs{Extract: g, Eval: g}, labels
}

// crawlSummary compares the seeds' crawl with the random draws at depths
// 0 to 4 in a few lines.
func crawlSummary(ev SeedEval, bands []DepthBand) []string {
	n := len(ev.Draws)
	lines := []string{fmt.Sprintf("BFS from the %d seeds against %d random draws of %d seeds "+
		"(random: mean of the draws [5–95%% of the draws] (95%% CI of the mean); draws below/above the seeds):",
		len(ev.Seeds), n, len(ev.Seeds))}
	for _, b := range bands {
		if b.Depth > 4 {
			break
		}
		r := b.Random
		f := "%.3g"
		if b.Measure == MeasureVisited {
			f = "%.0f"
		}
		lines = append(lines, fmt.Sprintf("depth %d %-13s seeds "+f+", random "+f+" ["+f+"–"+f+"] ("+f+"–"+f+"); %d/%d below, %d/%d above",
			b.Depth, b.Measure, b.Seeds, r.Mean, r.P5, r.P95, r.Lo95, r.Hi95, r.Below, r.Draws, r.Above, r.Draws))
	}
	return lines
}

// shapeSummary names the core shapes and their counts: "2×2: 5, 3×3: 2".
func shapeSummary(shapes []CoreShape) string {
	var parts []string
	for _, sh := range shapes {
		parts = append(parts, fmt.Sprintf("%d×%d: %d", sh.Hubs, sh.Authorities, sh.Cores))
	}
	return strings.Join(parts, ", ")
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

// SeedsOutput turns an evaluation into the experiment's files: CSV files
// (summary; cores and core_shapes, the cores by hubs × authorities;
// core_distances; bfs_crawl, the seeds against the first random draw;
// bfs_draws, the seeds against all the random draws per depth and measure;
// bfs_random_draws, every draw's crawl) and plots after the paper's
// figures 4–8: core sizes per iteration, each core's distance to the
// others against the graph's average distance, and per depth the mean
// PageRank, the share of the top 1% by PageRank reached and the pages
// visited, the seeds' against the random draws' mean, 5–95% range and 95%
// confidence interval of the mean.
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
		{"random_draws", strconv.Itoa(len(ev.Draws))},
		{"min_hubs", strconv.Itoa(opt.Cores.MinHubs)},
		{"min_authorities", strconv.Itoa(opt.Cores.MinAuthorities)},
		{"top1pct_nodes", strconv.Itoa(ev.TopCount)},
	}
	shapes := [][]string{{"hubs", "authorities", "cores"}}
	coreShapes := CoreShapes(ev.Cores)
	for _, sh := range coreShapes {
		shapes = append(shapes, []string{strconv.Itoa(sh.Hubs), strconv.Itoa(sh.Authorities), strconv.Itoa(sh.Cores)})
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
	for d := 0; d < max(len(ev.SeedCrawl), len(ev.RandomCrawl)); d++ {
		s, r := depthAt(ev.SeedCrawl, d), depthAt(ev.RandomCrawl, d)
		crawl = append(crawl, []string{strconv.Itoa(d),
			strconv.Itoa(s.Visited), strconv.Itoa(s.Total), num(s.MeanScore),
			strconv.Itoa(r.Visited), strconv.Itoa(r.Total), num(r.MeanScore)})
	}
	bands := ev.Bands()
	draws := [][]string{{"depth", "measure", "seeds", "random_mean", "random_ci95_low", "random_ci95_high",
		"random_p5", "random_p95", "random_draws", "draws_below_seeds", "draws_above_seeds"}}
	for _, b := range bands {
		r := b.Random
		draws = append(draws, []string{strconv.Itoa(b.Depth), b.Measure, num(b.Seeds), num(r.Mean), num(r.Lo95), num(r.Hi95),
			num(r.P5), num(r.P95), strconv.Itoa(r.Draws), strconv.Itoa(r.Below), strconv.Itoa(r.Above)})
	}
	each := [][]string{{"draw", "random_seed", "depth", "visited", "mean_pagerank", "top1pct_reached"}}
	for i, dr := range ev.Draws {
		for d, c := range dr.Crawl {
			each = append(each, []string{strconv.Itoa(i), strconv.FormatUint(opt.RandomSeed+uint64(i), 10), strconv.Itoa(d),
				strconv.Itoa(c.Visited), num(c.MeanScore), strconv.Itoa(dr.Top[d])})
		}
	}

	k, n := len(ev.Seeds), len(ev.Draws)
	bandChart := func(measure, title, ylabel string, logY bool) plot.Chart {
		var xs, sy, my, lo, hi, p5, p95 []float64
		for _, b := range bands {
			if b.Measure != measure {
				continue
			}
			xs, sy, my = append(xs, float64(b.Depth)), append(sy, b.Seeds), append(my, b.Random.Mean)
			lo, hi = append(lo, b.Random.Lo95), append(hi, b.Random.Hi95)
			p5, p95 = append(p5, b.Random.P5), append(p95, b.Random.P95)
		}
		seedsColor, randomColor, ciColor := plot.Palette[0], plot.Palette[1], plot.Palette[2]
		return plot.Chart{Title: title,
			Subtitle: fmt.Sprintf("%d extracted seeds against %d draws of %d random seeds", k, n, k),
			XLabel:   "crawl depth", YLabel: ylabel, LogY: logY, Series: []plot.Series{
				{Name: fmt.Sprintf("%d extracted seeds", k), X: xs, Y: sy, Color: seedsColor},
				{Name: "random seeds, mean of the draws", X: xs, Y: my, Color: randomColor},
				{Name: "random, 5th percentile", X: xs, Y: p5, Color: randomColor, Dash: true},
				{Name: "random, 95th percentile", X: xs, Y: p95, Color: randomColor, Dash: true},
				{Name: "random mean, 95% CI low", X: xs, Y: lo, Color: ciColor, Dash: true},
				{Name: "random mean, 95% CI high", X: xs, Y: hi, Color: ciColor, Dash: true},
			}}
	}
	rank := bandChart(MeasureMeanPageRank, "Mean PageRank of the pages a BFS crawl visits at each depth", "mean PageRank", false)
	topChart := bandChart(MeasureTopShare, "Share of the top 1% by PageRank a BFS crawl has visited by each depth", "share of the top 1%", false)
	topChart.YMin, topChart.YMax = 0, 1.05 // a share
	visited := bandChart(MeasureVisited, "Pages a BFS crawl visits at each depth", "pages visited", true)

	out, err := newOutput(Seeds,
		file{"summary.csv", summary, nil},
		file{"cores.csv", cores, nil}, file{"cores.svg", nil, &sizes}, file{"core_shapes.csv", shapes, nil},
		file{"core_distances.csv", dist, nil}, file{"core_distances.svg", nil, &distances},
		file{"bfs_crawl.csv", crawl, nil}, file{"bfs_draws.csv", draws, nil}, file{"bfs_random_draws.csv", each, nil},
		file{"bfs_pagerank.svg", nil, &rank}, file{"bfs_top1pct.svg", nil, &topChart}, file{"bfs_visited.svg", nil, &visited})
	if err != nil {
		return nil, err
	}
	out.Summary = append(out.Summary,
		fmt.Sprintf("graph %s: %d nodes, %d links (%d between sites); %d cores in %.2fs",
			source, ev.Nodes, ev.Arcs, ev.ExtractArcs, len(ev.Cores), ev.Extraction.Seconds()),
		fmt.Sprintf("core distances: min %d, mean %.2f, max %d over %d pairs (%d without a path); "+
			"graph average distance %.2f (%d sources)", least, mean, most, pairs, unreachable,
			ev.Distance.Mean, ev.Distance.Sources))
	out.Summary = append(out.Summary, "core shapes (hubs×authorities: cores): "+shapeSummary(coreShapes))
	out.Summary = append(out.Summary, crawlSummary(ev, bands)...)
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
