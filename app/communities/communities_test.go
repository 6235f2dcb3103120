package communities_test

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/communities"
	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/importance"
	"sitesift/sites"
)

// TestCommunitiesOnSiteGraph: on a crawl, the cores are of sites, each
// site its node http://NAME/; links inside nav.test are no link of the
// site graph, and nav.test's one link to a1.test makes it no hub of a core.
func TestCommunitiesOnSiteGraph(t *testing.T) {
	a, proj, _ := apptest.OpenProject(t, apptest.CommunityProject(t))
	ctx := context.Background()
	cs, err := a.Communities.Extract(ctx, 5, importance.DefaultCoreOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 {
		t.Fatalf("%d communities, want 2 (the graph runs out of links): %+v", len(cs), cs)
	}
	sortedCopy := func(s []string) []string { s = slices.Clone(s); sort.Strings(s); return s }
	want := []struct{ hubs, auths []string }{
		{[]string{"http://h1.test/", "http://h2.test/", "http://h3.test/"},
			[]string{"http://a1.test/", "http://a2.test/", "http://a3.test/"}},
		{[]string{"http://g1.test/", "http://g2.test/"}, []string{"http://b1.test/", "http://b2.test/"}},
	}
	for i, c := range cs {
		if c.Core != i || !reflect.DeepEqual(sortedCopy(c.Hubs), want[i].hubs) ||
			!reflect.DeepEqual(sortedCopy(c.Authorities), want[i].auths) {
			t.Errorf("community %d = %+v, want hubs %v authorities %v", i, c, want[i].hubs, want[i].auths)
		}
		if c.CoverDensity != 100 || !slices.Contains(c.Hubs, sites.HomeURL(c.Site)) || c.HubScore <= 0 {
			t.Errorf("community %d: density %v, seed %s, hub score %v", i, c.CoverDensity, c.Seed, c.HubScore)
		}
		if site, _ := sites.Of(c.Seed); c.Site != site {
			t.Errorf("community %d: site %q, seed %q", i, c.Site, c.Seed)
		}
	}
	// Ties among equal hubs go to the lowest URL; the seed is the home
	// page of the host of the hub site's page.
	if cs[0].FromHub != "http://h1.test/links" || cs[1].FromHub != "http://g1.test/list" {
		t.Errorf("seeds from hubs %s, %s", cs[0].FromHub, cs[1].FromHub)
	}
	if cs[0].Seed != "http://h1.test/" || cs[1].Seed != "http://g1.test/" {
		t.Errorf("seeds %s, %s; want the home pages http://h1.test/, http://g1.test/", cs[0].Seed, cs[1].Seed)
	}
	// Deterministic: a fresh app on the same project gives the same cores.
	b := app.New(app.Options{Project: proj})
	again, err := b.Communities.Extract(ctx, 5, importance.DefaultCoreOptions())
	if err != nil || !reflect.DeepEqual(again, cs) {
		t.Errorf("second run differs: %+v, %v", again, err)
	}
	// The memo hands out copies.
	cs[0].Hubs[0] = "changed"
	if again, _ := a.Communities.Extract(ctx, 5, importance.DefaultCoreOptions()); again[0].Hubs[0] == "changed" {
		t.Error("editing a result changed the memo")
	}
	// Fixed size: two hubs and two authorities of the first community.
	opt := importance.DefaultCoreOptions()
	opt.CoreSize, opt.NewMembers = 4, 1
	fixed, err := a.Communities.Extract(ctx, 1, opt)
	if err != nil || len(fixed) != 1 || len(fixed[0].Hubs)+len(fixed[0].Authorities) != 4 ||
		!strings.HasPrefix(fixed[0].Site, "h") {
		t.Errorf("fixed size 4: %+v, %v", fixed, err)
	}
	for _, bad := range []importance.CoreOptions{{HITS: importance.DefaultHITSOptions(), CoverDensity: 0},
		{HITS: importance.DefaultHITSOptions(), CoverDensity: 120}, {HITS: importance.DefaultHITSOptions(), CoreSize: 1}} {
		if _, err := a.Communities.Extract(ctx, 2, bad); err == nil {
			t.Errorf("options %+v accepted", bad)
		}
	}
	if _, err := a.Communities.Extract(ctx, 0, importance.DefaultCoreOptions()); err == nil {
		t.Error("count 0 accepted")
	}
}

func TestCommunitiesImportedGraph(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "project")
	p, err := project.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// A site graph with names that hold paths, as polblogs has.
	var edges []sites.Edge
	names := []string{"blog.test/x", "blog.test/y", "news.test", "mag.test", "other.test"}
	for _, h := range []string{"blog.test/x", "blog.test/y", "other.test"} {
		for _, a := range []string{"news.test", "mag.test"} {
			edges = append(edges, sites.Edge{From: h, To: a, Weight: 1})
		}
	}
	if _, err := p.Store.ImportGraph(context.Background(), "test.tsv", names, edges, 0); err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Project: p})
	defer a.Close()
	cs, err := a.Communities.Extract(context.Background(), 3, importance.DefaultCoreOptions())
	if err != nil || len(cs) != 1 {
		t.Fatalf("%+v, %v", cs, err)
	}
	// An imported graph has no scheme: its seeds are https home pages.
	if cs[0].Seed != "https://blog.test/x/" || cs[0].Site != "blog.test/x" || cs[0].FromHub != "http://blog.test/x/" ||
		len(cs[0].Hubs) != 3 {
		t.Errorf("imported graph community %+v", cs[0])
	}
	g, err := a.Communities.Graph(context.Background(), 10, cs)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range g.Nodes {
		if n.Core != 0 {
			t.Errorf("node %+v: every site is in core 0", n)
		}
	}
}

