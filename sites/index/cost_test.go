package index

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search/query"

	"sitesift/sites"
)

// aWord is the i-th of many distinct words that start with "a": a and
// four letters from i, so that a* stands for every one of them.
func aWord(i int) string {
	b := []byte("a....")
	for k := 4; k >= 1; k-- {
		b[k] = byte('a' + i%26)
		i /= 26
	}
	return string(b)
}

// aWordsIndex is an index of pages that hold n distinct a-words in all,
// perPage to a page, with "jazz" on every page.
func aWordsIndex(t *testing.T, n, perPage int) *Index {
	t.Helper()
	ix, err := NewMemory(WithSearchTimeout(NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	var pages []sites.Page
	for start := 0; start < n; start += perPage {
		var words []string
		for i := start; i < min(start+perPage, n); i++ {
			words = append(words, aWord(i))
		}
		pages = append(pages, pg(fmt.Sprintf("http://words%d.test/", len(pages)), "Words", "jazz "+strings.Join(words, " ")))
	}
	if err := ix.Add(pages); err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestSearchBounds: a query past a bound is refused before it runs, with
// a QueryError that names the bound; one within them runs.
func TestSearchBounds(t *testing.T) {
	ix := aWordsIndex(t, 6000, 50)
	many := make([]string, MaxQueryWords+1)
	for i := range many {
		many[i] = aWord(i)
	}
	tests := []struct {
		name, text, problem, says string
	}{
		{"4,000 wildcards", strings.Repeat("a* ", 4000), ProblemTooLong, "The query is 11999 characters long: a search takes at most 2000."},
		{"too many words", strings.Join(many, " "), ProblemTooMany, "The query has 65 words: a search takes at most 64."},
		{"words of a phrase count", `"` + strings.Join(many, " ") + `"`, ProblemTooMany, "The query has 65 words"},
		{"a wildcard of 6,000 words", "jazz a*", ProblemTooBroad, "'a*' stands for too many words of the pages (a search takes at most 4096 in all)"},
		{"a regular expression", "/a.*/", ProblemTooBroad, "'/a.*/' stands for too many words"},
		// aaa* … aag* stand for about 676 words each in the text and
		// none in the title; the seven together are past the bound.
		{"patterns add up", "aaa* aab* aac* aad* aae* aaf* aag*", ProblemTooBroad, "'aag*' stands for too many words"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ix.Search(context.Background(), Query{Text: tt.text, Any: true})
			var qe *QueryError
			if !errors.As(err, &qe) || !errors.Is(err, ErrBadQuery) {
				t.Fatalf("error %v (%T), want a QueryError", err, err)
			}
			if qe.Problem != tt.problem || !strings.HasPrefix(err.Error(), tt.says) {
				t.Errorf("problem %q, message %q; want %q saying %q", qe.Problem, qe.Message, tt.problem, tt.says)
			}
		})
	}
	for _, ok := range []string{"aaa*", "aaab?", "/aaa.*/", "jazz aaab~1", many[0] + " " + many[1]} {
		res, err := ix.Search(context.Background(), Query{Text: ok})
		if err != nil || res.Total == 0 {
			t.Errorf("%q: %v, %d hits; want hits", ok, err, res.Total)
		}
	}
}

// TestSearchStops: a search past its timeout is refused as too slow, and
// one whose caller went away stops with the caller's error.
func TestSearchStops(t *testing.T) {
	ix := aWordsIndex(t, 600, 50)
	for _, text := range []string{"jazz", "aaa*"} {
		_, err := ix.Search(context.Background(), Query{Text: text, Timeout: 1})
		var qe *QueryError
		if !errors.As(err, &qe) || qe.Problem != ProblemTooSlow || !strings.Contains(qe.Message, "The search took more than 1ns and was stopped") {
			t.Errorf("%q with a timeout of 1ns: %v, want a too_slow QueryError", text, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, text := range []string{"jazz", "aaa*"} {
		_, err := ix.Search(ctx, Query{Text: text})
		if !errors.Is(err, context.Canceled) || errors.Is(err, ErrBadQuery) {
			t.Errorf("%q, cancelled: %v, want context.Canceled", text, err)
		}
	}
}

// TestSearchTimeoutInjected: the index's timeout applies to a query that
// names none: a test's index sets none, so a search runs whole however busy
// the machine, and a search stops only when its context ends; one of a
// nanosecond stops every search, as too slow.
func TestSearchTimeoutInjected(t *testing.T) {
	ctx, cancel := boundedContext(context.Background(), NoSearchTimeout)
	if d, ok := ctx.Deadline(); ok {
		t.Errorf("a search with no timeout has a deadline, %v", d)
	}
	cancel()
	if ctx.Err() == nil || tooSlow(ctx, NoSearchTimeout) != nil {
		t.Errorf("a search with no timeout, cancelled: %v, %v; want cancelled and not too slow", ctx.Err(), tooSlow(ctx, NoSearchTimeout))
	}
	ctx, cancel = boundedContext(context.Background(), 0)
	defer cancel()
	if _, ok := ctx.Deadline(); !ok {
		t.Error("a search with the default timeout has no deadline")
	}

	short, err := NewMemory(WithSearchTimeout(1))
	if err != nil {
		t.Fatal(err)
	}
	defer short.Close()
	if err := short.Add([]sites.Page{pg("http://w.test/", "Jazz", "jazz")}); err != nil {
		t.Fatal(err)
	}
	_, err = short.Search(context.Background(), Query{Text: "jazz"})
	var qe *QueryError
	if !errors.As(err, &qe) || qe.Problem != ProblemTooSlow || !strings.Contains(qe.Message, "more than 1ns") {
		t.Errorf("an index with a timeout of 1ns: %v, want a too_slow QueryError", err)
	}
	if res, err := short.Search(context.Background(), Query{Text: "jazz", Timeout: NoSearchTimeout}); err != nil || res.Total != 1 {
		t.Errorf("the query's own timeout, none: %v, %d hits; want the one page", err, res.Total)
	}
}

// TestPatternCounts: the words a pattern stands for are counted as bleve
// expands it, fuzzy words included.
func TestPatternCounts(t *testing.T) {
	ix, err := NewMemory(WithSearchTimeout(NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	// The url field is kept whole: one term a page, aaaaa … aaazz.
	var pages []sites.Page
	for i := range 26 * 26 {
		pages = append(pages, pg("http://w.test/"+aWord(i), "Word", "jazz"))
	}
	if err := ix.Add(pages); err != nil {
		t.Fatal(err)
	}
	adv, err := ix.bi.Advanced()
	if err != nil {
		t.Fatal(err)
	}
	r, err := adv.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	inURL := func(q query.FieldableQuery) query.Query { q.SetField("url"); return q }
	fuzzy := query.NewMatchQuery("http://w.test/aaaaa")
	fuzzy.SetFuzziness(1)
	bq := query.NewDisjunctionQuery([]query.Query{
		inURL(query.NewPrefixQuery("http://w.test/aaab")),
		inURL(query.NewWildcardQuery("http://w.test/aaa?a")),
		inURL(query.NewRegexpQuery("http://w\\.test/aaa[a-c]b")),
		inURL(fuzzy),
		inURL(query.NewWildcardQuery("http://w.test/b*")),
	})
	var got []int
	for _, p := range patterns(bq, func(string) analysis.Analyzer { return nil }) {
		n, err := countTerms(context.Background(), r, p, 1000)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, n)
	}
	// aaab* is aaaba … aaabz; aaa?a is aaaaa … aaaza; aaa[a-c]b is aaaab,
	// aaabb, aaacb; aaaaa~1 is aaaaa and the words one letter from it,
	// aaaab … aaaaz and aaaba … aaaza; no word starts with b.
	if want := []int{26, 26, 3, 51, 0}; !slices.Equal(got, want) {
		t.Errorf("counts %v, want %v", got, want)
	}
	// The count stops past its limit.
	if n, err := countTerms(context.Background(), r, patterns(bq, nil)[0], 10); err != nil || n != 11 {
		t.Errorf("count limited to 10: %d, %v; want 11", n, err)
	}
}
