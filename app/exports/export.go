package exports

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"sitesift/app/export"
	"sitesift/app/fault"
	"sitesift/app/project"

	"sitesift/sites/store"
)

// Seed is one site of an exported seed list.
type Seed struct {
	// SeedURL is the site's home page where the crawl saw it answer,
	// otherwise its shallowest page that answered (see
	// [project.Project.SeedURLs]), or, for a site no fetch answered (an
	// imported graph's), http://SITE/.
	SeedURL  string  `json:"seed_url"`
	Site     string  `json:"site"`
	OPIC     float64 `json:"opic"`
	PageRank float64 `json:"pagerank"`
	Pages    int     `json:"pages"`
	// Checked is true when a fetch of the crawl answered SeedURL (2xx, or a
	// redirect to a page of the site that answered 2xx),
	// false for a home page no crawl saw.
	Checked bool `json:"checked"`
	// Graph names the site graph the importance comes from (see
	// [ranking.LinkGraph]).
	Graph string `json:"graph"`
}

// Seeds returns the top count sites by OPIC importance as seeds. The sites
// whose crawl gave nothing worth archiving (dead, closed to robots, errors
// only: sites.Failed) are left out unless includeFailed.
//
// Platform sites are left out too.
func (s *Service) Seeds(ctx context.Context, count int, includeFailed bool) ([]Seed, error) {
	seeds, _, err := s.TopSeeds(ctx, count, includeFailed, true, false)
	return seeds, err
}

// TopSeeds returns the top count sites by OPIC importance as seeds,
// leaving out the sites librarians rejected unless includeRejected, and
// those whose crawl failed unless includeFailed: a top-K list should not
// bring back a site the librarians turned down, and the platform sites
// unless includePlatforms. It also returns how many sites ranked above the
// last seed it left out, by reason (see [exportFilter]).
func (s *Service) TopSeeds(ctx context.Context, count int, includeFailed, includeRejected, includePlatforms bool) ([]Seed, []LeftOut, error) {
	if count <= 0 {
		return nil, nil, fault.Invalid(fmt.Errorf("seeds: count %d must be positive", count))
	}
	if err := s.ranking.RequireImportance(ctx, "seeds"); err != nil {
		return nil, nil, err
	}
	// Read a few more sites than asked for, and more again while the
	// filter leaves too many out.
	for limit := 2*count + 16; ; limit *= 4 {
		f, err := s.newExportFilter(ctx, includeFailed, includeRejected, includePlatforms)
		if err != nil {
			return nil, nil, err
		}
		rows, err := s.ranking.AllSites(ctx, limit)
		if err != nil {
			return nil, nil, err
		}
		var kept []store.SiteRow
		for _, r := range rows {
			if len(kept) == count {
				break
			}
			if f.keep(r.Site, r.CrawlStatus) {
				kept = append(kept, r)
			}
		}
		if len(kept) < count && len(rows) == limit {
			continue
		}
		seeds, err := s.seedsOf(ctx, kept)
		return seeds, f.leftOut(), err
	}
}

// seedsOf returns the sites of rows as seeds, in order.
func (s *Service) seedsOf(ctx context.Context, rows []store.SiteRow) ([]Seed, error) {
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.Site
	}
	fetched, err := s.project.SeedURLs(ctx, names)
	if err != nil {
		return nil, err
	}
	graph, err := s.ranking.LinkGraph(ctx)
	if err != nil {
		return nil, err
	}
	seeds := make([]Seed, len(rows))
	for i, r := range rows {
		u, checked := project.SeedOf(fetched, r.Site)
		seeds[i] = Seed{SeedURL: u, Site: r.Site, OPIC: r.OPIC, PageRank: r.PageRank, Pages: r.Pages, Checked: checked,
			Graph: graph.Label}
	}
	return seeds, nil
}