func TestHeritrixPrecedenceTies(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "project")
	p, err := project.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var states []sites.SiteState
	for i, h := range []float64{5, 4, 4, 4, 1, 1} {
		states = append(states, sites.SiteState{Site: "s" + strconv.Itoa(i) + ".test", History: h})
	}
	if err := p.Store.SaveCrawlBatch(context.Background(), nil, states); err != nil {
		t.Fatal(err)
	}
	apptest.OPICFromStates(t, p)
	ps, _, err := app.New(app.Options{Project: p}).Exports.HeritrixPrecedence(context.Background(), 3, false, false, false)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, x := range ps {
		got = append(got, x.Precedence)
	}
	// Buckets of 2 by rank; ties take the first one's: 5 | 4 4 4 | 1 1.
	if want := []int{1, 1, 1, 1, 3, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("precedences %v, want %v", got, want)
	}
}

// TestCoreSettings: the rules of an extraction's settings hold the same for
// every adapter, and errors name the settings as the adapter does.
func TestCoreSettings(t *testing.T) {
	f, n := func(v float64) *float64 { return &v }, func(v int) *int { return &v }
	flag := func(s string) string { return "--" + s }
	def := importance.DefaultCoreOptions()
	for _, tc := range []struct {
		name    string
		in      communities.CoreSettings
		want    func(*importance.CoreOptions)
		wantErr string
	}{
		{"defaults", communities.CoreSettings{}, func(o *importance.CoreOptions) { o.NewMembers = 1 }, ""},
		{"density", communities.CoreSettings{Density: f(80)}, func(o *importance.CoreOptions) { o.CoverDensity, o.NewMembers = 80, 1 }, ""},
		{"size", communities.CoreSettings{CoreSize: n(6), NewMembers: n(2)}, func(o *importance.CoreOptions) { o.CoreSize, o.NewMembers = 6, 2 }, ""},
		{"both", communities.CoreSettings{Density: f(80), CoreSize: n(6)}, nil, "--density and --core_size are exclusive"},
		{"members alone", communities.CoreSettings{NewMembers: n(2)}, nil, "--new_members goes with --core_size"},
		{"no members", communities.CoreSettings{CoreSize: n(6), NewMembers: n(0)}, nil, "--new_members 0 must be positive"},
		{"density 0", communities.CoreSettings{Density: f(0)}, nil, "cover density 0 must lie in (0, 100]"},
		{"no HITS", communities.CoreSettings{HITSIterations: n(0)}, nil, "HITS iterations 0 must lie in 1..1000"},
		{"unbounded HITS", communities.CoreSettings{HITSIterations: n(1_000_000_000)}, nil, "HITS iterations 1000000000 must lie in 1..1000"},
		{"least core", communities.CoreSettings{MinHubs: n(3), MinAuthorities: n(1)}, func(o *importance.CoreOptions) { o.MinHubs, o.MinAuthorities, o.NewMembers = 3, 1, 1 }, ""},
		{"no hubs", communities.CoreSettings{MinHubs: n(0)}, nil, "least hubs 0 and authorities 2 of a core must be at least 1"},
		{"size below the least core", communities.CoreSettings{CoreSize: n(5), MinHubs: n(3), MinAuthorities: n(3)}, nil, "core size 5 is below the least core of 3 hubs and 3 authorities"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.in.Options(flag)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || fault.KindOf(err) != fault.KindInvalid {
					t.Fatalf("error %v, want one with %q, invalid", err, tc.wantErr)
				}
				return
			}
			want := def
			tc.want(&want)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("got %+v, %v; want %+v", got, err, want)
			}
		})
	}
}

