package demoweb

// This file holds the data tables the generator draws from: the topics with
// their vocabularies, the sites of each topic and their roles in the link
// structure, and the few sites with special behaviour. Changing a table
// changes the demo web; the generator in web.go only combines them.

// role is the part a site plays in the structure of the site graph.
type role int

const (
	regular   role = iota // links to its topic's authorities and a few neighbours
	portal                // a topic hub: links to every site of its topic
	directory             // the global hub: links to the portals and to nearly every site
	authority             // most sites of its topic link to it
	reference             // the encyclopedia: every topic links to it, it links to no other site
	dangling              // links to no other site
	orphan                // links out like a regular site, but no other site links to it
)

// siteSpec is one row of the site catalogue.
type siteSpec struct {
	host  string
	name  string
	role  role
	about string // one sentence, shown in directories and on the site's own pages
}

// topic is a community of sites and the vocabulary its pages are written in.
// Sentence and title templates use {slots}, filled by writer.slot; {a:slot}
// adds the indefinite article.
type topic struct {
	key, label string
	sites      []siteSpec
	sections   []string // section names a site of the topic picks from
	subjects   []string // what pages are about; one is the "focus" of a page
	actors     []string
	actions    []string // past tense, take a subject as object
	qualities  []string
	events     []string
	eraMin     int // range of {era}, the historical year of the topic
	eraMax     int
	titles     []string
	sentences  []string
}

// general reports whether t is the "reference" topic of the directory and
// the encyclopedia, which serve every community rather than being one.
func (t *topic) general() bool { return t.key == "reference" }

// communities returns the topics that are communities: all but reference.
func communities() []*topic {
	var c []*topic
	for _, t := range topics {
		if !t.general() {
			c = append(c, t)
		}
	}
	return c
}

// seedHosts are the sites whose home pages Seeds returns: the global
// directory and four topic portals. The other portals are reached through
// the directory.
var seedHosts = []string{
	"web-directory.test",
	"heritage-portal.test",
	"news-aggregator.test",
	"science-hub.test",
	"civic-portal.test",
}

// places fill {home} and {place}. A site whose name contains one of them
// is set in that place.
var places = []string{
	"Lyon", "Nantes", "Bordeaux", "Lille", "Marseille", "Toulouse", "Rennes",
	"Strasbourg", "Grenoble", "Dijon", "Montpellier", "Rouen", "Brest",
	"Avignon", "Annecy", "Tours", "Nancy", "Reims", "Bayonne", "La Rochelle",
	"Quimper", "Besançon",
}

var (
	months     = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	weekdays   = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	firstNames = []string{"Claire", "Julien", "Sophie", "Marc", "Amélie", "Thomas", "Nadia", "Hugo", "Léa", "Karim", "Élise", "Paul", "Inès", "Louis", "Camille", "Mathieu", "Sarah", "Antoine"}
	lastNames  = []string{"Moreau", "Laurent", "Girard", "Bonnet", "Dupuis", "Lefèvre", "Mercier", "Fontaine", "Chevalier", "Rousseau", "Garnier", "Faure", "Benali", "Perrin", "Marchand", "Roussel"}
)

// genericSentences suit a page of any topic; they are mixed with the topic's
// own sentences.
var genericSentences = []string{
	"In {year}, {actor} {action} {a:quality} {focus} in {home}.",
	"The story of the {focus} begins in {home}, where {actor} first took an interest in it.",
	"Few people outside {home} know how much work lies behind {a:subject}.",
	"{actor} {action} the {focus} during {event}, and the result surprised everyone.",
	"We spoke to {actor} about the {focus} and about what comes next.",
	"More about the {focus} will be presented at {event} in {month}.",
	"Visitors from {place} and {place} have already asked for more information.",
	"As always, comments and corrections from readers are welcome.",
	"This page will be updated as new details about the {focus} emerge.",
	"According to {actor}, the {focus} deserves a wider audience.",
	"A short summary was shared with {actor} in {place} last {month}.",
	"Not everyone agrees, and the discussion about the {focus} is far from over.",
	"For {site}, the {focus} is one of the highlights of the year.",
	"Thanks go to everyone in {home} who shared memories and documents with us.",
	"Compared with {a:subject}, the {focus} is easier to describe but harder to get right.",
}

// aboutSentences describe a site on its about page.
var aboutSentences = []string{
	"{site} is based in {home} and has been online since {founded}.",
	"Our pages are written and reviewed by a small editorial team.",
	"We welcome suggestions, corrections and proposals for new articles.",
	"Content on this site may be quoted for non-commercial purposes with a link back to the original page.",
	"We carry no advertising and never sell data about our readers.",
	"Our archive of past articles grows every month.",
	"Most of our readers live in {home}, but letters arrive from as far as {place}.",
}

// Link sentences carry an external link inline in an article; the link
// text goes between the two halves.
var (
	siteRefs = [][2]string{
		{"Readers who want to go further can visit ", "."},
		{"Our friends at ", " have covered this subject too."},
		{"A useful overview is available from ", "."},
		{"We also recommend the pages of ", "."},
		{"Thanks to ", " for pointing us to several sources."},
	}
	pageRefs = [][2]string{
		{"On a related subject, read “", "”."},
		{"See also “", "”, an excellent piece published elsewhere."},
		{"For background, “", "” is well worth reading."},
	}
	entryRefs = [][2]string{
		{"The encyclopedia entry “", "” gives a short, neutral overview."},
		{"For definitions, see “", "” in the encyclopedia."},
	}
)

