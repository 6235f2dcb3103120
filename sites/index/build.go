package index

import (
	"fmt"
	"strings"

	"github.com/blevesearch/bleve/v2/search/query"
	vregexp "github.com/blevesearch/vellum/regexp"
)

// buildQuery checks the query string, takes the site: terms out of it,
// parses the rest, and builds from it one query for each language of ls:
// the words that language's analyzer drops left out, plain words made
// required (unless q.Any), field-less parts spread over the title and text
// fields of the language, pages of other languages left out. The query is
// the disjunction of those, each page being of one language, checked, and
// restricted to the sites asked for. It returns the words left out as stop
// words of every language.
func buildQuery(q Query, ls []langAnalyzer) (query.Query, []string, error) {
	text := strings.TrimSpace(q.Text)
	if text == "" {
		return nil, nil, &QueryError{Problem: ProblemEmpty, Message: "Type something to search for."}
	}
	if q.Offset < 0 {
		return nil, nil, fmt.Errorf("%w: negative offset %d", ErrBadQuery, q.Offset)
	}
	if err := checkLength(text); err != nil {
		return nil, nil, err
	}
	if err := checkSyntax(text); err != nil {
		return nil, nil, err
	}
	rest, siteTerms, err := SplitSites(text)
	if err != nil {
		return nil, nil, syntaxError(0, "%s.", strings.ToUpper(err.Error()[:1])+err.Error()[1:])
	}
	var parsed query.Query
	var ignored []string
	filtered := len(siteTerms) > 0 || q.Site != ""
	if strings.TrimSpace(rest) == "" {
		// Only site: terms: every page of those sites.
		parsed = query.NewMatchAllQuery()
	} else {
		if parsed, err = parse(rest); err != nil {
			return nil, nil, err
		}
		if err := checkWords(parsed, ls); err != nil {
			return nil, nil, err
		}
		var stopped []string // dropped by some language, in order
		seen := map[string]bool{}
		var perLang []query.Query
		for _, l := range ls {
			// Each language prunes and rewrites a copy of its own.
			ql, err := parse(rest)
			if err != nil {
				return nil, nil, err
			}
			words, left := dropped(ql, l.an)
			for _, w := range words {
				if !seen[w] {
					seen[w] = true
					stopped = append(stopped, w)
				}
			}
			switch {
			case len(words) > 0 && !left && filtered:
				ql = query.NewMatchAllQuery()
			case len(words) > 0 && !left:
				continue // nothing to search for in pages of l
			default:
				ql = prune(ql, l.an)
				if !q.Any {
					ql = requireAll(ql)
				}
				ql = searchFields(ql, l.key)
			}
			if len(ls) > 1 {
				// Leaves of fields kept whole (url:, -site:), a query of
				// excluded words only, or of stop words within a site
				// would match pages of every language.
				ql = query.NewConjunctionQuery([]query.Query{ql, langTerm(l.key)})
			}
			perLang = append(perLang, ql)
		}
		ignored = droppedByAll(parsed, ls)
		switch len(perLang) {
		case 0:
			return nil, nil, &QueryError{Problem: ProblemStopWords,
				Message: fmt.Sprintf("'%s' only has words too common to search for.", strings.Join(stopped, " "))}
		case 1:
			parsed = perLang[0]
		default:
			parsed = query.NewDisjunctionQuery(perLang)
		}
		if err := validate(parsed); err != nil {
			return nil, nil, err
		}
	}
	filters := []query.Query{parsed}
	if len(siteTerms) > 0 {
		var either []query.Query
		for _, s := range siteTerms {
			either = append(either, siteTerm(s))
		}
		filters = append(filters, query.NewDisjunctionQuery(either))
	}
	if q.Site != "" {
		filters = append(filters, siteTerm(q.Site))
	}
	if len(filters) == 1 {
		return parsed, ignored, nil
	}
	return query.NewConjunctionQuery(filters), ignored, nil
}

// langTerm is the filter of the pages of the language of key. It weighs
// nothing in the score: which language a page is in says nothing of how
// well it matches.
func langTerm(key string) query.Query {
	t := query.NewTermQuery(langValue(key))
	t.SetField(langField)
	t.SetBoost(0)
	return t
}

func siteTerm(site string) query.Query {
	t := query.NewTermQuery(site)
	t.SetField("site")
	return t
}

