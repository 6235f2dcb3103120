package index

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"sitesift/sites"
)

// inLanguage is pg with the language the crawl told.
func inLanguage(lang, url, title, text string) sites.Page {
	p := pg(url, title, text)
	p.Language = lang
	return p
}

// worldPages are the main texts of news and culture pages in several
// languages, as the crawl hands them over; the comments say which test each
// serves.
func worldPages() []sites.Page {
	return []sites.Page{
		// French: "journal" finds "journaux", "chanteurs" finds
		// "chanteuses" (the French stemmer; the English one keeps them
		// apart).
		inLanguage("fr", "http://culture.fr.test/marciac", "Le festival de jazz de Marciac fête ses quarante ans",
			"Depuis quarante ans, le festival accueille chaque été des chanteuses et des musiciens venus du monde entier. "+
				"Les journaux régionaux saluent une programmation audacieuse, et les organisateurs promettent des concerts gratuits sur la place du village."),
		// Russian: "музей" finds "музеи", "выставка" finds "выставки".
		inLanguage("ru", "http://news.ru.test/muzei", "Музеи Москвы продлевают часы работы",
			"Крупнейшие музеи Москвы будут открыты до десяти часов вечера по четвергам. "+
				"В Третьяковской галерее открываются новые выставки русской живописи, а билеты можно купить на сайте заранее."),
		// Japanese: found by the pair of characters 研究 (research).
		inLanguage("ja", "http://news.jp.test/denchi", "東京大学の研究チームが新しい電池を開発",
			"東京大学の研究者たちは、充電時間を半分に短縮できる新しいリチウム電池を開発したと発表した。研究チームは来年にも実用化を目指す。"),
		// Chinese: holds 研 (in 研磨, grinding) and 究 (in 终究, after all)
		// apart, never 研究: a search for 研究 must not find it.
		inLanguage("zh", "http://food.zh.test/kafei", "咖啡豆的研磨",
			"咖啡豆的研磨方式终究决定了一杯咖啡的味道。"),
		// Italian: "il", "che" and "un" are stop words here, words in
		// English.
		inLanguage("it", "http://cucina.it.test/risotto", "La ricetta del risotto alla milanese",
			"Il risotto alla milanese è un piatto che nasce a Milano. Il segreto è lo zafferano, che dà il colore giallo al riso, "+
				"e un brodo di carne preparato con cura."),
		// English, told: stemmed as before.
		inLanguage("en", "http://food.en.test/risotto", "Risotto for beginners",
			"Stirring the rice slowly releases its starch. Most risottos need twenty minutes of patience."),
		// Welsh: no Bleve analyzer, the neutral one; "the" is no stop word
		// there.
		inLanguage("cy", "http://llyfrgell.cy.test/", "Llyfrgell Genedlaethol Cymru",
			"Mae'r llyfrgell genedlaethol yn Aberystwyth yn cadw llawysgrifau hynafol, gan gynnwys the Hendregadredd Manuscript."),
	}
}