// deadSites are linked from a few pages but do not exist: through the proxy
// they answer 502 Bad Gateway, as a vanished site does behind a real proxy.
var deadSites = []siteSpec{
	{host: "defunct-forum.test", name: "Regional Book Forum", about: "A discussion forum for book lovers (no longer online)."},
	{host: "closed-bookshop.test", name: "The Corner Bookshop", about: "An independent bookshop's web site (closed)."},
}

// fileKind says how a non-HTML file is generated.
type fileKind int

const (
	pdfFile    fileKind = iota // a one-page PDF report
	climateCSV                 // monthly weather measurements
	raceCSV                    // race results
	budgetCSV                  // budget lines
)

type fileSpec struct {
	path, label string
	kind        fileKind
}

// feature is the special behaviour of a few sites, to exercise what a crawler
// must handle: robots.txt rules, redirects, a www. alias, non-HTML files.
type feature struct {
	robots  string // body of /robots.txt; empty means 404
	private bool   // has /private/staff-notes.html, linked from the about page
	oldHome bool   // /old-home answers 301 to /; some other sites still link to it
	alias   string // a bare host that answers 301 to this www. host, same path
	files   []fileSpec
}

const robotsPrivate = "User-agent: *\nDisallow: /private/\n"

var features = map[string]feature{
	"bnf-archives.test": {robots: robotsPrivate, private: true,
		files: []fileSpec{{"/report.pdf", "Annual report (PDF)", pdfFile}}},
	"www.lyon-gazette.test": {robots: "User-agent: BadBot\nDisallow: /\n\n" + robotsPrivate, private: true,
		alias: "lyon-gazette.test"},
	"city-council.test": {robots: robotsPrivate, private: true,
		files: []fileSpec{{"/documents/budget-summary.pdf", "Budget summary (PDF)", pdfFile}}},
	"cycling-federation.test": {robots: robotsPrivate + "Disallow: /members/login\n", private: true},
	"policy-think-tank.test":  {robots: "# We do not want to be archived.\nUser-agent: *\nDisallow: /\n"},
	"jazz-records-blog.test":  {oldHome: true},
	"valley-courier.test":     {oldHome: true},
	"sourdough-diaries.test":  {oldHome: true},
	"open-budget-project.test": {files: []fileSpec{
		{"/report.pdf", "Open budget report (PDF)", pdfFile},
		{"/data/budget-lines.csv", "Budget lines (CSV)", budgetCSV}}},
	"climate-data-lab.test": {files: []fileSpec{{"/data/temperatures.csv", "Monthly temperatures (CSV)", climateCSV}}},
	"marathon-runners.test": {files: []fileSpec{{"/results/spring-marathon.csv", "Spring marathon results (CSV)", raceCSV}}},
}

