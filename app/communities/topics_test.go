package communities

import (
	"context"
	"strings"
	"testing"

	"sitesift/sites"
	"sitesift/sites/index"
)

// topicWeb is the main text of the pages of four communities — cheese
// makers and astronomy clubs, each in English and in French — and of a
// background of local news, as articles and club pages write them.
var topicWeb = []struct{ url, lang, text string }{
	{"http://valleycreamery.test/news/spring-wheels", "en", `Our cheese makers started the spring wheels this week. The raw milk comes
from the herd on the hill every morning, still warm, and goes straight into the vat. After the curd is cut and pressed,
the wheels go down to the cave, where they age for at least eight months. Visitors can watch the cheese makers at work
on Saturdays.`},
	{"http://valleycreamery.test/about", "en", `We are a family farm and a small creamery. Everything we sell is raw milk cheese,
made by hand by our three cheese makers from the milk of our own cows. We age every wheel in the cave under the barn.`},
	{"http://valleycreamery.test/blog/rennet", "en", `Why animal rennet? Our cheese makers tried vegetable rennet for a year, but the raw milk
cheese lost the nutty taste our customers ask for. This season the cave is full again.`},
	{"http://cheeseguild.test/members", "en", `The guild brings together farmhouse cheese makers from across the region. Members make raw milk
cheese in small batches and share advice on rennet, salting and the care of the cave. New cheese makers are welcome
at the monthly meeting.`},
	{"http://cheeseguild.test/awards-2026", "en", `Last year, the guild's awards went to two raw milk cheese makers from the valley. The judges tasted
over forty wheels, and the aged cheddar from the hill farm won the gold medal. Read the full list of winners on our site.`},
	{"http://cheeseguild.test/courses", "en", `Our courses teach the basics of farmhouse cheese: milk, starter cultures, rennet, cutting the curd and
ageing in a cave. Experienced cheese makers lead every session.`},

	{"http://fromagerie-du-val.test/actualites/printemps", "fr", `Au printemps, nos fromagers reprennent la fabrication du fromage au lait cru.
Le lait de nos vaches arrive chaque matin à la fromagerie, encore chaud. Après le caillage, les meules descendent en cave
d'affinage pour au moins huit mois. Les visiteurs peuvent voir les fromagers au travail le samedi.`},
	{"http://fromagerie-du-val.test/la-ferme", "fr", `Nous sommes une ferme familiale. Tout ce que nous vendons est du fromage au lait cru, fabriqué
à la main par nos fromagers avec le lait de notre troupeau. Chaque meule est affinée dans notre cave d'affinage.`},
	{"http://fromagerie-du-val.test/blog/presure", "fr", `Pourquoi la présure animale ? Nos fromagers ont essayé la présure végétale pendant un an,
mais le fromage au lait cru perdait son goût de noisette. Cette saison, la cave d'affinage est de nouveau pleine.`},
	{"http://fromages-de-savoie.test/producteurs", "fr", `L'association réunit les producteurs de fromage au lait cru de Savoie. Les fromagers fermiers
partagent leurs conseils sur la présure, le salage et le soin de la cave d'affinage. Les nouveaux fromagers sont
les bienvenus à la réunion mensuelle.`},
	{"http://fromages-de-savoie.test/concours", "fr", `L'an dernier, le concours a récompensé deux fromagers fermiers de la vallée. Le jury a goûté plus de
quarante meules de fromage au lait cru, et la tomme de la ferme du col a reçu la médaille d'or.`},

	{"http://northstarclub.test/events/star-party", "en", `The club's next star party is on Saturday at the dark sky site above the village.
Members bring their telescopes, and beginners are welcome to look through them. If the night sky is clear we will
observe Jupiter, Saturn and the Andromeda galaxy.`},
	{"http://northstarclub.test/about", "en", `The North Star astronomy club meets on the first Tuesday of every month. Our members observe the night
sky with telescopes of every size, and the club lends a telescope to new members for their first year.`},
	{"http://northstarclub.test/reports/eclipse", "en", `Twenty members of the astronomy club travelled to watch the partial eclipse. Clouds came and went,
but every telescope caught the moment the moon covered the sun. Photos from the star party are on the club pages.`},
	{"http://cityastronomers.test/observing", "en", `Observing nights are held at the dark sky site when the night sky is clear. Bring warm clothes: the
astronomy club provides hot drinks and a large telescope for everyone to share.`},
	{"http://cityastronomers.test/join", "en", `Join the astronomy club! Members get the monthly newsletter, access to the club telescope and a place at
every star party. No experience needed: we teach you to find your way around the night sky.`},

	{"http://club-astro-lyon.test/soirees", "fr", `La prochaine soirée d'observation du club d'astronomie a lieu samedi sur le site de ciel noir au-dessus
du village. Les membres apportent leurs télescopes, et les débutants peuvent y regarder le ciel étoilé.`},
	{"http://club-astro-lyon.test/le-club", "fr", `Le club d'astronomie se réunit le premier mardi de chaque mois. Nos membres observent le ciel étoilé avec
des télescopes de toutes tailles, et le club prête un télescope aux nouveaux membres pendant leur première année.`},
	{"http://club-astro-lyon.test/eclipse", "fr", `Vingt membres du club d'astronomie sont allés voir l'éclipse partielle. Les nuages passaient, mais chaque
télescope a saisi le moment où la lune couvrait le soleil. Les photos de la soirée d'observation sont en ligne.`},
	{"http://astronomes-amateurs.test/observer", "fr", `Les soirées d'observation ont lieu quand le ciel étoilé est dégagé. Prévoyez des vêtements chauds : le
club d'astronomie offre des boissons chaudes et un grand télescope à partager.`},
	{"http://astronomes-amateurs.test/adherer", "fr", `Rejoignez le club d'astronomie ! Les membres reçoivent la lettre mensuelle, l'accès au télescope du club et
une place à chaque soirée d'observation.`},

	{"http://dailyherald.test/council-budget", "en", `The council approved the budget last year after a long meeting. This week the mayor said the new
cycle lane would open in the spring, and residents asked again for a public meeting on the bus routes.`},
	{"http://dailyherald.test/weather", "en", `Rain is expected this week, with a clear night on Saturday and sunshine on Sunday. Last year the
same week was the wettest on record.`},
	{"http://dailyherald.test/football", "en", `The local team won the cup final on Saturday after extra time. Members of the supporters' club
travelled to the match by bus.`},
	{"http://lecourrier.test/conseil", "fr", `Le conseil municipal a voté le budget l'an dernier après une longue réunion. Cette semaine, le maire a
annoncé l'ouverture de la piste cyclable au printemps.`},
	{"http://lecourrier.test/meteo", "fr", `De la pluie est attendue cette semaine, avec une nuit dégagée samedi et du soleil dimanche.`},
	{"http://lecourrier.test/sport", "fr", `L'équipe locale a remporté la finale de la coupe samedi après prolongation. Les membres du club de
supporters ont fait le voyage en car.`},
}

