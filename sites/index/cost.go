package index

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// The bounds of one search. Bleve builds one term searcher for every word a
// query names and for every word of the index a wildcard, prefix, regular
// expression or fuzzy term stands for, all before it reads a hit, and
// neither the number of those nor the time they take has a limit of its
// own: one query string of thousands of `a*` took gigabytes. A query past
// a bound is refused before it runs, with a [QueryError] that names the
// bound.
const (
	// MaxQueryChars bounds the length of a query string, in characters:
	// parsing alone makes an object of every word.
	MaxQueryChars = 2000
	// MaxQueryWords bounds the words of a query: its plain words, the words
	// of its phrases (as the language that makes the most words of them
	// analyses them), its wildcards, regular expressions and fuzzy words.
	// Each is searched in the title and in the text of each language of
	// the index's pages.
	MaxQueryWords = 64
	// MaxExpansions bounds the words of the index that the wildcards,
	// prefixes, regular expressions and fuzzy words of one query stand for,
	// over all of them and over the title and text fields of every
	// language: each is a term
	// searcher of its own, some kilobytes of memory while the search runs
	// (tools/indexbench measures it).
	MaxExpansions = 4096
	// SearchTimeout is the time a search may take when neither
	// Query.Timeout nor the index (WithSearchTimeout) says.
	SearchTimeout = 5 * time.Second
	// NoSearchTimeout, as a search timeout, sets none: the search runs
	// until its context ends.
	NoSearchTimeout time.Duration = -1
)

// Problems of a query past a bound, as [QueryError.Problem].
const (
	ProblemTooLong  = "too_long"       // more than MaxQueryChars characters
	ProblemTooMany  = "too_many_words" // more than MaxQueryWords words
	ProblemTooBroad = "too_broad"      // patterns standing for more than MaxExpansions words
	ProblemTooSlow  = "too_slow"       // still running after the timeout
)

// errTooSlow is the cause of the context of a search past its timeout, so
// that it is told apart from a deadline of the caller's.
var errTooSlow = errors.New("index: search timeout")

// checkLength refuses a query string longer than MaxQueryChars.
func checkLength(text string) error {
	if n := utf8.RuneCountInString(text); n > MaxQueryChars {
		return &QueryError{Problem: ProblemTooLong,
			Message: fmt.Sprintf("The query is %d characters long: a search takes at most %d. Search for fewer words.", n, MaxQueryChars)}
	}
	return nil
}

// countWords returns the words of a parsed query string (before
// [searchFields]): the analysed words of each plain word and phrase, by
// the language that makes the most of them, and one for each wildcard,
// regular expression or other term.
func countWords(q query.Query, ls []langAnalyzer) int {
	n := 0
	walk(q, func(leaf query.Query, _ bool) {
		words := func(field, text string) int {
			most := 1
			for _, l := range ls {
				most = max(most, analysedWords(field, text, l.an))
			}
			return most
		}
		switch x := leaf.(type) {
		case *query.MatchQuery:
			n += words(x.FieldVal, x.Match)
		case *query.MatchPhraseQuery:
			n += words(x.FieldVal, x.MatchPhrase)
		default:
			n++
		}
	})
	return n
}

// analysedWords is the number of words text makes in field: the
// analyser's terms for title and text, one for the fields kept whole.
// Chinese, Japanese and Korean are written without spaces, and the
// analysers make a term of every character or every overlapping pair of
// them, about two for each word a reader sees (a Chinese word is one to
// three characters): their terms count half, so that a query of a sentence
// or two (100 characters) is within MaxQueryWords, and a page of them is
// not.
func analysedWords(field, text string, an analysis.Analyzer) int {
	if !analysed(field) {
		return 1
	}
	n, cjk := 0, 0
	for _, t := range an.Analyze([]byte(text)) {
		if isCJK(t.Term) {
			cjk++
		} else {
			n++
		}
	}
	return n + (cjk+1)/2
}

// isCJK reports whether a term is made of Chinese, Japanese or Korean
// characters only.
func isCJK(term []byte) bool {
	if len(term) == 0 {
		return false
	}
	for _, r := range string(term) {
		if !unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) && r != 'ー' {
			return false
		}
	}
	return true
}

// checkWords refuses a parsed query of more than MaxQueryWords words.
func checkWords(q query.Query, ls []langAnalyzer) error {
	if n := countWords(q, ls); n > MaxQueryWords {
		return &QueryError{Problem: ProblemTooMany,
			Message: fmt.Sprintf("The query has %d words: a search takes at most %d. Leave some out.", n, MaxQueryWords)}
	}
	return nil
}

