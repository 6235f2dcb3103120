package cli

import (
	"context"
	"fmt"
	"strings"
)

// command is one entry of the command table, from which the command line
// is dispatched and its help (sitesift help, COMMAND --help, docs/cli.md)
// written. A command's other flags are declared by its run function on the
// flag set newFlags gives it, before it parses them: the help describes
// them by running the command up to that parse (see describe), so a flag's
// help is its own definition.
type command struct {
	// name is what follows "sitesift": "crawl", "collections list"; the
	// desktop window's is "".
	name string
	// summary says in one line what the command does.
	summary string
	// usage are the synopsis lines, each after "sitesift ".
	usage []string
	// notes, when given, is a paragraph of help beyond the flags'.
	notes string
	// project says how the command takes --project DIR; nil: it does not.
	project *projectFlag
	// run runs the command on the arguments after its name. A subcommand
	// has none: its parent's run dispatches to it.
	run func(c CLI, ctx context.Context, args []string) error
	// subs are the subcommands ("collections list").
	subs []command
}

// projectFlag is how a command takes --project DIR.
type projectFlag struct {
	usage string
	// defaultName, when set, opens $XDG_DATA_HOME/sitesift/NAME when
	// --project is left out (DefaultProjectDir).
	defaultName string
}

// dir is the default of --project.
func (p projectFlag) dir() string {
	if p.defaultName == "" {
		return ""
	}
	return DefaultProjectDir(p.defaultName)
}

// The ways a command takes --project.
var (
	projectDir        = &projectFlag{usage: "project directory"}
	projectDirCreated = &projectFlag{usage: "project directory (created when missing)"}
)

// appProject is the --project of the commands that open the app: a project
// of their own by default, created when missing.
func appProject(name string) *projectFlag {
	return &projectFlag{usage: "project directory (created when missing)", defaultName: name}
}

// commands is the command table, in the order of sitesift help.
var commands []command

func init() { commands = commandTable() }

// lookup finds a command by its name, a subcommand by "PARENT SUB".
func lookup(name string) *command {
	top, _, hasSub := strings.Cut(name, " ")
	for i := range commands {
		c := &commands[i]
		if c.name != top {
			continue
		}
		if !hasSub {
			return c
		}
		for j := range c.subs {
			if c.subs[j].name == name {
				return &c.subs[j]
			}
		}
	}
	return nil
}

// run runs the command args names (args without the program name) through
// the command table; the desktop window when args names none.
func (c CLI) run(ctx context.Context, args []string) error {
	name := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	c.cmd = name
	cmd := lookup(name)
	if cmd == nil || strings.Contains(name, " ") {
		return usageError{fmt.Sprintf("unknown command %q (run sitesift help)", name)}
	}
	return cmd.run(c, ctx, args)
}