// TestTopicOfCommunities: the label of each community is two key phrases
// of 2 to 4 words taken from its pages' main text, in their language, that
// name its subject, with no stop word at either end.
func TestTopicOfCommunities(t *testing.T) {
	ix, err := index.NewMemory(index.WithSearchTimeout(index.NoSearchTimeout))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	var pages []sites.Page
	textOf := map[string]string{} // site → its pages' text, lower-cased, words separated by one space
	for _, p := range topicWeb {
		site, err := sites.Of(p.url)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, sites.Page{URL: p.url, Site: site, Status: 200, ContentType: "text/html",
			Title: "t", Text: p.text, Language: p.lang})
		textOf[site] += " " + strings.Join(strings.Fields(strings.ToLower(p.text)), " ")
	}
	if err := ix.Add(pages); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		lang    string
		sites   []string
		subject []string // words of which each phrase names one
	}{
		{"cheese makers", "en", []string{"valleycreamery.test", "cheeseguild.test"}, []string{"cheese", "milk", "cheesemakers"}},
		{"fromagers", "fr", []string{"fromagerie-du-val.test", "fromages-de-savoie.test"}, []string{"fromage", "fromagers", "lait", "affinage"}},
		{"astronomy clubs", "en", []string{"northstarclub.test", "cityastronomers.test"}, []string{"astronomy", "sky", "star", "telescope", "telescopes"}},
		{"clubs d'astronomie", "fr", []string{"club-astro-lyon.test", "astronomes-amateurs.test"}, []string{"astronomie", "ciel", "étoilé", "observation", "télescope"}},
	} {
		label, err := sitesTopic(context.Background(), ix, c.sites)
		if err != nil {
			t.Fatal(err)
		}
		phrases := strings.Split(label, " · ")
		if label == "" || len(phrases) != topicPhrases {
			t.Errorf("%s: label %q, want %d key phrases", c.name, label, topicPhrases)
			continue
		}
		for _, p := range phrases {
			words := strings.Fields(p)
			if len(words) < 2 || len(words) > 4 {
				t.Errorf("%s: label %q: %q is not a phrase of 2 to 4 words", c.name, label, p)
				continue
			}
			in := false
			for _, s := range c.sites {
				in = in || strings.Contains(textOf[s], p)
			}
			if !in {
				t.Errorf("%s: label %q: %q is not in the pages' text", c.name, label, p)
			}
			for _, end := range []string{words[0], words[len(words)-1]} {
				if index.StopWord(c.lang, end) || topicStopWords[end] {
					t.Errorf("%s: label %q: %q ends on the stop word %q", c.name, label, p, end)
				}
			}
			names := false
			for _, w := range words {
				for _, s := range c.subject {
					names = names || w == s || strings.HasSuffix(w, "'"+s)
				}
			}
			if !names {
				t.Errorf("%s: label %q: %q names none of %q", c.name, label, p, c.subject)
			}
		}
		t.Logf("%s: %s", c.name, label)
	}
}
