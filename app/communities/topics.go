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
	// topicPhrases is the number of key phrases of a label.
	topicPhrases = 2
	// topicPhraseCands bounds the phrases of a community weighed for its
	// label: those held by the most of its pages.
	topicPhraseCands = 5000
)

// communityTopic returns the topic label of core c: [KeyPhraseLabel] of the
// pages of its hubs' and authorities' sites in the project's index, or
// [TopicLabel] when they hold no key phrase.
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
	return sitesTopic(ctx, s.index, names)
}

// sitesTopic returns the topic label of the pages of the sites names in
// ix: see communityTopic.
func sitesTopic(ctx context.Context, ix *index.Index, names []string) (string, error) {
	// Words of one page only never make a label of several pages: leaving
	// them out first spares the index their look-ups.
	minPages := 2
	st, err := ix.SiteTerms(ctx, names, topicPages, minPages, topicTerms)
	if err == nil && st.Pages < 2 {
		minPages = 1
		st, err = ix.SiteTerms(ctx, names, topicPages, minPages, topicTerms)
	}
	if err != nil {
		return "", fmt.Errorf("communities: topic: %w", err)
	}
	ps, err := ix.SitePhrases(ctx, names, topicPages, minPages, topicPhraseCands)
	if err != nil {
		return "", fmt.Errorf("communities: topic: %w", err)
	}
	if label := KeyPhraseLabel(st, ps, topicPhrases); label != "" {
		return label, nil
	}
	return TopicLabel(st, topicWords), nil
}

// KeyPhraseLabel names a set of pages by its key phrases, the n best
// joined by " · " ("cheese makers · raw milk"): phrases of 2 to 4 words of
// the pages' main text, in their own language (see index.SitePhrases),
// that name what the pages are about rather than the words they use most.
// "" when no phrase qualifies.
//
// A phrase qualifies when its first and last words qualify as words of a
// [TopicLabel] (no stop word of its language nor of topicStopWords, no
// digit), it holds at most one such word inside ("history of printing",
// not "disrupted for several weeks"), and it is held by two of the pages
// when there are two or more,
// and by two of the sites when the pages are of two or more: a phrase of
// one site's pages names that site, not the community. Each phrase is
// weighed by the sites that hold it times the mean weight of its terms, a
// term's weight being its G² of TopicLabel (0 for a term no more frequent
// in the set than in the rest of the index), or, when the set is the whole
// index, the share of its pages that hold the term: a key phrase recurs
// across the set and its words are the set's own. Ties go to the phrase
// held by more pages, then to the shorter one (a word more that weighs no
// more names nothing more), then to the first in alphabetical order. A
// phrase whose terms overlap those of a phrase already chosen is passed
// over, so that the label names two things rather than one twice.
func KeyPhraseLabel(st index.TermStats, ps index.PhraseStats, n int) string {
	weight := termWeights(st)
	type scored struct {
		phrase       string
		score        float64
		pages, words int
		terms        []string
	}
	var cands []scored
	for _, p := range ps.Phrases {
		words := strings.Fields(p.Phrase)
		if len(words) < index.MinPhraseWords || (ps.Sites >= 2 && p.Sites < 2) || (ps.Pages >= 2 && p.Pages < 2) || len(p.Terms) == 0 {
			continue
		}
		first, last := words[0], words[len(words)-1]
		if !topicWord(first) || !topicWord(last) || index.StopWord(p.Language, first) || index.StopWord(p.Language, last) {
			continue
		}
		stops := 0
		for _, w := range words[1 : len(words)-1] {
			if topicStopWords[w] || index.StopWord(p.Language, w) {
				stops++
			}
		}
		if stops > 1 {
			continue
		}
		var sum float64
		for _, t := range p.Terms {
			sum += weight[termKey{p.Language, t}]
		}
		if sum <= 0 {
			continue
		}
		cands = append(cands, scored{p.Phrase, float64(p.Sites) * sum / float64(len(p.Terms)), p.Pages, len(words), p.Terms})
	}
	slices.SortFunc(cands, func(x, y scored) int {
		switch {
		case x.score != y.score:
			return cmpDesc(x.score, y.score)
		case x.pages != y.pages:
			return y.pages - x.pages
		case x.words != y.words:
			return x.words - y.words
		}
		return strings.Compare(x.phrase, y.phrase)
	})
	var label []string
	used := map[string]bool{}
	for _, c := range cands {
		if len(label) == n {
			break
		}
		if slices.ContainsFunc(c.terms, func(t string) bool { return used[t] }) {
			continue
		}
		for _, t := range c.terms {
			used[t] = true
		}
		label = append(label, c.phrase)
	}
	return strings.Join(label, " · ")
}

// termKey is a term of the index in the fields of one language.
type termKey struct{ lang, term string }

// termWeights weighs the terms of st as [KeyPhraseLabel] says: G² for the
// terms over-represented in the set, or the share of its pages that hold
// each term when the set is the whole index.
func termWeights(st index.TermStats) map[termKey]float64 {
	out := map[termKey]float64{}
	np, N := float64(st.Pages), float64(st.Docs)
	if np == 0 {
		return out
	}
	rest := N - np
	for _, t := range st.Terms {
		a := float64(t.Pages)
		if rest <= 0 {
			out[termKey{t.Language, t.Term}] = a / np
			continue
		}
		c := max(float64(t.DocFreq)-a, 0)
		if a/np > c/rest {
			out[termKey{t.Language, t.Term}] = gSquared(a, np-a, c, rest-c)
		}
	}
	return out
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