// The deliverables of the Export page, `sitesift export --what` and
// GET /api/export/{what}: each is written by [Service.Export] through the
// writers of write.go, under the file name [Service.ExportName] gives it, so a
// file has one name and the same bytes wherever it comes from.
const (
	// ExportApproved is the approved selection: a seed list (txt), or the
	// sites with who nominated and approved them, when (CSV, JSON).
	ExportApproved = "approved"
	// ExportTopK is the K most important sites by OPIC, leaving out the
	// sites librarians rejected and those whose crawl failed unless asked.
	ExportTopK = "top-k"
	// ExportCommunities is a seed list from the communities (bipartite
	// cores) of the current extraction of the Communities page.
	ExportCommunities = "communities"
	// ExportRatings is the ratings file librarian,site,rating,note that
	// `sitesift ratings import` reads back.
	ExportRatings = "ratings"
	// ExportSites is the table of every site with all its measures, crawl
	// status, selection status and every librarian's rating.
	ExportSites = "sites"
	// ExportHeritrix is a Heritrix PreloadedUriPrecedencePolicy file from
	// the OPIC ranking.
	ExportHeritrix = "heritrix-precedence"
	// ExportBrowsertrix is a browsertrix-crawler configuration (YAML) of
	// the approved selection (see [WriteBrowsertrixConfig]).
	ExportBrowsertrix = "browsertrix"
	// ExportHeritrixSeeds is a Heritrix seeds file of the approved
	// selection (see [WriteHeritrixSeeds]).
	ExportHeritrixSeeds = "heritrix-seeds"
	// ExportWARCList lists the project's WARC files (each downloads on its
	// own).
	ExportWARCList = "warc-list"
)

// Options of a deliverable, named as GET /api/export/{what} takes them (the
// command line's flags are the same words with hyphens: --include-failed).
const (
	// OptCount is K of the top-K list.
	OptCount = "count"
	// OptIncludeFailed keeps the sites whose crawl failed.
	OptIncludeFailed = "include_failed"
	// OptIncludeRejected keeps the sites librarians rejected.
	OptIncludeRejected = "include_rejected"
	// OptIncludePlatforms keeps the platform sites.
	OptIncludePlatforms = "include_platforms"
	// OptBuckets is the number of Heritrix precedence values.
	OptBuckets = "buckets"
)

// Options are every option of a deliverable (see [Deliverable.Options]).
var Options = []string{OptCount, OptIncludeFailed, OptIncludeRejected, OptIncludePlatforms, OptBuckets}

// Deliverable describes one export: what it is called, what it is for and
// the formats it comes in, the first the default.
type Deliverable struct {
	What    string   `json:"what"`
	Title   string   `json:"title"`
	Purpose string   `json:"purpose"`
	Formats []string `json:"formats"`
	// BOM is whether its CSV file starts with a UTF-8 byte-order mark
	// unless asked otherwise (see [ExportRequest.BOM]): true for the
	// tables meant for a spreadsheet, the ratings file and the sites
	// table; false for the seed lists, which scripts and crawlers read.
	BOM bool `json:"bom"`
	// Options are the options it takes, of [Options]: a request naming
	// another is refused, by the command line and the API alike.
	Options []string `json:"options"`
	// Approved says it draws from the approved selection (what two
	// librarians approved), not from the whole ranking or graph.
	Approved bool `json:"approved"`
	// ranked says it lists or orders sites by their importance, which must
	// be fresh.
	ranked bool
	// write writes it (see [Service.ExportWritten]).
	write writer
}

// writer writes a deliverable r asks for, checked and with its defaults,
// to w.
type writer func(s *Service, ctx context.Context, w io.Writer, r ExportRequest) (Written, error)

// Takes reports whether d takes the option opt.
func (d Deliverable) Takes(opt string) bool { return slices.Contains(d.Options, opt) }

// CheckOptions checks that the deliverable what takes each option given
// (named as in [Options]): one it does not take is an error
// (fault.KindInvalid) naming the deliverables that take it. The command
// line and the API check a request's options here.
func CheckOptions(what string, given []string) error {
	d, err := DeliverableOf(what)
	if err != nil {
		return err
	}
	for _, o := range given {
		if !d.Takes(o) {
			return fault.Invalid(fmt.Errorf("export %s: %s goes with %s", what, o, strings.Join(Taking(o), ", ")))
		}
	}
	return nil
}

// Taking returns the deliverables that take the option opt, by name.
func Taking(opt string) []string {
	var out []string
	for _, d := range Deliverables {
		if d.Takes(opt) {
			out = append(out, d.What)
		}
	}
	return out
}

