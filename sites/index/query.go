package index

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Problems a [QueryError] reports, as its Problem field and the API's
// details name them.
const (
	ProblemEmpty     = "empty"      // nothing to search for
	ProblemSyntax    = "syntax"     // the text cannot be read as a query
	ProblemStopWords = "stop_words" // only words the analyzer drops
)

// Fields are the fields a field:value part of a query may name.
var Fields = []string{"title", "text", "site", "url"}

// QueryError is a query that cannot be run, said in plain words for the
// person who typed it: what is wrong and, for a syntax problem, at which
// character (counted from 1, in characters, not bytes). It wraps
// [ErrBadQuery].
type QueryError struct {
	Problem string // ProblemEmpty, ProblemSyntax or ProblemStopWords
	Message string
	// Pos is the character the problem is at, from 1; 0 when it is not
	// at one place.
	Pos int
}

func (e *QueryError) Error() string { return e.Message }
func (e *QueryError) Unwrap() error { return ErrBadQuery }

// Details is what the API sends beside the message.
func (e *QueryError) Details() any {
	return struct {
		Problem  string `json:"problem"`
		Position int    `json:"position,omitempty"`
	}{e.Problem, e.Pos}
}

func syntaxError(pos int, format string, args ...any) *QueryError {
	return &QueryError{Problem: ProblemSyntax, Pos: pos, Message: fmt.Sprintf(format, args...)}
}

