package communities_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/communities"
	"sitesift/importance"
	"sitesift/sites"
	"sitesift/sites/index"
)

// TestCommunityTopicsLanguages: the communities of a crawl of Italian and
// Russian sites are named by key phrases of the pages' main text analysed
// in their language as the store keeps it, never starting or ending on a
// stop word.
func TestCommunityTopicsLanguages(t *testing.T) {
	a, _ := apptest.Open(t, apptest.LanguageTopicProject(t))
	cs, err := a.Communities.Extract(context.Background(), 5, importance.DefaultCoreOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"ricette1.it.test": "brodo di carne", "gorod1.ru.test": "картин репина"}
	got := map[string]string{}
	for _, c := range cs {
		got[c.Site] = c.Topic
	}
	if len(cs) != 2 || got["ricette1.it.test"] != want["ricette1.it.test"] || got["gorod1.ru.test"] != want["gorod1.ru.test"] {
		t.Errorf("communities' seed sites and topics %q, want %q", got, want)
	}
}

// worldTopicPages are the main texts of two Italian cooking sites, two
// Russian museum news sites and an English background, in the language
// lang gives each page ("" for pages stored before languages were told).
func worldTopicPages(lang func(code string) string) []sites.Page {
	page := func(code, u, title, text string) sites.Page {
		site, err := sites.Of(u)
		if err != nil {
			panic(err)
		}
		return sites.Page{URL: u, Site: site, Status: 200, ContentType: "text/html", Title: title, Text: text, Language: lang(code)}
	}
	return []sites.Page{
		page("it", "http://cucina-a.it.test/risotto", "Il risotto alla milanese",
			"Il risotto alla milanese è un piatto che nasce a Milano. Il segreto è lo zafferano, che dà il colore giallo al riso, e un brodo di carne preparato con cura."),
		page("it", "http://cucina-a.it.test/zafferano", "Come scegliere lo zafferano",
			"Lo zafferano in pistilli è quello che dà il profumo migliore al risotto. Un grammo basta per un chilo di riso, e il brodo deve essere caldo."),
		page("it", "http://cucina-a.it.test/brodo", "Il brodo di carne",
			"Il brodo di carne è la base di un buon risotto: si prepara con manzo, sedano e carota, e si lascia cuocere per tre ore, finché il sapore non è pieno."),
		page("it", "http://cucina-b.it.test/riso", "Quale riso per il risotto",
			"Il Carnaroli è il riso che tiene meglio la cottura del risotto; l'Arborio è più morbido. Un riso da risotto assorbe il brodo senza sfaldarsi."),
		page("it", "http://cucina-b.it.test/mantecatura", "La mantecatura",
			"La mantecatura è il momento in cui il risotto diventa cremoso: burro freddo e parmigiano, fuori dal fuoco, mescolando il riso con energia."),
		page("ru", "http://muzei-a.ru.test/vystavka", "Новая выставка в Третьяковской галерее",
			"В Третьяковской галерее открылась выставка русской живописи. Это то, что нельзя пропустить: картины Репина и Серова, которые раньше не показывали."),
		page("ru", "http://muzei-a.ru.test/chasy", "Музеи работают дольше",
			"Музеи Москвы по четвергам открыты до десяти часов вечера. То же самое касается галереи, где идёт выставка живописи."),
		page("ru", "http://muzei-a.ru.test/bilety", "Билеты в музеи",
			"Билеты в музеи можно купить на сайте заранее. Это то, о чём просят посетители выставки, и галерея пошла им навстречу."),
		page("ru", "http://muzei-b.ru.test/repin", "Репин в галерее",
			"Выставка картин Репина в галерее — это то событие, которого ждали. Живопись Репина показывает русскую жизнь."),
		page("ru", "http://muzei-b.ru.test/serov", "Серов и его портреты",
			"Портреты Серова — гордость галереи. На выставке то, что художник писал в Москве, рядом с живописью его учеников."),
		page("en", "http://news.en.test/a", "Council meeting", "The council met on Tuesday to discuss the new cycle lane and the budget."),
		page("en", "http://news.en.test/b", "Weather", "Rain is expected over the weekend, with sunshine on Monday."),
		page("en", "http://news.en.test/c", "Football", "The local team won the cup final after extra time."),
		page("en", "http://shop.en.test/a", "Bakery", "The bakery near the station sells bread, cakes and coffee."),
		page("en", "http://shop.en.test/b", "Bookshop", "A bookshop opened in the old post office, with a reading corner for children."),
	}
}

// TestTopicLabelLanguages: a community of Italian or Russian sites is named
// by its content words, never by the stop words of its language ("il · che
// · un", "то · это"), whether the crawl told the pages' language or not.
func TestTopicLabelLanguages(t *testing.T) {
	for _, told := range []bool{true, false} {
		lang := func(code string) string {
			if told {
				return code
			}
			return ""
		}
		ix, err := index.NewMemory(index.WithSearchTimeout(index.NoSearchTimeout))
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		if err := ix.Add(worldTopicPages(lang)); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			code  string
			sites []string
			want  []string // words the label is made of, in any order
		}{
			{"it", []string{"cucina-a.it.test", "cucina-b.it.test"}, []string{"risotto", "riso", "brodo"}},
			// Told, живопись, живописи and живописью are one term (the
			// Russian stemmer); not told, three, each on fewer pages.
			{"ru", []string{"muzei-a.ru.test", "muzei-b.ru.test"}, map[bool][]string{
				true: {"выставка", "галерее", "живописи"}, false: {"выставка", "галерее", "репина"}}[told]},
		} {
			st, err := ix.SiteTerms(context.Background(), c.sites, 500, 2, 1000)
			if err != nil {
				t.Fatal(err)
			}
			label := communities.TopicLabel(st, 3)
			words := strings.Split(label, " · ")
			slices.Sort(words)
			slices.Sort(c.want)
			if !slices.Equal(words, c.want) {
				t.Errorf("language told %v: %s label %q, want the words %q", told, c.code, label, c.want)
			}
			for _, w := range words {
				if index.StopWord(c.code, w) {
					t.Errorf("language told %v: %s label %q has the stop word %q", told, c.code, label, w)
				}
			}
		}
	}
}
