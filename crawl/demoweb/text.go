package demoweb

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// writer writes the text of one page. A page has one focus subject and one
// home place that most of its sentences return to, so that its words are
// coherent and a full-text search for them finds the page that is about them.
type writer struct {
	rng     *rand.Rand
	t       *topic
	site    *site
	pool    []string // subjects {subject} draws from
	focus   string
	home    string
	deck    []string // sentence templates not yet used on this page
	lastPlc string
	// mentioned is set once the focus has been named in full.
	mentioned bool
}

func newWriter(rng *rand.Rand, t *topic, s *site, focus, home string) *writer {
	pool := t.subjects
	if s.topic == t && len(s.subjects) > 0 {
		pool = s.subjects
	}
	return &writer{rng: rng, t: t, site: s, pool: pool, focus: focus, home: home}
}

var slotRE = regexp.MustCompile(`\{(a:)?([a-z]+)\}`)

// fill replaces the slots of a template and capitalises the result. An
// unknown slot is a mistake in the data tables, which the tests render in
// full, so it panics rather than print a half-filled sentence.
func (w *writer) fill(tmpl string) string {
	s := slotRE.ReplaceAllStringFunc(tmpl, func(m string) string {
		sub := slotRE.FindStringSubmatch(m)
		v := w.slot(sub[2])
		if sub[1] != "" {
			v = indefinite(v) + " " + v
		}
		return v
	})
	return capitalise(s)
}

func (w *writer) slot(name string) string {
	t, rng := w.t, w.rng
	switch name {
	case "focus":
		// After the first mention, a page says "the manuscript" as often as
		// "the medieval manuscript", as a writer would.
		if w.mentioned && rng.IntN(2) == 0 {
			return shortForm(w.focus)
		}
		w.mentioned = true
		return w.focus
	case "subject":
		for {
			if s := pick(rng, w.pool); s != w.focus {
				return s
			}
		}
	case "home":
		return w.home
	case "place":
		for {
			if p := pick(rng, places); p != w.home && p != w.lastPlc {
				w.lastPlc = p
				return p
			}
		}
	case "actor":
		return pick(rng, t.actors)
	case "action":
		return pick(rng, t.actions)
	case "quality":
		return pick(rng, t.qualities)
	case "event":
		return pick(rng, t.events)
	case "year":
		return strconv.Itoa(2012 + rng.IntN(13))
	case "era":
		return strconv.Itoa(t.eraMin + rng.IntN(t.eraMax-t.eraMin+1))
	case "founded":
		return strconv.Itoa(w.site.founded)
	case "month":
		return pick(rng, months)
	case "weekday":
		return pick(rng, weekdays)
	case "number":
		return strconv.Itoa(3 + rng.IntN(10))
	case "site":
		return w.site.name
	}
	panic(fmt.Sprintf("demoweb: unknown slot {%s} in topic %q", name, t.key))
}

// sentence returns a sentence from a template not yet used on this page:
// the topic's own sentences and the generic ones, shuffled.
func (w *writer) sentence() string {
	if len(w.deck) == 0 {
		w.deck = append(append(w.deck, w.t.sentences...), genericSentences...)
		w.rng.Shuffle(len(w.deck), func(i, j int) { w.deck[i], w.deck[j] = w.deck[j], w.deck[i] })
	}
	tmpl := w.deck[len(w.deck)-1]
	w.deck = w.deck[:len(w.deck)-1]
	return w.fill(tmpl)
}

// paragraph returns n sentences.
func (w *writer) paragraph(n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = w.sentence()
	}
	return strings.Join(s, " ")
}

// paragraphs returns between lo and hi paragraphs of three to five sentences.
func (w *writer) paragraphs(lo, hi int) []string {
	ps := make([]string, lo+w.rng.IntN(hi-lo+1))
	for i := range ps {
		ps[i] = w.paragraph(3 + w.rng.IntN(3))
	}
	return ps
}

// title returns an article title from the topic's templates.
func (w *writer) title() string {
	return w.fill(pick(w.rng, w.t.titles))
}

// byline returns an author and a date.
func (w *writer) byline() string {
	return fmt.Sprintf("By %s %s · %d %s %d", pick(w.rng, firstNames), pick(w.rng, lastNames),
		1+w.rng.IntN(28), pick(w.rng, months), 2019+w.rng.IntN(7))
}

// shortForm returns the head noun of a subject: "book of hours" → "book",
// "medieval manuscript" → "manuscript".
func shortForm(subject string) string {
	if strings.Contains(subject, " au ") {
		return subject // "coq au vin"
	}
	if head, _, ok := strings.Cut(subject, " of "); ok {
		return head
	}
	return subject[strings.LastIndexByte(subject, ' ')+1:]
}

func pick(rng *rand.Rand, xs []string) string { return xs[rng.IntN(len(xs))] }

// indefinite returns "a" or "an" for the word that follows it. The vowel
// rule is enough for the words of the tables.
func indefinite(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}

func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// slug turns a title into a path segment: ASCII letters and digits joined by
// sep, accents dropped, at most seven words.
func slug(title, sep string) string {
	var words []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			words = append(words, b.String())
			b.Reset()
		}
	}
	for _, r := range strings.ToLower(title) {
		if r == '\'' || r == '’' {
			continue // "merchant's" → "merchants"
		}
		if a, ok := unaccent[r]; ok {
			r = a
		}
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			flush()
		}
	}
	flush()
	if len(words) > 7 {
		words = words[:7]
	}
	return strings.Join(words, sep)
}

var unaccent = map[rune]rune{
	'à': 'a', 'â': 'a', 'ç': 'c', 'é': 'e', 'è': 'e', 'ê': 'e', 'ë': 'e',
	'î': 'i', 'ï': 'i', 'ô': 'o', 'ù': 'u', 'û': 'u', 'ü': 'u',
}
