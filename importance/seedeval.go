package importance

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// This file holds the measures of the seeds paper's evaluation (section
// 3.5): distances between extracted cores against the graph's average
// distance, and a breadth-first crawl simulated from a seed list.

// unreached marks a node a BFS has not reached.
const unreached = -1

// bfs runs a breadth-first search from all of sources at once and leaves in
// dist the number of arcs from the nearest source (unreached when there is
// no path). dist must have g.N entries; queue is scratch space (reused
// across calls to spare allocations) and is returned.
func bfs(g *Graph, sources []int, dist []int32, queue []int32) []int32 {
	for i := range dist {
		dist[i] = unreached
	}
	queue = queue[:0]
	for _, s := range sources {
		if dist[s] == unreached {
			dist[s] = 0
			queue = append(queue, int32(s))
		}
	}
	for head := 0; head < len(queue); head++ {
		u := queue[head]
		d := dist[u] + 1
		for _, v := range g.Targets[g.Offsets[u]:g.Offsets[u+1]] {
			if dist[v] == unreached {
				dist[v] = d
				queue = append(queue, v)
			}
		}
	}
	return queue
}

// Members returns the hubs and then the authorities of c.
func (c Core) Members() []int {
	return append(slices.Clone(c.Hubs), c.Authorities...)
}

// CoreDistances returns the distances between cores as the seeds paper
// defines them (section 3.5.1): d[i][j] is the length of the shortest
// directed path in g from any member (hub or authority) of cores[i] to any
// member of cores[j], -1 when there is none; d[i][i] is 0. Node ids are
// those of g, which [ExtractSeeds] keeps.
//
// One BFS from all members of a core at once gives its distance to every
// other core: O(len(cores) · (N + arcs)) in all.
func CoreDistances(g *Graph, cores []Core) ([][]int, error) {
	for i, c := range cores {
		for _, v := range c.Members() {
			if v < 0 || v >= g.N {
				return nil, fmt.Errorf("importance: core %d has node %d outside the graph of %d nodes", i, v, g.N)
			}
		}
	}
	dist := make([]int32, g.N)
	var queue []int32
	d := make([][]int, len(cores))
	for i, c := range cores {
		queue = bfs(g, c.Members(), dist, queue)
		d[i] = make([]int, len(cores))
		for j, o := range cores {
			best := unreached
			for _, v := range o.Members() {
				if dv := int(dist[v]); dv != unreached && (best == unreached || dv < best) {
					best = dv
				}
			}
			d[i][j] = best
		}
	}
	return d, nil
}

// DistanceEstimate is the result of [AverageDistance].
type DistanceEstimate struct {
	// Sources is the number of BFS sources used.
	Sources int
	// Pairs counts the ordered pairs (source, v), v ≠ source, joined by a
	// path, over which Mean is taken.
	Pairs int64
	// Mean is the mean shortest-path length over those pairs; 0 when
	// there is none.
	Mean float64
	// Max is the longest shortest path seen.
	Max int
}

// AverageDistance estimates the average connected distance of g: the mean
// length of the shortest directed path d(u, v) over the ordered pairs
// (u, v), u ≠ v, with a path, pairs with none being left out. It is what the
// seeds paper (section 3.2.2, after Broder et al.) calls the graph's
// diameter and compares core distances to.
//
// An exact value needs a BFS from every node; the estimate runs one from
// each of sources distinct nodes drawn uniformly at random (a PCG generator
// seeded with seed, so the same call gives the same answer), or from every
// node when sources ≥ N, which is exact. The mean is taken over all pairs
// the sampled sources reach, so a source weighs by the pairs it reaches, as
// it does in the all-pairs mean. Cost O(sources · (N + arcs)).
func AverageDistance(g *Graph, sources int, seed uint64) DistanceEstimate {
	var picked []int
	if sources >= g.N {
		picked = make([]int, g.N)
		for i := range picked {
			picked[i] = i
		}
	} else if sources > 0 {
		rng := rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d))
		picked = sample(rng, g.N, sources)
	}
	est := DistanceEstimate{Sources: len(picked)}
	dist := make([]int32, g.N)
	var queue []int32
	var sum int64
	for _, s := range picked {
		queue = bfs(g, []int{s}, dist, queue)
		// queue holds exactly the nodes reached, the source first.
		for _, v := range queue[1:] {
			sum += int64(dist[v])
			est.Max = max(est.Max, int(dist[v]))
		}
		est.Pairs += int64(len(queue) - 1)
	}
	if est.Pairs > 0 {
		est.Mean = float64(sum) / float64(est.Pairs)
	}
	return est
}

