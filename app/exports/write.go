package exports

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"sitesift/app/communities"
	"sitesift/app/export"
	"sitesift/app/ranking"
	"sitesift/app/review"
	"sitesift/sites/store"
)

// The files and listings the service hands over (seed lists, rankings, the
// review queue, selections, ratings, agreement), each in the formats it is
// offered in: txt, CSV (through export.NewCSVWriter), JSON and an aligned
// table. The command line and the HTTP API write through these alone, so a
// deliverable is the same bytes from either.

// WriteSeeds writes seeds as txt (one URL a line), CSV (seed_url, site,
// opic, pagerank, pages, checked: true or false) or JSON.
func WriteSeeds(w io.Writer, seeds []Seed, format string) error {
	switch format {
	case export.Txt:
		for _, s := range seeds {
			if _, err := fmt.Fprintln(w, s.SeedURL); err != nil {
				return err
			}
		}
		return nil
	case export.CSV:
		cw := export.NewCSVWriter(w)
		cw.Write([]string{"seed_url", "site", "opic", "pagerank", "pages", "checked", "graph"})
		for _, s := range seeds {
			cw.Write([]string{s.SeedURL, s.Site, export.Ftoa(s.OPIC), export.Ftoa(s.PageRank), strconv.Itoa(s.Pages),
				strconv.FormatBool(s.Checked), s.Graph})
		}
		cw.Flush()
		return cw.Error()
	case export.JSON:
		if seeds == nil {
			seeds = []Seed{}
		}
		return export.WriteJSON(w, seeds)
	}
	return &export.ErrFormat{Format: format, Want: []string{export.Txt, export.CSV, export.JSON}}
}

