package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"sitesift/sites"
)

func TestSiteTermStatistics(t *testing.T) {
	ix := newTestIndex(t)
	ctx := context.Background()

	st, err := ix.SiteTerms(ctx, []string{"food.test", "garden.test"}, 0, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	// food.test/avocado, food.test/bread and garden.test/tree; the 404, the
	// empty and the failed page of food.test are not in the index.
	if st.Pages != 3 || st.Docs != indexedFixture {
		t.Fatalf("Pages, Docs = %d, %d; want 3, %d", st.Pages, st.Docs, indexedFixture)
	}
	byTerm := map[string]TermCount{}
	for i, tc := range st.Terms {
		if i > 0 && st.Terms[i-1].Term >= tc.Term {
			t.Fatalf("terms not sorted: %q before %q", st.Terms[i-1].Term, tc.Term)
		}
		byTerm[tc.Term] = tc
	}
	for _, want := range []TermCount{
		// "avocado" and "avocados" are one term; the singular is written
		// more often (avocado page's text has none: titles are not read).
		{Term: "avocado", Word: "avocado", Pages: 2, Count: 2, DocFreq: 2},
		{Term: "tree", Word: "tree", Pages: 1, Count: 2, DocFreq: 1},
		// "bread" is in the text of the two food pages; the kitchen pages
		// never write it.
		{Term: "bread", Word: "bread", Pages: 2, Count: 2, DocFreq: 2},
		// "fruit" is also in fruit.test's text, outside the set.
		{Term: "fruit", Word: "fruit", Pages: 1, Count: 1, DocFreq: 2},
	} {
		got, ok := byTerm[want.Term]
		if !ok {
			t.Errorf("term %q missing", want.Term)
			continue
		}
		if got != want {
			t.Errorf("term %q: got %+v, want %+v", want.Term, got, want)
		}
	}
	// Stop words never reach the index.
	for _, stop := range []string{"the", "on", "an", "from"} {
		if _, ok := byTerm[stop]; ok {
			t.Errorf("stop word %q counted", stop)
		}
	}

	// minPages leaves out the terms of one page only.
	st, err = ix.SiteTerms(ctx, []string{"food.test", "garden.test"}, 0, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range st.Terms {
		if tc.Pages < 2 {
			t.Errorf("minPages 2 kept %+v", tc)
		}
	}
	if len(st.Terms) == 0 {
		t.Error("minPages 2 kept no term; want avocado and bread")
	}

	// maxTerms keeps the terms held by the most pages: avocado and bread
	// (2 pages each) before every term of one page.
	st, err = ix.SiteTerms(ctx, []string{"food.test", "garden.test"}, 0, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Terms) != 2 || st.Terms[0].Term != "avocado" || st.Terms[1].Term != "bread" {
		t.Errorf("maxTerms 2 kept %+v, want avocado and bread", st.Terms)
	}

	// maxPages bounds the pages read, in URL order.
	st, err = ix.SiteTerms(ctx, []string{"many.test"}, 5, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if st.Pages != 5 {
		t.Errorf("maxPages 5 read %d pages", st.Pages)
	}
	for _, tc := range st.Terms {
		if tc.Term == "zucchini" && (tc.Pages != 5 || tc.DocFreq != 120) {
			t.Errorf("zucchini: %+v; want 5 pages, document frequency 120", tc)
		}
	}

	// maxPages is shared evenly among the sites: many.test's 120 pages
	// cannot crowd out food.test's two.
	st, err = ix.SiteTerms(ctx, []string{"many.test", "food.test"}, 10, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if st.Pages != 7 {
		t.Errorf("10 pages over many.test and food.test: %d read, want 5 + 2", st.Pages)
	}

	// No site, or a site without pages: nothing read.
	for _, s := range [][]string{nil, {"nowhere.test"}} {
		st, err = ix.SiteTerms(ctx, s, 0, 1, 0)
		if err != nil || st.Pages != 0 || len(st.Terms) != 0 {
			t.Errorf("sites %v: %+v, %v; want no pages", s, st, err)
		}
	}
}

// BenchmarkSiteTerms reads the term statistics of 500 pages of a 4,000-page
// index whose pages hold 300 words each from a Zipf vocabulary of 30,000
// words: what naming one community of 500 pages or more costs (the pages
// read are bounded; the index's size only weighs on the look-ups).
//
//	go test ./sites/index -run '^$' -bench SiteTerms -benchtime 20x
func BenchmarkSiteTerms(b *testing.B) {
	ix, err := NewMemory(WithSearchTimeout(NoSearchTimeout))
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	r := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(r, 1.1, 1, 29_999)
	word := func(i uint64) string { return fmt.Sprintf("w%sx", strconv.FormatUint(i, 36)) }
	const pages, perSite = 4_000, 100
	var batch []sites.Page
	for p := range pages {
		var text strings.Builder
		for range 300 {
			text.WriteString(strings.Map(func(c rune) rune {
				if c >= '0' && c <= '9' {
					return 'a' + c - '0'
				}
				return c
			}, word(zipf.Uint64())))
			text.WriteByte(' ')
		}
		batch = append(batch, pg(fmt.Sprintf("http://s%d.test/p%d", p/perSite, p), "t", text.String()))
		if len(batch) == 1000 {
			if err := ix.Add(batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	set := []string{"s1.test", "s2.test", "s3.test", "s4.test", "s5.test"}
	b.ResetTimer()
	for range b.N {
		st, err := ix.SiteTerms(context.Background(), set, 500, 2, 1000)
		if err != nil || st.Pages != 500 {
			b.Fatalf("%d pages, %v", st.Pages, err)
		}
	}
}
