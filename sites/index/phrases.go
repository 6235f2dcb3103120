package index

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
)

// Bounds of the phrases of [Index.SitePhrases].
const (
	// MinPhraseWords and MaxPhraseWords bound the words of a phrase, the
	// stop word inside it included.
	MinPhraseWords = 2
	MaxPhraseWords = 4
	// maxPhraseBytes bounds a phrase as written: four long words.
	maxPhraseBytes = 120
)

// PhraseCount is a phrase of the text of a set of pages: 2 to 4 words
// within one clause, the first and the last not stop words of the pages'
// language, at most one stop word between them ("history of printing").
type PhraseCount struct {
	// Phrase is the phrase as written most often in the pages (the first
	// in byte order on a tie), lower-cased, its words separated by one
	// space, without an elided article before its first word ("l'", "d'").
	Phrase string
	// Language is the key of the language of its pages (see [LanguageKey]).
	Language string
	// Terms are the index terms of its words that are no stop words, in
	// order: "cheese" and "maker" for "cheese makers". Two phrases with the
	// same terms and stop words between them are one phrase.
	Terms []string
	// Sites is the number of sites of the set whose pages hold it, Pages
	// the number of pages, Count the number of times it occurs in them.
	Sites, Pages, Count int
}

// PhraseStats are the phrases of the text of a set of pages.
type PhraseStats struct {
	// Pages is the number of pages of the set read, Sites the number of
	// sites they are of.
	Pages, Sites int
	// Phrases are those held by at least the minPages asked for, the
	// maxPhrases held by the most pages, sorted by pages (most first), then
	// by Language and Phrase.
	Phrases []PhraseCount
}

// SitePhrases reads the phrases of the text of the pages of the given
// sites, the pages [Index.SiteTerms] reads for the same sites and
// maxPages, each analysed with the analyzer of its language's text field:
// a phrase is a run of the terms of the index, the stop words the analyzer
// leaves out seen as the gaps between them. Phrases held by fewer than
// minPages pages are left out, and of the others only the maxPhrases held
// by the most pages are kept (all when maxPhrases <= 0). Pages in Chinese,
// Japanese or Korean, which the index reads as pairs of characters rather
// than words, give no phrase. It only reads the index.
func (ix *Index) SitePhrases(ctx context.Context, siteNames []string, maxPages, minPages, maxPhrases int) (PhraseStats, error) {
	var ps PhraseStats
	docs, err := ix.bi.DocCount()
	if err != nil {
		return ps, fmt.Errorf("index: phrases: %w", err)
	}
	if len(siteNames) == 0 || docs == 0 {
		return ps, nil
	}
	texts, analyzers, err := ix.siteTexts(ctx, siteNames, maxPages, docs)
	if err != nil {
		return ps, fmt.Errorf("index: phrases: %w", err)
	}
	type tally struct {
		lang         string
		terms        []string
		pages, count int
		sites        map[string]bool
		forms        map[string]int
	}
	siteSet := map[string]bool{}
	phrases := map[string]*tally{}
	for _, tx := range texts {
		ps.Pages++
		siteSet[tx.site] = true
		if tx.key == "cjk" {
			continue
		}
		an := analyzers[tx.key]
		if an == nil {
			return ps, fmt.Errorf("index: phrases: no analyzer for the language %q", tx.key)
		}
		seen := map[string]bool{}
		for _, p := range textPhrases(tx.key, tx.text, an) {
			t := phrases[p.id]
			if t == nil {
				t = &tally{lang: tx.key, terms: p.terms, sites: map[string]bool{}, forms: map[string]int{}}
				phrases[p.id] = t
			}
			t.count++
			t.forms[p.form]++
			t.sites[tx.site] = true
			if !seen[p.id] {
				seen[p.id] = true
				t.pages++
			}
		}
		if err := ctx.Err(); err != nil {
			return ps, err
		}
	}
	ps.Sites = len(siteSet)
	for _, t := range phrases {
		if t.pages < minPages {
			continue
		}
		form, best := "", 0
		for f, n := range t.forms {
			if n > best || (n == best && f < form) {
				form, best = f, n
			}
		}
		ps.Phrases = append(ps.Phrases, PhraseCount{Phrase: form, Language: t.lang, Terms: t.terms, Sites: len(t.sites), Pages: t.pages, Count: t.count})
	}
	slices.SortFunc(ps.Phrases, func(a, b PhraseCount) int {
		if d := b.Pages - a.Pages; d != 0 {
			return d
		}
		if c := strings.Compare(a.Language, b.Language); c != 0 {
			return c
		}
		return strings.Compare(a.Phrase, b.Phrase)
	})
	if maxPhrases > 0 && len(ps.Phrases) > maxPhrases {
		ps.Phrases = ps.Phrases[:maxPhrases]
	}
	return ps, nil
}

