package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"sitesift/sites"
)

func pg(url, title, text string) sites.Page {
	site, err := sites.Of(url)
	if err != nil {
		panic(err)
	}
	return sites.Page{URL: url, Site: site, Status: 200, ContentType: "text/html", Title: title, Text: text}
}

// fixture is a small corpus; the comments say which test each page serves.
func fixture() []sites.Page {
	pages := []sites.Page{
		pg("http://food.test/avocado", "Avocado toast", "Toast with ripe fruit on sourdough bread."),
		// Only the plural: found for "avocado" through the en stemmer.
		pg("http://food.test/bread", "Bread", "Bread needs time. Some people add avocados on top."),
		pg("http://garden.test/tree", "Growing fruit",
			`Grow an avocado tree from a pit. <script>alert("x")</script> Water the tree & wait.`),
		pg("http://news.test/open", "Journals", "The open access movement publishes journals freely."),
		pg("http://news.test/closed", "Doors", "Open the doors and access the room."),
		// Title boost: the title page names the word once in a long title;
		// the text page repeats it in a short text.
		pg("http://kitchen.test/starter", "Notes on keeping a sourdough starter alive through a long winter", "Flour and water, fed daily."),
		pg("http://kitchen.test/loaf", "Loaf", "sourdough sourdough sourdough"),
		// Title-only match: the snippet is the start of the text.
		pg("http://fruit.test/kumquat", "Kumquat", "A small citrus <b>fruit</b>."),
	}
	notFound := pg("http://food.test/missing", "Not found", "avocado kumquat")
	notFound.Status = 404
	empty := pg("http://food.test/empty", "", "")
	failed := pg("http://food.test/failed", "", "")
	failed.Status, failed.Err = 0, "connection refused"
	pages = append(pages, notFound, empty, failed)
	for i := range 120 {
		pages = append(pages, pg(fmt.Sprintf("http://many.test/p%03d", i), "Page", fmt.Sprintf("zucchini number %d", i)))
	}
	return pages
}

const indexedFixture = 8 + 120

func newTestIndex(t *testing.T) *Index {
	t.Helper()
	ix, err := NewMemory(WithSearchTimeout(NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if err := ix.Add(fixture()); err != nil {
		t.Fatal(err)
	}
	return ix
}

func urls(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.URL)
	}
	return out
}

func TestSearch(t *testing.T) {
	t.Parallel()
	ix := newTestIndex(t)
	ctx := context.Background()
	if n, err := ix.Count(); err != nil || n != indexedFixture {
		t.Errorf("Count = %d, %v; want %d (404, empty and failed pages left out)", n, err, indexedFixture)
	}

	for _, tt := range []struct {
		name     string
		q        Query
		want     []string // in this order
		anyOrder bool     // want is a set
	}{
		{"stemming finds plural", Query{Text: "avocado"},
			[]string{"http://food.test/avocado", "http://food.test/bread", "http://garden.test/tree"}, true},
		{"title match ranks first", Query{Text: "avocado"},
			[]string{"http://food.test/avocado"}, false},
		{"title boosted over repeated text", Query{Text: "sourdough"},
			[]string{"http://kitchen.test/starter", "http://kitchen.test/loaf", "http://food.test/avocado"}, false},
		{"phrase", Query{Text: `"open access"`}, []string{"http://news.test/open"}, false},
		{"words without phrase", Query{Text: "open access"},
			[]string{"http://news.test/closed", "http://news.test/open"}, true},
		{"must and must not", Query{Text: "+open -doors"}, []string{"http://news.test/open"}, false},
		{"site filter", Query{Text: "avocado", Site: "food.test"},
			[]string{"http://food.test/avocado", "http://food.test/bread"}, true},
		{"site filter other site", Query{Text: "avocado", Site: "garden.test"},
			[]string{"http://garden.test/tree"}, false},
		{"site filter no match", Query{Text: "avocado", Site: "news.test"}, nil, false},
		{"explicit field", Query{Text: "title:bread"}, []string{"http://food.test/bread"}, false},
		{"wildcard", Query{Text: "kumq*"}, []string{"http://fruit.test/kumquat"}, false},
		{"fuzzy", Query{Text: "kumqat~1"}, []string{"http://fruit.test/kumquat"}, false},
		{"non-200 not indexed", Query{Text: "found"}, nil, false},
		{"no match", Query{Text: "xylophone"}, nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ix.Search(ctx, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			got := urls(res.Hits)
			if tt.anyOrder {
				sort.Strings(got)
				want := slices.Clone(tt.want)
				sort.Strings(want)
				if !slices.Equal(got, want) {
					t.Errorf("hits = %v, want %v", got, want)
				}
				return
			}
			if tt.name == "title match ranks first" {
				got = got[:1]
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("hits = %v, want %v (scores %v)", got, tt.want, scores(res.Hits))
			}
		})
	}
}