func worldIndex(t *testing.T) *Index {
	t.Helper()
	ix, err := NewMemory(WithSearchTimeout(NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if err := ix.Add(worldPages()); err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestSearchLanguages: each page is found by the words of its language as
// that language's analyzer makes them: inflected forms, Cyrillic words,
// CJK character pairs.
func TestSearchLanguages(t *testing.T) {
	t.Parallel()
	ix := worldIndex(t)
	for _, tt := range []struct {
		name, q string
		want    []string
	}{
		{"French plural of journal", "journal", []string{"http://culture.fr.test/marciac"}},
		{"French masculine of chanteuses", "chanteurs", []string{"http://culture.fr.test/marciac"}},
		{"French title inflected", "festivals", []string{"http://culture.fr.test/marciac"}},
		{"Russian singular of музеи", "музей", []string{"http://news.ru.test/muzei"}},
		{"Russian выставка", "выставка", []string{"http://news.ru.test/muzei"}},
		{"Russian phrase", `"новые выставки"`, []string{"http://news.ru.test/muzei"}},
		{"Japanese pair", "研究", []string{"http://news.jp.test/denchi"}},
		{"Japanese word of pairs", "研究者", []string{"http://news.jp.test/denchi"}},
		{"Chinese pair", "研磨", []string{"http://food.zh.test/kafei"}},
		{"Italian word", "zafferano", []string{"http://cucina.it.test/risotto"}},
		{"English plural", "risotto", []string{"http://cucina.it.test/risotto", "http://food.en.test/risotto"}},
		// "il" is an Italian stop word: the Italian page is found by the
		// rest; in English it is a word the English page does not have.
		{"stop word of one language", "il risotto", []string{"http://cucina.it.test/risotto"}},
		// "the" is an English stop word, a word of the Welsh page.
		{"stop word of another", "the", []string{"http://llyfrgell.cy.test/"}},
		{"neutral analyzer", "llyfrgell", []string{"http://llyfrgell.cy.test/"}},
		{"text field in every language", "text:музеи", []string{"http://news.ru.test/muzei"}},
		{"title field in every language", "title:ricetta", []string{"http://cucina.it.test/risotto"}},
		{"wildcard in every language", "выстав*", []string{"http://news.ru.test/muzei"}},
		{"any word", "journaux музей", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ix.Search(context.Background(), Query{Text: tt.q})
			if err != nil {
				t.Fatal(err)
			}
			got := urls(res.Hits)
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("%q: hits %v, want %v", tt.q, got, tt.want)
			}
		})
	}
	res, err := ix.Search(context.Background(), Query{Text: "journaux музей", Any: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := urls(res.Hits); len(got) != 2 {
		t.Errorf("any of a French and a Russian word: %v, want both pages", got)
	}
}

// TestSearchLanguageHits: a hit says its language, and its title and
// snippet come from its language's fields, the match marked.
func TestSearchLanguageHits(t *testing.T) {
	t.Parallel()
	ix := worldIndex(t)
	res, err := ix.Search(context.Background(), Query{Text: "выставка"})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("hits %+v, %v", res.Hits, err)
	}
	h := res.Hits[0]
	if h.Language != "ru" || h.Title != "Музеи Москвы продлевают часы работы" || !strings.Contains(h.Snippet, "<mark>выставки</mark>") {
		t.Errorf("hit %+v", h)
	}
	// A title-only match: the snippet is the start of the text.
	res, err = ix.Search(context.Background(), Query{Text: "title:ricetta"})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("hits %+v, %v", res.Hits, err)
	}
	if h := res.Hits[0]; h.Language != "it" || !strings.HasPrefix(h.Snippet, "Il risotto alla milanese") {
		t.Errorf("title-only hit %+v", h)
	}
}

// TestSearchStopWordsOfEveryLanguage: a word is too common to search for
// when every language of the index drops it, not only English.
func TestSearchStopWordsOfEveryLanguage(t *testing.T) {
	t.Parallel()
	ix, err := NewMemory(WithSearchTimeout(NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	pages := worldPages()
	// Italian and English only.
	if err := ix.Add([]sites.Page{pages[4], pages[5]}); err != nil {
		t.Fatal(err)
	}
	res, err := ix.Search(context.Background(), Query{Text: "the risotto"})
	if err != nil {
		t.Fatal(err)
	}
	// "the" is an Italian word: the Italian page would need it.
	if got := urls(res.Hits); !slices.Equal(got, []string{"http://food.en.test/risotto"}) || len(res.Ignored) != 0 {
		t.Errorf("the risotto: %v, ignored %q", got, res.Ignored)
	}
	// "che" and "il" are stop words in Italian only.
	res, err = ix.Search(context.Background(), Query{Text: "che il"})
	if err != nil || res.Total != 0 {
		t.Errorf("che il: %d hits, %v; want none (English pages would need both words)", res.Total, err)
	}
	// "a" is a stop word of both: left out, and alone too common.
	res, err = ix.Search(context.Background(), Query{Text: "a risotto"})
	if err != nil || res.Total != 2 || !slices.Equal(res.Ignored, []string{"a"}) {
		t.Errorf("a risotto: %v, %v, ignored %q; want both pages, a ignored", urls(res.Hits), err, res.Ignored)
	}
	var qe *QueryError
	_, err = ix.Search(context.Background(), Query{Text: "a"})
	if !errors.As(err, &qe) || qe.Problem != ProblemStopWords {
		t.Errorf("a: %v, want a stop-word QueryError", err)
	}
}

// TestLanguageKey: ISO 639-1 codes map to the fields Bleve has an analyzer
// for.
func TestLanguageKey(t *testing.T) {
	for code, want := range map[string]string{
		"fr": "fr", "RU": "ru", "ja": "cjk", "zh": "cjk", "ko": "cjk", "nb": "no", "nn": "no",
		"ca": "ca", "cy": "other", "he": "other", "": "",
	} {
		if got := LanguageKey(code); got != want {
			t.Errorf("LanguageKey(%q) = %q, want %q", code, got, want)
		}
	}
}

// TestStopWord: Bleve's stop lists, per language, and all of them for
// pages of a language without one.
func TestStopWord(t *testing.T) {
	for _, tt := range []struct {
		key, word string
		want      bool
	}{
		{"it", "che", true}, {"it", "risotto", false}, {"ru", "то", true}, {"ru", "музей", false},
		{"en", "the", true}, {"en", "che", false}, {"", "che", true}, {"other", "то", true}, {"", "jazz", false},
	} {
		if got := StopWord(tt.key, tt.word); got != tt.want {
			t.Errorf("StopWord(%q, %q) = %v", tt.key, tt.word, got)
		}
	}
}

// TestSiteTermsLanguages: the terms of a page are its language's: stop
// words of that language left out, words stemmed its way, and the
// document frequency that of its language's field.
func TestSiteTermsLanguages(t *testing.T) {
	t.Parallel()
	ix := worldIndex(t)
	st, err := ix.SiteTerms(context.Background(), []string{"cucina.it.test", "news.ru.test"}, 0, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	terms, words := map[string]TermCount{}, map[string]TermCount{}
	for _, tc := range st.Terms {
		terms[tc.Language+":"+tc.Term] = tc
		words[tc.Language+":"+tc.Word] = tc
	}
	for _, stop := range []string{"it:il", "it:che", "it:un", "it:è", "ru:в", "ru:до", "ru:по", "ru:а"} {
		if tc, ok := terms[stop]; ok {
			t.Errorf("stop word counted: %+v", tc)
		}
	}
	// The Russian stemmer makes "муз" of "музеи"; "risotto" of the
	// Italian page is stemmed the Italian way and counted in the Italian
	// field, not with the English page's.
	if tc := terms["ru:муз"]; tc.Word != "музеи" || tc.DocFreq != 1 {
		t.Errorf("ru:муз = %+v (terms %v)", tc, keys(terms))
	}
	if tc := words["it:risotto"]; tc.Term == "" || tc.Term == "risotto" || tc.DocFreq != 1 || tc.Pages != 1 || tc.Count != 1 {
		t.Errorf("the Italian word risotto = %+v (terms %v)", tc, keys(terms))
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestSearchBoundsAllLanguages: a query within the bounds runs on an index
// of pages in every language, where each of its words is searched in the
// title and text of each: bleve's own limit on term searchers grows with
// the languages.
func TestSearchBoundsAllLanguages(t *testing.T) {
	t.Parallel()
	ix, err := NewMemory(WithSearchTimeout(NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var pages []sites.Page
	words := make([]string, MaxQueryWords-1)
	for i := range words {
		words[i] = aWord(i)
	}
	for _, l := range languages {
		code := l.key
		if code == "cjk" {
			code = "ja"
		} else if code == other {
			code = "cy"
		}
		pages = append(pages, inLanguage(code, "http://"+l.key+"x.test/", "Words", "jazz "+strings.Join(words, " ")))
	}
	// 4,000 words of b: b* stands for them, within MaxExpansions.
	for i := 0; i < 4000; i += 100 {
		var bs []string
		for k := i; k < i+100; k++ {
			bs = append(bs, "b"+aWord(k)[1:])
		}
		pages = append(pages, inLanguage("en", fmt.Sprintf("http://b.test/%d", i), "B", strings.Join(bs, " ")))
	}
	if err := ix.Add(pages); err != nil {
		t.Fatal(err)
	}
	q := strings.Join(words, " ") + " b*"
	res, err := ix.Search(context.Background(), Query{Text: q, Any: true})
	if err != nil {
		t.Fatalf("%d words and b* on %d languages: %v", len(words), len(languages), err)
	}
	if res.Total != uint64(len(pages)) {
		t.Errorf("%d hits, want %d", res.Total, len(pages))
	}
	// Expansions count over the fields of every language: a* stands for
	// the 63 a-words in the text of each of the 33 languages.
	_, err = ix.Search(context.Background(), Query{Text: "b* a*", Any: true})
	var qe *QueryError
	if !errors.As(err, &qe) || qe.Problem != ProblemTooBroad {
		t.Errorf("b* a*: %v, want too broad", err)
	}
}
