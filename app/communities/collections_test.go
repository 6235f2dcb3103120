package communities_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/communities"
	"sitesift/app/exports"
	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/importance"
	"sitesift/sites"
	"sitesift/sites/index"
)

func TestCommunitySeedsAndTopics(t *testing.T) {
	a, _ := apptest.Open(t, apptest.TopicProject(t))
	cs, err := a.Communities.Extract(context.Background(), 5, importance.DefaultCoreOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 {
		t.Fatalf("%d communities, want 2: %+v", len(cs), cs)
	}
	// Cores of sites: hub.test, a hub of both topics, goes with the first
	// core, and the second's hub sites are q1.test and q2.test. A seed is
	// the home page of the host of the hub site's shallowest page.
	if cs[0].Seed != "http://hub.test/" || cs[0].FromHub != "http://hub.test/jazz" || cs[0].HubScore <= 0 {
		t.Errorf("first community: seed %s from %s, hub score %v", cs[0].Seed, cs[0].FromHub, cs[0].HubScore)
	}
	if cs[1].Seed != "http://q1.test/" || cs[1].Site != "q1.test" || cs[1].FromHub != "http://q1.test/b" || cs[1].HubScore <= 0 ||
		!reflect.DeepEqual(cs[1].Hubs, []string{"http://q1.test/", "http://q2.test/"}) {
		t.Errorf("second community: seed %s (site %s) from %s, hub score %v, hubs %v; want q1.test's home page, hubs q1.test and q2.test",
			cs[1].Seed, cs[1].Site, cs[1].FromHub, cs[1].HubScore, cs[1].Hubs)
	}
	// The topics: key phrases every site of the community says, not the
	// words of every page of the project, numbers or one-letter words.
	if cs[0].Topic != "jazz records · rare vinyl" || cs[1].Topic != "build nests · birds with feathers" {
		t.Errorf("topics %q, %q", cs[0].Topic, cs[1].Topic)
	}
	if cs[0].Name != cs[0].Topic {
		t.Errorf("name %q, want the topic", cs[0].Name)
	}
	var txt bytes.Buffer
	if err := exports.WriteCommunities(&txt, cs, "txt"); err != nil || txt.String() != "http://hub.test/\nhttp://q1.test/\n" {
		t.Errorf("seed list %q, %v", txt.String(), err)
	}
}

func TestSeedHomeScheme(t *testing.T) {
	// A site crawled over https gives an https seed: p1.test's hub is the
	// best of a core of its own.
	dir := apptest.TopicProject(t)
	a, _ := apptest.Open(t, dir)
	opt := importance.DefaultCoreOptions()
	opt.CoreSize = 2 // one hub and one authority: the seed's scheme is what is tested
	opt.MinHubs, opt.MinAuthorities = 1, 1
	cs, err := a.Communities.Extract(context.Background(), 10, opt)
	if err != nil {
		t.Fatal(err)
	}
	seeds := map[string]string{}
	for _, c := range cs {
		if c.Seed == "" {
			continue
		}
		if prev, ok := seeds[c.Site]; ok {
			t.Errorf("site %s gives two seeds: %s and %s", c.Site, prev, c.Seed)
		}
		seeds[c.Site] = c.Seed
		if want := strings.SplitN(c.FromHub, "://", 2)[0] + "://" + c.Site + "/"; c.Seed != want {
			t.Errorf("seed %s from hub %s, want %s", c.Seed, c.FromHub, want)
		}
	}
	// Cores of 2 members (one hub, one authority) give a seed to each of
	// the five hub sites.
	if seeds["p1.test"] != "https://p1.test/" || seeds["p2.test"] != "http://p2.test/" || len(seeds) != 5 {
		t.Errorf("seeds %v; want https://p1.test/, http://p2.test/ and those of hub.test, q1.test and q2.test", seeds)
	}
}

func TestTopicLabel(t *testing.T) {
	st := index.TermStats{Pages: 4, Docs: 100, Terms: []index.TermCount{
		{Term: "jazz", Word: "jazz", Pages: 4, Count: 9, DocFreq: 4},
		{Term: "record", Word: "records", Pages: 3, Count: 3, DocFreq: 5},
		{Term: "home", Word: "home", Pages: 4, Count: 4, DocFreq: 100}, // on every page of the index
		{Term: "1999", Word: "1999", Pages: 4, Count: 4, DocFreq: 4},   // a number
		{Term: "x", Word: "x", Pages: 4, Count: 4, DocFreq: 4},         // one letter
		{Term: "mp3", Word: "mp3", Pages: 4, Count: 4, DocFreq: 4},     // a digit
		{Term: "solo", Word: "solo", Pages: 1, Count: 20, DocFreq: 1},  // one page only
		{Term: "vinyl", Word: "vinyl", Pages: 2, Count: 2, DocFreq: 2},
	}}
	if got := communities.TopicLabel(st, 3); got != "jazz · records · vinyl" {
		t.Errorf("label %q", got)
	}
	if got := communities.TopicLabel(st, 1); got != "jazz" {
		t.Errorf("one word: %q", got)
	}
	if got := communities.TopicLabel(index.TermStats{}, 3); got != "" {
		t.Errorf("no pages: %q", got)
	}
	// The whole index: words by pages, then occurrences.
	all := index.TermStats{Pages: 3, Docs: 3, Terms: []index.TermCount{
		{Term: "a", Word: "ab", Pages: 2, Count: 2, DocFreq: 2},
		{Term: "b", Word: "bc", Pages: 3, Count: 3, DocFreq: 3},
		{Term: "c", Word: "cd", Pages: 2, Count: 5, DocFreq: 2},
	}}
	if got := communities.TopicLabel(all, 3); got != "bc · cd · ab" {
		t.Errorf("whole index: %q", got)
	}
}

func TestCollectionOfNoCommunity(t *testing.T) {
	a := apptest.Empty(t)
	apptest.AddLibrarians(t, a, "ana")
	_, err := a.Communities.CreateCollection(context.Background(), communities.NewCollection{By: "ana", Count: 3, Options: importance.DefaultCoreOptions()})
	if fault.KindOf(err) != fault.KindConflict || !strings.Contains(err.Error(), "no community") {
		t.Errorf("a project without links: %v, want a conflict saying no community was found", err)
	}
	if list, err := a.Communities.Collections(context.Background()); err != nil || len(list) != 0 {
		t.Errorf("collections %+v, %v; want none saved", list, err)
	}
}

func TestCollections(t *testing.T) {
	dir := apptest.TopicProject(t)
	a, closeApp := apptest.Open(t, dir)
	ctx := context.Background()
	if _, err := a.Communities.CreateCollection(ctx, communities.NewCollection{By: "", Count: 5, Options: importance.DefaultCoreOptions()}); fault.KindOf(err) != fault.KindInvalid {
		t.Errorf("no maker: %v", err)
	}
	c, err := a.Communities.CreateCollection(ctx, communities.NewCollection{Name: " Music and birds ", By: "ana", Count: 5, Options: importance.DefaultCoreOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "Music and birds" || c.CreatedBy != "ana" || len(c.Communities) != 2 || !c.Communities[0].Kept ||
		c.Communities[0].Name != "jazz records · rare vinyl" || c.Communities[1].Seed != "http://q1.test/" {
		t.Fatalf("new collection %+v", c)
	}
	var graph communities.GraphView
	if err := json.Unmarshal(c.Graph, &graph); err != nil || len(graph.Nodes) == 0 {
		t.Fatalf("saved graph %s: %v", c.Graph, err)
	}
	if _, err := a.Communities.CreateCollection(ctx, communities.NewCollection{Name: "Music and birds", By: "bo", Count: 5, Options: importance.DefaultCoreOptions()}); fault.KindOf(err) != fault.KindConflict {
		t.Errorf("same name again: %v, want a conflict", err)
	}
	// Default names are unique.
	d1, err1 := a.Communities.CreateCollection(ctx, communities.NewCollection{By: "bo", Count: 1, Options: importance.DefaultCoreOptions()})
	d2, err2 := a.Communities.CreateCollection(ctx, communities.NewCollection{By: "bo", Count: 1, Options: importance.DefaultCoreOptions()})
	if err1 != nil || err2 != nil || d1.Name == d2.Name || !strings.HasPrefix(d1.Name, "Collection ") {
		t.Errorf("default names %q, %q: %v, %v", d1.Name, d2.Name, err1, err2)
	}

	// Edits: uncheck the first community, rename the second, add seeds.
	off, on := false, true
	if _, err := a.Communities.EditCommunity(ctx, c.ID, 0, communities.CommunityEdit{Kept: &off}); err != nil {
		t.Fatal(err)
	}
	name := "  Garden birds "
	if _, err := a.Communities.EditCommunity(ctx, c.ID, 1, communities.CommunityEdit{Name: &name}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Communities.AddCollectionSeed(ctx, c.ID, "https://Radio.example/jazz#now"); err != nil {
		t.Fatal(err)
	}
	// One seed a site: q1.test gives the second community's seed.
	if _, err := a.Communities.AddCollectionSeed(ctx, c.ID, "http://q1.test/other"); fault.KindOf(err) != fault.KindConflict ||
		!strings.Contains(err.Error(), "q1.test") {
		t.Errorf("a second seed of q1.test: %v", err)
	}
	if _, err := a.Communities.AddCollectionSeed(ctx, c.ID, "https://radio.example/"); fault.KindOf(err) != fault.KindConflict {
		t.Errorf("a second seed of radio.example: %v", err)
	}
	// hub.test is free while its community is unchecked, and then that
	// community cannot be checked again.
	if _, err := a.Communities.AddCollectionSeed(ctx, c.ID, "http://hub.test/about"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Communities.EditCommunity(ctx, c.ID, 0, communities.CommunityEdit{Kept: &on}); fault.KindOf(err) != fault.KindConflict {
		t.Errorf("checking hub.test's community with a seed of hub.test added: %v", err)
	}
	if _, err := a.Communities.RemoveCollectionSeed(ctx, c.ID, "http://hub.test/about"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Communities.RemoveCollectionSeed(ctx, c.ID, "http://hub.test/about"); fault.KindOf(err) != fault.KindNotFound {
		t.Errorf("removing it twice: %v", err)
	}
	for _, bad := range []string{"", "ftp://x.test/", "not a url"} {
		if _, err := a.Communities.AddCollectionSeed(ctx, c.ID, bad); fault.KindOf(err) != fault.KindInvalid {
			t.Errorf("seed %q: %v", bad, err)
		}
	}
	for _, bad := range []string{"", "   ", "a\tb", strings.Repeat("x", communities.MaxCollectionName+1)} {
		if _, err := a.Communities.EditCommunity(ctx, c.ID, 1, communities.CommunityEdit{Name: &bad}); fault.KindOf(err) != fault.KindInvalid {
			t.Errorf("community name %q: %v", bad, err)
		}
		if _, err := a.Communities.RenameCollection(ctx, c.ID, bad); fault.KindOf(err) != fault.KindInvalid {
			t.Errorf("collection name %q: %v", bad, err)
		}
	}
	if _, err := a.Communities.EditCommunity(ctx, c.ID, 7, communities.CommunityEdit{Name: &name}); fault.KindOf(err) != fault.KindNotFound {
		t.Errorf("community 7: %v", err)
	}
	if _, err := a.Communities.RenameCollection(ctx, c.ID, d1.Name); fault.KindOf(err) != fault.KindConflict {
		t.Errorf("renamed onto another collection: %v", err)
	}
	if _, err := a.Communities.RenameCollection(ctx, c.ID, "Jazz & birds, 2026"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Communities.Collection(ctx, 999); fault.KindOf(err) != fault.KindNotFound || err.Error() != "no collection 999 in this project (it may have been deleted)" {
		t.Errorf("collection 999: %v", err)
	}
	edited, _ := a.Communities.Collection(ctx, c.ID)

	// A new crawl changes the graph; the collection stays as saved.
	closeApp()
	p, err := project.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	pg := apptest.Page(t, "http://new.test/", "http://j1.test/", "http://b1.test/")
	pg.Text = "new"
	if err := p.Store.SaveCrawlBatch(ctx, []sites.Page{pg}, nil); err != nil {
		t.Fatal(err)
	}
	p.Close()

	a, _ = apptest.Open(t, dir)
	got, err := a.Communities.Collection(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Jazz & birds, 2026" || got.Communities[0].Kept || got.Communities[1].Name != "Garden birds" ||
		len(got.Added) != 1 || got.Added[0].URL != "https://radio.example/jazz" || got.Added[0].Site != "radio.example" ||
		!got.UpdatedAt.After(got.CreatedAt) || !reflect.DeepEqual(got, edited) {
		t.Fatalf("reopened collection %+v\nwant %+v", got, edited)
	}
	list, err := a.Communities.Collections(ctx)
	if err != nil || len(list) != 3 || list[0].ID != c.ID || list[0].Kept != 1 || list[0].Added != 1 {
		t.Errorf("list %+v, %v", list, err)
	}

	// Exports: the kept community seeds, then the added ones.
	var b bytes.Buffer
	if err := exports.WriteCollection(&b, got, "txt"); err != nil || b.String() != "http://q1.test/\nhttps://radio.example/jazz\n" {
		t.Errorf("txt %q, %v", b.String(), err)
	}
	b.Reset()
	if err := exports.WriteCollection(&b, got, "csv"); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(rows) != 3 || strings.Join(rows[0], ",") != "community,topic,site,seed_url,hub_score,added_by_hand" ||
		strings.Join(rows[1], ",") != "Garden birds,build nests · birds with feathers,q1.test,http://q1.test/,0.5,false" ||
		strings.Join(rows[2], ",") != ",,radio.example,https://radio.example/jazz,,true" {
		t.Errorf("csv %q, %v", rows, err)
	}
	b.Reset()
	var seeds []communities.ListedSeed
	if err := exports.WriteCollection(&b, got, "json"); err != nil || json.Unmarshal(b.Bytes(), &seeds) != nil || len(seeds) != 2 ||
		seeds[1] != (communities.ListedSeed{Site: "radio.example", SeedURL: "https://radio.example/jazz", AddedByHand: true}) {
		t.Errorf("json %s, %v", b.String(), err)
	}
	if n := a.Exports.CollectionName(got, "csv"); n != "project-seeds-jazz-birds-2026.csv" {
		t.Errorf("file name %q", n)
	}
	for name, want := range map[string]string{"Seeds Nov 2026": "seeds-nov-2026.txt", "seeds": "seeds-7.txt", "Seedsong": "seeds-seedsong.txt"} {
		if n := communities.CollectionFileName(communities.Collection{ID: 7, Name: name}, "txt"); n != want {
			t.Errorf("collection %q: file name %q, want %q", name, n, want)
		}
	}

	if err := a.Communities.DeleteCollection(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Communities.Collection(ctx, c.ID); fault.KindOf(err) != fault.KindNotFound {
		t.Errorf("deleted collection: %v", err)
	}
	if err := a.Communities.DeleteCollection(ctx, c.ID); fault.KindOf(err) != fault.KindNotFound {
		t.Errorf("deleted twice: %v", err)
	}
}
