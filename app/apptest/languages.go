package apptest

import (
	"context"
	"testing"

	"sitesift/app"
	"sitesift/sites"
)

// LanguageTopicProject builds a project of two communities of sites in
// other languages than English, from the main texts of their pages, and
// returns its directory, closed:
//
//   - hubs http://ricette{1,2,3}.it.test/ link to the Italian cooking
//     sites http://cucina{1,2}.it.test/; every page says "il", "che" and
//     "un", and speaks of risotto, riso and brodo;
//   - hubs http://gorod{1,2,3}.ru.test/ link to the Russian museum sites
//     http://muzei{1,2}.ru.test/; every page says "то" and "это", and
//     speaks of a выставка (exhibition) in a галерея of живопись
//     (painting);
//   - news.en.test's five pages speak of none of the topics, in English.
//
// Each page's language is told (sites.Page.Language), as the crawl tells
// it.
func LanguageTopicProject(t testing.TB) string {
	t.Helper()
	dir, p := create(t)
	defer p.Close()
	page := func(lang, u, title, text string, links ...string) sites.Page {
		pg := Page(t, u, links...)
		pg.Title, pg.Text, pg.Language = title, text, lang
		return pg
	}
	italian := []string{
		"Il risotto alla milanese è un piatto che nasce a Milano. Il segreto è lo zafferano, che dà il colore giallo al riso, e un brodo di carne preparato con cura.",
		"Lo zafferano in pistilli è quello che dà il profumo migliore al risotto. Un grammo basta per un chilo di riso, e il brodo deve essere caldo.",
		"Il brodo di carne è la base di un buon risotto: si prepara con manzo, sedano e carota, e si lascia cuocere per tre ore, finché il sapore non è pieno.",
		"Il Carnaroli è il riso che tiene meglio la cottura del risotto; l'Arborio è più morbido. Un riso da risotto assorbe il brodo senza sfaldarsi.",
		"La mantecatura è il momento in cui il risotto diventa cremoso: burro freddo e parmigiano, fuori dal fuoco, mescolando il riso e un po' di brodo.",
	}
	russian := []string{
		"В Третьяковской галерее открылась выставка русской живописи. Это то, что нельзя пропустить: картины Репина и Серова, которые раньше не показывали.",
		"Музеи Москвы по четвергам открыты до десяти часов вечера. То же самое касается галереи, где идёт выставка живописи. Это удобно.",
		"Билеты можно купить на сайте заранее. Это то, о чём просят посетители выставки, и галерея пошла им навстречу. Живопись ждёт.",
		"Выставка картин Репина в галерее — это то событие, которого ждали. Живопись Репина показывает русскую жизнь.",
		"Портреты Серова — гордость галереи. На выставке то, что художник писал в Москве, рядом с живописью его учеников. Это стоит увидеть.",
	}
	cucina := []string{"http://cucina1.it.test/", "http://cucina2.it.test/"}
	muzei := []string{"http://muzei1.ru.test/", "http://muzei2.ru.test/"}
	var pages []sites.Page
	for i, u := range []string{"http://ricette1.it.test/", "http://ricette2.it.test/", "http://ricette3.it.test/"} {
		pages = append(pages, page("it", u, "Ricette", italian[i], cucina...))
	}
	for i, u := range cucina {
		pages = append(pages, page("it", u, "Cucina", italian[3+i]))
	}
	for i, u := range []string{"http://gorod1.ru.test/", "http://gorod2.ru.test/", "http://gorod3.ru.test/"} {
		pages = append(pages, page("ru", u, "Город", russian[i], muzei...))
	}
	for i, u := range muzei {
		pages = append(pages, page("ru", u, "Музей", russian[3+i]))
	}
	for i, text := range []string{
		"The council met on Tuesday to discuss the new cycle lane and the budget.",
		"Rain is expected over the weekend, with sunshine on Monday.",
		"The local team won the cup final after extra time.",
		"The bakery near the station sells bread, cakes and coffee.",
		"A bookshop opened in the old post office, with a reading corner for children.",
	} {
		pages = append(pages, page("en", "http://news.en.test/"+string(rune('a'+i)), "News", text))
	}
	var states []sites.SiteState
	for i, pg := range pages {
		states = append(states, sites.SiteState{Site: pg.Site, History: float64(len(pages) - i)})
	}
	if err := p.Store.SaveCrawlBatch(context.Background(), pages, states); err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Project: p})
	if _, err := a.Ranking.UpdateImportance(context.Background()); err != nil {
		t.Fatal(err)
	}
	return dir
}
