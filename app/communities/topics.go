package communities

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"sitesift/importance"
	"sitesift/sites/index"
)

// Topic labels: see TopicLabel.
const (
	// topicPages bounds the pages read for a community's label, so that a
	// community of large sites costs no more than a search.
	topicPages = 500
	// topicWords is the number of words of a label.
	topicWords = 3
	// topicTerms bounds the words of a community weighed for its label:
	// those held by the most of its pages. A label word is on many of
	// them, and each word weighed costs a look-up in the index.
	topicTerms = 1000
)

// communityTopic returns the topic label of core c: [TopicLabel] of the
// pages of its hubs' and authorities' sites in the project's index.
func (s *Service) communityTopic(ctx context.Context, cg *communityGraph, c importance.Core) (string, error) {
	if s.index == nil {
		return "", nil
	}
	var names []string
	seen := map[string]bool{}
	for _, v := range append(slices.Clone(c.Hubs), c.Authorities...) {
		if s := cg.site(v); s != "" && !seen[s] {
			seen[s] = true
			names = append(names, s)
		}
	}
	// Words of one page only never make a label of several pages: leaving
	// them out first spares the index their look-ups.
	st, err := s.index.SiteTerms(ctx, names, topicPages, 2, topicTerms)
	if err == nil && st.Pages < 2 {
		st, err = s.index.SiteTerms(ctx, names, topicPages, 1, topicTerms)
	}
	if err != nil {
		return "", fmt.Errorf("communities: topic: %w", err)
	}
	return TopicLabel(st, topicWords), nil
}

// TopicLabel names a set of pages by its most distinctive words, the n best
// joined by " · " ("jazz · records · vinyl"); "" when no word qualifies.
//
// A word qualifies when it is a term of the index (the stop words of each
// page's language are never indexed) of at least two letters with no
// digit, not one of Bleve's stop words of its pages' language (of any
// language for pages whose language was not told, which the index
// analyses in English: "il", "che" and "то" never name a community), nor
// one of the common words and page furniture of topicStopWords, held by
// at least two of the pages when there are two or more. Words are ranked by
// Dunning's log-likelihood ratio G² on page counts: the pages of the set
// that hold the term against those of the rest of the index, a 2×2 table
// (a, n−a | c, N−n−c) with a = pages of the set holding it, n = pages of
// the set, c = other pages holding it, N = pages of the index. Only words
// over-represented in the set (a/n > c/(N−n)) count. Pages rather than
// occurrences, so that one long page repeating a word cannot name a whole
// community; G² rather than tf-idf because it weighs how often a word is
// in the set as well as how rare it is outside, and stays sound for the
// small counts of a small community. When the set is the whole index there
// is nothing to compare with, and words rank by pages, then occurrences.
// Ties go to the word first in alphabetical order. Each word is shown in
// the form written most often (see index.TermCount.Word).
func TopicLabel(st index.TermStats, n int) string {
	type scored struct {
		word         string
		g2           float64
		pages, count int
	}
	np, N := float64(st.Pages), float64(st.Docs)
	var cands []scored
	for _, t := range st.Terms {
		if !topicWord(t.Word) || index.StopWord(t.Language, t.Word) || (st.Pages >= 2 && t.Pages < 2) {
			continue
		}
		a := float64(t.Pages)
		c := max(float64(t.DocFreq)-a, 0)
		rest := N - np
		var g2 float64
		if rest > 0 {
			if a/np <= c/rest {
				continue
			}
			g2 = gSquared(a, np-a, c, rest-c)
		}
		cands = append(cands, scored{t.Word, g2, t.Pages, t.Count})
	}
	slices.SortFunc(cands, func(x, y scored) int {
		switch {
		case x.g2 != y.g2:
			return cmpDesc(x.g2, y.g2)
		case x.pages != y.pages:
			return y.pages - x.pages
		case x.count != y.count:
			return y.count - x.count
		}
		return strings.Compare(x.word, y.word)
	})
	var words []string
	seen := map[string]bool{}
	for _, c := range cands {
		if len(words) == n {
			break
		}
		if !seen[c.word] {
			seen[c.word] = true
			words = append(words, c.word)
		}
	}
	return strings.Join(words, " · ")
}

func cmpDesc(x, y float64) int {
	if x > y {
		return -1
	}
	return 1
}

// topicStopWords are common English words that say nothing of a topic and
// that the index's own stop list (Lucene's 33 English words) keeps, with the
// words of every web page's furniture; a label never shows them.
var topicStopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`about above after again against all also am any anyone
		because been before being below between both can cannot could did does doing done down
		during each either else even ever every few first for from further get gets got had has
		have having he her here hers herself him himself his how however i if into its itself
		just last less let like made make makes many may me might more most much must my myself
		near need new next nor now of off often once one only other others our ours ourselves out
		over own per please same see seen shall she should since so some still such take than
		that them themselves thence there these they thing things this those though through
		thus till too under until up upon us use used uses using very via was we well were what
		when where whether which while who whom whose why will within without would yet you
		your yours yourself yourselves gives give given going way ways able across along already
		among another around back came come comes day days done else far found gave general
		good great keep kept know known least little long lot mainly mostly never nothing
		old part put quite rather really right said say says several shows side small something
		soon sure tell told took toward towards two three whole year years
		home page pages site sites menu login contact privacy cookie cookies copyright rights
		reserved read more click search skip main content navigation link links share follow
		subscribe terms policy welcome`) {
		topicStopWords[w] = true
	}
	// Function words that Bleve's (Snowball's) Russian and Italian stop
	// lists leave out, and that are on most pages of those languages:
	// without them a Russian community was named "это · …".
	for _, w := range strings.Fields(`это этих этим который которая которое которые которых
		которым которой также ещё очень всё свой свои своих своей своего
		essere stato stata stati fa dopo molto ogni fra già ancora`) {
		topicStopWords[w] = true
	}
}

// topicWord reports whether w may stand in a topic label: two letters or
// more, no digit, and not one of [topicStopWords].
func topicWord(w string) bool {
	if topicStopWords[w] {
		return false
	}
	letters := 0
	for _, r := range w {
		switch {
		case unicode.IsDigit(r):
			return false
		case unicode.IsLetter(r):
			letters++
		}
	}
	return letters >= 2
}

// gSquared is the log-likelihood ratio G² = 2·Σ O·ln(O/E) of the 2×2 table
// (a b | c d), E being the count expected if rows and columns were
// independent; empty cells add nothing.
func gSquared(a, b, c, d float64) float64 {
	n := a + b + c + d
	if n == 0 {
		return 0
	}
	cell := func(o, row, col float64) float64 {
		if o <= 0 {
			return 0
		}
		return o * math.Log(o*n/(row*col))
	}
	return 2 * (cell(a, a+b, a+c) + cell(b, a+b, b+d) + cell(c, c+d, a+c) + cell(d, c+d, b+d))
}