// topics is the catalogue: every site of the demo web, grouped by community.
var topics = []*topic{
	{
		key: "reference", label: "Reference",
		sites: []siteSpec{
			{"web-directory.test", "The Web Directory", directory, "A hand-curated directory of useful web sites, organised by subject since the early days of the web."},
			{"open-encyclopedia.test", "Open Encyclopedia", reference, "A free, collaboratively written encyclopedia with short entries on history, science, music and everyday life."},
		},
		subjects:  []string{"reference entry", "subject index", "reading list", "bibliography", "glossary", "timeline", "citation guide", "style guide"},
		actors:    []string{"our volunteer editors", "the librarians on our team", "a panel of reviewers", "a long-time reader", "the editorial board"},
		actions:   []string{"reviewed", "updated", "expanded", "checked", "reorganised", "translated"},
		qualities: []string{"concise", "reliable", "well-sourced", "freely licensed", "up-to-date", "comprehensive"},
		events:    []string{"the annual editing marathon", "a review of broken links", "the spring update", "the librarians' meetup"},
		eraMin:    1994, eraMax: 2005,
		sentences: []string{
			"Every listed site is checked by a human editor before it appears here.",
			"Links that stop working are removed during regular reviews.",
			"Readers can suggest new sites or entries by writing to the editors.",
			"Entries are short, neutral and cite their sources.",
			"Nothing here is sponsored, and no site pays to be listed.",
			"Categories follow the way librarians and readers actually search.",
			"{site} is maintained by volunteers and funded by small donations.",
			"All text is available under an open licence.",
			"The first version of {site} was put together around {era} by a handful of students.",
		},
	},
	{
		key: "heritage", label: "Libraries & heritage",
		sites: []siteSpec{
			{"heritage-portal.test", "Heritage Portal", portal, "A gateway to the libraries, archives and heritage societies of the region."},
			{"bnf-archives.test", "BnF Archives", authority, "Digitised manuscripts, maps, periodicals and photographs from the national library's archives."},
			{"city-library-network.test", "City Library Network", regular, "Opening hours, events and reading lists from the twelve branches of the city's public libraries."},
			{"www.regional-archives.test", "Regional Archives", regular, "Parish registers, land surveys and administrative records of the region, with guides for genealogists."},
			{"old-maps-society.test", "Old Maps Society", regular, "A society of collectors and historians devoted to early printed maps and town plans."},
			{"manuscript-studies.test", "Manuscript Studies", regular, "Research notes on medieval manuscripts, scribes and bindings by a group of young palaeographers."},
			{"photo-heritage-collective.test", "Photo Heritage Collective", regular, "Volunteers rescuing, describing and sharing old family and studio photographs."},
			{"museum-of-printing.test", "Museum of Printing", regular, "Presses, type and the history of the printed word, with workshops for schools."},
			{"librarians-forum.test", "Librarians' Forum", regular, "Discussion, job offers and professional news for librarians and archivists."},
			{"rare-books-fair.test", "Rare Books Fair", dangling, "The annual fair of antiquarian booksellers: dates, exhibitors and practical information."},
			{"parish-records-project.test", "Parish Records Project", orphan, "A volunteer transcription project for baptism, marriage and burial registers."},
		},
		sections:  []string{"Collections", "Exhibitions", "Research", "Conservation", "Visit"},
		subjects:  []string{"medieval manuscript", "parish register", "printed city map", "illuminated psalter", "glass-plate photograph", "merchant's ledger", "botanical atlas", "wartime diary", "municipal charter", "engraved portrait", "travel journal", "book of hours", "postcard collection", "family archive", "school register", "lithographed poster"},
		actors:    []string{"the head archivist", "a team of volunteers", "the conservation workshop", "a visiting researcher", "the reading-room staff", "a local historian", "the digitisation team", "a retired schoolteacher", "the curator of manuscripts", "a doctoral student"},
		actions:   []string{"catalogued", "restored", "digitised", "rediscovered", "transcribed", "exhibited", "identified", "studied"},
		qualities: []string{"fragile", "remarkable", "forgotten", "richly decorated", "well-preserved", "unusual", "rare", "beautifully bound", "water-damaged"},
		events:    []string{"the spring exhibition", "the European Heritage Days", "a public reading evening", "the annual open day", "a palaeography workshop", "the regional archives fair", "a lecture series on local history"},
		eraMin:    1350, eraMax: 1945,
		titles: []string{
			"Restoring the {focus} of {home}",
			"{a:quality} {focus} returns to the reading room",
			"How we {action} the {focus}",
			"Notes on {a:focus} from {home}",
			"The {focus} and the people who made it",
			"Behind the scenes: the {focus}",
			"What {a:focus} tells us about {home} around {era}",
		},
		sentences: []string{
			"The {focus} is kept in a climate-controlled store and can be consulted by appointment.",
			"Paper, ink and binding all tell us something about the people who made the {focus}.",
			"Every page of the {focus} was photographed at high resolution before any treatment began.",
			"Genealogists and local historians consult the {focus} more often than any other item in the collection.",
			"The catalogue record for the {focus} now describes its provenance, its dimensions and its condition.",
			"Conservators repaired the torn margins with wheat-starch paste and thin Japanese tissue.",
			"A digital copy of the {focus} is freely available in the online library.",
			"The {focus} was acquired from a private collection in {place} in {year}.",
			"Made in {home} around {era}, the {focus} survived floods, fires and two wars.",
			"Librarians remind visitors that only pencils are allowed in the reading room.",
			"{actor} compared the {focus} with {a:subject} held in {place}.",
			"The handwriting suggests that at least three different hands worked on the {focus}.",
			"Some entries in the {focus} mention streets of {home} that no longer exist.",
			"Cataloguing standards have changed, so older descriptions of the {focus} are being revised.",
		},
	},
	{
		key: "news", label: "Local news",
		sites: []siteSpec{
			{"news-aggregator.test", "Local News Aggregator", portal, "Headlines from the local and regional newspapers, updated throughout the day."},
			{"www.lyon-gazette.test", "Lyon Gazette", authority, "The daily newspaper of Lyon and its region since 1898."},
			{"nantes-evening-post.test", "Nantes Evening Post", regular, "Evening news, culture and sport from Nantes and the Loire estuary."},
			{"valley-courier.test", "Valley Courier", regular, "A weekly paper for the villages of the river valley: markets, councils, schools and festivals."},
			{"harbour-town-times.test", "Harbour Town Times", regular, "News from the harbour, the fishing fleet and the seaside town."},
			{"metro-weekly.test", "Metro Weekly", regular, "A free weekly magazine about city life, transport and going out."},
			{"community-radio-fm.test", "Community Radio FM", regular, "A volunteer-run radio station: programmes, podcasts and local debates."},
			{"citizen-reporter-blog.test", "Citizen Reporter", regular, "Neighbourhood stories written by residents, for residents."},
			{"student-newspaper.test", "The Student Newspaper", regular, "News and opinion from the university's student journalists."},
			{"local-weather-desk.test", "Local Weather Desk", dangling, "Forecasts, storm warnings and weather history for the region."},
		},
		sections:  []string{"Local", "Politics", "Culture", "Transport", "Weather"},
		subjects:  []string{"council meeting", "road closure", "market reopening", "school festival", "tram extension", "flood warning", "housing project", "bakery competition", "bridge repair", "street art festival", "bus strike", "new cycle lane", "hospital wing", "neighbourhood fair", "river clean-up", "budget vote"},
		actors:    []string{"the mayor", "local residents", "our reporter", "shop owners", "the regional prefect", "a group of parents", "the fire brigade", "city engineers", "commuters", "the police"},
		actions:   []string{"announced", "criticised", "welcomed", "postponed", "approved", "debated", "inaugurated", "reported on"},
		qualities: []string{"long-awaited", "controversial", "popular", "costly", "unexpected", "delayed", "ambitious", "modest"},
		events:    []string{"Monday's council session", "the weekly market", "the summer festival", "the public consultation", "a press conference at the town hall", "the local elections", "the Christmas market"},
		eraMin:    1960, eraMax: 2015,
		titles: []string{
			"The {focus} in {home}: what we know so far",
			"{actor} {action} the {quality} {focus}",
			"{home} residents divided over the {focus}",
			"Five questions about the {focus}",
			"Live: the {focus} in {home}",
			"Why the {focus} matters for {home}",
		},
		sentences: []string{
			"The {focus} was the main topic of conversation in the cafés of {home} this week.",
			"{actor} {action} the {focus} on {weekday} morning, according to a statement seen by our newsroom.",
			"Residents of {home} told our reporter they had waited years for the {focus}.",
			"The cost of the {focus} is estimated at {number} million euros.",
			"Critics say the {focus} was decided too quickly and without proper consultation.",
			"A public meeting on the {focus} is planned at the town hall next {weekday}.",
			"Traffic in the centre of {home} is expected to be disrupted for several weeks.",
			"Shopkeepers near the station were cautiously optimistic about the {focus}.",
			"The opposition has asked for the full report on the {focus} to be published.",
			"Our newsroom will follow the {focus} closely and publish updates as they come in.",
			"{actor} declined to comment on the {focus} when contacted by our newspaper.",
			"The last comparable project in {place} took almost {number} years to complete.",
			"Letters from readers about the {focus} have filled our mailbox since {month}.",
			"Older readers remember a similar debate in {home} around {era}.",
		},
	},
	{
		key: "science", label: "Science & nature",
		sites: []siteSpec{
			{"science-hub.test", "Science Hub", portal, "A portal to research institutes, science societies and outreach projects."},
			{"marine-biology-society.test", "Marine Biology Society", authority, "The learned society for the study of marine life, from plankton to whales."},
			{"national-observatory.test", "National Observatory", authority, "Research, sky events and public observing nights at the national observatory."},
			{"coral-reef-watch.test", "Coral Reef Watch", regular, "Monitoring the health of coral reefs with volunteer divers and satellite data."},
			{"amateur-astronomers-club.test", "Amateur Astronomers Club", regular, "Star parties, telescope advice and observing reports from a friendly club."},
			{"geology-field-notes.test", "Geology Field Notes", regular, "A geologist's notebook of rocks, fossils and landscapes."},
			{"climate-data-lab.test", "Climate Data Lab", regular, "Open climate measurements and clear explanations of what they mean."},
			{"birdwatch-network.test", "Birdwatch Network", regular, "Sightings, counts and migration news from birdwatchers across the country."},
			{"physics-for-everyone.test", "Physics for Everyone", dangling, "Short, friendly explanations of everyday physics."},
		},
		sections:  []string{"Research", "Field notes", "Publications", "Outreach", "Data"},
		subjects:  []string{"coral reef", "plankton bloom", "variable star", "meteor shower", "deep-sea sponge", "migrating whale", "glacier", "volcanic rock", "solar eclipse", "seagrass meadow", "barn owl population", "fossil fern", "comet", "tidal pool", "weather balloon", "soil sample"},
		actors:    []string{"a team of marine biologists", "the observatory staff", "amateur astronomers", "a doctoral researcher", "field volunteers", "the laboratory director", "citizen scientists", "a visiting professor", "students from the university"},
		actions:   []string{"observed", "measured", "mapped", "sampled", "photographed", "described", "monitored", "analysed"},
		qualities: []string{"rare", "faint", "unexpected", "well-documented", "fragile", "spectacular", "poorly understood", "seasonal"},
		events:    []string{"the autumn field campaign", "the annual science festival", "a night of public observation", "the international conference on ocean research", "the summer survey", "a citizen science weekend"},
		eraMin:    1850, eraMax: 2010,
		titles: []string{
			"New observations of the {focus} near {home}",
			"What the {focus} tells us about a changing climate",
			"{a:quality} {focus} {action} near {home}",
			"Field report: the {focus}",
			"Understanding the {focus}: a beginner's guide",
			"Ten years of data on the {focus}",
		},
		sentences: []string{
			"{actor} {action} the {focus} using instruments that were calibrated before each session.",
			"The measurements of the {focus} were repeated {number} times to reduce the margin of error.",
			"Data on the {focus} suggest that temperature plays a larger role than previously thought.",
			"The {focus} was first described by naturalists working near {home} around {era}.",
			"All observations of the {focus} are shared openly with other research groups.",
			"Long-term monitoring is the only way to understand how the {focus} changes over time.",
			"Our results on the {focus} have been submitted to a peer-reviewed journal.",
			"The {focus} is sensitive to pollution, light and human disturbance.",
			"Volunteers recorded every sighting of the {focus} in a shared notebook.",
			"A comparison with {a:subject} observed near {place} revealed striking similarities.",
			"The hypothesis still needs to be tested with a larger sample.",
			"Photographs of the {focus} taken with a long exposure show details invisible to the naked eye.",
			"Funding for the study of the {focus} comes from a regional research programme.",
		},
	},
	{
		key: "music", label: "Music",
		sites: []siteSpec{
			{"music-portal.test", "Music Portal", portal, "Concerts, festivals, record shops and music blogs in one place."},
			{"philharmonic-orchestra.test", "Philharmonic Orchestra", authority, "Season programme, recordings and education projects of the city's orchestra."},
			{"jazz-records-blog.test", "Jazz Records Blog", regular, "Reviews of jazz records old and new, by a collector with too many shelves."},
			{"folk-song-archive.test", "Folk Song Archive", regular, "Traditional songs collected in villages, with lyrics, tunes and recordings."},
			{"indie-labels-guide.test", "Indie Labels Guide", regular, "A guide to independent record labels and the artists they champion."},
			{"www.vinyl-collectors.test", "Vinyl Collectors", regular, "A community of record collectors: pressings, prices and restoration tips."},
			{"choir-network.test", "Choir Network", regular, "Amateur choirs, rehearsal schedules and singing workshops."},
			{"music-conservatory.test", "Music Conservatory", regular, "Courses, auditions and student concerts at the conservatory."},
			{"brass-band-news.test", "Brass Band News", regular, "News from the brass bands of the old mining towns."},
			{"opera-house-programme.test", "Opera House Programme", dangling, "Productions, casts and tickets for the opera house."},
		},
		sections:  []string{"Reviews", "Concerts", "Interviews", "Archives", "Records"},
		subjects:  []string{"symphony", "vinyl reissue", "folk ballad", "piano sonata", "live album", "song cycle", "blues standard", "opera", "debut single", "film score", "string quartet", "jazz suite", "violin concerto", "protest song", "lullaby", "brass march"},
		actors:    []string{"the conductor", "the band", "a young pianist", "our record reviewer", "the festival director", "the choir master", "a veteran saxophonist", "the sound engineer", "an orchestra of students"},
		actions:   []string{"performed", "recorded", "rediscovered", "reviewed", "premiered", "arranged", "remastered", "celebrated"},
		qualities: []string{"lively", "haunting", "long-forgotten", "brilliant", "intimate", "ambitious", "joyful", "experimental"},
		events:    []string{"the summer jazz festival", "the opening night of the season", "a free concert in the park", "Record Store Day", "the conservatory's open day", "the midsummer music festival"},
		eraMin:    1920, eraMax: 2005,
		titles: []string{
			"Review: the {focus} at {event}",
			"{a:quality} {focus} from {home}",
			"Listening again to {a:focus} from {era}",
			"Inside the {focus}: an interview",
			"Why the {focus} still matters",
			"The {focus} that {home} fell in love with",
		},
		sentences: []string{
			"The {focus} opened with a slow, {quality} theme that set the mood for the whole evening.",
			"{actor} first {action} the {focus} in a small studio in {home} around {era}.",
			"The acoustics of the hall in {home} suited the {focus} perfectly.",
			"Collectors still search for the original pressing of the {focus}.",
			"The audience in {home} called for two encores after the {focus}.",
			"Critics at the time dismissed the {focus}, but it has aged remarkably well.",
			"The arrangement of the {focus} leaves plenty of room for improvisation.",
			"You can hear echoes of {a:subject} in the middle section.",
			"The liner notes of the {focus} were written by {actor}.",
			"Tickets for the next performance of the {focus} are already selling fast.",
			"{actor} spent {number} weeks rehearsing the {focus} before the first performance.",
			"The reissue of the {focus} comes with a booklet of rare photographs.",
			"The tempo, the phrasing and the silences all matter in the {focus}.",
		},
	},
	{
		key: "cooking", label: "Food & cooking",
		sites: []siteSpec{
			{"recipe-exchange.test", "Recipe Exchange", portal, "A portal of cooking blogs, producers and food festivals."},
			{"cheese-makers-guild.test", "Cheese Makers Guild", authority, "The guild of farmhouse cheese makers: traditions, producers and tasting notes."},
			{"french-bistro-recipes.test", "French Bistro Recipes", regular, "Classic bistro dishes explained simply, one recipe at a time."},
			{"sourdough-diaries.test", "Sourdough Diaries", regular, "A home baker's diary of starters, loaves and happy failures."},
			{"vegetarian-kitchen.test", "Vegetarian Kitchen", regular, "Seasonal vegetarian recipes built around the market."},
			{"market-gardeners.test", "Market Gardeners", regular, "Growers selling vegetables at the town markets, with harvest calendars."},
			{"wine-and-terroir.test", "Wine and Terroir", regular, "Visits to small vineyards and notes on pairing wine with food."},
			{"pastry-school.test", "Pastry School", dangling, "Courses and techniques from a small pastry school."},
			{"street-food-atlas.test", "Street Food Atlas", orphan, "A traveller's atlas of street food stalls and markets."},
		},
		sections:  []string{"Recipes", "Techniques", "Producers", "Seasons", "Kitchen notes"},
		subjects:  []string{"sourdough loaf", "onion soup", "goat cheese", "ratatouille", "apple tart", "fish stew", "lentil salad", "roast chicken", "chocolate mousse", "buckwheat crêpe", "cassoulet", "leek quiche", "plum jam", "herb omelette", "mushroom risotto", "pear clafoutis"},
		actors:    []string{"the chef", "my grandmother", "a market gardener", "the cheese maker", "one of our readers", "a pastry student", "the baker next door", "a family of farmers"},
		actions:   []string{"prepared", "tasted", "improved", "simplified", "shared", "cooked", "perfected", "reinvented"},
		qualities: []string{"rustic", "seasonal", "comforting", "delicate", "generous", "crisp", "traditional", "surprisingly simple"},
		events:    []string{"the Saturday market", "the harvest festival", "a cooking class", "the regional food fair", "a long Sunday lunch", "the cheese and wine evening"},
		eraMin:    1880, eraMax: 1990,
		titles: []string{
			"The secret of {a:quality} {focus}",
			"{focus} the way they make it in {home}",
			"{a:quality} {focus} for busy weeknights",
			"Mastering the {focus}, step by step",
			"The {focus} my grandmother made",
			"Market notes: the {focus}",
		},
		sentences: []string{
			"The {focus} needs good ingredients more than complicated technique.",
			"Start the {focus} early in the day so the flavours have time to develop.",
			"{actor} {action} this {focus} for the first time in {home} many years ago.",
			"Use butter from a local dairy and salt from the coast if you can find them.",
			"The {focus} keeps well for {number} hours in a cool place, covered with a clean cloth.",
			"Every family in {home} has its own version of the {focus}, and each one is the best.",
			"Season the {focus} carefully, tasting as you go.",
			"Serve the {focus} with a green salad and a glass of local wine.",
			"Our readers sent us {number} variations of the {focus}, each with a clever twist.",
			"A recipe for the {focus} appears in a cookbook printed in {place} around {era}.",
			"If the {focus} looks too dry, add a spoonful of water and lower the heat.",
			"Leftovers of the {focus} make an excellent lunch the next day.",
			"Buying vegetables in season at the market makes the {focus} both cheaper and tastier.",
		},
	},
	{
		key: "sports", label: "Sports & outdoors",
		sites: []siteSpec{
			{"sports-results-hub.test", "Sports Results Hub", portal, "Results, fixtures and club links for amateur sport in the region."},
			{"cycling-federation.test", "Cycling Federation", authority, "Races, licences and rankings of the regional cycling federation."},
			{"rugby-club-lyon.test", "Rugby Club Lyon", regular, "News, fixtures and youth teams of the city's oldest rugby club."},
			{"marathon-runners.test", "Marathon Runners", regular, "Training plans, race reports and results from a running club."},
			{"mountain-hiking-club.test", "Mountain Hiking Club", regular, "Guided hikes, trail reports and safety advice in the mountains."},
			{"sailing-school.test", "Sailing School", regular, "Sailing lessons, regattas and boat maintenance on the lake."},
			{"www.football-supporters.test", "Football Supporters", regular, "The supporters' association: away trips, chants and match reports."},
			{"youth-swimming-league.test", "Youth Swimming League", regular, "Galas, times and training for young swimmers."},
			{"riverside-tennis-club.test", "Riverside Tennis Club", regular, "Courts, coaching and club tournaments by the river."},
			{"chess-league.test", "Chess League", dangling, "Tournaments, ratings and puzzles of the regional chess league."},
		},
		sections:  []string{"Results", "Fixtures", "Club news", "Training", "Members"},
		subjects:  []string{"cycling race", "rugby match", "marathon", "mountain trail", "sailing regatta", "football derby", "chess tournament", "swimming gala", "training camp", "cup final", "youth league", "hill climb", "relay race", "club championship", "time trial"},
		actors:    []string{"the coach", "our captain", "the young players", "the race organisers", "the supporters", "the club president", "the referee", "a veteran runner", "the volunteers"},
		actions:   []string{"won", "organised", "prepared for", "dominated", "celebrated", "finished", "trained for", "looked back on"},
		qualities: []string{"thrilling", "hard-fought", "muddy", "record-breaking", "memorable", "gruelling", "close", "surprising"},
		events:    []string{"the end of the season", "the regional championship", "the club's annual dinner", "the spring training weekend", "the national cup", "the open day at the stadium"},
		eraMin:    1900, eraMax: 2010,
		titles: []string{
			"Report: {a:quality} {focus} in {home}",
			"The {focus}: how the day unfolded",
			"{actor} on the {quality} {focus}",
			"Looking back at the {focus} of {era}",
			"Getting ready for the {focus}",
			"Photos from the {focus} in {home}",
		},
		sentences: []string{
			"The {focus} started under grey skies in {home}, but the crowd kept growing all afternoon.",
			"{actor} {action} the {focus} with a mix of experience and youthful energy.",
			"The final result of the {focus} was decided in the last {number} minutes.",
			"More than {number} hundred supporters travelled from {place} to watch.",
			"Training for the {focus} began in {month}, three evenings a week.",
			"The club thanks every volunteer who helped with the {focus}.",
			"Our physiotherapist reminds members to warm up properly before every session.",
			"The {focus} of {era} is still remembered as one of the finest in the club's history.",
			"Registration for the next {focus} opens in {month}.",
			"Young members from the school section took part in the {focus} for the first time.",
			"The weather made the {focus} {quality}, but nobody gave up.",
			"Results and full rankings for the {focus} are posted on the club noticeboard.",
		},
	},
	{
		key: "politics", label: "Politics & civic life",
		sites: []siteSpec{
			{"civic-portal.test", "Civic Portal", portal, "A portal to councils, watchdogs and citizens' groups."},
			{"city-council.test", "City Council", authority, "Official site of the city council: decisions, budgets and public services."},
			{"election-observatory.test", "Election Observatory", regular, "Independent analysis of elections, turnout and electoral law."},
			{"parliament-watch.test", "Parliament Watch", regular, "Votes, debates and attendance of members of parliament, in plain language."},
			{"open-budget-project.test", "Open Budget Project", regular, "Public budgets explained line by line, with open data."},
			{"neighbourhood-association.test", "Neighbourhood Association", regular, "Residents working together on housing, green spaces and traffic."},
			{"policy-think-tank.test", "Policy Think Tank", regular, "Research papers and policy proposals on local government."},
			{"european-affairs-review.test", "European Affairs Review", regular, "Commentary on European policy and its effect on regions and cities."},
			{"transparency-now.test", "Transparency Now", dangling, "A campaign for open government and access to public documents."},
		},
		sections:  []string{"Analysis", "Documents", "Elections", "Participation", "Briefings"},
		subjects:  []string{"municipal budget", "local election", "public consultation", "housing policy", "transparency law", "parliamentary debate", "climate plan", "citizens' assembly", "school reform", "participatory budget", "council resolution", "referendum", "procurement rule", "open data policy"},
		actors:    []string{"the city council", "opposition members", "a citizens' collective", "the minister", "local associations", "the auditor", "independent observers", "members of parliament", "young voters"},
		actions:   []string{"adopted", "questioned", "published", "amended", "rejected", "debated", "supported", "examined"},
		qualities: []string{"long-debated", "transparent", "contested", "ambitious", "cautious", "historic", "technical", "overdue"},
		events:    []string{"the next council session", "the annual budget debate", "a public hearing", "the regional elections", "the open government week", "a town hall meeting"},
		eraMin:    1945, eraMax: 2015,
		titles: []string{
			"Understanding the {focus}",
			"The {focus} of {home}, explained",
			"What the {quality} {focus} changes for citizens",
			"{actor} and the {focus}",
			"Five documents on the {focus}",
			"Briefing: the {focus} after {event}",
		},
		sentences: []string{
			"The full text of the {focus} is available at the town hall and online.",
			"{actor} {action} the {focus} after a debate that lasted late into the night.",
			"Independent observers have called for more transparency around the {focus}.",
			"The {focus} affects around {number} thousand residents of {home}.",
			"Earlier versions of the {focus} date back to {era}, when the rules were very different.",
			"Citizens can submit comments on the {focus} until the end of {month}.",
			"The vote on the {focus} was closer than many expected.",
			"A comparison with the {subject} adopted in {place} shows how much practices differ.",
			"Our analysis of the {focus} relies only on public documents.",
			"The debate on the {focus} revealed deep disagreements about priorities.",
			"Associations in {home} organised information evenings about the {focus}.",
			"The law requires the {focus} to be reviewed every {number} years.",
		},
	},
}

