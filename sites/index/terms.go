package index

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
)

// TermCount is one term of the text of a set of pages, with how common it
// is there and in the whole index.
type TermCount struct {
	// Term is the term as indexed: lower-cased, English stop words left
	// out, stemmed ("record" for "records").
	Term string
	// Word is the form of the term written most often in the pages (the
	// first in byte order on a tie), lower-cased: "records" rather than
	// the stem.
	Word string
	// Pages is the number of pages of the set whose text holds the term;
	// Count the number of times it occurs in them.
	Pages int
	Count int
	// DocFreq is the number of pages of the whole index whose text holds
	// the term, as bleve's postings count them.
	DocFreq uint64
}

// TermStats are the term statistics of the text of a set of pages against
// the whole index.
type TermStats struct {
	// Pages is the number of pages of the set read; Docs the number of
	// pages in the index.
	Pages int
	Docs  uint64
	// Terms are the terms of the pages' text held by at least the
	// minPages asked for, sorted by Term.
	Terms []TermCount
}

// SiteTerms reads the term statistics of the text of the pages of the given
// sites: up to maxPages of them (all when maxPages <= 0), an equal share of
// maxPages from each site, taken in URL order within it, analysed with the text field's own analyzer, so that a term here is
// a term of the index. Terms held by fewer than minPages of those pages are
// left out, and of the others only the maxTerms held by the most pages (all
// when maxTerms <= 0; ties to the term first in byte order), before the
// index is asked for their document frequency: one look-up a term is most
// of the cost. It only reads the index.
func (ix *Index) SiteTerms(ctx context.Context, siteNames []string, maxPages, minPages, maxTerms int) (TermStats, error) {
	var st TermStats
	docs, err := ix.bi.DocCount()
	if err != nil {
		return st, fmt.Errorf("index: term statistics: %w", err)
	}
	st.Docs = docs
	if len(siteNames) == 0 || docs == 0 {
		return st, nil
	}
	// Each site gets an equal share of maxPages, so that one large site
	// cannot fill the set alone.
	perSite := int(docs)
	if maxPages > 0 {
		perSite = max(1, maxPages/len(siteNames))
	}
	var texts []string
	seenSite := map[string]bool{}
	for _, s := range siteNames {
		s = strings.ToLower(s)
		if seenSite[s] {
			continue
		}
		if maxPages > 0 && len(texts) >= maxPages {
			break // more sites than pages: one page each of the first
		}
		seenSite[s] = true
		req := bleve.NewSearchRequestOptions(siteTerm(s), perSite, 0, false)
		req.Fields = []string{"text"}
		req.SortBy([]string{"_id"})
		res, err := ix.bi.SearchInContext(ctx, req)
		if err != nil {
			return st, fmt.Errorf("index: term statistics of site %q: %w", s, err)
		}
		for _, h := range res.Hits {
			texts = append(texts, stringField(h.Fields, "text"))
		}
	}
	analyzer := ix.bi.Mapping().AnalyzerNamed(en.AnalyzerName)
	if analyzer == nil {
		return st, fmt.Errorf("index: term statistics: no analyzer %q", en.AnalyzerName)
	}
	type tally struct {
		pages, count int
		words        map[string]int
	}
	terms := map[string]*tally{}
	for _, text := range texts {
		st.Pages++
		seen := map[string]bool{}
		for _, tok := range analyzer.Analyze([]byte(text)) {
			term := string(tok.Term)
			t := terms[term]
			if t == nil {
				t = &tally{words: map[string]int{}}
				terms[term] = t
			}
			t.count++
			if !seen[term] {
				seen[term] = true
				t.pages++
			}
			if tok.Start >= 0 && tok.End <= len(text) && tok.Start < tok.End {
				t.words[strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(text[tok.Start:tok.End], "'s"), "’s"))]++
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return st, err
	}
	adv, err := ix.bi.Advanced()
	if err != nil {
		return st, fmt.Errorf("index: term statistics: %w", err)
	}
	r, err := adv.Reader()
	if err != nil {
		return st, fmt.Errorf("index: term statistics: %w", err)
	}
	defer r.Close()
	kept := make([]string, 0, len(terms))
	for term, t := range terms {
		if t.pages >= minPages {
			kept = append(kept, term)
		}
	}
	if maxTerms > 0 && len(kept) > maxTerms {
		slices.SortFunc(kept, func(a, b string) int {
			if d := terms[b].pages - terms[a].pages; d != 0 {
				return d
			}
			return strings.Compare(a, b)
		})
		kept = kept[:maxTerms]
	}
	for _, term := range kept {
		t := terms[term]
		tfr, err := r.TermFieldReader(ctx, []byte(term), "text", false, false, false)
		if err != nil {
			return st, fmt.Errorf("index: document frequency of %q: %w", term, err)
		}
		df := tfr.Count()
		tfr.Close()
		word, best := term, 0
		for w, n := range t.words {
			if n > best || (n == best && w < word) {
				word, best = w, n
			}
		}
		st.Terms = append(st.Terms, TermCount{Term: term, Word: word, Pages: t.pages, Count: t.count, DocFreq: df})
	}
	slices.SortFunc(st.Terms, func(a, b TermCount) int { return strings.Compare(a.Term, b.Term) })
	return st, nil
}
