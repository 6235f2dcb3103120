package importance_test

import (
	"context"
	"fmt"

	"sitesift/importance"
)

// The small web of the OPIC slides (Abiteboul, Preda, Cobéna, "Adaptive
// on-line page importance computation", slide 16): Alice links to Bob and
// Georges, Bob to Alice, Georges to Bob.
const (
	alice = iota
	bob
	georges
)

// ExampleOPIC plays the slides' cash game step by step: with no teleport,
// each page starts with a third of the cash, and reading a page moves its
// cash to its history and on to the pages it links to, split evenly. The
// histories after reading Alice, Bob, Georges, Bob and Alice are the
// slides' (1.33, 1.0, 0.50), and read on, the estimate reaches their
// fixpoint: Alice 40%, Bob 40%, Georges 20%.
func ExampleOPIC() {
	o, err := importance.NewOPIC(0) // the slides' game has no virtual page
	if err != nil {
		panic(err)
	}
	for range 3 {
		o.AddNode()
	}
	o.AddWeight(alice, bob, 1)
	o.AddWeight(alice, georges, 1)
	o.AddWeight(bob, alice, 1)
	o.AddWeight(georges, bob, 1)
	o.Seed() // 1/3 each

	names := []string{"Alice", "Bob", "Georges"}
	for _, i := range []int{alice, bob, georges, bob, alice} {
		o.Read(i)
		fmt.Printf("read %-7s history %.2f %.2f %.2f  cash %.2f %.2f %.2f\n", names[i],
			o.History(alice), o.History(bob), o.History(georges), o.Cash(alice), o.Cash(bob), o.Cash(georges))
	}
	// Read every page in turn: the estimate (history + cash, normalised)
	// converges to the fixpoint.
	for k := range 3000 {
		o.Read(k % 3)
	}
	est := o.Estimate()
	fmt.Printf("importance %.3f %.3f %.3f\n", est[alice], est[bob], est[georges])
	// Output:
	// read Alice   history 0.33 0.00 0.00  cash 0.00 0.50 0.50
	// read Bob     history 0.33 0.50 0.00  cash 0.50 0.00 0.50
	// read Georges history 0.33 0.50 0.50  cash 0.50 0.50 0.00
	// read Bob     history 0.33 1.00 0.50  cash 1.00 0.00 0.00
	// read Alice   history 1.33 1.00 0.50  cash 0.00 0.50 0.50
	// importance 0.400 0.400 0.200
}

// slidesGraph returns the small web of the OPIC slides as a Graph.
func slidesGraph() *importance.Graph {
	g, err := importance.NewGraph(3, []importance.WeightedEdge{
		{From: alice, To: bob, Weight: 1},
		{From: alice, To: georges, Weight: 1},
		{From: bob, To: alice, Weight: 1},
		{From: georges, To: bob, Weight: 1},
	})
	if err != nil {
		panic(err)
	}
	return g
}

// ExamplePageRank computes the PageRank of the slides' small web with the
// default teleport (0.15), and OPIC on the same graph with the same
// teleport, reading the page with the most cash each time (the greedy
// strategy): OPIC's estimate tends to the same PageRank.
func ExamplePageRank() {
	g := slidesGraph()
	pr, err := importance.PageRank(g, importance.DefaultPageRankOptions())
	if err != nil {
		panic(err)
	}
	fmt.Printf("PageRank %.4f %.4f %.4f\n", pr.Rank[alice], pr.Rank[bob], pr.Rank[georges])

	o, err := importance.LoadGraph(g, importance.DefaultTeleport)
	if err != nil {
		panic(err)
	}
	sel, err := importance.NewSelector(o, importance.Greedy, 1)
	if err != nil {
		panic(err)
	}
	for range 20000 {
		sel.Step()
	}
	est := o.Estimate()
	fmt.Printf("OPIC     %.4f %.4f %.4f\n", est[alice], est[bob], est[georges])
	// Output:
	// PageRank 0.3878 0.3974 0.2148
	// OPIC     0.3878 0.3974 0.2148
}

// coresGraph is a web of two communities: pages 0, 1 and 2 all link to
// pages 3 and 4, pages 5 and 6 both to 7 and 8; besides, page 2 links to 7
// and page 9 to 3.
func coresGraph() *importance.Graph {
	var edges []importance.WeightedEdge
	link := func(from int, to ...int) {
		for _, t := range to {
			edges = append(edges, importance.WeightedEdge{From: from, To: t, Weight: 1})
		}
	}
	link(0, 3, 4)
	link(1, 3, 4)
	link(2, 3, 4, 7)
	link(5, 7, 8)
	link(6, 7, 8)
	link(9, 3)
	g, err := importance.NewGraph(10, edges)
	if err != nil {
		panic(err)
	}
	return g
}

// ExampleHITS ranks the pages of a web of two communities as hubs and
// authorities, with the seeds paper's setting (60 iterations): the larger
// community holds the best hubs (pages 0–2, page 2 best, as it also links
// to the other community) and the best authorities (pages 3 and 4).
func ExampleHITS() {
	r, err := importance.HITS(coresGraph(), importance.DefaultHITSOptions())
	if err != nil {
		panic(err)
	}
	fmt.Printf("iterations %d\n", r.Iterations)
	for i := range r.Hub {
		fmt.Printf("page %d  hub %.4f  authority %.4f\n", i, r.Hub[i], r.Authority[i])
	}
	// Output:
	// iterations 60
	// page 0  hub 0.2144  authority 0.0000
	// page 1  hub 0.2144  authority 0.0000
	// page 2  hub 0.2783  authority 0.0000
	// page 3  hub 0.0000  authority 0.3802
	// page 4  hub 0.0000  authority 0.3269
	// page 5  hub 0.0888  authority 0.0000
	// page 6  hub 0.0888  authority 0.0000
	// page 7  hub 0.0000  authority 0.2108
	// page 8  hub 0.0000  authority 0.0821
	// page 9  hub 0.1153  authority 0.0000
}

// ExampleExtractSeeds finds the two communities of the same web as
// complete bipartite cores, the best first, and proposes each core's best
// hub as a crawl seed. The first core grows from the best authority (3):
// hub 2, authority 4, then hub 0 (tied with 1, the lower id first); it
// stops there, as the next authority (7) would leave the core incomplete,
// so page 1 is left out. With each core's pages and links removed, no link
// is left.
func ExampleExtractSeeds() {
	cores, end, err := importance.ExtractSeedsEnd(context.Background(), coresGraph(), 5, importance.DefaultCoreOptions())
	if err != nil {
		panic(err)
	}
	for _, c := range cores {
		fmt.Printf("core %d: hubs %v, authorities %v, density %.0f%%, seed %d\n", c.Iteration, c.Hubs, c.Authorities, c.Density, c.Seed)
	}
	fmt.Println("ended:", end)
	// Output:
	// core 0: hubs [2 0], authorities [3 4], density 100%, seed 2
	// core 1: hubs [5 6], authorities [7 8], density 100%, seed 5
	// ended: no_links
}