func scores(hits []Hit) []float64 {
	var out []float64
	for _, h := range hits {
		out = append(out, h.Score)
	}
	return out
}

func TestSearchHitFieldsAndSnippets(t *testing.T) {
	t.Parallel()
	ix := newTestIndex(t)
	ctx := context.Background()

	res, err := ix.Search(ctx, Query{Text: "tree"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 {
		t.Fatalf("hits = %v", urls(res.Hits))
	}
	h := res.Hits[0]
	if h.URL != "http://garden.test/tree" || h.Site != "garden.test" || h.Title != "Growing fruit" || h.Score <= 0 {
		t.Errorf("hit = %+v", h)
	}
	if !strings.Contains(h.Snippet, "<mark>tree</mark>") {
		t.Errorf("snippet %q has no <mark>tree</mark>", h.Snippet)
	}
	if strings.Contains(h.Snippet, "<script>") || !strings.Contains(h.Snippet, "&lt;script&gt;") ||
		!strings.Contains(h.Snippet, "&amp;") {
		t.Errorf("snippet %q does not escape the page text", h.Snippet)
	}
	if rest := strings.ReplaceAll(strings.ReplaceAll(h.Snippet, "<mark>", ""), "</mark>", ""); strings.ContainsAny(rest, "<>") {
		t.Errorf("snippet %q has markup other than <mark>", h.Snippet)
	}

	// A match in the title only: the snippet is the escaped start of the text.
	res, err = ix.Search(ctx, Query{Text: "kumquat"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || res.Hits[0].Snippet != "A small citrus &lt;b&gt;fruit&lt;/b&gt;." {
		t.Errorf("title-only hit = %+v", res.Hits)
	}
}

func TestLeadSnippet(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 100) + "<end>"
	got := leadSnippet(long)
	if !strings.HasSuffix(got, "word…") || len(got) > snippetRunes+len("…") {
		t.Errorf("leadSnippet(long) = %q", got)
	}
	if got := leadSnippet(strings.Repeat("é", 300)); got != strings.Repeat("é", snippetRunes)+"…" {
		t.Errorf("leadSnippet cuts runes wrongly: %q", got)
	}
	if got := leadSnippet("a < b"); got != "a &lt; b" {
		t.Errorf("leadSnippet(short) = %q", got)
	}
}

func TestSearchPagination(t *testing.T) {
	t.Parallel()
	ix := newTestIndex(t)
	ctx := context.Background()
	seen := map[string]bool{}
	for off := 0; off < 120; off += 50 {
		res, err := ix.Search(ctx, Query{Text: "zucchini", Offset: off, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != 120 {
			t.Errorf("offset %d: Total = %d, want 120", off, res.Total)
		}
		want := min(50, 120-off)
		if len(res.Hits) != want {
			t.Errorf("offset %d: %d hits, want %d", off, len(res.Hits), want)
		}
		for _, h := range res.Hits {
			if seen[h.URL] {
				t.Errorf("offset %d: %s seen on an earlier page", off, h.URL)
			}
			seen[h.URL] = true
		}
	}
	if len(seen) != 120 {
		t.Errorf("pages covered %d hits, want 120", len(seen))
	}
	for _, tt := range []struct{ limit, want int }{{0, DefaultLimit}, {-3, DefaultLimit}, {1000, MaxLimit}, {7, 7}} {
		res, err := ix.Search(ctx, Query{Text: "zucchini", Limit: tt.limit})
		if err != nil || len(res.Hits) != tt.want {
			t.Errorf("Limit %d: %d hits, %v; want %d", tt.limit, len(res.Hits), err, tt.want)
		}
	}
}

func TestSearchBadQueries(t *testing.T) {
	t.Parallel()
	ix := newTestIndex(t)
	ctx := context.Background()
	for _, q := range []Query{
		{Text: ""},
		{Text: "   "},
		{Text: `"unclosed`},
		{Text: "title:"},
		{Text: "+"},
		{Text: "/[/"},
		{Text: "avocado", Offset: -1},
	} {
		if _, err := ix.Search(ctx, q); !errors.Is(err, ErrBadQuery) {
			t.Errorf("Search(%+v): err = %v, want ErrBadQuery", q, err)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := ix.Search(cancelled, Query{Text: "avocado"}); err == nil {
		t.Error("Search with a cancelled context succeeded")
	}
}

func TestAddReplacesAndRemoves(t *testing.T) {
	t.Parallel()
	ix := newTestIndex(t)
	ctx := context.Background()

	gone := pg("http://food.test/avocado", "Avocado toast", "")
	gone.Status = 500
	changed := pg("http://food.test/bread", "Bread", "Now with tomatoes.")
	if err := ix.Add([]sites.Page{gone, changed}); err != nil {
		t.Fatal(err)
	}
	if n, err := ix.Count(); err != nil || n != indexedFixture-1 {
		t.Errorf("Count = %d, %v; want %d", n, err, indexedFixture-1)
	}
	res, err := ix.Search(ctx, Query{Text: "avocado"})
	if err != nil {
		t.Fatal(err)
	}
	if got := urls(res.Hits); !slices.Equal(got, []string{"http://garden.test/tree"}) {
		t.Errorf("after update: hits = %v", got)
	}
	if err := ix.Add([]sites.Page{{Site: "x.test", Status: 200, Title: "t"}}); err == nil {
		t.Error("Add of a page without URL succeeded")
	}
}

func TestOnDiskReopen(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "index.bleve")
	ix, err := Open(dir, WithSearchTimeout(NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Add(fixture()); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	ix, err = Open(dir, WithSearchTimeout(NoSearchTimeout))
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer ix.Close()
	if n, err := ix.Count(); err != nil || n != indexedFixture {
		t.Errorf("Count after reopen = %d, %v; want %d", n, err, indexedFixture)
	}
	res, err := ix.Search(context.Background(), Query{Text: `"open access"`})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].URL != "http://news.test/open" {
		t.Errorf("search after reopen = %+v, %v", res, err)
	}

	// A second Open of a directory that is open must fail, not hang.
	done := make(chan error, 1)
	go func() {
		ix2, err := Open(dir, WithSearchTimeout(NoSearchTimeout))
		if err == nil {
			ix2.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("second Open of an open index succeeded")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("second Open of an open index hangs")
	}
}

func TestOpenDirectories(t *testing.T) {
	t.Parallel()
	base := t.TempDir()

	// An existing empty directory becomes an index.
	empty := filepath.Join(base, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(empty, WithSearchTimeout(NoSearchTimeout))
	if err != nil {
		t.Fatalf("Open(empty dir): %v", err)
	}
	ix.Close()

	// A directory holding something else is left alone.
	other := filepath.Join(base, "other")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ix, err := Open(other, WithSearchTimeout(NoSearchTimeout)); err == nil {
		ix.Close()
		t.Error("Open of a non-index directory succeeded")
	}

	// An index from another mapping version is refused.
	stale := filepath.Join(base, "stale")
	ix, err = Open(stale, WithSearchTimeout(NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.bi.SetInternal(mappingVersionKey, []byte("sitesift-page-0")); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if ix, err := Open(stale, WithSearchTimeout(NoSearchTimeout)); !errors.Is(err, ErrMappingChanged) {
		if err == nil {
			ix.Close()
		}
		t.Errorf("Open of an old-mapping index: err = %v, want ErrMappingChanged", err)
	}
}

func TestSiteTerms(t *testing.T) {
	t.Parallel()
	ix := newTestIndex(t)
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		q    Query
		want []string // any order
	}{
		{"site: is a filter", Query{Text: "avocado site:food.test"}, []string{"http://food.test/avocado", "http://food.test/bread"}},
		{"site: first, upper case", Query{Text: "site:GARDEN.test avocado"}, []string{"http://garden.test/tree"}},
		{"+site:", Query{Text: "+site:garden.test avocado"}, []string{"http://garden.test/tree"}},
		{"two site: terms are either", Query{Text: "avocado site:garden.test site:food.test"},
			[]string{"http://food.test/avocado", "http://food.test/bread", "http://garden.test/tree"}},
		{"quoted name", Query{Text: `avocado site:"garden.test"`}, []string{"http://garden.test/tree"}},
		{"-site: excludes", Query{Text: "avocado -site:food.test"}, []string{"http://garden.test/tree"}},
		{"site: with Query.Site", Query{Text: "avocado site:food.test", Site: "garden.test"}, nil},
		{"site: alone lists the site", Query{Text: "site:news.test"}, []string{"http://news.test/open", "http://news.test/closed"}},
		{"site: in a phrase is text", Query{Text: `"site:food.test"`}, nil},
		{"phrase and site:", Query{Text: `"open access" site:news.test`}, []string{"http://news.test/open"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ix.Search(ctx, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			got := urls(res.Hits)
			sort.Strings(got)
			want := slices.Clone(tt.want)
			sort.Strings(want)
			if !slices.Equal(got, want) {
				t.Errorf("hits = %v, want %v", got, want)
			}
		})
	}
	for _, bad := range []string{"site:", "avocado site:", `site:"unclosed`, "+site:"} {
		if _, err := ix.Search(ctx, Query{Text: bad}); !errors.Is(err, ErrBadQuery) {
			t.Errorf("Search(%q) = %v, want ErrBadQuery", bad, err)
		}
	}
}

func TestSplitSites(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, rest string
		sites    []string
	}{
		{"open access", "open access", nil},
		{"open site:A.test access", "open  access", []string{"a.test"}},
		{`"x site:a.test" site:b.test`, `"x site:a.test" `, []string{"b.test"}},
		{`site:"a.test"x`, "x", []string{"a.test"}},
		{"-site:a.test title:site:b", "-site:a.test title:site:b", nil},
		{`a\ site:b`, `a\ site:b`, nil},
		{"site:localhost:8080 +site:b.test", " ", []string{"localhost:8080", "b.test"}},
	} {
		rest, sites, err := SplitSites(tc.in)
		if err != nil || rest != tc.rest || !slices.Equal(sites, tc.sites) {
			t.Errorf("SplitSites(%q) = %q %q %v; want %q %q", tc.in, rest, sites, err, tc.rest, tc.sites)
		}
	}
}

func FuzzSplitSites(f *testing.F) {
	for _, s := range []string{"open site:a.test", `"a b" site:"c d"`, `\"site:x`, "site:", `"unclosed site:a`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		rest, sites, err := SplitSites(in)
		if err != nil {
			return
		}
		if len(rest) > len(in) {
			t.Fatalf("rest %q longer than %q", rest, in)
		}
		for _, s := range sites {
			if s == "" || s != strings.ToLower(s) {
				t.Fatalf("site %q from %q", s, in)
			}
		}
		// What is left has no site filter any more.
		if _, again, err := SplitSites(rest); err != nil || len(again) != 0 {
			t.Fatalf("rest %q of %q still has sites %q (%v)", rest, in, again, err)
		}
	})
}

func TestSiteFacet(t *testing.T) {
	t.Parallel()
	ix := newTestIndex(t)
	ctx := context.Background()
	// "fruit": food.test/avocado, garden.test/tree (title), fruit.test/kumquat.
	// "zucchini OR avocado": many.test 120, food.test 2, garden.test 1.
	res, err := ix.Search(ctx, Query{Text: "zucchini avocado", Any: true, Limit: 5, FacetSites: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := []SiteCount{{"many.test", 120}, {"food.test", 2}}
	if !slices.Equal(res.Sites, want) || res.Total != 123 || len(res.Hits) != 5 {
		t.Errorf("facet = %v, total %d, %d hits; want %v over 123 hits", res.Sites, res.Total, len(res.Hits), want)
	}
	res, err = ix.Search(ctx, Query{Text: "avocado", FacetSites: 10})
	if err != nil {
		t.Fatal(err)
	}
	if want := []SiteCount{{"food.test", 2}, {"garden.test", 1}}; !slices.Equal(res.Sites, want) {
		t.Errorf("facet = %v, want %v", res.Sites, want)
	}
	res, err = ix.Search(ctx, Query{Text: "avocado"})
	if err != nil || res.Sites != nil {
		t.Errorf("facet not asked for: %v, %v", res.Sites, err)
	}
	res, err = ix.Search(ctx, Query{Text: "xylophone", FacetSites: 10})
	if err != nil || res.Sites == nil || len(res.Sites) != 0 {
		t.Errorf("facet of no hit: %#v, %v; want empty, not nil", res.Sites, err)
	}
}