// textPhrase is one occurrence of a phrase in a text: its identity (the
// language, its terms and the stop words between them), its terms and how
// it is written there.
type textPhrase struct {
	id    string
	terms []string
	form  string
}

// textPhrases returns the phrases of text, in the language of key, which an
// analyses: every run of 2 to 4 words of one clause that starts and ends on
// a term of the index, with at most one stop word inside.
func textPhrases(key, text string, an analysis.Analyzer) []textPhrase {
	toks := an.Analyze([]byte(text))
	var out []textPhrase
	for i := range toks {
		stops := 0
		for j := i + 1; j < len(toks); j++ {
			gap := toks[j].Position - toks[j-1].Position - 1
			words := toks[j].Position - toks[i].Position + 1
			if gap < 0 || toks[j].Position == toks[j-1].Position || words > MaxPhraseWords ||
				clauseBreak(text, toks[j-1].End, toks[j].Start) {
				break
			}
			if stops += gap; stops > 1 {
				break
			}
			form := phraseForm(key, text[toks[i].Start:toks[j].End])
			if n := len(strings.Fields(form)); form == "" || len(form) > maxPhraseBytes || n < MinPhraseWords || n > MaxPhraseWords {
				continue
			}
			terms := make([]string, 0, j-i+1)
			var id strings.Builder
			id.WriteString(key)
			for k := i; k <= j; k++ {
				terms = append(terms, string(toks[k].Term))
				if k > i {
					id.WriteString(strings.Repeat(" _", toks[k].Position-toks[k-1].Position-1))
				}
				id.WriteString(" ")
				id.Write(toks[k].Term)
			}
			out = append(out, textPhrase{id: id.String(), terms: terms, form: form})
		}
	}
	return out
}

// clauseBreak reports whether the text between two words ends a clause:
// it holds a punctuation mark other than a hyphen or an apostrophe, or a
// line break.
func clauseBreak(text string, from, to int) bool {
	if from < 0 || to > len(text) || from > to {
		return true
	}
	for _, r := range text[from:to] {
		switch {
		case r == '\n' || r == '\r':
			return true
		case r == '-' || r == '\'' || r == '’':
		case unicode.IsPunct(r) || unicode.IsSymbol(r):
			return true
		}
	}
	return false
}

// phraseForm is the phrase as written in s: lower-cased, its words
// separated by one space, an elided article or preposition before its
// first word ("l'", "d'", "dell'") dropped; "" when s does not start and
// end with a letter.
func phraseForm(key, s string) string {
	words := strings.Fields(strings.ToLower(s))
	if len(words) == 0 {
		return ""
	}
	if i := strings.IndexAny(words[0], "'’"); i > 0 && StopWord(key, words[0][:i]) || i > 0 && utf8.RuneCountInString(words[0][:i]) == 1 {
		_, size := utf8.DecodeRuneInString(words[0][i:])
		words[0] = words[0][i+size:]
	}
	f := strings.Join(words, " ")
	first, _ := utf8.DecodeRuneInString(f)
	last, _ := utf8.DecodeLastRuneInString(f)
	if !unicode.IsLetter(first) || !unicode.IsLetter(last) {
		return ""
	}
	return f
}
