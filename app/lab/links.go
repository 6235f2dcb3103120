package lab

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"sitesift/importance"
)

// Links is the experiment that compares a project's two site graphs:
// editorial links and all links.
const Links = "links"

// DefaultLinksTop is how many of the top sites of each graph `lab links`
// lists side by side.
const DefaultLinksTop = 20

// LinkGraphs are a project's two site graphs over the same sites, by
// position: the editorial links, and all links.
type LinkGraphs struct {
	Names          []string
	Editorial, All *importance.Graph
}

// LinksOutput ranks the sites of both graphs by PageRank (teleport as the
// app's) and writes what tells them apart:
//
//   - links-top.csv: the top sites of each graph side by side, with their
//     PageRank and their place in the other graph;
//   - links-sites.csv: every site's PageRank, rank and in-linking sites
//     in both graphs;
//   - links-summary.csv: the graphs' sizes, and Spearman's and Kendall's
//     rank correlations and the top-K overlap of the two rankings over all
//     sites.
//
// source names the project in the summary.
func LinksOutput(gs LinkGraphs, top int, teleport float64, source string) (*Output, error) {
	n := len(gs.Names)
	if gs.Editorial.N != n || gs.All.N != n {
		return nil, fmt.Errorf("lab links: %d names for graphs of %d and %d sites", n, gs.Editorial.N, gs.All.N)
	}
	if top <= 0 {
		return nil, paramErrorf("links: --top %d must be positive", top)
	}
	opt := importance.DefaultPageRankOptions()
	opt.Teleport = teleport
	ed, err := importance.PageRank(gs.Editorial, opt)
	if err != nil {
		return nil, fmt.Errorf("lab links: editorial links: %w", err)
	}
	all, err := importance.PageRank(gs.All, opt)
	if err != nil {
		return nil, fmt.Errorf("lab links: all links: %w", err)
	}
	edRank, allRank := places(ed.Rank), places(all.Rank)
	edIn, allIn := inSites(gs.Editorial), inSites(gs.All)

	k := min(top, n)
	edTop, allTop := byPlace(edRank), byPlace(allRank)
	topRows := [][]string{{"place", "editorial_site", "editorial_pagerank", "its_place_on_all_links",
		"all_links_site", "all_links_pagerank", "its_place_on_editorial_links"}}
	for i := range k {
		e, a := edTop[i], allTop[i]
		topRows = append(topRows, []string{strconv.Itoa(i + 1),
			gs.Names[e], num(ed.Rank[e]), strconv.Itoa(allRank[e]),
			gs.Names[a], num(all.Rank[a]), strconv.Itoa(edRank[a])})
	}
	siteRows := [][]string{{"site", "pagerank_editorial", "place_editorial", "in_sites_editorial",
		"pagerank_all", "place_all", "in_sites_all"}}
	for _, u := range edTop {
		siteRows = append(siteRows, []string{gs.Names[u], num(ed.Rank[u]), strconv.Itoa(edRank[u]), strconv.Itoa(edIn[u]),
			num(all.Rank[u]), strconv.Itoa(allRank[u]), strconv.Itoa(allIn[u])})
	}
	spearman, kendall, overlap := 1.0, 1.0, 1.0
	if n > 1 {
		spearman = importance.Spearman(ed.Rank, all.Rank)
		kendall = importance.KendallTau(ed.Rank, all.Rank)
		overlap = importance.TopKOverlap(ed.Rank, all.Rank, k)
	}
	summary := [][]string{
		{"key", "value"},
		{"source", source},
		{"sites", strconv.Itoa(n)},
		{"edges_editorial", strconv.Itoa(gs.Editorial.Arcs())},
		{"edges_all", strconv.Itoa(gs.All.Arcs())},
		{"spearman", num(spearman)},
		{"kendall_tau", num(kendall)},
		{"top_k", strconv.Itoa(k)},
		{"top_k_overlap", num(overlap)},
	}
	out, err := newOutput(Links,
		file{name: "links-top.csv", rows: topRows},
		file{name: "links-sites.csv", rows: siteRows},
		file{name: "links-summary.csv", rows: summary})
	if err != nil {
		return nil, err
	}
	out.Summary = []string{
		fmt.Sprintf("%s: %d sites, %d site links on editorial links, %d on all links", source, n, gs.Editorial.Arcs(), gs.All.Arcs()),
		fmt.Sprintf("PageRank on editorial links against all links: Spearman %.3f, Kendall tau %.3f, top %d shared %.0f%%",
			spearman, kendall, k, 100*overlap),
	}
	return out, nil
}

// places gives each value its place among values, 1 for the highest;
// values within importance.TieTolerance of the highest apart share a
// place, as the app's rankings do.
func places(v []float64) []int {
	order := byValue(v)
	out := make([]int, len(v))
	top := 0.0
	if len(order) > 0 {
		top = v[order[0]]
	}
	for i, u := range order {
		if i > 0 && v[order[i-1]]-v[u] <= importance.TieTolerance*top {
			out[u] = out[order[i-1]]
			continue
		}
		out[u] = i + 1
	}
	return out
}

// byValue returns the indexes of v, highest value first, ties by index.
func byValue(v []float64) []int {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(v[b], v[a]) })
	return idx
}

// byPlace returns the indexes of the places, first place first, ties by
// index.
func byPlace(place []int) []int {
	idx := make([]int, len(place))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(place[a], place[b]) })
	return idx
}

// inSites counts the sites linking to each site of g.
func inSites(g *importance.Graph) []int {
	in := make([]int, g.N)
	for _, t := range g.Targets {
		in[t]++
	}
	return in
}
