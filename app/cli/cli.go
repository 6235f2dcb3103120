package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"sitesift/app"
	"sitesift/app/crawling"
	"sitesift/app/export"
	"sitesift/app/exports"
	"sitesift/app/httpapi"
	"sitesift/app/project"
	"sitesift/app/projects"
	"sitesift/app/ranking"
	"sitesift/app/review"
	"sitesift/crawl/demoweb"
	"sitesift/sites/edgelist"
)

// CLI is what the command line needs from its surroundings; main fills it.
type CLI struct {
	Stdout, Stderr io.Writer
	// Stdin is read by --password-stdin; nil reads os.Stdin.
	Stdin io.Reader
	// Assets is the built frontend.
	Assets fs.FS
	// Desktop opens the desktop window on the handler and blocks until it is
	// closed. It returns ErrNoDesktop when this binary or this session cannot
	// show a window.
	Desktop func(title string, h http.Handler) error
	// Retitle gives the open desktop window a new title; nil leaves the
	// title as Desktop set it.
	Retitle func(title string)
	// Logger for serve and the desktop; nil logs nothing.
	Logger *slog.Logger
	// Dialogs are the desktop window's native file dialogs, through which
	// the window saves and opens every file.
	Dialogs httpapi.Dialogs

	// cmd is the command being run ("" for the desktop window), which a
	// project it holds names to the other processes that find it held.
	cmd string
	// describing, when set, receives the flags of a command run only to
	// describe them (see describe).
	describing *flags
}

// ErrNoDesktop means no desktop window can be opened here.
var ErrNoDesktop = errors.New("no desktop window available")

// usageError is a command-line mistake: one line, exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// emptyError is a deliverable written whole that holds nothing (its
// header alone): one line, exit status 3, so that a script does not hand an
// empty seed list to a crawler unawares.
type emptyError struct{ msg string }

func (e emptyError) Error() string { return e.msg }

// emptied is the emptyError of command cmd when empty says why its
// deliverable holds nothing, nil when empty is "".
func emptied(cmd, empty string) error {
	if empty == "" {
		return nil
	}
	return emptyError{cmd + ": " + empty}
}

// Run runs the command line args (without the program name) and returns
// the exit status: 0 on success, 1 on failure, 2 on a usage mistake, 3 when
// a command wrote a list that holds nothing (an export, a seed
// list, the ratings). Errors are printed on one line to
// Stderr, but for a file refused for its bad lines: one line for each.
func (c CLI) Run(ctx context.Context, args []string) int {
	err := c.run(ctx, args)
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(usageError)):
		fmt.Fprintf(c.Stderr, "sitesift: %v\n", err)
		return 2
	case errors.As(err, new(emptyError)):
		fmt.Fprintf(c.Stderr, "sitesift: %s\n", oneLine(err.Error()))
		return 3
	case errors.As(err, new(*edgelist.ParseError)):
		// Its lines are the file's, one a line and none quoting it.
		fmt.Fprintf(c.Stderr, "sitesift: %s\n", err)
		return 1
	default:
		fmt.Fprintf(c.Stderr, "sitesift: %s\n", oneLine(err.Error()))
		return 1
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// handler is the app's HTTP handler, with the frontend and the logger. The
// sites table's ranks are computed meanwhile (App.Warm).
func (c CLI) handler(a *app.App, opts ...httpapi.Option) http.Handler {
	a.Review.Warm()
	return httpapi.New(a, c.handlerOptions(opts...)...)
}