// Deliverables are the exports, in the order the Export page shows them.
var Deliverables = []Deliverable{
	{ExportApproved, "Approved selection", "The sites two librarians approved, as seeds for the archiving crawler (txt), or with who nominated and approved them and when (CSV, JSON).",
		[]string{export.Txt, export.CSV, export.JSON}, false, []string{OptIncludeFailed, OptIncludePlatforms}, true, true, writeApproved},
	{ExportTopK, "Top sites by importance", "The K most important sites by OPIC as seeds, without the sites librarians rejected or whose crawl failed: a starting list before review.",
		[]string{export.Txt, export.CSV, export.JSON}, false, []string{OptCount, OptIncludeFailed, OptIncludeRejected, OptIncludePlatforms}, false, true, writeTopK},
	{ExportCommunities, "Community seeds", "One hub of each community (bipartite core) of the Communities page's current extraction, as seeds that cover the topic's link neighbourhoods.",
		[]string{export.Txt, export.CSV, export.JSON}, false, []string{OptIncludePlatforms}, false, false, writeCommunitySeeds},
	{ExportRatings, "Ratings file", "Every librarian's ratings and notes (librarian,site,rating,note): merge the work of another laptop with Import ratings or sitesift ratings import.",
		[]string{export.CSV}, true, []string{}, false, false, writeRatings},
	{ExportSites, "Sites table", "Every site with its measures (OPIC, PageRank, in-linking sites, HITS hub and authority), crawl status, pages, selection status and each librarian's rating, for a spreadsheet.",
		[]string{export.CSV, export.JSON}, true, []string{}, false, true, writeSitesTable},
	{ExportHeritrix, "Heritrix precedence", "URI precedence values (1 first) from the OPIC ranking, for Heritrix's PreloadedUriPrecedencePolicy. Heritrix keys precedence per URI: each line gives a site's seed URL (the one the seed lists give) its site's value; the site's other URLs get the crawl's default precedence.",
		[]string{export.Txt}, false, []string{OptBuckets, OptIncludeFailed, OptIncludeRejected, OptIncludePlatforms}, false, true, writeHeritrixPrecedence},
	{ExportBrowsertrix, "Browsertrix crawl configuration", "The approved sites as a browsertrix-crawler configuration (--config): each seed crawled within its site, the last crawl's exclusions as JavaScript expressions, the project's user agent and contact appended to the browser's.",
		[]string{export.YAML}, false, []string{}, true, true, writeBrowsertrix},
	{ExportHeritrixSeeds, "Heritrix seeds", "The approved sites' seed URLs by importance, one a line, as Heritrix's seeds.txt (TextSeedModule); the Heritrix precedence file gives the same URLs their precedence.",
		[]string{export.Txt}, false, []string{}, true, true, writeHeritrixSeedsFile},
}

// DeliverableOf returns the deliverable what, or an error (fault.KindInvalid)
// listing them.
func DeliverableOf(what string) (Deliverable, error) {
	for _, d := range Deliverables {
		if d.What == what {
			return d, nil
		}
	}
	names := make([]string, len(Deliverables))
	for i, d := range Deliverables {
		names[i] = d.What
	}
	return Deliverable{}, fault.Invalid(fmt.Errorf("export: unknown deliverable %q (want %s, or %s)", what, strings.Join(names, ", "), ExportWARCList))
}

// ExportRequest asks for one deliverable.
type ExportRequest struct {
	What string
	// Format is one of the deliverable's formats; "" is its first.
	Format string
	// Count is K of ExportTopK (default DefaultTopK) and the number of
	// communities of ExportCommunities when no extraction was made yet.
	Count int
	// IncludeFailed keeps the sites whose crawl failed in ExportTopK;
	// IncludeRejected keeps those librarians rejected; IncludePlatforms
	// keeps the platform sites in the seed lists, the Heritrix precedence
	// file and the community seeds.
	IncludeFailed    bool
	IncludeRejected  bool
	IncludePlatforms bool
	// Buckets is the number of precedence values of ExportHeritrix
	// (default DefaultPrecedenceBuckets).
	Buckets int
	// BOM, when set, says whether a CSV file starts with a UTF-8
	// byte-order mark; nil is the deliverable's default (its
	// [Deliverable.BOM]). Excel on Windows reads a CSV file without one in
	// the local code page ("café" comes out as "cafÃ©"); with one it reads
	// UTF-8. It goes with the CSV format only.
	BOM *bool
}

// DefaultTopK is K of a top-K export when none is given.
const DefaultTopK = 100