// TestCommunitiesImportedAsNamedGraph: the communities of an imported site
// graph are those of the graph of named edges the store also gives
// (store.PageGraph: every site as its home page URL, in order of URL), the
// graph they were first extracted from, hub scores to the last bit. The
// names are such that the order of the sites' ids, the order of their names
// and that of their URLs all differ ("a.b-c" < "a.b" < "a.b.c" as URLs).
func TestCommunitiesImportedAsNamedGraph(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "project")
	p, err := project.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	g := importance.Synthetic(3000, 8, 5)
	names := make([]string, g.N)
	for v := range names {
		// Three names a stem: stem, stem-x, stem.x, given out of order.
		stem := "site" + strconv.Itoa((v*7919)%(g.N/3+1)) + ".test"
		names[v] = []string{stem, stem[:len(stem)-5] + "-x.test", stem + ".x"}[v%3]
	}
	seen := map[string]bool{}
	for v, n := range names {
		for seen[n] {
			n = "z" + n
		}
		seen[n], names[v] = true, n
	}
	var edges []sites.Edge
	for u := range g.N {
		for _, v := range g.Targets[g.Offsets[u]:g.Offsets[u+1]] {
			edges = append(edges, sites.Edge{From: names[u], To: names[v], Weight: float64(1 + (u+int(v))%3)})
		}
	}
	ctx := context.Background()
	if _, err := p.Store.ImportGraph(ctx, "test.tsv", names, edges, 0); err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Project: p})
	defer a.Close()
	opt := importance.DefaultCoreOptions()
	got, err := a.Communities.Extract(ctx, 8, opt)
	if err != nil || len(got) == 0 {
		t.Fatalf("%d communities, %v", len(got), err)
	}

	urls, arcs, err := p.Store.PageGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(urls) || slices.IsSortedFunc(names, strings.Compare) {
		t.Fatal("the test needs site names out of the order of their URLs")
	}
	wes := make([]importance.WeightedEdge, len(arcs))
	for i, arc := range arcs {
		wes[i] = importance.WeightedEdge{From: int(arc[0]), To: int(arc[1]), Weight: 1}
	}
	named, err := importance.NewGraph(len(urls), wes)
	if err != nil {
		t.Fatal(err)
	}
	want, err := importance.ExtractSeeds(named, 8, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d communities, %d from the named graph", len(got), len(want))
	}
	of := func(ids []int) []string {
		out := make([]string, len(ids))
		for i, v := range ids {
			out[i] = urls[v]
		}
		return out
	}
	for i, c := range want {
		if !reflect.DeepEqual(got[i].Hubs, of(c.Hubs)) || !reflect.DeepEqual(got[i].Authorities, of(c.Authorities)) ||
			got[i].CoverDensity != c.Density {
			t.Errorf("community %d: hubs %v authorities %v; from the named graph %v %v", i, got[i].Hubs, got[i].Authorities, of(c.Hubs), of(c.Authorities))
		}
		if got[i].FromHub == urls[c.Seed] && got[i].HubScore != c.SeedHub {
			t.Errorf("community %d: hub score %v, from the named graph %v", i, got[i].HubScore, c.SeedHub)
		}
	}
}