func (c CLI) desktop(ctx context.Context, args []string) error {
	f := c.newFlags("")
	dir := f.project
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	retitle := func(dir string) {
		if c.Retitle != nil {
			c.Retitle(projects.WindowTitle(dir))
		}
	}
	sw := projects.NewSwitcher(projects.Options{Open: c.projectOpener(), Recent: c.recentProjects(), OnSwitch: retitle})
	defer sw.Close()
	first, err := c.projectOpener()(*dir, true)
	if err == nil {
		sw.Adopt(first)
		replay, stop := c.windowReplay()
		defer stop()
		return c.Desktop(projects.WindowTitle(first.Dir), httpapi.Switching(sw, c.handlerOptions(append(replay, httpapi.Desktop(c.Dialogs))...)...))
	}
	// Started from a menu, no one reads the terminal: the reason the
	// project cannot open (most often: open in another window) is shown in
	// a window of its own.
	if werr := c.Desktop("sitesift — cannot open "+*dir, failurePage(*dir, err)); werr != nil && !errors.Is(werr, ErrNoDesktop) {
		return errors.Join(err, werr)
	}
	return err
}

// projectOpener opens a project for the desktop window or serve
// --projects as inProject does: mended, its ranking finished, its API on
// its socket for the commands run beside it, and the sites table's ranks
// computed meanwhile (Review.Warm).
func (c CLI) projectOpener() projects.Opener {
	return func(dir string, create bool) (projects.Opened, error) {
		a, p, err := c.open(dir, create, false)
		if err != nil {
			return projects.Opened{}, err
		}
		stop := c.serveSocket(a, p)
		a.Review.Warm()
		return projects.Opened{App: a, Dir: p.Dir, Close: func() {
			stop()
			a.Close()
			p.Close()
		}}, nil
	}
}

// recentProjects is this user's list of recent projects; nil, with a
// warning, when the system names no configuration folder.
func (c CLI) recentProjects() *projects.Recent {
	path, err := projects.RecentFile()
	if err != nil {
		fmt.Fprintf(c.Stderr, "sitesift: warning: no list of recent projects: %v\n", err)
		return nil
	}
	return &projects.Recent{Path: path}
}

// handlerOptions are the options of every handler: the frontend and the
// logger, then opts.
func (c CLI) handlerOptions(opts ...httpapi.Option) []httpapi.Option {
	return append([]httpapi.Option{httpapi.Assets(c.Assets), httpapi.Logger(c.Logger)}, opts...)
}

func (c CLI) serve(ctx context.Context, args []string) error {
	f := c.newFlags("serve")
	dir := f.project
	addr := f.String("addr", "127.0.0.1:7777", "address to listen on")
	token := f.String("token", "", "shared secret every request must carry; generated when --addr is not a loopback address (unless --team)")
	folder := f.String("projects", "", "a folder of projects: the page lists its projects, opens one and creates new ones in it by name")
	ts := c.teamFlags(f)
	rf := c.replayFlags(f)
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	if err := ts.check(); err != nil {
		return err
	}
	if *folder != "" {
		if ts.team {
			// Accounts, roles and the audit log are a project's.
			return usageError{"serve: --team serves one project: give --project, not --projects"}
		}
		projectGiven := false
		f.Visit(func(fl *flag.Flag) { projectGiven = projectGiven || fl.Name == "project" })
		return c.serveProjects(ctx, *folder, *dir, projectGiven, *addr, *token, ts, rf)
	}
	return c.inProject(*dir, true, func(a *app.App, p *project.Project) error {
		teamOpts, err := ts.options(c, a, p, *addr)
		if err != nil {
			return err
		}
		return c.listenAndServe(ctx, *addr, "project "+p.Dir, p.Advertise, func(opts ...httpapi.Option) http.Handler {
			return c.handler(a, append(opts, teamOpts...)...)
		}, "", *token, ts, rf)
	})
}

// serveProjects serves the projects of the folder dir (created when
// missing): none open at first, or the project of --project when given,
// which must be one of them.
func (c CLI) serveProjects(ctx context.Context, dir, project string, projectGiven bool, addr, token string, ts *teamServe, rf *replayFlags) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("serve --projects: %w", err)
	}
	folder, err := projects.NewFolder(dir)
	if err != nil {
		return fmt.Errorf("serve --projects: %w", err)
	}
	sw := projects.NewSwitcher(projects.Options{Open: c.projectOpener(), Folder: folder})
	defer sw.Close()
	fragment := "#/projects"
	if projectGiven {
		abs, err := filepath.Abs(project)
		if err != nil || filepath.Dir(abs) != folder.Dir {
			return usageError{fmt.Sprintf("serve: --project %s is not a folder of --projects %s", project, folder.Dir)}
		}
		if _, err := sw.OpenNamed(filepath.Base(abs)); err != nil {
			return err
		}
		fragment = ""
	}
	return c.listenAndServe(ctx, addr, "projects in "+folder.Dir, nil, func(opts ...httpapi.Option) http.Handler {
		return httpapi.Switching(sw, c.handlerOptions(opts...)...)
	}, fragment, token, ts, rf)
}