// walk calls leaf for every leaf of q: every query that is not a boolean,
// conjunction or disjunction of others, and whether it is negated (under
// a boolean's MustNot: an excluded word).
func walk(q query.Query, leaf func(q query.Query, negated bool)) {
	var rec func(q query.Query, negated bool)
	rec = func(q query.Query, negated bool) {
		switch x := q.(type) {
		case *query.BooleanQuery:
			for _, sub := range []query.Query{x.Must, x.Should} {
				if sub != nil {
					rec(sub, negated)
				}
			}
			if x.MustNot != nil {
				rec(x.MustNot, true)
			}
		case *query.ConjunctionQuery:
			for _, sub := range x.Conjuncts {
				rec(sub, negated)
			}
		case *query.DisjunctionQuery:
			for _, sub := range x.Disjuncts {
				rec(sub, negated)
			}
		default:
			leaf(q, negated)
		}
	}
	rec(q, false)
}

// wildcardRegexp turns a wildcard into the regular expression bleve
// searches it with (search/query/wildcard.go): * is any run of characters,
// ? any one, everything else itself.
var wildcardRegexp = strings.NewReplacer(
	"+", `\+`, "(", `\(`, ")", `\)`, "^", `\^`, "$", `\$`, ".", `\.`,
	"{", `\{`, "}", `\}`, "[", `\[`, "]", `\]`, `|`, `\|`, `\`, `\\`,
	"*", ".*", "?", ".")

// pattern is a leaf of a query that stands for the words of the index it
// matches, as bleve expands it: its field, how the person typed it, and how
// to list the words it matches.
type pattern struct {
	field string
	typed string
	list  func(r bleveindex.IndexReader) (bleveindex.FieldDict, error)
}

// patterns returns the leaves of q (after [searchFields]) that bleve
// expands over the term dictionary of their field, an analysed fuzzy word
// once for each of its words.
func patterns(q query.Query, fieldAnalyzer func(string) analysis.Analyzer) []pattern {
	var out []pattern
	regexp := func(field, typed, re string) {
		out = append(out, pattern{field, typed, func(r bleveindex.IndexReader) (bleveindex.FieldDict, error) {
			rr, ok := r.(bleveindex.IndexReaderRegexp)
			if !ok {
				return nil, fmt.Errorf("index: the reader %T cannot list the words of a regular expression", r)
			}
			return rr.FieldDictRegexp(field, re)
		}})
	}
	fuzzy := func(field, typed, term string, fuzziness, prefix int) {
		if fuzziness == 0 {
			return // a plain term: counted as a word
		}
		prefixTerm := term
		for i := range term {
			if i >= prefix {
				prefixTerm = term[:i]
				break
			}
		}
		out = append(out, pattern{field, typed, func(r bleveindex.IndexReader) (bleveindex.FieldDict, error) {
			fr, ok := r.(bleveindex.IndexReaderFuzzy)
			if !ok {
				return nil, fmt.Errorf("index: the reader %T cannot list the words near %q", r, term)
			}
			return fr.FieldDictFuzzy(field, term, fuzziness, prefixTerm)
		}})
	}
	fuzzyWords := func(field, text string, fuzziness, prefix int, typed string) {
		if fuzziness == 0 {
			return
		}
		words := []string{text}
		if an := analyzerOf(fieldAnalyzer, field); an != nil {
			words = words[:0]
			for _, t := range an.Analyze([]byte(text)) {
				words = append(words, string(t.Term))
			}
		}
		for _, w := range words {
			fuzzy(field, typed, w, fuzziness, prefix)
		}
	}
	walk(q, func(leaf query.Query, _ bool) {
		switch x := leaf.(type) {
		case *query.WildcardQuery:
			regexp(x.FieldVal, x.Wildcard, wildcardRegexp.Replace(x.Wildcard))
		case *query.RegexpQuery:
			regexp(x.FieldVal, "/"+x.Regexp+"/", strings.TrimPrefix(x.Regexp, "^"))
		case *query.PrefixQuery:
			out = append(out, pattern{x.FieldVal, x.Prefix + "*", func(r bleveindex.IndexReader) (bleveindex.FieldDict, error) {
				return r.FieldDictPrefix(x.FieldVal, []byte(x.Prefix))
			}})
		case *query.FuzzyQuery:
			fuzzy(x.FieldVal, fmt.Sprintf("%s~%d", x.Term, x.Fuzziness), x.Term, x.Fuzziness, x.Prefix)
		case *query.MatchQuery:
			fuzzyWords(x.FieldVal, x.Match, x.Fuzziness, x.Prefix, fmt.Sprintf("%s~%d", x.Match, x.Fuzziness))
		case *query.MatchPhraseQuery:
			fuzzyWords(x.FieldVal, x.MatchPhrase, x.Fuzziness, 0, fmt.Sprintf("%q~%d", x.MatchPhrase, x.Fuzziness))
		}
	})
	return out
}

// analyzerOf is the analyser of field by fieldAnalyzer, nil when there
// is none (the field is kept whole).
func analyzerOf(fieldAnalyzer func(string) analysis.Analyzer, field string) analysis.Analyzer {
	if fieldAnalyzer == nil {
		return nil
	}
	return fieldAnalyzer(field)
}

// checkExpansions counts, in the index, the words the patterns of q (after
// [searchFields]) stand for, and refuses q when they are more than
// MaxExpansions in all. The count stops at the bound, so it costs at most
// a walk of each pattern's part of the dictionary; it stops too when ctx
// is done.
func (ix *Index) checkExpansions(ctx context.Context, q query.Query) error {
	m := ix.bi.Mapping()
	ps := patterns(q, func(field string) analysis.Analyzer {
		if !analysed(field) {
			return nil
		}
		return m.AnalyzerNamed(m.AnalyzerNameForPath(field))
	})
	if len(ps) == 0 {
		return nil
	}
	adv, err := ix.bi.Advanced()
	if err != nil {
		return fmt.Errorf("index: count the words of the query's patterns: %w", err)
	}
	r, err := adv.Reader()
	if err != nil {
		return fmt.Errorf("index: count the words of the query's patterns: %w", err)
	}
	defer r.Close()
	used := 0
	for _, p := range ps {
		n, err := countTerms(ctx, r, p, MaxExpansions-used)
		if err != nil {
			return err
		}
		used += n
		if used > MaxExpansions {
			return &QueryError{Problem: ProblemTooBroad,
				Message: fmt.Sprintf("'%s' stands for too many words of the pages (a search takes at most %d in all): make it longer, as in archiv* rather than a*.",
					p.typed, MaxExpansions)}
		}
	}
	return nil
}

// countTerms counts the words of the index p stands for, up to limit+1.
func countTerms(ctx context.Context, r bleveindex.IndexReader, p pattern, limit int) (n int, err error) {
	d, err := p.list(r)
	if err != nil {
		return 0, fmt.Errorf("index: list the words of %s: %w", p.typed, err)
	}
	defer func() {
		if cerr := d.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("index: list the words of %s: %w", p.typed, cerr)
		}
	}()
	for n <= limit {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return n, err
			}
		}
		e, err := d.Next()
		if err != nil {
			return n, fmt.Errorf("index: list the words of %s: %w", p.typed, err)
		}
		if e == nil {
			break
		}
		n++
	}
	return n, nil
}

// maxTermSearchers is the most term searchers a query within the bounds
// can make: two (title and text) for each of its terms in each language of
// the index (up to two terms a word, see analysedWords), a language filter for each language, the expansions of its
// patterns, and a site: filter for every two characters. Bleve is given it
// as a limit of its own (search.MaxTermSearchersKey), so that a query the
// counts above miss still cannot run unbounded.
var maxTermSearchers = 2*2*MaxQueryWords*len(languages) + len(languages) + MaxExpansions + MaxQueryChars/2

// boundedContext is ctx with the search's timeout (SearchTimeout when 0,
// none when negative) and bleve's limit on term searchers.
func boundedContext(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	ctx = context.WithValue(ctx, search.MaxTermSearchersKey, maxTermSearchers)
	switch {
	case timeout < 0:
		return context.WithCancel(ctx)
	case timeout == 0:
		timeout = SearchTimeout
	}
	return context.WithTimeoutCause(ctx, timeout, errTooSlow)
}

// tooSlow reports whether a search stopped because its own timeout ran
// out, and returns the QueryError that says so.
func tooSlow(ctx context.Context, timeout time.Duration) error {
	if !errors.Is(context.Cause(ctx), errTooSlow) {
		return nil
	}
	if timeout <= 0 {
		timeout = SearchTimeout
	}
	return &QueryError{Problem: ProblemTooSlow,
		Message: fmt.Sprintf("The search took more than %s and was stopped: search for fewer words, or for longer ones in place of short wildcards.", timeout)}
}