// checkSyntax finds, before bleve's parser does, the mistakes people make
// in a query string, and says what they are in plain words: bleve's own
// messages name grammar tokens ("unexpected tCOLON"). It checks quotes,
// lone + and - signs, field:value parts (a known field and a value), boosts
// and fuzziness. What it lets through and bleve still refuses gets a general
// message from [parse].
func checkSyntax(text string) error {
	pos := func(i int) int { return utf8.RuneCountInString(text[:i]) + 1 }
	i := 0
	for i < len(text) {
		c := text[i]
		switch {
		case isSpace(c):
			i++
		case c == '"' || ((c == '+' || c == '-') && i+1 < len(text) && text[i+1] == '"'):
			if c != '"' {
				i++
			}
			j := i + 1
			for j < len(text) && text[j] != '"' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(text) {
				return syntaxError(pos(i), "Unbalanced quote: the \" at character %d has no closing quote.", pos(i))
			}
			if strings.TrimSpace(text[i+1:j]) == "" {
				return syntaxError(pos(i), "Empty phrase at character %d: put words between the quotes.", pos(i))
			}
			i = j + 1
			if err := checkSuffix(text, &i, pos); err != nil {
				return err
			}
		default:
			start := i
			j := i
			for j < len(text) && !isSpace(text[j]) && text[j] != '"' {
				if text[j] == '\\' && j+1 < len(text) {
					j++
				}
				j++
			}
			word := text[i:j]
			bare := strings.TrimLeft(word, "+-")
			if bare == "" {
				return syntaxError(pos(i), "A lone %q at character %d: write it right before a word, as in %sjazz (%s).",
					word, pos(i), word[:1], map[byte]string{'+': "pages must have the word", '-': "pages must not have the word"}[word[0]])
			}
			if len(word)-len(bare) > 1 {
				return syntaxError(pos(i), "%q at character %d: use one + or - before a word.", word[:len(word)-len(bare)], pos(i))
			}
			if field, value, ok := cutField(bare); ok {
				if !knownField(field) {
					return syntaxError(pos(i), "Unknown field %q at character %d: the fields are %s (as in title:jazz). To search for a word with a colon, put a \\ before the colon.",
						field, pos(i), strings.Join(Fields, ", "))
				}
				if value == "" && (j >= len(text) || text[j] != '"') {
					return syntaxError(pos(i), "%s: at character %d has no value: write it as %s:jazz or %s:\"two words\".",
						field, pos(i), field, field)
				}
				if value == "" { // field:"phrase": the phrase is read next
					i = j
					continue
				}
			}
			if strings.HasPrefix(bare, "/") && (len(bare) == 1 || !strings.HasSuffix(bare, "/")) {
				return syntaxError(pos(i), "Unfinished regular expression at character %d: close it with / as in /jaz+/.", pos(i))
			}
			i = j
			if err := checkWordSuffix(word, start, pos); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkSuffix checks the ^boost or ~fuzziness right after a phrase.
func checkSuffix(text string, i *int, pos func(int) int) error {
	at, j := *i, *i
	for j < len(text) && !isSpace(text[j]) && text[j] != '"' {
		j++
	}
	*i = j
	if j == at {
		return nil
	}
	return checkModifier(text[at:j], at, pos)
}

// checkWordSuffix checks the ^boost or ~fuzziness at the end of a word.
func checkWordSuffix(word string, start int, pos func(int) int) error {
	k := strings.IndexAny(word, "^~")
	for k > 0 && word[k-1] == '\\' { // an escaped ^ or ~ is part of the word
		next := strings.IndexAny(word[k+1:], "^~")
		if next < 0 {
			return nil
		}
		k += 1 + next
	}
	if k < 0 {
		return nil
	}
	if k == 0 || strings.TrimLeft(word[:k], "+-") == "" {
		return syntaxError(pos(start), "%q at character %d comes before any word: write it after one, as in jazz%s.", word[k:k+1], pos(start), map[byte]string{'^': "^2", '~': "~1"}[word[k]])
	}
	return checkModifier(word[k:], start+k, pos)
}

// checkModifier checks a ^boost (a positive number) or a ~fuzziness (0, 1
// or 2, or nothing for 1).
func checkModifier(m string, at int, pos func(int) int) error {
	switch m[0] {
	case '^':
		if !isNumber(m[1:]) {
			return syntaxError(pos(at), "Boost at character %d needs a number: jazz^2 counts jazz twice as much.", pos(at))
		}
	case '~':
		if n := m[1:]; n != "" && n != "0" && n != "1" && n != "2" {
			return syntaxError(pos(at), "Fuzziness at character %d must be ~, ~1 or ~2 (how many letters may differ).", pos(at))
		}
	default:
		return syntaxError(pos(at), "Unexpected %q at character %d after a phrase: leave a space before the next word.", m, pos(at))
	}
	return nil
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	dot := false
	for _, c := range s {
		switch {
		case c == '.' && !dot:
			dot = true
		case c < '0' || c > '9':
			return false
		}
	}
	return s != "."
}

// cutField splits "field:value" at its first colon not escaped; ok is false
// for a word without one.
func cutField(word string) (field, value string, ok bool) {
	for k := 0; k < len(word); k++ {
		switch word[k] {
		case '\\':
			k++
		case ':':
			return word[:k], word[k+1:], true
		}
	}
	return "", "", false
}

func knownField(f string) bool {
	for _, k := range Fields {
		if f == k {
			return true
		}
	}
	return false
}

// parse reads text, already checked by checkSyntax, with bleve's
// query-string parser. A failure left is said in general words: bleve's
// message names its grammar's tokens.
func parse(text string) (query.Query, error) {
	q, err := query.NewQueryStringQuery(text).Parse()
	if err != nil {
		return nil, syntaxError(0, "The query could not be read: check its quotes, its + and - signs and its field:value parts.")
	}
	return q, nil
}

// requireAll makes every plain word and phrase of a parsed query string
// required: bleve reads "jazz records" as jazz OR records, while people
// expect pages with both. +word and -word keep their meaning.
func requireAll(q query.Query) query.Query {
	b, ok := q.(*query.BooleanQuery)
	if !ok || b.Should == nil {
		return q
	}
	d, ok := b.Should.(*query.DisjunctionQuery)
	if !ok {
		return q
	}
	b.AddMust(d.Disjuncts...)
	b.Should = nil
	return b
}

// dropped returns the words and phrases of a parsed query string (before
// [searchFields]) that the analyzer turns into no term at all, as typed,
// and whether the query has something left to search for. Such a part
// matches nothing; bleve leaves it out of a query string's required parts,
// so "the jazz" finds the pages with jazz. Only match and phrase leaves
// are analysed: a wildcard, fuzzy or regexp term always searches.
func dropped(q query.Query, an analysis.Analyzer) (words []string, rest bool) {
	walk(q, func(q query.Query, negated bool) {
		switch x := q.(type) {
		case *query.MatchQuery:
			if analysed(x.FieldVal) && len(an.Analyze([]byte(x.Match))) == 0 {
				words = append(words, x.Match)
			} else if !negated {
				rest = true
			}
		case *query.MatchPhraseQuery:
			if analysed(x.FieldVal) && len(an.Analyze([]byte(x.MatchPhrase))) == 0 {
				words = append(words, `"`+x.MatchPhrase+`"`)
			} else if !negated {
				rest = true
			}
		default:
			if !negated {
				rest = true
			}
		}
	})
	return words, rest
}

// droppedByAll returns the words and phrases of a parsed query string that
// every language of ls drops (see [dropped]), as typed, in order.
func droppedByAll(q query.Query, ls []langAnalyzer) []string {
	var out []string
	for i, l := range ls {
		words, _ := dropped(q, l.an)
		if i == 0 {
			out = words
			continue
		}
		out = slices.DeleteFunc(out, func(w string) bool { return !slices.Contains(words, w) })
	}
	return out
}

// analysed reports whether a field is analysed with a language's analyzer:
// title and text, the field-less parts spread over them, and the title and
// text fields of each language.
func analysed(field string) bool {
	if field == "" || field == "title" || field == "text" {
		return true
	}
	_, ok := fieldLanguage(field)
	return ok
}

// prune removes from a parsed query string, in place, the words and
// phrases [dropped] reports (they would match nothing: a required one would
// make the whole query match nothing once spread over title and text).
func prune(q query.Query, an analysis.Analyzer) query.Query {
	empty := func(q query.Query) bool {
		switch x := q.(type) {
		case *query.MatchQuery:
			return analysed(x.FieldVal) && len(an.Analyze([]byte(x.Match))) == 0
		case *query.MatchPhraseQuery:
			return analysed(x.FieldVal) && len(an.Analyze([]byte(x.MatchPhrase))) == 0
		}
		return false
	}
	keep := func(qs []query.Query) []query.Query {
		return slices.DeleteFunc(qs, empty)
	}
	b, ok := q.(*query.BooleanQuery)
	if !ok {
		return q
	}
	if c, ok := b.Must.(*query.ConjunctionQuery); ok {
		if c.Conjuncts = keep(c.Conjuncts); len(c.Conjuncts) == 0 {
			b.Must = nil
		}
	}
	if d, ok := b.Should.(*query.DisjunctionQuery); ok {
		if d.Disjuncts = keep(d.Disjuncts); len(d.Disjuncts) == 0 {
			b.Should = nil
		}
	}
	if d, ok := b.MustNot.(*query.DisjunctionQuery); ok {
		if d.Disjuncts = keep(d.Disjuncts); len(d.Disjuncts) == 0 {
			b.MustNot = nil
		}
	}
	return b
}