// listenAndServe serves the handler made by handler until ctx is
// cancelled, printing what it serves (what) and its URL, and records the URL with advertise (the
// project's lock file) when given.
//
// Beyond loopback, anyone on the network could read and change the project:
// every request must then carry a shared secret (token, or one generated),
// given in the printed URL.
//
// Captured pages are replayed on a listener of their own, the replay
// origin (rf, app/httpapi/replay.go).
func (c CLI) listenAndServe(ctx context.Context, addr, what string, advertise func(url, socket string) error,
	handler func(opts ...httpapi.Option) http.Handler, fragment, token string, ts *teamServe, rf *replayFlags) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	replay, stopReplay, replayAddr, err := c.serveReplay(rf.listenAddr(ln.Addr().String()), rf.publicURL(), ts)
	if err != nil {
		ln.Close()
		return fmt.Errorf("serve: %w", err)
	}
	defer stopReplay()
	opts := []httpapi.Option{replay}
	query := ""
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" {
		opts = append(opts, httpapi.ServedAt(host))
	}
	if !ts.team && !httpapi.IsLoopbackAddr(addr) || token != "" {
		if token == "" {
			token = httpapi.NewSecret()
		}
		opts = append(opts, httpapi.SharedSecret(token))
		query = "?token=" + url.QueryEscape(token)
		if !httpapi.IsLoopbackAddr(addr) {
			fmt.Fprintf(c.Stderr, "sitesift: warning: %s is reachable from other machines; every request needs the token in the URL below\n", addr)
		}
	}
	srv := &http.Server{Handler: handler(opts...), ReadHeaderTimeout: 10 * time.Second}
	shown := ln.Addr().String()
	if ap, err := netip.ParseAddrPort(shown); err == nil && ap.Addr().IsUnspecified() {
		// Every address of the machine: this one opens here; other
		// machines use the machine's own name or address.
		shown = netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), ap.Port()).String()
	}
	fmt.Fprintf(c.Stdout, "sitesift: %s\nsitesift: open %s://%s/%s%s\n", what, ts.scheme(), shown, query, fragment)
	fmt.Fprintf(c.Stdout, "sitesift: captured pages replay on %s (an origin of their own)\n", cmp.Or(rf.publicURL(), ts.scheme()+"://"+replayAddr+"/"))
	// The secret stays out of the lock file, which others may read.
	if advertise != nil {
		if err := advertise(ts.scheme()+"://"+shown+"/", ""); err != nil {
			fmt.Fprintf(c.Stderr, "sitesift: warning: %v\n", err)
		}
	}
	errc := make(chan error, 1)
	go func() { errc <- ts.serve(srv, ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	srv.Shutdown(sctx)
	return nil
}

func (c CLI) demoWeb(ctx context.Context, args []string) error {
	f := c.newFlags("demo-web")
	addr := f.String("addr", "127.0.0.1:7778", "address of the demo web's HTTP proxy")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	web := demoweb.New(demoweb.DefaultSeed)
	srv, err := web.Serve(ctx, *addr)
	if err != nil {
		return err
	}
	defer srv.Close()
	fmt.Fprintln(c.Stdout, srv.URL)
	for _, s := range web.Seeds() {
		fmt.Fprintln(c.Stdout, s)
	}
	return srv.Wait()
}

func (c CLI) demo(ctx context.Context, args []string) error {
	f := c.newFlags("demo")
	dir := f.project
	addr := f.String("addr", "127.0.0.1:7777", "address to serve the app on when no desktop window can open")
	maxPages := f.Int("max-pages", 600, "pages to crawl")
	delay := f.Duration("delay", 500*time.Millisecond, "per-site delay between requests")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	web := demoweb.New(demoweb.DefaultSeed)
	srv, err := web.Serve(ctx, "")
	if err != nil {
		return err
	}
	defer srv.Close()
	proxy := srv.URL
	logDir := *dir
	if abs, err := filepath.Abs(logDir); err == nil {
		logDir = abs
	}
	c, logPath, closeLog, err := c.demoLog(logDir)
	if err != nil {
		return err
	}
	defer closeLog()
	return c.inProject(*dir, true, func(a *app.App, p *project.Project) error {
		before := a.Crawling.Status()
		req := crawling.CrawlRequest{Seeds: web.Seeds(), MaxPages: *maxPages, MaxPagesPerSite: 40, Strategy: "greedy", Proxy: proxy,
			SettingsUpdate: project.SettingsUpdate{DelayMS: app.Set(int(delay.Milliseconds())), Parallel: app.Set(4)}}
		if _, err := a.Crawling.Start(req); err != nil {
			return err
		}
		where := p.Dir
		if abs, err := filepath.Abs(where); err == nil {
			where = abs
		}
		fmt.Fprintf(c.Stdout, "sitesift: demo project %s\n", where)
		if before.State != crawling.StateIdle && before.PagesOK > 0 {
			fmt.Fprintf(c.Stdout, "sitesift: the project holds an earlier run's crawl (%s): this one goes on with what that left to fetch; remove the folder to crawl the demo web afresh\n", fetchedFailed(before))
		}
		fmt.Fprintf(c.Stdout, "sitesift: crawling the demo web (%d sites, %d pages at most) through %s\n", len(web.Sites()), *maxPages, proxy)
		if logPath != "" {
			fmt.Fprintf(c.Stdout, "sitesift: the crawl's messages go to %s\n", logPath)
		}
		// The crawl takes some 20 s: say how it goes, beside the window or the browser, until it ends.
		stop := make(chan struct{})
		followed := make(chan struct{})
		go func() {
			defer close(followed)
			c.followDemoCrawl(a, where, stop)
		}()
		defer func() {
			close(stop)
			<-followed
		}()
		replay, stopReplay := c.windowReplay()
		err := c.Desktop("sitesift demo — "+p.Dir, c.saysOpened(c.handler(a, append(replay, httpapi.Desktop(c.Dialogs))...)))
		stopReplay()
		if !errors.Is(err, ErrNoDesktop) {
			return err
		}
		fmt.Fprintf(c.Stdout, "sitesift: %v; serving in the browser instead\n", err)
		return c.listenAndServe(ctx, *addr, "project "+p.Dir, p.Advertise, func(opts ...httpapi.Option) http.Handler { return c.handler(a, opts...) }, "#/crawl", "", &teamServe{}, nil)
	})
}

// demoPoll is how often the demo reads its crawl's status for the progress it prints.
const demoPoll = 250 * time.Millisecond

// followDemoCrawl prints the demo crawl's progress (redrawn on a terminal, a
// line every 3 s otherwise) and, once it ended, what it fetched and where
// the project is; it returns then, or when stop is closed (the window or the
// server closed), after a last look at the crawl.
func (c CLI) followDemoCrawl(a *app.App, dir string, stop <-chan struct{}) {
	bar := newProgressBar(c.Stdout)
	tick := time.NewTicker(demoPoll)
	defer tick.Stop()
	ended := func() bool {
		st := a.Crawling.Status()
		bar.show(st)
		// Idle is the crawl started and not yet running.
		switch st.State {
		case crawling.StateIdle, crawling.StateRunning, crawling.StatePaused, crawling.StateStopping:
			return false
		}
		bar.done()
		fmt.Fprintf(c.Stdout, "sitesift: demo crawl %s: %s, from %d sites in %.1fs; the project is %s\n",
			st.State, fetchedFailed(st), st.Sites, st.ElapsedSec, dir)
		return true
	}
	for !ended() {
		select {
		case <-stop:
			if !ended() {
				bar.done()
			}
			return
		case <-tick.C:
		}
	}
}

func (c CLI) crawl(ctx context.Context, args []string) error {
	f := c.newFlags("crawl")
	dir := f.project
	seedFile := f.String("seeds", "", "file of seed URLs, one a line, # comments")
	maxPages := f.Int("max-pages", crawling.DefaultMaxPages, "pages to fetch fine in all (failures count apart); every seed is asked for first")
	maxFailures := f.Int("max-failures", 0, "failed fetches and error answers that end the crawl (0: as many as --max-pages)")
	perSite := f.Int("max-pages-per-site", crawling.DefaultMaxPagesPerSite, "pages to fetch per site")
	polite := f.settingsFlags()
	strategy := f.String("strategy", "greedy", "crawl order: greedy (most OPIC cash first), random or cycle")
	proxy := f.String("proxy", "", "HTTP proxy URL (overrides HTTP_PROXY/HTTPS_PROXY/NO_PROXY)")
	bias := f.Float64("bias", 0, "favour the sites librarians rated 3-4: their teleport share is 1+BIAS (0: no bias)")
	allowPrivate := f.Bool("allow-private", false, "follow links to loopback, private and link-local addresses (the seeds' own hosts and ports always may be)")
	scope := f.String("scope", "any", "URLs to fetch, from the seeds: page, prefix, host, domain or any")
	maxHops := f.Int("max-hops", 0, "fetch URLs out of the scope up to this many links from an in-scope page")
	maxDepth := f.Int("max-depth", 0, "links followed from a seed at most (0: no limit)")
	var include, exclude multiFlag
	f.Var(&include, "include", "regular expression of URLs to fetch whatever the scope (repeatable)")
	f.Var(&exclude, "exclude", "regular expression of URLs never to fetch (repeatable; wins over --include)")
	follow := f.String("follow", "editorial", "links followed to other sites: editorial (those in the pages' main text; the template's "+
		"navigation, footers and sign-in boxes only within their own site) or all")
	fresh := f.Bool("fresh-frontier", false, "in a project that has a crawl: start from these seeds only, keeping what was fetched but not following the links left waiting")
	noWARC := f.Bool("no-warc", false, "write no WARC files of the crawl (by default every response goes to DIR/warcs)")
	warcMax := f.Int64("warc-max-size", crawling.DefaultWARCMaxSize, "bytes at which a WARC file is closed and the next begun")
	idle := f.Int("idle-reads", crawling.DefaultIdleReads, "idle sites OPIC reads at most after each fetched page (0: only sites whose pages are fetched)")
	recrawl := f.Bool("recrawl", false, "revisit the project's pages (no seeds): changed pages updated, gone ones marked, importance by the project's window policy")
	seeds, err := f.parse(args)
	if err != nil {
		return err
	}
	if *dir == "" {
		return usageError{"crawl: --project DIR is required"}
	}
	if *seedFile != "" {
		fh, err := os.Open(*seedFile)
		if err != nil {
			return err
		}
		more, err := crawling.ReadSeeds(fh, *seedFile)
		fh.Close()
		if err != nil {
			return err
		}
		seeds = append(seeds, more...)
	}
	if *recrawl {
		return c.recrawl(ctx, *dir, seeds, f, crawling.CrawlRequest{MaxPages: *maxPages, MaxFailures: *maxFailures, MaxPagesPerSite: *perSite,
			Strategy: *strategy, Proxy: *proxy, Bias: *bias, AllowPrivate: *allowPrivate, Recrawl: true,
			NoWARC: *noWARC, WARCMaxSize: *warcMax, SettingsUpdate: polite(), IdleReads: idle})
	}
	if len(seeds) == 0 {
		return usageError{"crawl: no seed URL (give URLs or --seeds FILE)"}
	}
	req := crawling.CrawlRequest{Seeds: seeds, MaxPages: *maxPages, MaxFailures: *maxFailures, MaxPagesPerSite: *perSite,
		Strategy: *strategy, Proxy: *proxy, Bias: *bias, AllowPrivate: *allowPrivate,
		FreshFrontier: *fresh, Follow: *follow, NoWARC: *noWARC, WARCMaxSize: *warcMax, SettingsUpdate: polite(),
		Scope: *scope, MaxHops: *maxHops, MaxDepth: *maxDepth, Include: include, Exclude: exclude,
		IdleReads: idle}
	// Check the request before a project directory is created for it.
	check := req.Check
	if _, err := os.Stat(filepath.Join(*dir, project.DBFile)); errors.Is(err, os.ErrNotExist) {
		check = req.CheckNew
	}
	if err := check(); err != nil {
		return err
	}
	return c.inProject(*dir, true, func(a *app.App, _ *project.Project) error {
		cont, err := a.Crawling.Continuation(ctx)
		if err != nil {
			return err
		}
		if cont.Continues {
			how := ""
			if *fresh {
				how = " (fresh frontier: from these seeds only)"
			}
			fmt.Fprintf(c.Stdout, "sitesift: this crawl %s%s\n", cont, how)
		}
		bar := newProgressBar(c.Stderr)
		st, err := a.Crawling.Run(ctx, req, 200*time.Millisecond, bar.show)
		bar.done()
		if err != nil {
			return err
		}
		fmt.Fprintf(c.Stdout, "crawl %s (%s): %s, from %d sites in %.1fs (%.1f pages/s), %d retries\n",
			st.State, endReasons[st.EndReason], fetchedFailed(st), st.Sites, st.ElapsedSec,
			float64(st.PagesOK)/max(st.ElapsedSec, 1e-9), st.Retries)
		if classes := byClass(st.ErrorsByClass); classes != "" {
			fmt.Fprintf(c.Stdout, "failed fetches by class: %s\n", classes)
		}
		if dropped := byClass(st.Dropped); dropped != "" {
			fmt.Fprintf(c.Stdout, "URLs left out: %s\n", dropped)
		}
		if st.TemplateLinksLeftOut > 0 {
			fmt.Fprintf(c.Stdout, "left out %d template links to %d other sites (footers, navigation, sign-in and newsletter boxes); "+
				"--follow all follows them\n", st.TemplateLinksLeftOut, st.TemplateSitesLeftOut)
		}
		if st.EndReason == crawling.EndSeedsFailed {
			return fmt.Errorf("crawl: no seed could be fetched (%s); check the URLs, the network and the proxy", byClass(st.ErrorsByClass))
		}
		return nil
	})
}

// multiFlag is a flag that may be given several times.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ", ") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// endReasons say why a crawl ended, as the command line prints it.
var endReasons = map[string]string{
	crawling.EndLimit:       "the page cap was reached",
	crawling.EndFailLimit:   "the failure cap was reached",
	crawling.EndExhausted:   "nothing left to fetch",
	crawling.EndStopped:     "stopped",
	crawling.EndSeedsFailed: "no seed could be fetched",
	crawling.EndFailed:      "saving failed",
	"":                      "not ended",
}

// fetchedFailed says what a crawl got: "23 pages fetched, 377 failed".
func fetchedFailed(st crawling.CrawlStatus) string {
	return fmt.Sprintf("%d pages fetched, %d failed", st.PagesOK, st.Errors)
}

// byClass lists counts by class, most first ("dns 3, http-4xx 1").
func byClass(counts map[string]int) string {
	classes := slices.Collect(maps.Keys(counts))
	slices.SortFunc(classes, func(x, y string) int {
		if c := cmp.Compare(counts[y], counts[x]); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	parts := make([]string, len(classes))
	for i, k := range classes {
		parts[i] = fmt.Sprintf("%s %d", k, counts[k])
	}
	return strings.Join(parts, ", ")
}

func (c CLI) rank(ctx context.Context, args []string) error {
	f := c.newFlags("rank")
	dir := f.project
	edges := f.String("edges", "", "rank the sites of this edge list (or AUT/ARCH domain graph: CSV, GraphML, GEXF) instead of a project")
	weighting := f.String("weighting", ranking.WeightingLinks, "links (edge weights) or binary (each linked pair once)")
	noOPIC := f.Bool("no-opic", false, "with --edges: skip OPIC's fixpoint (opic column 0)")
	strict := f.Bool("strict", false, "with --edges: refuse the file if a line is bad (by default bad lines are skipped, counted and the first 20 named)")
	format := f.String("format", export.Table, "table, csv or json")
	limit := f.Int("limit", 0, "show the first N sites (0: all)")
	raw := f.Bool("raw", false, "table: also show the OPIC and PageRank shares of 1 the ranks and scores come from")
	biased := f.Bool("biased", false, "rank by PageRank biased towards the sites librarians rated 3–4 (app/biased.go)")
	bias := f.Float64("bias", ranking.DefaultBias, "with --biased: teleport boost of a site rated 3–4 on average")
	includePlatforms := f.Bool("include-platforms", false,
		"keep the platform sites (social networks, video sites, shorteners, CDNs, ad hosts) in the list; they are ranked either way")
	if err := f.parseNoArgs(args); err != nil {
		return err
	}
	defer lowGC()()
	if err := checkFormat("rank", *format, export.Table, export.CSV, export.JSON); err != nil {
		return err
	}
	if *weighting != ranking.WeightingLinks && *weighting != ranking.WeightingBinary {
		return usageError{fmt.Sprintf("rank: unknown weighting %q (want links or binary)", *weighting)}
	}
	switch {
	case *edges != "" && *dir != "":
		return usageError{"rank: give --project DIR or --edges FILE, not both"}
	case *edges != "" && *biased:
		return usageError{"rank: --biased needs the ratings of --project DIR"}
	case *edges != "":
		rows, err := ranking.RankEdgeFile(ctx, *edges, ranking.EdgeRankOptions{Weighting: *weighting, NoOPIC: *noOPIC, Limit: *limit,
			Strict: *strict, OnRead: func(s edgelist.Summary) { fmt.Fprint(c.Stderr, s.Report(*edges)) }})
		if err != nil {
			return err
		}
		return writeRankBuffered(c.Stdout, rows, *format, *raw)
	case *noOPIC:
		return usageError{"rank: --no-opic goes with --edges FILE"}
	case *strict:
		return usageError{"rank: --strict goes with --edges FILE"}
	case *biased && *weighting != ranking.WeightingLinks:
		return usageError{"rank: --biased goes with --weighting links"}
	case *biased:
		return c.readProject(*dir, func(a *app.App) error {
			rows, err := a.Ranking.RankBiased(ctx, *limit, *bias)
			if err != nil {
				return err
			}
			return exports.WriteBiasedRank(c.Stdout, rows, *format)
		})
	}
	return c.readProject(*dir, func(a *app.App) error {
		rows, err := a.Ranking.RankWeighted(ctx, *limit, *weighting, *includePlatforms)
		if err != nil {
			return err
		}
		if !*includePlatforms {
			if err := c.platformsLeftOut(ctx, a, "rank"); err != nil {
				return err
			}
		}
		if err := c.rankBasis(ctx, a); err != nil {
			return err
		}
		return exports.WriteRank(c.Stdout, rows, *format, *raw)
	})
}

// rankBasis says on standard error what the ranking rests on when it
// cannot separate the sites, and what would help.
func (c CLI) rankBasis(ctx context.Context, a *app.App) error {
	b, err := a.Ranking.Basis(ctx)
	if err != nil || !b.Thin {
		return err
	}
	fmt.Fprintf(c.Stderr, "sitesift: rank: this crawl is too small to separate the sites. %s\n", b.Summary)
	for _, s := range b.Advice {
		fmt.Fprintf(c.Stderr, "  - %s\n", s)
	}
	return nil
}

// checkFormat rejects a --format value that is not among those allowed.
func checkFormat(cmd, format string, allowed ...string) error {
	if _, err := export.Check(format, "", allowed...); err != nil {
		return usageError{cmd + ": " + err.Error()}
	}
	return nil
}

// check opens a project (which mends what a killed process left in the
// store and the index), then reports its consistency; a problem left is an
// error (exit status 1). A ranking an import left unfinished is one: check
// reports it and leaves it to the next command that opens the project,
// which computes it, rather than take the time of a ranking itself.
func (c CLI) check(ctx context.Context, args []string) error {
	f := c.newFlags("check")
	dir := f.project
	if _, err := f.parse(args); err != nil {
		return err
	}
	return c.held(*dir, false, false, func(a *app.App, _ *project.Project) error {
		r, err := a.Check(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.Stdout, "mended at open: %d pages indexed, %d crawls marked interrupted\n",
			r.Repairs.Indexed, r.Repairs.Interrupted)
		fmt.Fprintf(c.Stdout, "store: %d pages, %d searchable, %d not indexed; %d crawls running\n",
			r.Pages, r.Searchable, r.Unindexed, r.RunningCrawls)
		fmt.Fprintf(c.Stdout, "index: %d pages\n", r.Indexed)
		fmt.Fprintf(c.Stdout, "opic: the sites' cash sums to %.12g\n", r.OPICCash)
		if len(r.Problems) > 0 {
			return fmt.Errorf("check: %s", strings.Join(r.Problems, "; "))
		}
		fmt.Fprintln(c.Stdout, "ok")
		return nil
	})
}

// sites lists sites with their crawl status, or reports on one.
func (c CLI) sites(ctx context.Context, args []string) error {
	f := c.newFlags("sites")
	dir := f.project
	status := f.String("status", "", "only the sites of this crawl status: ok, dead, robots-closed, errors-only, slow or not-fetched")
	limit := f.Int("limit", 0, "show the first N sites by importance (0: all)")
	format := f.String("format", export.Table, "table, csv or json")
	platforms := f.String("platforms", "", "only: the platform sites alone; none: without them (default: all sites)")
	rest, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := checkFormat("sites", *format, export.Table, export.CSV, export.JSON); err != nil {
		return err
	}
	if len(rest) > 1 {
		return usageError{"sites: give at most one SITE"}
	}
	return c.readProject(*dir, func(a *app.App) error {
		if len(rest) == 1 {
			d, err := a.Review.Site(ctx, strings.ToLower(rest[0]), "")
			if err != nil {
				return err
			}
			return exports.WriteSiteReport(c.Stdout, d, *format)
		}
		list, err := a.Review.Sites(ctx, review.SiteQuery{Sort: "opic", Desc: true, Status: *status, Limit: max(*limit, 0),
			Platforms: *platforms})
		if err != nil {
			return err
		}
		return exports.WriteSites(c.Stdout, list.Rows, *format)
	})
}

func (c CLI) search(ctx context.Context, args []string) error {
	f := c.newFlags("search")
	dir := f.project
	site := f.String("site", "", "search within one site")
	limit := f.Int("limit", 20, "number of results")
	anyWord := f.Bool("any", false, "find pages with any of the words (default: pages with all of them)")
	rest, err := f.parse(args)
	if err != nil {
		return err
	}
	q := strings.TrimSpace(strings.Join(rest, " "))
	if q == "" {
		return usageError{"search: no query"}
	}
	return c.readProject(*dir, func(a *app.App) error {
		res, err := a.Review.Search(ctx, review.Query{Text: q, Site: *site, Limit: *limit, Any: *anyWord})
		if err != nil {
			return err
		}
		if len(res.Ignored) > 0 {
			fmt.Fprintf(c.Stderr, "search: left out as too common to search for: %s\n", strings.Join(res.Ignored, " "))
		}
		for _, h := range res.Hits {
			fmt.Fprintf(c.Stdout, "%d\t%s\t%s\n", h.Relevance, h.URL, h.Title)
		}
		return nil
	})
}
