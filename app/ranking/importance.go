package ranking

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sitesift/app/fault"
	"sitesift/importance"
	"sitesift/sites"
	"sitesift/sites/store"
)

// ReleaseMemory returns the memory of what was just let go to the system
// before the next step of a large import or ranking allocates its own: the
// garbage collector would otherwise keep it until the heap doubles.
func ReleaseMemory() { debug.FreeOSMemory() }

// ErrImportanceStale is returned (wrapped, as a conflict) by the rankings,
// seeds and exports of a project whose importance is stale
// ([store.Store.ImportanceStale]): an archive import committed its files and
// was stopped before it saved their PageRank and OPIC, and every site would
// be listed at OPIC 0 (or by the importance of the graph before the import);
// or the links setting chose the other graph and its importance was not
// saved yet.
var ErrImportanceStale = errors.New("importance stale: the site graph changed (an import, or the links setting) and its ranking was stopped before it was saved")

// ImportanceStale reports whether the sites' importance is not that of the
// site graph the project holds (see [ErrImportanceStale]).
func (s *Service) ImportanceStale(ctx context.Context) (bool, error) {
	return s.store.ImportanceStale(ctx)
}

// RequireImportance refuses what lists sites by importance (what names it)
// while the importance is stale, saying how to finish the ranking.
func (s *Service) RequireImportance(ctx context.Context, what string) error {
	stale, err := s.store.ImportanceStale(ctx)
	if err != nil || !stale {
		return err
	}
	if s.importing != nil && s.importing() {
		return fault.Conflict(fmt.Errorf("%s: the import running has not saved its ranking yet: wait for its end", what))
	}
	return fault.Conflict(fmt.Errorf("%s: %w; %s", what, ErrImportanceStale, s.FinishRankingHint()))
}

// FinishRankingHint says what finishes the ranking an import left.
func (s *Service) FinishRankingHint() string {
	run := "sitesift rank --project " + s.project.Dir
	if s.project.ReadOnly {
		h := s.project.Holder
		return fmt.Sprintf("%s (pid %d) holds the project and may be importing; once it has ended, open the project or run %s to finish it",
			h.Command, h.PID, run)
	}
	return "open the project or run " + run + " to finish it"
}

// RepairImportance finishes the ranking an import or a change of the links
// setting left: when the importance is stale (an archive import killed
// after it committed its files and before it saved their importance, an
// edge-list import cut short before imports stored graph and importance in
// one transaction, the links setting switched to the other graph), it
// computes the importance of the whole site graph ([Service.UpdateImportance])
// and reports that it did. Opening the project for writing runs it, as it
// mends the search index; beside the process that holds the project it
// does nothing. A crawl's running OPIC state (the cash and history that
// order its fetches) is left as it is: the importance shown does not
// depend on it.
func (s *Service) RepairImportance(ctx context.Context) (bool, error) {
	if s.project != nil && s.project.ReadOnly {
		return false, nil
	}
	stale, err := s.store.ImportanceStale(ctx)
	if err != nil || !stale {
		return false, err
	}
	if _, err := s.UpdateImportance(ctx); err != nil {
		return false, fmt.Errorf("finish the ranking of the site graph: %w", err)
	}
	return true, nil
}

// UpdateImportance computes the importance of the project's whole site graph,
// as it is now, and saves it: PageRank (Kim–Lee M*, the crawl's teleport) and
// OPIC carried on to its fixpoint ([importance.Fixpoint]), with the rounds
// that took. Both depend on the graph and the teleport alone, so a ranking
// is the same after a crawl, a recrawl, an import of the same graph or a
// settings change that comes back to where it was. A crawl calls it as it
// goes and at its end; its own running OPIC, which orders its fetches, is
// not touched. Beside the process that holds the project (a read-only App)
// it saves nothing and leaves the importance that process keeps up to date.
func (s *Service) UpdateImportance(ctx context.Context) (store.Fixpoint, error) {
	if s.project != nil && s.project.ReadOnly {
		return store.Fixpoint{}, nil
	}
	s.rankM.Lock()
	defer s.rankM.Unlock()
	if err := s.repetitionRule(ctx); err != nil {
		return store.Fixpoint{}, err
	}
	g, err := s.store.SiteGraphCSR(ctx)
	if err != nil {
		return store.Fixpoint{}, err
	}
	imp, err := ShownImportance(CSRGraph(g), s.teleport)
	if err != nil {
		return store.Fixpoint{}, err
	}
	if err := s.store.SetImportance(ctx, g, imp); err != nil {
		return store.Fixpoint{}, err
	}
	return imp.Fixpoint, nil
}

// UpdateImportedImportance is [Service.UpdateImportance] for an import: it
// also gives every site an OPIC state for a later crawl to go on from (see
// [GraphImportance]). It returns the number of OPIC reads that took.
func (s *Service) UpdateImportedImportance(ctx context.Context) (int, error) {
	// As UpdateImportance, but the graph, which may have millions of
	// edges, is read once for all the computations.
	s.rankM.Lock()
	defer s.rankM.Unlock()
	if err := s.repetitionRule(ctx); err != nil {
		return 0, err
	}
	g, err := s.store.SiteGraphCSR(ctx)
	if err != nil {
		return 0, err
	}
	imp, reads, err := GraphImportance(ctx, g, s.teleport)
	if err != nil {
		return 0, err
	}
	if err := s.store.SetImportance(ctx, g, imp); err != nil {
		return 0, err
	}
	return reads, nil
}

