package index

import (
	"context"
	"slices"
	"strings"
	"testing"

	"sitesift/sites"
)

// TestSitePhrases: the phrases of a set of pages are runs of 2 to 4 words
// of one clause that start and end on a word of the index, in the language
// of their pages, counted once a page; a stop word may stand inside a
// phrase, never at its ends, and punctuation ends one.
func TestSitePhrases(t *testing.T) {
	ix, err := NewMemory(WithSearchTimeout(NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	page := func(u, lang, text string) sites.Page {
		s, err := sites.Of(u)
		if err != nil {
			t.Fatal(err)
		}
		return sites.Page{URL: u, Site: s, Status: 200, ContentType: "text/html", Title: "t", Text: text, Language: lang}
	}
	if err := ix.Add([]sites.Page{
		page("http://cheese.test/a", "en", "The cheese makers of the valley age their wheels in caves. Raw milk cheese, they say, keeps its taste."),
		page("http://cheese.test/b", "en", "Our cheese maker turns the wheels by hand; the raw milk cheese of the farm is sold at the market."),
		page("http://fromage.test/a", "fr", "Les fromagers de la vallée affinent le fromage au lait cru dans des caves."),
		page("http://fromage.test/b", "fr", "Le fromage au lait cru de l'alpage est affiné par les fromagers."),
		page("http://other.test/a", "en", "Nothing about cheese here, only the weather."),
	}); err != nil {
		t.Fatal(err)
	}
	ps, err := ix.SitePhrases(context.Background(), []string{"cheese.test", "fromage.test"}, 0, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ps.Pages != 4 || ps.Sites != 2 {
		t.Errorf("pages %d, sites %d; want 4, 2", ps.Pages, ps.Sites)
	}
	got := map[string]PhraseCount{}
	for _, p := range ps.Phrases {
		got[p.Language+": "+p.Phrase] = p
		words := strings.Fields(p.Phrase)
		if len(words) < MinPhraseWords || len(words) > MaxPhraseWords {
			t.Errorf("phrase %q has %d words", p.Phrase, len(words))
		}
		for _, end := range []string{words[0], words[len(words)-1]} {
			if StopWord(p.Language, end) {
				t.Errorf("phrase %q ends on the stop word %q", p.Phrase, end)
			}
		}
		if p.Pages < 2 {
			t.Errorf("phrase %q on %d pages, fewer than asked", p.Phrase, p.Pages)
		}
	}
	for _, want := range []struct {
		key          string
		terms        []string
		sites, pages int
	}{
		// "cheese makers" and "cheese maker" are one phrase, as written first on a tie.
		{"en: cheese maker", []string{"chees", "maker"}, 1, 2},
		{"en: raw milk cheese", []string{"raw", "milk", "chees"}, 1, 2},
		{"en: raw milk", []string{"raw", "milk"}, 1, 2},
		// A stop word inside: "fromage au lait cru".
		{"fr: fromage au lait cru", []string{"fromag", "lait", "cru"}, 1, 2},
		{"fr: lait cru", []string{"lait", "cru"}, 1, 2},
	} {
		p, ok := got[want.key]
		if !ok {
			t.Errorf("no phrase %q in %v", want.key, keys(got))
			continue
		}
		if p.Sites != want.sites || p.Pages != want.pages || !slices.Equal(p.Terms, want.terms) {
			t.Errorf("%s: %d sites, %d pages, terms %q; want %d, %d, %q", want.key, p.Sites, p.Pages, p.Terms, want.sites, want.pages, want.terms)
		}
	}
	// Across a full stop or a comma there is no phrase.
	for _, not := range []string{"en: caves raw", "en: cheese they", "en: hand the raw"} {
		if _, ok := got[not]; ok {
			t.Errorf("phrase %q across a clause", not)
		}
	}
}