func commandTable() []command {
	return []command{
		{name: "", summary: "open the desktop app", usage: []string{"[--project DIR]"},
			project: appProject("default"), run: CLI.desktop},
		{name: "serve", summary: "the same app in a browser",
			usage: []string{"serve [--project DIR] [--addr 127.0.0.1:7777] [--token SECRET]\n" +
				"[--team [--import-dir DIR] [--trust-proxy]] [--tls-cert FILE --tls-key FILE] [--replay-addr HOST:PORT] [--replay-url URL]",
				"serve --projects DIR [--project DIR/NAME] [--addr 127.0.0.1:7777] [--token SECRET] [--tls-cert FILE --tls-key FILE]"},
			notes: "--team serves a team: each librarian signs in with an account (sitesift accounts), acts as themself within " +
				"their role, and every decision goes to the audit log; see docs/team.md. --projects serves the projects of one folder " +
				"to one user (or the holders of --token); --team serves one project. Captured pages replay on an origin of their own, " +
				"a second listener (--replay-addr, default: a free port of the same host), which serves the replay and nothing of the app; " +
				"behind a reverse proxy give it a host name of its own and say it with --replay-url (docs/team.md).",
			project: appProject("default"), run: CLI.serve},
		{name: "demo", summary: "crawl the built-in demo web and open the app on it",
			usage:   []string{"demo [--project DIR] [--addr HOST:PORT] [--max-pages N] [--delay DURATION]"},
			project: appProject("demo"), run: CLI.demo},
		{name: "demo-web", summary: "serve the built-in demo web as an HTTP proxy; prints the proxy, then the seeds",
			usage: []string{"demo-web [--addr HOST:PORT]"}, run: CLI.demoWeb},
		{name: "crawl", summary: "crawl the web from seed URLs into the project, or revisit its pages",
			usage: []string{
				"crawl --project DIR [--seeds FILE] [URL...] [--max-pages N] [--max-failures N] [--max-pages-per-site N]\n" +
					"[--contact EMAIL|URL] [--user-agent UA] [--delay DURATION] [--parallel N] [--max-delay DURATION]\n" +
					"[--strategy greedy|random|cycle] [--proxy URL] [--bias B] [--allow-private]\n" +
					"[--follow editorial|all] [--fresh-frontier] [--no-warc] [--warc-max-size BYTES] [--site-rule host-www|host|domain]\n" +
					"[--scope page|prefix|host|domain|any] [--max-hops N] [--max-depth N]\n" +
					"[--include REGEXP]... [--exclude REGEXP]... [--idle-reads N]",
				"crawl --project DIR --recrawl [--max-pages N] [--max-failures N] [--max-pages-per-site N] [--proxy URL]\n" +
					"[--contact EMAIL|URL] [--user-agent UA] [--delay DURATION] [--parallel N] [--max-delay DURATION]",
			},
			notes: "The crawl settings given (--contact, --user-agent, --delay, --parallel, --max-delay, --site-rule, " +
				"--links, --window, --window-size) are kept in the project for the next crawls (sitesift settings). " +
				"A recrawl revisits the project's pages: changed pages updated, gone ones marked, importance by the window policy. " +
				"--follow editorial (the default) follows the links in the pages' main text, which their authors wrote, to any site, " +
				"and the template's links (navigation, footers, sign-in and newsletter boxes) only within their page's own site: " +
				"a footer's shop, careers and share services are not the web you asked about, and they fail more than anything else; " +
				"the end lines count the template links and sites left out. --follow all follows every link.",
			project: projectDirCreated, run: CLI.crawl},
		{name: "settings", summary: "show the project's crawl settings, after setting those given",
			usage: []string{"settings --project DIR [--contact EMAIL|URL] [--user-agent UA] [--delay DURATION] [--parallel N]\n" +
				"[--max-delay DURATION] [--site-rule host-www|host|domain] [--links editorial|all]\n" +
				"[--window variable|fixed|improved|interpolation|full-history] [--window-size N] [--format table|json]"},
			project: projectDir, run: CLI.settings},
		{name: "import", summary: "add a site graph to the project without crawling: an edge list, web archives, crawl logs or a slice of the Common Crawl host graph",
			usage: []string{
				"import --project DIR --edges FILE [--strict] [--site-rule host-www|host|domain]",
				"import --project DIR [--warc FILE|DIR...] [--cdx FILE...] [--crawl-log FILE...] [--site-rule host-www|host|domain]",
				"import --project DIR --cc-vertices FILE... --cc-edges FILE... [--cc-ranks FILE...] (--tld TLD,... | --host-suffix NAME,...)",
			},
			notes:   "A Common Crawl slice is one a project.",
			project: projectDirCreated, run: CLI.importEdges},
		{name: "rank", summary: "the sites by importance (OPIC and PageRank), of the project or of an edge list",
			usage: []string{
				"rank --project DIR [--weighting links|binary] [--format table|csv|json] [--limit N] [--raw] [--include-platforms]",
				"rank --project DIR --biased [--bias 9] [--format table|csv|json] [--limit N]",
				"rank --edges FILE [--strict] [--weighting links|binary] [--no-opic] [--format table|csv|json] [--limit N] [--raw]",
			},
			notes: "The ranking says its site graph: editorial links, all links, or all links of an import without page structure. " +
				"--biased ranks by PageRank biased towards the sites librarians rated 3-4.",
			project: projectDir, run: CLI.rank},
		{name: "seeds", summary: "seed URLs for a crawl: one a community (HITS cores), or the most important sites",
			usage: []string{
				"seeds --project DIR --count K [--method communities|importance] [--format txt|csv|json] [--include-platforms]",
				"seeds --project DIR --count K [--density 100 | --core-size N --new-members M] [--min-hubs 2] [--min-authorities 2]\n" +
					"[--hits-iterations N]",
				"seeds --project DIR --count K --method importance [--include-failed] [--include-rejected]",
			},
			notes: "communities: one seed a core of sites (2 hub sites and 2 authority sites at least); " +
				"fewer than K found say why on standard error.",
			project: projectDir, run: CLI.seeds},
		{name: "collections", summary: "saved collections: communities with their edits, as seed lists",
			run: CLI.collections, subs: []command{
				{name: "collections list", summary: "the saved collections",
					usage: []string{"collections [list] --project DIR [--format table|json]"}, project: projectDir},
				{name: "collections show", summary: "one collection, its communities and their members",
					usage: []string{"collections show --project DIR [--format table|json] ID|NAME"}, project: projectDir},
				{name: "collections save", summary: "save the project's communities as a new collection",
					usage: []string{"collections save --project DIR --librarian NAME [--name NAME] [--count K]\n" +
						"[--density 100 | --core-size N --new-members M] [--min-hubs 2] [--min-authorities 2] [--hits-iterations N]"},
					project: projectDir},
				{name: "collections export", summary: "a collection's seed list",
					usage: []string{"collections export --project DIR [--format txt|csv|json] [--out FILE] ID|NAME"}, project: projectDir,
					notes: "The same file as the export command's saved collection. A collection with no seed left is written with " +
						"its header alone and says so, with exit status 3."},
				{name: "collections delete", summary: "delete a collection",
					usage: []string{"collections delete --project DIR ID|NAME"}, project: projectDir},
			}},
		{name: "export", summary: "one deliverable of the Export page, under its file name (sitesift help export lists them)",
			usage: []string{
				"export --project DIR --what WHAT [--format txt|csv|json|yaml] [--out FILE|DIR] [--count K] [--buckets N]\n" +
					"[--include-failed] [--include-rejected] [--include-platforms] [--bom[=false]]",
				"export --project DIR --what heritrix --out DIR [--buckets N]",
				"export --project DIR --what collection --name NAME|ID [--format txt|csv|json] [--out FILE|DIR]",
				"export --project DIR --what wacz --out FILE|DIR",
			},
			notes: "--what heritrix writes the approved sites for Heritrix into DIR: seeds.txt, and precedence.txt " +
				"from the ranking (Heritrix keys precedence per URI: each site by its seed URL). --what wacz writes " +
				"the crawl as a WACZ file (PROJECT-crawl.wacz) for ReplayWeb.page: its WARC files, their index and " +
				"the HTML pages with titles. --what collection writes a saved collection's seed list as librarians " +
				"edited it (PROJECT-seeds-NAME.EXT); --what communities is the current extraction, and says on stderr " +
				"when it differs from a saved collection. A deliverable that holds nothing (no site approved, no rating, no site) is " +
				"written all the same, its header alone (a CSV header row, an empty JSON array, an empty txt file, a " +
				"crawler file's comments), and says why on stderr with exit status 3.",
			project: projectDir, run: CLI.export},
		{name: "search", summary: "full-text search of the crawled pages' main text",
			usage:   []string{"search --project DIR [--site SITE] [--limit N] [--any] QUERY"},
			project: projectDir, run: CLI.search},
		{name: "page", summary: "a crawled page's main text (what search finds), or its whole text",
			usage:   []string{"page --project DIR [--whole] [--format txt|json] URL"},
			project: projectDir, run: CLI.page},
		{name: "check", summary: "mend what a kill left and check the project's consistency",
			usage: []string{"check --project DIR"},
			notes: "A ranking an import left unfinished is reported (exit status 1): any other command that opens " +
				"the project computes it.",
			project: projectDir, run: CLI.check},
		{name: "backup", summary: "write a consistent copy of the project's database, while a server or a crawl writes it",
			usage: []string{"backup --project DIR [--force] FILE"},
			notes: "SQLite's online backup (VACUUM INTO) of project.db, written beside FILE and renamed when whole; " +
				"an existing FILE is kept unless --force. To restore, stop the server and put the file back as " +
				"DIR/project.db (docs/team.md).",
			project: projectDir, run: CLI.backup},
		{name: "sites", summary: "the sites with their crawl status; with SITE, its crawl report",
			usage: []string{"sites --project DIR [--status ok|dead|robots-closed|errors-only|slow|not-fetched]\n" +
				"[--platforms only|none] [--limit N] [--format table|csv|json] [SITE]"},
			project: projectDir, run: CLI.sites},
		{name: "platforms", summary: "the platform sites (social networks, video sites, shorteners, CDNs, ad hosts), kept out of rankings, the review queue and exports",
			usage:   []string{"platforms --project DIR [--librarian NAME] [--in SITE | --out SITE]"},
			notes:   "--in and --out move a site into or out of them for this project.",
			project: projectDir, run: CLI.platforms},
		{name: "librarians", summary: "the project's librarians", run: CLI.librarians, subs: []command{
			{name: "librarians list", summary: "the librarians, with their number of ratings",
				usage: []string{"librarians [list] --project DIR"}, project: projectDir},
			{name: "librarians add", summary: "add a librarian",
				usage: []string{"librarians add --project DIR NAME"}, project: projectDir},
		}},
		{name: "accounts", summary: "the accounts of a team server (serve --team): librarians who sign in, with a role", run: CLI.accounts, subs: []command{
			{name: "accounts list", summary: "the accounts, their roles and states",
				usage: []string{"accounts [list] --project DIR"}, project: projectDir},
			{name: "accounts add", summary: "give a librarian (an existing profile keeps its ratings) an account; prints its password and a one-time sign-in link",
				usage: []string{"accounts add --project DIR --role curator|approver|admin [--password-stdin] [--url BASE] NAME"},
				notes: "curator: rate, note, nominate, search, review, export. approver: also approve, reject, reopen. " +
					"admin: also crawl, import, settings, accounts. Accounts change while no server holds the project, " +
					"or on a running team server through its Accounts API (docs/team.md).",
				project: projectDir},
			{name: "accounts disable", summary: "stop an account signing in; its ratings and decisions stay",
				usage: []string{"accounts disable --project DIR NAME"}, project: projectDir},
			{name: "accounts enable", summary: "let a disabled account sign in again with its password",
				usage: []string{"accounts enable --project DIR NAME"}, project: projectDir},
			{name: "accounts reset", summary: "a new password and sign-in link for an account; ends its sessions",
				usage: []string{"accounts reset --project DIR [--password-stdin] [--url BASE] NAME"}, project: projectDir},
			{name: "accounts role", summary: "change an account's role",
				usage: []string{"accounts role --project DIR NAME curator|approver|admin"}, project: projectDir},
		}},
		{name: "audit", summary: "the audit log: who rated, noted, nominated, approved, rejected, reopened, crawled, imported or changed settings and accounts, when and from where",
			usage:   []string{"audit --project DIR [--since DATE] [--librarian NAME] [--site SITE] [--limit N] [--format table|json]"},
			project: projectDir, run: CLI.audit},
		{name: "rate", summary: "rate a site from 1 to 4, or note it",
			usage:   []string{"rate --project DIR --librarian NAME [--note TEXT] SITE [1|2|3|4]"},
			notes:   "With --note alone, a note without a rating.",
			project: projectDir, run: CLI.rate},
		{name: "review", summary: "the sites a librarian has not rated yet, best first",
			usage: []string{"review --project DIR --librarian NAME [--order importance|biased|community|search] [--bias B]\n" +
				"[--q TEXT] [--limit N] [--format table|csv|json] [--include-failed] [--include-platforms]"},
			project: projectDir, run: CLI.review},
		{name: "selection", summary: "the librarians' selection of sites", run: CLI.selection, subs: []command{
			{name: "selection set", summary: "decide a site's status: candidate, nominated, approved or rejected",
				usage:   []string{"selection set --project DIR --librarian NAME [--note TEXT] [--subject TEXT] [--reason TEXT] [--page-only] SITE STATUS"},
				project: projectDir},
			{name: "selection export", summary: "the sites of one status",
				usage: []string{"selection export --project DIR [--status approved] [--format txt|csv|json]"}, project: projectDir},
		}},
		{name: "ratings", summary: "the librarians' ratings as CSV librarian,site,rating,note", run: CLI.ratings, subs: []command{
			{name: "ratings import", summary: "add the ratings of a CSV file (with or without a byte-order mark)",
				usage: []string{"ratings import --project DIR [--new-librarians] FILE"}, project: projectDir},
			{name: "ratings export", summary: "every rating, to FILE or standard output",
				usage: []string{"ratings export --project DIR [--bom=false] [FILE]"}, project: projectDir},
		}},
		{name: "agreement", summary: "how far the librarians' ratings agree with each other and with the importance",
			usage:   []string{"agreement --project DIR [--format table|csv|json] [--biased] [--bias B] [--rater NAME]"},
			project: projectDir, run: CLI.agreement},
		{name: "lab", summary: "the papers' experiments, as CSV files and SVG plots", run: CLI.lab, subs: []command{
			{name: "lab convergence", summary: "OPIC's error against PageRank, per crawl strategy",
				usage: []string{"lab convergence (--edges FILE | --synthetic N) [--avg-out 8] [--weighting links|binary]\n" +
					"[--strategies greedy,random,cycle] [--steps S] [--every K] [--teleport 0.15] [--seed 1] [--log-x] --out DIR"}},
			{name: "lab windows", summary: "Adaptive OPIC's window policies on a changing graph",
				usage: []string{"lab windows --synthetic N --change-rate R [--avg-out 8] [--steps S] [--every K]\n" +
					"[--window T] [--measures k] [--min-measures 3] [--teleport 0.15] [--seed 1] [--log-x] --out DIR"}},
			{name: "lab normleak", summary: "the norm leak of PageRank's M′ against M*",
				usage: []string{"lab normleak --out DIR [--iterations 20] [--damping 0.15]"}},
			{name: "lab seeds", summary: "community seeds against random seeds: cores, distances, BFS crawls",
				usage: []string{"lab seeds (--edges FILE | --project DIR | --synthetic N [--avg-out 8]) --out DIR\n" +
					"[--count 10] [--density 100 | --core-size N --new-members M] [--min-hubs 2] [--min-authorities 2]\n" +
					"[--hits-iterations N] [--random-draws 100] [--distance-sources N] [--seed 1] [--max-depth -1]"},
				project: &projectFlag{usage: "project whose page graph to evaluate on"}},
			{name: "lab links", summary: "PageRank on the editorial links against all links: the top sites of each, " +
				"their rank correlation (Spearman, Kendall tau) and top-K overlap",
				usage: []string{"lab links --project DIR --out DIR [--top 20]"}, project: projectDir},
		}},
		{name: "help", summary: "this help, or a command's (sitesift help export: every deliverable)",
			usage: []string{"help [COMMAND [SUBCOMMAND]]"}, run: CLI.help},
	}
}