// check fills the defaults of r and checks it.
func (r ExportRequest) check() (ExportRequest, Deliverable, error) {
	d, err := DeliverableOf(r.What)
	if err != nil {
		return r, d, err
	}
	if r.Format == "" {
		r.Format = d.Formats[0]
	}
	if !slices.Contains(d.Formats, r.Format) {
		return r, d, fault.Invalid(fmt.Errorf("export %s: format %q (want %s)", r.What, r.Format, strings.Join(d.Formats, ", ")))
	}
	if r.Count < 0 {
		return r, d, fault.Invalid(fmt.Errorf("export %s: count %d must be positive", r.What, r.Count))
	}
	if r.Count == 0 {
		r.Count = DefaultTopK
	}
	if r.Buckets < 0 {
		return r, d, fault.Invalid(fmt.Errorf("export %s: %d buckets; want at least 1", r.What, r.Buckets))
	}
	if r.Buckets == 0 {
		r.Buckets = DefaultPrecedenceBuckets
	}
	if r.BOM != nil && r.Format != export.CSV {
		return r, d, fault.Invalid(fmt.Errorf("export %s: a byte-order mark goes with CSV files, not %s", r.What, r.Format))
	}
	return r, d, nil
}

// ExportName returns the file name of a deliverable: the project's name,
// the deliverable's and its format's ("PROJECT-approved.txt",
// "PROJECT-top-100.csv"), so that files of several projects and exports
// never overwrite one another in a Downloads folder.
func (s *Service) ExportName(r ExportRequest) (string, error) {
	r, _, err := r.check()
	if err != nil {
		return "", err
	}
	what := r.What
	if what == ExportTopK {
		what = fmt.Sprintf("top-%d", r.Count)
	}
	return s.project.Name() + "-" + what + "." + r.Format, nil
}

// Export writes the deliverable r asks for to w, complete or not at all:
// callers write it to a buffer or a temporary file first.
func (s *Service) Export(ctx context.Context, w io.Writer, r ExportRequest) error {
	_, err := s.ExportCounted(ctx, w, r)
	return err
}

// Written is what a deliverable holds beside its bytes, for the command
// line and the Export page to say.
type Written struct {
	// LeftOut counts the sites the deliverable left out, by reason.
	LeftOut []LeftOut `json:"left_out"`
	// Empty, when the deliverable holds no site (no row, no seed, no
	// line), says so in its own words ("nothing approved yet: …"); "" when
	// it holds some. An empty deliverable is still written, its header
	// alone: a CSV file's header row, an empty JSON array, an empty txt
	// file, a crawler file's comments.
	Empty string `json:"empty"`
	// Differs, for the community seeds, says how the current extraction
	// differs from the saved collections (see [Service.CollectionDiffers]);
	// "" when it does not, and for the other deliverables.
	Differs string `json:"differs"`
}

// nothingApproved is the Empty of the deliverables of the approved
// selection that holds n sites once left out what left counts.
func nothingApproved(n int, left []LeftOut) string {
	switch {
	case n > 0:
		return ""
	case len(left) > 0:
		return "no approved site is worth crawling: it " + LeftOutText(left)
	}
	return "nothing approved yet: approve sites on the Selection page (or sitesift selection set) first"
}

// NoTopSeeds is the Empty of a list of n most important sites, with left
// the sites left out of it.
func NoTopSeeds(n int, left []LeftOut) string {
	return emptyIf(n, "no site to list: "+cmp.Or(LeftOutText(left), "the project has none"))
}

// NoCommunities is the Empty of n communities' seeds.
func NoCommunities(n int) string {
	return emptyIf(n, "no community found in the site graph: try other settings on the Communities page (or sitesift seeds's --density, --core-size and --min-hubs)")
}

// NoSelection is the Empty of a list of the n sites of a status.
func NoSelection(n int, status string) string {
	return emptyIf(n, "no site is "+status+" yet")
}

// emptyIf returns empty when n is 0, "" otherwise.
func emptyIf(n int, empty string) string {
	if n == 0 {
		return empty
	}
	return ""
}

// ExportCounted is [Service.ExportWritten] that returns only the sites
// left out.
func (s *Service) ExportCounted(ctx context.Context, w io.Writer, r ExportRequest) ([]LeftOut, error) {
	wr, err := s.ExportWritten(ctx, w, r)
	return wr.LeftOut, err
}