// siteSubjects are what a site mostly writes about, within its topic's
// vocabulary: an observatory writes about comets, not coral. A site's
// articles take these first, then the topic's other subjects. Portals and
// general sites (a city newspaper) have none and write about anything.
var siteSubjects = map[string][]string{
	"bnf-archives.test":              {"medieval manuscript", "illuminated psalter", "book of hours", "botanical atlas", "engraved portrait"},
	"city-library-network.test":      {"local newspaper archive", "children's book collection", "postcard collection", "travel journal"},
	"www.regional-archives.test":     {"parish register", "land survey", "municipal charter", "notarial deed", "school register"},
	"old-maps-society.test":          {"printed city map", "sea chart", "town plan", "road atlas", "estate map"},
	"manuscript-studies.test":        {"medieval manuscript", "book of hours", "cartulary", "illuminated psalter", "monastic chronicle"},
	"photo-heritage-collective.test": {"glass-plate photograph", "studio portrait", "family album", "postcard collection", "wedding photograph"},
	"museum-of-printing.test":        {"wooden hand press", "lithographed poster", "type specimen book", "early printed bible", "printer's ledger"},
	"rare-books-fair.test":           {"early printed bible", "travel journal", "engraved portrait", "botanical atlas"},
	"parish-records-project.test":    {"parish register", "baptism register", "marriage register", "burial register"},
	"valley-courier.test":            {"village fête", "market reopening", "school festival", "bridge repair", "council meeting"},
	"harbour-town-times.test":        {"fishing fleet", "harbour dredging", "lifeboat station", "seafront promenade", "fish market"},
	"metro-weekly.test":              {"tram extension", "new cycle lane", "night bus service", "street art festival", "rooftop cinema"},
	"citizen-reporter-blog.test":     {"neighbourhood fair", "river clean-up", "housing project", "community garden", "bus strike"},
	"student-newspaper.test":         {"tuition fee rise", "campus library", "student housing project", "graduation ceremony"},
	"local-weather-desk.test":        {"flood warning", "storm", "heatwave", "cold snap", "hailstorm"},
	"marine-biology-society.test":    {"coral reef", "plankton bloom", "deep-sea sponge", "migrating whale", "seagrass meadow", "tidal pool"},
	"national-observatory.test":      {"variable star", "meteor shower", "solar eclipse", "comet", "supernova remnant", "binary star"},
	"coral-reef-watch.test":          {"coral reef", "bleaching event", "reef fish population", "seagrass meadow"},
	"amateur-astronomers-club.test":  {"meteor shower", "comet", "lunar eclipse", "variable star", "planetary conjunction"},
	"geology-field-notes.test":       {"volcanic rock", "fossil fern", "glacier", "limestone cliff", "ammonite bed"},
	"climate-data-lab.test":          {"weather balloon", "glacier", "rainfall record", "temperature series", "heatwave"},
	"birdwatch-network.test":         {"barn owl population", "crane migration", "swallow colony", "heron roost", "kingfisher"},
	"physics-for-everyone.test":      {"rainbow", "pendulum", "soap bubble", "lightning strike"},
	"philharmonic-orchestra.test":    {"symphony", "violin concerto", "film score", "opera", "song cycle", "piano sonata"},
	"jazz-records-blog.test":         {"jazz suite", "live album", "blues standard", "vinyl reissue", "debut album"},
	"folk-song-archive.test":         {"folk ballad", "lullaby", "work song", "protest song", "dance tune"},
	"indie-labels-guide.test":        {"debut single", "live album", "vinyl reissue", "debut album", "split EP"},
	"www.vinyl-collectors.test":      {"vinyl reissue", "original pressing", "live album", "picture disc", "box set"},
	"choir-network.test":             {"song cycle", "requiem", "hymn", "lullaby", "folk ballad"},
	"music-conservatory.test":        {"piano sonata", "string quartet", "violin concerto", "student recital"},
	"brass-band-news.test":           {"brass march", "hymn", "festival overture", "cornet solo"},
	"opera-house-programme.test":     {"opera", "operetta", "ballet score", "song cycle"},
	"cheese-makers-guild.test":       {"goat cheese", "washed-rind cheese", "mountain cheese", "fresh curd", "blue cheese"},
	"french-bistro-recipes.test":     {"onion soup", "roast chicken", "cassoulet", "chocolate mousse", "leek quiche"},
	"sourdough-diaries.test":         {"sourdough loaf", "rye starter", "country loaf", "brioche", "seeded loaf"},
	"vegetarian-kitchen.test":        {"ratatouille", "lentil salad", "mushroom risotto", "leek quiche", "herb omelette"},
	"market-gardeners.test":          {"heirloom tomato", "spring asparagus", "winter squash", "new potato", "broad bean"},
	"wine-and-terroir.test":          {"coq au vin", "beef stew", "cheese platter", "poached pear"},
	"pastry-school.test":             {"apple tart", "chocolate mousse", "pear clafoutis", "choux bun", "lemon tart"},
	"street-food-atlas.test":         {"buckwheat crêpe", "chickpea pancake", "fish sandwich", "falafel wrap"},
	"cycling-federation.test":        {"cycling race", "time trial", "hill climb", "youth league", "club championship"},
	"rugby-club-lyon.test":           {"rugby match", "cup final", "youth league", "training camp"},
	"marathon-runners.test":          {"marathon", "relay race", "half marathon", "trail race"},
	"mountain-hiking-club.test":      {"mountain trail", "ridge walk", "glacier crossing", "summit hike"},
	"sailing-school.test":            {"sailing regatta", "dinghy race", "training camp", "night crossing"},
	"www.football-supporters.test":   {"football derby", "cup final", "away trip", "title race"},
	"youth-swimming-league.test":     {"swimming gala", "relay race", "training camp", "open-water swim"},
	"riverside-tennis-club.test":     {"club championship", "doubles tournament", "junior cup", "training camp"},
	"chess-league.test":              {"chess tournament", "blitz championship", "simultaneous exhibition", "club championship"},
	"election-observatory.test":      {"local election", "referendum", "turnout study", "electoral reform", "postal vote"},
	"parliament-watch.test":          {"parliamentary debate", "transparency law", "school reform", "climate plan", "housing policy"},
	"open-budget-project.test":       {"municipal budget", "participatory budget", "procurement rule", "open data policy", "debt report"},
	"neighbourhood-association.test": {"housing policy", "public consultation", "citizens' assembly", "traffic plan", "green space plan"},
	"policy-think-tank.test":         {"climate plan", "housing policy", "school reform", "pension reform"},
	"european-affairs-review.test":   {"regional fund", "climate plan", "trade agreement", "farm policy", "cohesion programme"},
	"transparency-now.test":          {"transparency law", "open data policy", "lobbying register", "procurement rule"},
}

