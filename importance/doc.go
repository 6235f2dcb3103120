// Package importance computes the importance of the nodes of a link graph:
// OPIC, the online algorithm of Abiteboul, Preda and Cobéna that runs while a
// crawl proceeds, and PageRank with the Kim–Lee dangling-page fix, computed
// offline on the same graph as its reference.
//
// The package is pure computation: plain slices, no I/O, no globals,
// deterministic given a seed; no goroutines outlive a call (HITS shares each
// step among goroutines it starts and waits for, with the same result
// whatever their number).
//
// OPIC as sitesift uses it works on sites. Each node has cash and a history;
// a virtual page is linked from every node and links to every node. Reading
// node i moves its cash to its history and hands it on: a share teleport to
// the virtual page, the rest to i's out-neighbours in proportion to the link
// weights (all of it to the virtual page when i has no known out-link). The
// virtual page hands its cash out to all known nodes uniformly. The total of
// the cash stays 1, and the estimate (history+cash), normalised over the real
// nodes, converges to the PageRank of the same graph with the same teleport
// and dangling nodes spread uniformly (the Kim–Lee matrix M*). Fixpoint
// carries OPIC on to that limit over a whole graph (the Cycle strategy's
// rounds until two rounds agree), the paper's offline use of the same
// computation: one value per node for a graph, however a crawl read it.
//
// Beside them: HITS hub and authority scores (the seeds paper's
// HITS-Ranking), the seeds paper's bipartite core extraction (ExtractSeeds,
// on whatever graph it is given: sitesift gives it the site graph, so that
// its least core of 2 hubs and 2 authorities is one of 2 sites each)
// and its evaluation (CoreDistances, AverageDistance, SimulateBFS), Adaptive
// OPIC with the paper's window policies on a graph
// that changes (AdaptiveOPIC, Window; WindowedImportance applies a policy
// to the readings of successive crawls), rank statistics to compare two
// scorings (Spearman, KendallTau, TopKOverlap), and Synthetic, the paper's
// power-law graph model for experiments and benchmarks.
package importance