// ExportWritten is [Service.Export] that also returns how many sites the
// deliverable left out and why (see [LeftOut]): the seed lists (approved,
// top-K) and the Heritrix precedence file leave out the sites whose crawl
// gave nothing worth archiving unless r.IncludeFailed, and top-K and
// Heritrix those librarians rejected unless r.IncludeRejected; the seed
// lists, the community seeds and Heritrix leave out the platform sites
// unless r.IncludePlatforms. The list is empty for the other deliverables.
func (s *Service) ExportWritten(ctx context.Context, w io.Writer, r ExportRequest) (Written, error) {
	r, d, err := r.check()
	if err != nil {
		return Written{}, err
	}
	if r.Format == export.CSV && (r.BOM == nil && d.BOM || r.BOM != nil && *r.BOM) {
		if _, err := io.WriteString(w, export.BOM); err != nil {
			return Written{}, err
		}
	}
	if d.ranked {
		if err := s.ranking.RequireImportance(ctx, "export "+r.What); err != nil {
			return Written{}, err
		}
	}
	return d.write(s, ctx, w, r)
}

// noSite is the Empty of a deliverable of every site, of a project that
// has none.
const noSite = "no site in this project: crawl or import first"

// The writers of the deliverables, as the export table declares them.

func writeApproved(s *Service, ctx context.Context, w io.Writer, r ExportRequest) (Written, error) {
	seeds, left, err := s.approvedSeeds(ctx, r.IncludeFailed, r.IncludePlatforms)
	if err != nil {
		return Written{}, err
	}
	return Written{LeftOut: left, Empty: nothingApproved(len(seeds), left)}, WriteSelection(w, seeds, r.Format)
}

func writeTopK(s *Service, ctx context.Context, w io.Writer, r ExportRequest) (Written, error) {
	seeds, left, err := s.TopSeeds(ctx, r.Count, r.IncludeFailed, r.IncludeRejected, r.IncludePlatforms)
	if err != nil {
		return Written{}, err
	}
	return Written{LeftOut: left, Empty: NoTopSeeds(len(seeds), left)}, WriteSeeds(w, seeds, r.Format)
}

func writeCommunitySeeds(s *Service, ctx context.Context, w io.Writer, r ExportRequest) (Written, error) {
	wr, err := s.ExportCommunitySeeds(ctx, w, CommunitySeedsRequest{Current: true, IncludePlatforms: r.IncludePlatforms, Format: r.Format})
	return wr.Written, err
}

func writeRatings(s *Service, ctx context.Context, w io.Writer, _ ExportRequest) (Written, error) {
	n, err := s.review.ExportRatingsCSVCounted(ctx, w)
	return Written{LeftOut: []LeftOut{}, Empty: emptyIf(n, "no rating or note yet")}, err
}

func writeSitesTable(s *Service, ctx context.Context, w io.Writer, r ExportRequest) (Written, error) {
	t, err := s.Ratings(ctx)
	if err != nil {
		return Written{}, err
	}
	wr := Written{LeftOut: []LeftOut{}, Empty: emptyIf(len(t.Rows), noSite)}
	if r.Format == export.JSON {
		return wr, WriteSitesTableJSON(w, t)
	}
	return wr, WriteRatingsCSV(w, t)
}

func writeHeritrixPrecedence(s *Service, ctx context.Context, w io.Writer, r ExportRequest) (Written, error) {
	ps, left, err := s.HeritrixPrecedence(ctx, r.Buckets, r.IncludeFailed, r.IncludeRejected, r.IncludePlatforms)
	if err != nil {
		return Written{}, err
	}
	return Written{LeftOut: left, Empty: emptyIf(len(ps), "no site to give a precedence: "+cmp.Or(LeftOutText(left), "the project has none"))},
		WriteHeritrixPrecedence(w, ps)
}

func writeBrowsertrix(s *Service, ctx context.Context, w io.Writer, _ ExportRequest) (Written, error) {
	e, err := s.CrawlerExport(ctx)
	if err != nil {
		return Written{}, err
	}
	return Written{LeftOut: e.LeftOut, Empty: e.Empty}, WriteBrowsertrixConfig(w, e)
}

func writeHeritrixSeedsFile(s *Service, ctx context.Context, w io.Writer, _ ExportRequest) (Written, error) {
	e, err := s.CrawlerExport(ctx)
	if err != nil {
		return Written{}, err
	}
	return Written{LeftOut: e.LeftOut, Empty: e.Empty}, WriteHeritrixSeeds(w, e)
}
