package importance

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"
)

// bipartite adds the arcs of a complete bipartite graph hubs × auths.
func bipartite(edges []WeightedEdge, hubs, auths []int) []WeightedEdge {
	for _, h := range hubs {
		for _, a := range auths {
			edges = append(edges, WeightedEdge{From: h, To: a, Weight: 1})
		}
	}
	return edges
}

func sorted(s []int) []int {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// twoCommunities: a complete core {0,1,2}→{3,4,5}, a smaller one {6,7}→{8,9},
// and a little noise: 2 → 8 and 10 → 3, 10 → 8.
func twoCommunities(t *testing.T) *Graph {
	t.Helper()
	var e []WeightedEdge
	e = bipartite(e, []int{0, 1, 2}, []int{3, 4, 5})
	e = bipartite(e, []int{6, 7}, []int{8, 9})
	e = append(e, WeightedEdge{2, 8, 1}, WeightedEdge{10, 3, 1}, WeightedEdge{10, 8, 1})
	g, err := NewGraph(11, e)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestExtractSeedsCompleteCores(t *testing.T) {
	g := twoCommunities(t)
	cores, err := ExtractSeeds(g, 5, DefaultCoreOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(cores) < 2 {
		t.Fatalf("%d cores, want at least 2", len(cores))
	}
	c0, c1 := cores[0], cores[1]
	if !reflect.DeepEqual(sorted(c0.Hubs), []int{0, 1, 2}) || !reflect.DeepEqual(sorted(c0.Authorities), []int{3, 4, 5}) {
		t.Errorf("first core hubs %v authorities %v, want {0,1,2} × {3,4,5}", c0.Hubs, c0.Authorities)
	}
	if c0.Density != 100 || c0.Arcs != 9 || !slices.Contains(c0.Hubs, c0.Seed) {
		t.Errorf("first core density %v arcs %d seed %d", c0.Density, c0.Arcs, c0.Seed)
	}
	// Node 2 ranks highest among the hubs: it also links to 8.
	if c0.Seed != 2 {
		t.Errorf("seed %d, want 2 (the best hub)", c0.Seed)
	}
	if !reflect.DeepEqual(sorted(c1.Hubs), []int{6, 7}) && !reflect.DeepEqual(sorted(c1.Hubs), []int{6, 7, 10}) {
		t.Errorf("second core hubs %v", c1.Hubs)
	}
	if !slices.Contains(c1.Authorities, 8) || c1.Density != 100 {
		t.Errorf("second core %+v", c1)
	}
	// Every node is in one core at most.
	seen := map[int]bool{}
	for _, c := range cores {
		for _, v := range append(slices.Clone(c.Hubs), c.Authorities...) {
			if seen[v] {
				t.Fatalf("node %d in two cores", v)
			}
			seen[v] = true
		}
	}
}

func TestExtractSeedsDegenerate(t *testing.T) {
	empty, _ := NewGraph(0, nil)
	noArcs, _ := NewGraph(5, nil)
	// Two identical disconnected cores: the HITS vector is not unique.
	var e []WeightedEdge
	e = bipartite(e, []int{0, 1}, []int{2, 3})
	e = bipartite(e, []int{4, 5}, []int{6, 7})
	twins, _ := NewGraph(8, e)
	for _, tc := range []struct {
		name  string
		g     *Graph
		count int
		want  int
	}{{"empty", empty, 3, 0}, {"no arcs", noArcs, 3, 0}, {"twins", twins, 10, 2}} {
		t.Run(tc.name, func(t *testing.T) {
			cores, err := ExtractSeeds(tc.g, tc.count, DefaultCoreOptions())
			if err != nil {
				t.Fatal(err)
			}
			if len(cores) != tc.want {
				t.Fatalf("%d cores, want %d: %+v", len(cores), tc.want, cores)
			}
			for _, c := range cores {
				if len(c.Hubs) != 2 || len(c.Authorities) != 2 || c.Density != 100 {
					t.Errorf("core %+v, want a complete 2×2 core", c)
				}
			}
		})
	}
	if _, err := ExtractSeeds(twins, 0, DefaultCoreOptions()); err == nil {
		t.Error("count 0 accepted")
	}
	bad := DefaultCoreOptions()
	bad.CoverDensity = 0
	if _, err := ExtractSeeds(twins, 1, bad); err == nil {
		t.Error("cover density 0 accepted")
	}
}

func TestExtractCoreDensity(t *testing.T) {
	// Hubs 0,1,2 → authorities 3,4,5 with one arc missing (2 ↛ 5): 8 of 9.
	var e []WeightedEdge
	e = bipartite(e, []int{0, 1}, []int{3, 4, 5})
	e = bipartite(e, []int{2}, []int{3, 4})
	g, _ := NewGraph(6, e)
	r, _ := HITS(g, DefaultHITSOptions())
	full, _ := ExtractCore(g, r.Hub, r.Authority, DefaultCoreOptions())
	if full.Density != 100 {
		t.Errorf("density-100 core has density %v: %+v", full.Density, full)
	}
	loose := DefaultCoreOptions()
	loose.CoverDensity = 80
	c, _ := ExtractCore(g, r.Hub, r.Authority, loose)
	if len(c.Hubs)+len(c.Authorities) != 6 || c.Arcs != 8 {
		t.Errorf("density-80 core %+v, want all 6 nodes and 8 arcs", c)
	}
	if full.Arcs >= c.Arcs {
		t.Errorf("the complete core (%d arcs) should be smaller than the loose one (%d)", full.Arcs, c.Arcs)
	}
}

func TestExtractCoreFixedSize(t *testing.T) {
	g := twoCommunities(t)
	r, _ := HITS(g, DefaultHITSOptions())
	opt := DefaultCoreOptions()
	opt.CoreSize, opt.NewMembers = 4, 2
	c, _ := ExtractCore(g, r.Hub, r.Authority, opt)
	if len(c.Hubs)+len(c.Authorities) != 4 {
		t.Errorf("fixed size 4: %+v", c)
	}
	// A core that cannot grow stops: ask for more than the community has.
	opt.CoreSize, opt.NewMembers = 50, 1
	c, _ = ExtractCore(g, r.Hub, r.Authority, opt)
	if n := len(c.Hubs) + len(c.Authorities); n >= 50 || n < 6 {
		t.Errorf("fixed size 50 on 11 nodes gave %d members", n)
	}
}

func TestExtractSeedsPolblogs(t *testing.T) {
	g, labels := loadPolblogs(t)
	cores, err := ExtractSeeds(g, 10, DefaultCoreOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(cores) != 10 {
		t.Fatalf("%d cores", len(cores))
	}
	for i, c := range cores {
		if c.Density != 100 || len(c.Hubs) == 0 || len(c.Authorities) == 0 {
			t.Errorf("core %d: %+v", i, c)
		}
		// Check completeness against the graph itself.
		for _, u := range c.Hubs {
			for _, v := range c.Authorities {
				if !hasArc(g, u, v) {
					t.Fatalf("core %d: hub %s does not link to authority %s", i, labels[u], labels[v])
				}
			}
		}
	}
	t.Logf("first seed %s (%d hubs × %d authorities)", labels[cores[0].Seed], len(cores[0].Hubs), len(cores[0].Authorities))
}

func hasArc(g *Graph, u, v int) bool {
	return slices.Contains(g.Targets[g.Offsets[u]:g.Offsets[u+1]], int32(v))
}

func TestExtractSeedsContextCancelled(t *testing.T) {
	g := twoCommunities(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cores, err := ExtractSeedsContext(ctx, g, 5, DefaultCoreOptions())
	if !errors.Is(err, context.Canceled) || len(cores) != 0 {
		t.Errorf("cancelled extraction = %v, %v", cores, err)
	}
}

// TestExtractCoreNoRunaway: a site linking to 49 others, one of which a
// second site links to as well, is no community; next to a real 2×2 core,
// the extraction returns that core and never the star.
func TestExtractCoreNoRunaway(t *testing.T) {
	var e []WeightedEdge
	for v := 1; v <= 49; v++ {
		e = append(e, WeightedEdge{0, v, 1})
	}
	e = append(e, WeightedEdge{50, 1, 1})
	star := e
	e = bipartite(slices.Clone(star), []int{51, 52}, []int{53, 54})
	g, err := NewGraph(55, e)
	if err != nil {
		t.Fatal(err)
	}
	cores, err := ExtractSeeds(g, 5, DefaultCoreOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(cores) != 1 || !reflect.DeepEqual(sorted(cores[0].Hubs), []int{51, 52}) ||
		!reflect.DeepEqual(sorted(cores[0].Authorities), []int{53, 54}) {
		t.Fatalf("cores %+v, want the 2×2 core {51,52} × {53,54} only", cores)
	}

	// With no minimum the star is found, but growth stops once the hub
	// side is blocked: one hub and two authorities, not 49.
	onlyStar, _ := NewGraph(51, star)
	loose := DefaultCoreOptions()
	loose.MinHubs, loose.MinAuthorities = 1, 1
	cores, err = ExtractSeeds(onlyStar, 1, loose)
	if err != nil {
		t.Fatal(err)
	}
	if len(cores) != 1 || len(cores[0].Hubs) != 1 || len(cores[0].Authorities) != 2 {
		t.Fatalf("star with no minimum: %+v, want 1 hub × 2 authorities", cores)
	}
	// With the default minimum, the star alone gives no core at all.
	if cores, err = ExtractSeeds(onlyStar, 3, DefaultCoreOptions()); err != nil || len(cores) != 0 {
		t.Fatalf("star with the default minimum: %+v, %v; want no core", cores, err)
	}
}

// TestExtractCoreBalanced: every density-100 core of polblogs is complete,
// meets the minimum and has as many authorities as hubs or one more.
func TestExtractCoreBalanced(t *testing.T) {
	g, _ := loadPolblogs(t)
	for _, min := range []int{2, 3} {
		opt := DefaultCoreOptions()
		opt.MinHubs, opt.MinAuthorities = min, min
		cores, err := ExtractSeeds(g, 20, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(cores) != 20 {
			t.Fatalf("min %d: %d cores, want 20", min, len(cores))
		}
		for i, c := range cores {
			nh, na := len(c.Hubs), len(c.Authorities)
			if nh < min || na < min || na-nh < 0 || na-nh > 1 || c.Density != 100 || c.Arcs != nh*na {
				t.Errorf("min %d: core %d is %d hubs × %d authorities, %d arcs", min, i, nh, na, c.Arcs)
			}
		}
	}
}

func TestCoreOptionsMinSides(t *testing.T) {
	g := twoCommunities(t)
	for _, tc := range []struct {
		name              string
		hubs, auths, size int
	}{{"negative hubs", -1, 2, 0}, {"negative authorities", 2, -1, 0}, {"size below the minimum", 3, 3, 5}} {
		opt := DefaultCoreOptions()
		opt.MinHubs, opt.MinAuthorities, opt.CoreSize = tc.hubs, tc.auths, tc.size
		if _, err := ExtractSeeds(g, 1, opt); err == nil {
			t.Errorf("%s accepted", tc.name)
		}
	}
}

// TestExtractSeedsEnd: an extraction that finds fewer cores than asked
// says why: no link left outside the cores found, or links left in which
// no core has enough hubs and authorities.
func TestExtractSeedsEnd(t *testing.T) {
	var e []WeightedEdge
	e = bipartite(e, []int{0, 1}, []int{2, 3})
	core, _ := NewGraph(4, e)
	// The 2×2 core and a star: one hub linking to three sites.
	withStar, _ := NewGraph(8, append(slices.Clone(e), WeightedEdge{4, 5, 1}, WeightedEdge{4, 6, 1}, WeightedEdge{4, 7, 1}))
	empty, _ := NewGraph(3, nil)
	for _, tc := range []struct {
		name  string
		g     *Graph
		count int
		cores int
		end   SeedsEnd
	}{
		{"as many as asked", core, 1, 1, EndCount},
		{"links used up", core, 3, 1, EndNoLinks},
		{"no links at all", empty, 3, 0, EndNoLinks},
		{"a star left: one hub", withStar, 3, 1, EndSmallCores},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cores, end, err := ExtractSeedsEnd(context.Background(), tc.g, tc.count, DefaultCoreOptions())
			if err != nil {
				t.Fatal(err)
			}
			if len(cores) != tc.cores || end != tc.end {
				t.Errorf("%d cores, end %v; want %d, %v", len(cores), end, tc.cores, tc.end)
			}
		})
	}
}

// TestExtractSeedsPastStars: a crawl's site graph is mostly stars, each
// site linking to sites no other one links to, and their authorities rank
// above those of a small core beside them. A star's leaf has one hub and
// starts no complete core of two: more than MaxCoreStarts of them ahead
// must not hide the core, nor end the extraction with EndSmallCores while
// a core is left.
func TestExtractSeedsPastStars(t *testing.T) {
	const stars, leaves = 25, 10 // 250 leaves, each ranked above the core
	var e []WeightedEdge
	for s := range stars {
		hub := s * (leaves + 1)
		for l := 1; l <= leaves; l++ {
			e = append(e, WeightedEdge{From: hub, To: hub + l, Weight: 1})
		}
	}
	n := stars * (leaves + 1)
	e = bipartite(e, []int{n, n + 1, n + 2}, []int{n + 3, n + 4})
	g, err := NewGraph(n+5, e)
	if err != nil {
		t.Fatal(err)
	}
	cores, end, err := ExtractSeedsEnd(context.Background(), g, 3, DefaultCoreOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(cores) != 1 || !reflect.DeepEqual(sorted(cores[0].Hubs), []int{n, n + 1, n + 2}) ||
		!reflect.DeepEqual(sorted(cores[0].Authorities), []int{n + 3, n + 4}) || end != EndSmallCores {
		t.Fatalf("cores %+v, end %v; want the 3×2 core, then the stars left (small cores)", cores, end)
	}
}
