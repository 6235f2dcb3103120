package index

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
)

// TermCount is one term of the text of a set of pages, with how common it
// is there and in the whole index.
type TermCount struct {
	// Term is the term as indexed: lower-cased, stop words of its
	// language left out, stemmed ("record" for "records").
	Term string
	// Language is the key of the language of the pages it was read in
	// (see [LanguageKey]): the same word in pages of two languages is two
	// terms, each with the statistics of its own language's field.
	Language string
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
	// minPages asked for, sorted by Term, then Language.
	Terms []TermCount
}

// SiteTerms reads the term statistics of the text of the pages of the given
// sites: up to maxPages of them (all when maxPages <= 0), an equal share of
// maxPages from each site, taken in URL order within it, each analysed
// with the analyzer of its language's text field, so that a term here is a
// term of the index. Terms held by fewer than minPages of those pages are
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
	texts, analyzers, err := ix.siteTexts(ctx, siteNames, maxPages, docs)
	if err != nil {
		return st, fmt.Errorf("index: term statistics: %w", err)
	}
	type id struct{ key, term string }
	type tally struct {
		pages, count int
		words        map[string]int
	}
	terms := map[id]*tally{}
	for _, tx := range texts {
		st.Pages++
		an := analyzers[tx.key]
		if an == nil {
			return st, fmt.Errorf("index: term statistics: no analyzer for the language %q", tx.key)
		}
		text := tx.text
		seen := map[string]bool{}
		for _, tok := range an.Analyze([]byte(text)) {
			term := id{tx.key, string(tok.Term)}
			t := terms[term]
			if t == nil {
				t = &tally{words: map[string]int{}}
				terms[term] = t
			}
			t.count++
			if !seen[term.term] {
				seen[term.term] = true
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
	kept := make([]id, 0, len(terms))
	for term, t := range terms {
		if t.pages >= minPages {
			kept = append(kept, term)
		}
	}
	byID := func(a, b id) int {
		if c := strings.Compare(a.term, b.term); c != 0 {
			return c
		}
		return strings.Compare(a.key, b.key)
	}
	if maxTerms > 0 && len(kept) > maxTerms {
		slices.SortFunc(kept, func(a, b id) int {
			if d := terms[b].pages - terms[a].pages; d != 0 {
				return d
			}
			return byID(a, b)
		})
		kept = kept[:maxTerms]
	}
	for _, term := range kept {
		t := terms[term]
		tfr, err := r.TermFieldReader(ctx, []byte(term.term), textField(term.key), false, false, false)
		if err != nil {
			return st, fmt.Errorf("index: document frequency of %q in %s: %w", term.term, textField(term.key), err)
		}
		df := tfr.Count()
		tfr.Close()
		word, best := term.term, 0
		for w, n := range t.words {
			if n > best || (n == best && w < word) {
				word, best = w, n
			}
		}
		st.Terms = append(st.Terms, TermCount{Term: term.term, Language: term.key, Word: word, Pages: t.pages, Count: t.count, DocFreq: df})
	}
	slices.SortFunc(st.Terms, func(a, b TermCount) int { return byID(id{a.Language, a.Term}, id{b.Language, b.Term}) })
	return st, nil
}

// pageText is the main text of one page, the key of its language and its
// site.
type pageText struct{ key, text, site string }

// siteTexts reads the main texts of the pages of the given sites, up to
// maxPages of them (all when maxPages <= 0), an equal share of maxPages
// from each site, taken in URL order within it, with the analyzers of the
// languages of the index by key; docs is the number of pages in the index.
func (ix *Index) siteTexts(ctx context.Context, siteNames []string, maxPages int, docs uint64) ([]pageText, map[string]analysis.Analyzer, error) {
	// Each site gets an equal share of maxPages, so that one large site
	// cannot fill the set alone.
	perSite := int(docs)
	if maxPages > 0 {
		perSite = max(1, maxPages/len(siteNames))
	}
	ls, err := ix.present()
	if err != nil {
		return nil, nil, err
	}
	fields := []string{languageField}
	analyzers := map[string]analysis.Analyzer{}
	for _, l := range ls {
		fields = append(fields, textField(l.key))
		analyzers[l.key] = l.an
	}
	var texts []pageText
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
		req.Fields = fields
		req.SortBy([]string{"_id"})
		res, err := ix.bi.SearchInContext(ctx, req)
		if err != nil {
			return nil, nil, fmt.Errorf("site %q: %w", s, err)
		}
		for _, h := range res.Hits {
			key := LanguageKey(stringField(h.Fields, languageField))
			texts = append(texts, pageText{key, stringField(h.Fields, textField(key)), s})
		}
	}
	return texts, analyzers, nil
}