// network is a publisher's group of sites. Like a real media group, each of
// its sites carries the group's bar above the page, links to its sister
// sites in the footer (with utm_ tracking parameters) and a cookie banner
// pointing at the cookie policy on the publisher's lead site: template
// links, the same on every page, that say nothing of what the authors cite.
// Groups cut across topics, as real groups own papers, blogs and magazines
// on every subject, so a site graph built from all links blurs the
// communities the editorial links draw.
type network struct {
	name  string
	lead  string   // host of the site holding the group's cookie policy
	hosts []string // its sites, lead included
	// jetpack sites share through ?share=twitter links back to the page
	// itself, as WordPress's Jetpack buttons do, rather than linking to the
	// platforms' share endpoints.
	jetpack bool
	// typo is a link every page of the group's sites carries in its footer
	// with a doubled scheme ("http://http://…"), the kind of mistake a
	// template keeps until someone notices; "" for none.
	typo string
}

var networks = []*network{
	{name: "Hexagone Media", lead: "www.lyon-gazette.test",
		hosts: []string{"www.lyon-gazette.test", "nantes-evening-post.test", "metro-weekly.test", "harbour-town-times.test", "local-weather-desk.test", "sports-results-hub.test"},
		typo:  "http://http://www.lyon-gazette.test/advertise.html"},
	{name: "Blue Fern Blogs", lead: "sourdough-diaries.test", jetpack: true,
		hosts: []string{"sourdough-diaries.test", "jazz-records-blog.test", "french-bistro-recipes.test", "vegetarian-kitchen.test", "geology-field-notes.test", "citizen-reporter-blog.test", "physics-for-everyone.test"}},
	{name: "Learned Societies Press", lead: "national-observatory.test",
		hosts: []string{"national-observatory.test", "marine-biology-society.test", "amateur-astronomers-club.test", "birdwatch-network.test", "coral-reef-watch.test"}},
}