// WriteRank writes the ranking as an aligned table, CSV
// (site,opic,pagerank,in_sites,out_sites,pages,opic_rank,opic_score,
// pagerank_rank,pagerank_score,graph,opic_ties) or JSON. The table shows each site's rank
// and 0–100 score by OPIC and by PageRank (see [ranking.Ranking]), a rank shared
// with other sites marked "=", and, when raw, the
// shares of 1 they come from; CSV and JSON always carry both. Each says
// which site graph the numbers come from: the table in a line above its
// header, CSV and JSON in the graph of every row.
func WriteRank(w io.Writer, rows []ranking.RankRow, format string, raw bool) error {
	switch format {
	case export.Table:
		if len(rows) > 0 && rows[0].Graph != "" {
			fmt.Fprintf(w, "importance from the site graph of %s\n", rows[0].Graph)
		}
		fmt.Fprintf(w, "%6s %5s  %-40s %7s %8s %8s %9s %6s", "rank", "score", "site", "pr_rank", "pr_score", "in_sites", "out_sites", "pages")
		if raw {
			fmt.Fprintf(w, " %12s %12s", "opic", "pagerank")
		}
		fmt.Fprintln(w)
		for _, r := range rows {
			rank := strconv.Itoa(r.OPICRank)
			if r.OPICTies > 0 {
				rank += "=" // shared with other sites
			}
			fmt.Fprintf(w, "%6s %5d  %-40s %7d %8d %8d %9d %6d", rank, r.OPICScore, r.Site, r.PageRankRank, r.PageRankScore, r.InSites, r.OutSites, r.Pages)
			if raw {
				fmt.Fprintf(w, " %12.6g %12.6g", r.OPIC, r.PageRank)
			}
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		return nil
	case export.CSV:
		return writeRankCSV(w, rows)
	case export.JSON:
		if rows == nil {
			rows = []ranking.RankRow{}
		}
		return export.WriteJSON(w, rows)
	}
	return &export.ErrFormat{Format: format, Want: []string{export.Table, export.CSV, export.JSON}}
}

// csvField is s as one field of a CSV line, quoted when it must be.
func csvField(s string) string {
	var b strings.Builder
	cw := export.NewCSVWriter(&b)
	cw.Write([]string{s})
	cw.Flush()
	return strings.TrimSuffix(b.String(), "\n")
}

// writeRankCSV writes rows as CSV (the columns of [WriteRank]), as
// csvWriter would, but formats each line into one buffer: a ranking of an
// imported graph has hundreds of thousands of lines, and csv.Writer's
// per-field work was a tenth of `rank --edges`. Only the site can need
// quoting or neutralising; a line whose site might goes through csvWriter.
func writeRankCSV(w io.Writer, rows []ranking.RankRow) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	cw := export.NewCSVWriter(bw)
	cw.Write([]string{"site", "opic", "pagerank", "in_sites", "out_sites", "pages", "opic_rank", "opic_score", "pagerank_rank", "pagerank_score", "graph", "opic_ties"})
	cw.Flush()
	var line []byte
	// The graph is one of a few names, the same on every row: quoted once.
	graphCell := map[string][]byte{}
	for _, r := range rows {
		if !export.PlainField(r.Site) {
			cw.Write([]string{r.Site, export.Ftoa(r.OPIC), export.Ftoa(r.PageRank), strconv.Itoa(r.InSites), strconv.Itoa(r.OutSites), strconv.Itoa(r.Pages),
				strconv.Itoa(r.OPICRank), strconv.Itoa(r.OPICScore), strconv.Itoa(r.PageRankRank), strconv.Itoa(r.PageRankScore), r.Graph, strconv.Itoa(r.OPICTies)})
			cw.Flush()
			continue
		}
		line = append(line[:0], r.Site...)
		line = append(line, ',')
		line = strconv.AppendFloat(line, r.OPIC, 'g', -1, 64)
		line = append(line, ',')
		line = strconv.AppendFloat(line, r.PageRank, 'g', -1, 64)
		for _, n := range [...]int{r.InSites, r.OutSites, r.Pages, r.OPICRank, r.OPICScore, r.PageRankRank, r.PageRankScore} {
			line = append(line, ',')
			line = strconv.AppendInt(line, int64(n), 10)
		}
		cell, ok := graphCell[r.Graph]
		if !ok {
			cell = []byte(csvField(r.Graph))
			graphCell[r.Graph] = cell
		}
		line = append(line, ',')
		line = append(line, cell...)
		line = append(line, ',')
		line = strconv.AppendInt(line, int64(r.OPICTies), 10)
		line = append(line, '\n')
		bw.Write(line)
	}
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteBiasedRank writes the biased ranking as a table, CSV
// (site,biased_pagerank,pagerank,opic,mean_rating,favoured; mean_rating
// empty for an unrated site) or JSON.
func WriteBiasedRank(w io.Writer, rows []ranking.BiasedRankRow, format string) error {
	mean := func(r ranking.BiasedRankRow, empty string) string {
		if r.MeanRating == nil {
			return empty
		}
		return strconv.FormatFloat(*r.MeanRating, 'f', 2, 64)
	}
	switch format {
	case export.Table:
		fmt.Fprintf(w, "%4s  %-40s %12s %10s %10s %5s %s\n", "#", "site", "biased_pr", "pagerank", "opic", "mean", "favoured")
		for i, r := range rows {
			fav := ""
			if r.Favoured {
				fav = "yes"
			}
			if _, err := fmt.Fprintf(w, "%4d  %-40s %12.6f %10.6f %10.6f %5s %s\n", i+1, r.Site, r.Biased, r.PageRank, r.OPIC, mean(r, "-"), fav); err != nil {
				return err
			}
		}
		return nil
	case export.CSV:
		cw := export.NewCSVWriter(w)
		cw.Write([]string{"site", "biased_pagerank", "pagerank", "opic", "mean_rating", "favoured"})
		for _, r := range rows {
			cw.Write([]string{r.Site, export.Ftoa(r.Biased), export.Ftoa(r.PageRank), export.Ftoa(r.OPIC), mean(r, ""), strconv.FormatBool(r.Favoured)})
		}
		cw.Flush()
		return cw.Error()
	case export.JSON:
		if rows == nil {
			rows = []ranking.BiasedRankRow{}
		}
		return export.WriteJSON(w, rows)
	}
	return &export.ErrFormat{Format: format, Want: []string{export.Table, export.CSV, export.JSON}}
}

// WriteQueue writes a review queue as a table, CSV
// (site,status,opic,pagerank,pages,in_sites,out_sites) or JSON.
func WriteQueue(w io.Writer, q review.ReviewQueue, format string) error {
	switch format {
	case export.JSON:
		return export.WriteJSON(w, q)
	case export.CSV:
		cw := export.NewCSVWriter(w)
		cw.Write([]string{"site", "status", "opic", "pagerank", "pages", "in_sites", "out_sites"})
		for _, r := range q.Rows {
			cw.Write([]string{r.Site, r.Status, export.Ftoa(r.OPIC), export.Ftoa(r.PageRank), strconv.Itoa(r.Pages),
				strconv.Itoa(r.InSites), strconv.Itoa(r.OutSites)})
		}
		cw.Flush()
		return cw.Error()
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tsite\tstatus\topic\tpagerank\tpages\tin_sites\tout_sites\t")
	for i, r := range q.Rows {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.6f\t%.6f\t%d\t%d\t%d\t\n", i+1, r.Site, r.Status, r.OPIC, r.PageRank, r.Pages, r.InSites, r.OutSites)
	}
	fmt.Fprintf(tw, "\n%d of %d sites %s has not rated, by %s\n", len(q.Rows), q.Total, q.Librarian, q.Order)
	if q.Excluded > 0 {
		fmt.Fprintf(tw, "%d sites left out: dead, closed to robots or errors only (--include-failed keeps them)\n", q.Excluded)
	}
	if q.Platforms > 0 {
		fmt.Fprintf(tw, "%d platform sites left out: social networks, video sites, shorteners, CDNs, ad hosts (--include-platforms keeps them)\n", q.Platforms)
	}
	return tw.Flush()
}

// SelectionName is the file name of the sites whose selection status is
// status ("" is approved) written in format (see [WriteSelection]):
// "PROJECT-nominated.csv", as [Service.ExportName] names the approved ones.
func (s *Service) SelectionName(status, format string) (string, error) {
	if status == "" {
		status = store.StatusApproved
	}
	name, err := s.ExportName(ExportRequest{What: ExportApproved, Format: format})
	if err != nil {
		return "", err
	}
	return s.project.Name() + "-" + status + path.Ext(name), nil
}

// WriteSelection writes selected sites as a seed list: txt (one seed URL a
// line, for a crawler), CSV (the columns SelectionColumns; times in RFC
// 3339, empty when there is none; a nominator not recorded, for a site
// approved before nominators were kept, as "(unknown)") or JSON (an array
// of review.SelectedSeed).
func WriteSelection(w io.Writer, seeds []review.SelectedSeed, format string) error {
	switch format {
	case export.Txt:
		return writeSeedLines(w, seeds, func(s review.SelectedSeed) string { return s.SeedURL })
	case export.CSV:
		at := func(t time.Time) string {
			if t.IsZero() {
				return ""
			}
			return t.UTC().Format(time.RFC3339)
		}
		cw := export.NewCSVWriter(w)
		cw.Write(SelectionColumns)
		for _, s := range seeds {
			nominator := s.NominatedBy
			if s.NominatorUnknown {
				nominator = UnknownLibrarian
			}
			cw.Write([]string{s.Site, s.SeedURL, s.Status, nominator, at(s.NominatedAt), s.ApprovedBy, at(s.ApprovedAt),
				s.RejectedBy, at(s.RejectedAt), s.RejectedReason, s.Note, s.Subject, export.Ftoa(s.OPIC), strconv.FormatBool(s.Checked),
				strconv.FormatBool(s.PageOnly)})
		}
		cw.Flush()
		return cw.Error()
	case export.JSON:
		return export.WriteJSON(w, export.List(seeds))
	}
	return &export.ErrFormat{Format: format, Want: []string{export.Txt, export.CSV, export.JSON}}
}

// UnknownLibrarian stands in a selection CSV for a nominator no one
// recorded: sites approved before sitesift kept nominators.
const UnknownLibrarian = "(unknown)"

// WriteCommunities writes the seeds of cs as txt (one seed URL a line, for
// Heritrix or Browsertrix), CSV (columns [CommunityCSVHeader]; hubs and
// authorities are counts) or JSON (an array of cores, each {"core",
// "seed", "hubs", "authorities", "cover_density"} with the member URLs).
func WriteCommunities(w io.Writer, cs []communities.Community, format string) error {
	switch format {
	case export.Txt:
		for _, c := range cs {
			if c.Seed == "" {
				continue // every hub site of the core gave an earlier one its seed
			}
			if _, err := fmt.Fprintln(w, c.Seed); err != nil {
				return err
			}
		}
		return nil
	case export.CSV:
		cw := export.NewCSVWriter(w)
		cw.Write(CommunityCSVHeader)
		for _, c := range cs {
			cw.Write([]string{c.Seed, c.Site, strconv.Itoa(c.Core), strconv.Itoa(len(c.Hubs)),
				strconv.Itoa(len(c.Authorities)), export.Ftoa(c.CoverDensity), export.Ftoa(c.HubScore)})
		}
		cw.Flush()
		return cw.Error()
	case export.JSON:
		out := make([]communityJSON, len(cs))
		for i, c := range cs {
			out[i] = communityJSON{Core: c.Core, Seed: c.Seed, Hubs: export.List(c.Hubs),
				Authorities: export.List(c.Authorities), CoverDensity: c.CoverDensity}
		}
		return export.WriteJSON(w, out)
	}
	return &export.ErrFormat{Format: format, Want: []string{export.Txt, export.CSV, export.JSON}}
}

// WriteHeritrixPrecedence writes a precedence file for Heritrix 3's
// PreloadedUriPrecedencePolicy: one line "URI precedence" per URI, a single
// space between, nothing else. Heritrix does not read the file during a
// crawl; its PrecedenceLoader utility
// (org.archive.crawler.frontier.precedence.PrecedenceLoader, heritrix3
// engine module) loads it into the crawl's uri-history BDB environment,
// where the policy finds the values. Its documentation gives the format as
// "lines of the form URI [whitespace] precedence" and the Heritrix wiki
// ("Assigning precedence based on external precalculation") as "URIs,
// followed by a space, followed by a precedence value"; the loader splits
// on each single whitespace character and parses the second field as an
// integer, so there is exactly one space and no header or comment line.
// Lower values are crawled first. Precedence is keyed per URI: a URI the
// file does not list gets the policy's default, so the file names each
// site by its seed URL (see [Service.HeritrixPrecedence]).
func WriteHeritrixPrecedence(w io.Writer, ps []Precedence) error {
	for _, p := range ps {
		if _, err := fmt.Fprintf(w, "%s %d\n", p.URI, p.Precedence); err != nil {
			return err
		}
	}
	return nil
}

// SitesTableColumns are the first columns of the sites table as CSV;
// one column per librarian follows, then mean_rating.
var SitesTableColumns = []string{"site", "crawl_status", "pages", "opic", "pagerank", "in_sites", "out_sites",

	"hub", "authority", "selection"}

// AgreementColumns is the header of the agreement CSV.
var AgreementColumns = []string{"rater", "kind", "sites", "score_pct", "score_loo_pct", "kappa_w", "spearman"}

// SelectionColumns is the header of a selection exported as CSV; checked
// is true when a fetch of the crawl answered seed_url 2xx.
var SelectionColumns = []string{"site", "seed_url", "status", "nominated_by", "nominated_at", "approved_by", "approved_at",

	"rejected_by", "rejected_at", "rejected_reason", "note", "subject", "opic", "checked", "page_only"}

// CommunityCSVHeader is the header of a seed list from communities in CSV.
var CommunityCSVHeader = []string{"seed_url", "site", "core", "hubs", "authorities", "cover_density", "hub_score"}

// communityJSON is one core of a seed list from communities in JSON.
type communityJSON struct {
	Core         int      `json:"core"`
	Seed         string   `json:"seed"`
	Hubs         []string `json:"hubs"`
	Authorities  []string `json:"authorities"`
	CoverDensity float64  `json:"cover_density"`
}

// SitesColumns is the header of the sites listing as CSV.
var SitesColumns = []string{"site", "crawl_status", "pages", "errors", "opic", "pagerank", "in_sites", "out_sites"}

// CollectionColumns is the header of a collection's seed list in CSV.
var CollectionColumns = []string{"community", "topic", "site", "seed_url", "hub_score", "added_by_hand"}

// WriteCollection writes the seed list of c (see [communities.CollectionSeeds]) as txt
// (one seed URL a line, for a crawler), CSV (the columns
// [CollectionColumns]; hub_score empty for a seed added by hand,
// added_by_hand true or false) or JSON (an array of [communities.ListedSeed]).
func WriteCollection(w io.Writer, c communities.Collection, format string) error {
	seeds := communities.CollectionSeeds(c)
	switch format {
	case export.Txt:
		return writeSeedLines(w, seeds, func(s communities.ListedSeed) string { return s.SeedURL })
	case export.CSV:
		cw := export.NewCSVWriter(w)
		cw.Write(CollectionColumns)
		for _, s := range seeds {
			score := ""
			if !s.AddedByHand {
				score = export.Ftoa(s.HubScore)
			}
			cw.Write([]string{s.Community, s.Topic, s.Site, s.SeedURL, score, strconv.FormatBool(s.AddedByHand)})
		}
		cw.Flush()
		return cw.Error()
	case export.JSON:
		return export.WriteJSON(w, seeds)
	}
	return &export.ErrFormat{Format: format, Want: []string{export.Txt, export.CSV, export.JSON}}
}

// writeSeedLines writes a txt seed list, one seed URL a line, the form a
// crawler reads, in one write.
func writeSeedLines[T any](w io.Writer, seeds []T, url func(T) string) error {
	var b strings.Builder
	for _, s := range seeds {
		b.WriteString(url(s) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