// FixpointTolerance is the L1 distance between two rounds at which OPIC is
// taken to have reached its fixpoint: the values shown are then the same,
// to 1e-9 and better, whatever path led to the graph.
const FixpointTolerance = 1e-12

// ShownImportance computes what is shown of the sites of g: PageRank and
// OPIC's fixpoint, with how it was reached, their ties made equal
// ([importance.SnapTies]).
func ShownImportance(g *importance.Graph, teleport float64) (store.NodeImportance, error) {
	opt := importance.DefaultPageRankOptions()
	opt.Teleport = teleport
	pr, err := importance.PageRank(g, opt)
	if err != nil {
		return store.NodeImportance{}, fmt.Errorf("pagerank: %w", err)
	}
	fo := importance.DefaultFixpointOptions()
	fo.Teleport, fo.Tolerance = teleport, FixpointTolerance
	fp, err := importance.Fixpoint(g, fo)
	if err != nil {
		return store.NodeImportance{}, fmt.Errorf("opic: %w", err)
	}
	// Sites of one link structure get one value, and sort by name.
	importance.SnapTies(pr.Rank)
	importance.SnapTies(fp.Importance)
	return store.NodeImportance{PageRank: pr.Rank, OPIC: fp.Importance,
		Fixpoint: store.Fixpoint{Rounds: fp.Rounds, Residual: fp.Residual}}, nil
}

// GraphImportance computes [ShownImportance] of a whole imported site
// graph, and an OPIC state for a later crawl to go on from: the offline
// Greedy simulation of a crawl (OPICReadsPerNode·N reads from uniform cash),
// with the reads made.
func GraphImportance(ctx context.Context, sg *store.Graph, teleport float64) (store.NodeImportance, int, error) {
	g := CSRGraph(sg)
	imp, err := ShownImportance(g, teleport)
	if err != nil {
		return store.NodeImportance{}, 0, err
	}
	ReleaseMemory() // PageRank's transposed arcs
	o, reads, err := simulateOPIC(ctx, g, teleport)
	if err != nil {
		return store.NodeImportance{}, 0, err
	}
	imp.Cash, imp.History = make([]float64, g.N), make([]float64, g.N)
	for i := range g.N {
		imp.Cash[i], imp.History[i] = o.Cash(i), o.History(i)
	}
	ReleaseMemory() // the simulation's arrays (o is not used again), before the store writes the sites
	return imp, reads, nil
}

// CSRGraph is the importance.Graph of a site graph in the store's CSR form,
// sharing its arrays.
func CSRGraph(sg *store.Graph) *importance.Graph {
	g := &importance.Graph{N: len(sg.Names), Offsets: sg.Offsets, Targets: sg.Targets, Weights: sg.Weights,
		OutW: make([]float64, len(sg.Names))}
	for u := range g.N {
		for _, w := range g.Weights[g.Offsets[u]:g.Offsets[u+1]] {
			g.OutW[u] += w
		}
	}
	return g
}

// OPICReadsPerNode is how many reads per node the offline OPIC simulation of
// an imported graph makes, for the OPIC state a later crawl goes on from:
// 10·N, the horizon at which Greedy's estimate is 9.2% from PageRank on
// average on the 3.2-million-edge synthetic graph of the benchmark.
const OPICReadsPerNode = 10

// simulateOPIC runs Greedy OPIC on g from uniform cash for
// OPICReadsPerNode·N reads and returns the computation and the reads made.
// It stops early, with ctx's error, when ctx is cancelled.
func simulateOPIC(ctx context.Context, g *importance.Graph, teleport float64) (*importance.OPIC, int, error) {
	o, err := importance.LoadGraph(g, teleport)
	if err != nil {
		return nil, 0, err
	}
	if g.N == 0 {
		return o, 0, nil
	}
	sel, err := importance.NewSelector(o, importance.Greedy, 1)
	if err != nil {
		return nil, 0, err
	}
	reads := OPICReadsPerNode * g.N
	for r := range reads {
		// Checking every read would cost more than the read itself.
		if r&0xffff == 0 && ctx.Err() != nil {
			return nil, r, fmt.Errorf("opic simulation: %w", ctx.Err())
		}
		sel.Step()
	}
	return o, reads, nil
}

// siteGraph builds the graph of sites.Edge values over names (node i is
// names[i]).
func siteGraph(names []string, edges []sites.Edge) (*importance.Graph, error) {
	id := make(map[string]int, len(names))
	for i, n := range names {
		id[n] = i
	}
	wes := make([]importance.WeightedEdge, 0, len(edges))
	for _, e := range edges {
		f, ok1 := id[e.From]
		t, ok2 := id[e.To]
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("site graph: edge %s → %s names an unknown site", e.From, e.To)
		}
		wes = append(wes, importance.WeightedEdge{From: f, To: t, Weight: e.Weight})
	}
	g, err := importance.NewGraph(len(names), wes)
	if err != nil {
		return nil, fmt.Errorf("site graph: %w", err)
	}
	return g, nil
}

// PageRankOf computes the PageRank of a weighted site graph.
func PageRankOf(names []string, edges []sites.Edge, teleport float64) (map[string]float64, error) {
	g, err := siteGraph(names, edges)
	if err != nil {
		return nil, fmt.Errorf("pagerank: %w", err)
	}
	opt := importance.DefaultPageRankOptions()
	opt.Teleport = teleport
	res, err := importance.PageRank(g, opt)
	if err != nil {
		return nil, err
	}
	rank := make(map[string]float64, len(names))
	for i, n := range names {
		rank[n] = res.Rank[i]
	}
	return rank, nil
}
