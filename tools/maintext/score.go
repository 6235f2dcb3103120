package main

import (
	"strings"
	"unicode"
)

// shingleSize is the length in tokens of the shingles texts are compared by,
// as in the public article-extraction benchmark.
const shingleSize = 4

// Tokens returns the lower-cased word tokens of s: runs of Unicode letters,
// digits and marks, and the underscore (Python's \w). Chinese and Japanese
// write no spaces between words, so there each Han, Hiragana or Katakana
// character is a token of its own: a whole sentence would otherwise be one
// token and any difference in it a miss of every shingle it is part of.
func Tokens(s string) []string {
	var toks []string
	var word strings.Builder
	flush := func() {
		if word.Len() > 0 {
			toks = append(toks, word.String())
			word.Reset()
		}
	}
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			flush()
			toks = append(toks, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '_':
			word.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return toks
}

// Shingles returns the multiset of the shingles of s: every run of
// shingleSize consecutive tokens, or the whole text as one shingle when it
// has fewer tokens; none for a text without tokens.
func Shingles(s string) map[string]int {
	toks := Tokens(s)
	m := map[string]int{}
	if len(toks) == 0 {
		return m
	}
	for i := 0; i < max(1, len(toks)-shingleSize+1); i++ {
		m[strings.Join(toks[i:min(i+shingleSize, len(toks))], " ")]++
	}
	return m
}

// Score is how an extracted text matches the known main text of a page,
// shingle by shingle as multisets: TP shingles found in both (counted as
// often as in both), FP extracted but not in the main text, FN in the main
// text but not extracted.
type Score struct {
	TP, FP, FN int
}

// Compare scores the extracted text pred against the known main text truth.
func Compare(truth, pred string) Score {
	t, p := Shingles(truth), Shingles(pred)
	var sc Score
	for sh, n := range p {
		common := min(n, t[sh])
		sc.TP += common
		sc.FP += n - common
	}
	for sh, n := range t {
		sc.FN += n - min(n, p[sh])
	}
	return sc
}

// Precision is TP/(TP+FP), 0 when nothing was extracted.
func (s Score) Precision() float64 {
	if s.TP+s.FP == 0 {
		return 0
	}
	return float64(s.TP) / float64(s.TP+s.FP)
}

// Recall is TP/(TP+FN), 0 when the main text is empty.
func (s Score) Recall() float64 {
	if s.TP+s.FN == 0 {
		return 0
	}
	return float64(s.TP) / float64(s.TP+s.FN)
}

// F1 is the harmonic mean of precision and recall, 0 when both are.
func (s Score) F1() float64 {
	p, r := s.Precision(), s.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}