// sample draws k distinct integers of [0, n) uniformly (k ≤ n), in the
// order drawn: a partial Fisher–Yates shuffle over a map of the displaced
// entries, so it costs O(k), not O(n).
func sample(rng *rand.Rand, n, k int) []int {
	moved := map[int]int{}
	at := func(i int) int {
		if v, ok := moved[i]; ok {
			return v
		}
		return i
	}
	out := make([]int, k)
	for i := range k {
		j := i + rng.IntN(n-i)
		out[i] = at(j)
		moved[j] = at(i)
	}
	return out
}

// RandomSeeds returns k distinct nodes of g drawn uniformly among those with
// at least one out-arc, sorted, from a PCG generator seeded with seed: the
// seeds paper's baseline of random seeds (section 3.5.3). Nodes without
// out-arcs are left out because a crawl started from one ends at once, and
// the seeds a method proposes (hubs) always have out-arcs; comparing
// against them would flatter the method. All such nodes are returned when
// there are no more than k.
func RandomSeeds(g *Graph, k int, seed uint64) []int {
	var cand []int
	for u := range g.N {
		if g.Offsets[u+1] > g.Offsets[u] {
			cand = append(cand, u)
		}
	}
	if k >= len(cand) {
		return cand
	}
	if k <= 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	out := make([]int, k)
	for i, j := range sample(rng, len(cand), k) {
		out[i] = cand[j]
	}
	slices.Sort(out)
	return out
}

// CrawlDepth is what a simulated BFS crawl fetches at one depth.
type CrawlDepth struct {
	// Depth is the number of links followed from the seeds; the seeds are
	// depth 0.
	Depth int
	// Visited counts the pages first reached at this depth.
	Visited int
	// MeanScore is the mean score (PageRank, in the paper) of those pages.
	MeanScore float64
	// Total counts the pages visited up to and including this depth.
	Total int
}

// SimulateBFS simulates the crawl of the seeds paper's evaluation (section
// 3.5.3): breadth first over the arcs of g from seeds, every page fetched
// once. It reports, per depth, the pages first visited there and their mean
// score (PageRank of g, in the paper), up to maxDepth, or until no new page
// is reached when maxDepth < 0. Repeated seeds count once. O(N + arcs).
func SimulateBFS(g *Graph, seeds []int, score []float64, maxDepth int) ([]CrawlDepth, error) {
	if len(score) != g.N {
		return nil, fmt.Errorf("importance: %d scores for %d nodes", len(score), g.N)
	}
	for _, s := range seeds {
		if s < 0 || s >= g.N {
			return nil, fmt.Errorf("importance: seed %d outside the graph of %d nodes", s, g.N)
		}
	}
	dist := make([]int32, g.N)
	queue := bfs(g, seeds, dist, nil)
	var out []CrawlDepth
	total := 0
	// queue is in BFS order, so each depth is one run of it.
	for i := 0; i < len(queue); {
		d := int(dist[queue[i]])
		if maxDepth >= 0 && d > maxDepth {
			break
		}
		var sum float64
		j := i
		for ; j < len(queue) && int(dist[queue[j]]) == d; j++ {
			sum += score[queue[j]]
		}
		total += j - i
		out = append(out, CrawlDepth{Depth: d, Visited: j - i, MeanScore: sum / float64(j-i), Total: total})
		i = j
	}
	return out, nil
}

// TopNodes marks the ⌈frac·N⌉ nodes of highest score (at least one when
// frac > 0), ties to the lower node id: the top 1% by PageRank with frac
// 0.01.
func TopNodes(score []float64, frac float64) []bool {
	top := make([]bool, len(score))
	k := int(math.Ceil(frac * float64(len(score))))
	if frac <= 0 || len(score) == 0 {
		return top
	}
	k = min(max(k, 1), len(score))
	order := make([]int, len(score))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(score[b], score[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for _, v := range order[:k] {
		top[v] = true
	}
	return top
}

// MarkedReached runs the BFS of SimulateBFS from seeds and returns, per
// depth from 0, how many of the nodes marked in mark it has visited up to
// and including that depth; as many depths as SimulateBFS reports with the
// same maxDepth. O(N + arcs).
func MarkedReached(g *Graph, seeds []int, mark []bool, maxDepth int) ([]int, error) {
	if len(mark) != g.N {
		return nil, fmt.Errorf("importance: %d marks for %d nodes", len(mark), g.N)
	}
	for _, s := range seeds {
		if s < 0 || s >= g.N {
			return nil, fmt.Errorf("importance: seed %d outside the graph of %d nodes", s, g.N)
		}
	}
	dist := make([]int32, g.N)
	queue := bfs(g, seeds, dist, nil)
	var out []int
	total := 0
	for _, v := range queue {
		d := int(dist[v])
		if maxDepth >= 0 && d > maxDepth {
			break
		}
		for len(out) <= d {
			out = append(out, total)
		}
		if mark[v] {
			total++
			out[d] = total
		}
	}
	return out, nil
}