// SplitSites takes the site:NAME terms out of a query string and returns the
// rest of it and the site names, lower-cased, in order of appearance. A
// site: term (or +site:) is a filter: the query matches pages of that site
// only, or of any of them when there are several; without this, bleve
// would read a bare field:value term as optional, so "open site:a.test"
// would also find "open" on every other site. A -site:NAME term is left in
// the rest, where bleve's must-not excludes the site, and so is site: inside
// a "quoted phrase". NAME may be quoted; an empty one is an error.
func SplitSites(text string) (rest string, sites []string, err error) {
	var b strings.Builder
	i := 0
	for i < len(text) {
		c := text[i]
		switch {
		case c == '"':
			// Copy a phrase through, escapes included, to its closing quote.
			j := i + 1
			for j < len(text) && text[j] != '"' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(text))
			b.WriteString(text[i:j])
			i = j
		case isSpace(c):
			b.WriteByte(c)
			i++
		default:
			j := i
			for j < len(text) && !isSpace(text[j]) && text[j] != '"' {
				if text[j] == '\\' && j+1 < len(text) {
					j++
				}
				j++
			}
			word := text[i:j]
			value, ok := strings.CutPrefix(strings.TrimPrefix(word, "+"), "site:")
			if !ok {
				b.WriteString(word)
				i = j
				continue
			}
			if value == "" && j < len(text) && text[j] == '"' {
				// site:"name": the quoted name runs to the closing quote.
				k := strings.IndexByte(text[j+1:], '"')
				if k < 0 {
					return "", nil, fmt.Errorf("site: name without closing quote")
				}
				value, j = text[j+1:j+1+k], j+2+k
			}
			value = strings.ToLower(strings.TrimSpace(value))
			if value == "" {
				return "", nil, fmt.Errorf("site: without a site name")
			}
			sites = append(sites, value)
			i = j
		}
	}
	return b.String(), sites, nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// validate checks what bleve's own Validate leaves to search time: the
// regular expressions, compiled the way the on-disk index compiles them
// (bleve strips a leading ^). Without this a typo in /regexp/ would surface
// as a search failure, indistinguishable from a broken index.
func validate(q query.Query) error {
	switch x := q.(type) {
	case *query.BooleanQuery:
		for _, sub := range []query.Query{x.Must, x.Should, x.MustNot} {
			if sub != nil {
				if err := validate(sub); err != nil {
					return err
				}
			}
		}
	case *query.ConjunctionQuery:
		for _, sub := range x.Conjuncts {
			if err := validate(sub); err != nil {
				return err
			}
		}
	case *query.DisjunctionQuery:
		for _, sub := range x.Disjuncts {
			if err := validate(sub); err != nil {
				return err
			}
		}
	case *query.RegexpQuery:
		if _, err := vregexp.New(strings.TrimPrefix(x.Regexp, "^")); err != nil {
			return syntaxError(0, "The regular expression /%s/ is not valid: check its brackets, parentheses and backslashes.", x.Regexp)
		}
	}
	if v, ok := q.(query.ValidatableQuery); ok && v.Validate() != nil {
		return syntaxError(0, "The query could not be read: check its quotes, its + and - signs and its field:value parts.")
	}
	return nil
}

// searchFields rewrites, in place, every field-less leaf of a parsed query
// string (a word, phrase, wildcard...) into "title_L^titleBoost OR
// text_L", and a title: or text: leaf into title_L or text_L, L being the
// language key. The query-string syntax alone has one default field; this
// is how a plain word searches both fields with the title weighing more,
// while +, - and explicit field:value parts keep their meaning.
func searchFields(q query.Query, key string) query.Query {
	switch x := q.(type) {
	case *query.BooleanQuery:
		if x.Must != nil {
			x.Must = searchFields(x.Must, key)
		}
		if x.Should != nil {
			x.Should = searchFields(x.Should, key)
		}
		if x.MustNot != nil {
			x.MustNot = searchFields(x.MustNot, key)
		}
		return x
	case *query.ConjunctionQuery:
		for i := range x.Conjuncts {
			x.Conjuncts[i] = searchFields(x.Conjuncts[i], key)
		}
		return x
	case *query.DisjunctionQuery:
		for i := range x.Disjuncts {
			x.Disjuncts[i] = searchFields(x.Disjuncts[i], key)
		}
		return x
	case *query.MatchPhraseQuery:
		if x.FieldVal == "url" || x.FieldVal == "site" {
			// url:"http://…" and site:"name": these fields are kept whole,
			// without positions, so a phrase is one term to match.
			m := query.NewMatchQuery(x.MatchPhrase)
			m.SetField(x.FieldVal)
			if x.BoostVal != nil {
				m.SetBoost(x.Boost())
			}
			return m
		}
		return spread(x, key)
	case query.FieldableQuery:
		return spread(x, key)
	}
	return q
}

// spread is "title_L^titleBoost OR text_L" for a field-less leaf, title_L
// for a title: leaf and text_L for a text: leaf; other leaves, and those
// that do not match text, are returned as they are.
func spread(x query.FieldableQuery, key string) query.Query {
	switch x.Field() {
	case "title":
		if c, ok := withField(x, titleField(key)); ok {
			return c
		}
		return x
	case "text":
		if c, ok := withField(x, textField(key)); ok {
			return c
		}
		return x
	case "":
	default:
		return x
	}
	title, ok := withField(x, titleField(key))
	if !ok {
		return x
	}
	text, _ := withField(x, textField(key))
	boost := 1.0
	if b, ok := x.(query.BoostableQuery); ok {
		boost = b.Boost()
	}
	title.(query.BoostableQuery).SetBoost(boost * titleBoost)
	return query.NewDisjunctionQuery([]query.Query{title, text})
}
