package exports

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"sitesift/app/export"
	"sitesift/app/ranking"
	"sitesift/app/review"
	"sitesift/importance"
	"sitesift/sites"
)

// WriteRatingsCSV writes the sites table t as CSV: the columns
// SitesTableColumns, one column per librarian (their rating, empty where
// they have not rated the site), mean_rating (the mean of the ratings
// given, empty when there is none) and graph (the site graph the measures
// come from).
func WriteRatingsCSV(w io.Writer, t RatingsTable) error {
	cw := export.NewCSVWriter(w)
	header := append(slices.Clone(SitesTableColumns), t.Librarians...)
	cw.Write(append(header, "mean_rating", "graph"))
	for _, r := range t.Rows {
		rec := []string{r.Site, r.CrawlStatus, strconv.Itoa(r.Pages), export.Ftoa(r.OPIC), export.Ftoa(r.PageRank),
			strconv.Itoa(r.InSites), strconv.Itoa(r.OutSites), export.Ftoa(r.Hub), export.Ftoa(r.Authority), r.Selection}
		for _, v := range r.Ratings {
			cell := ""
			if v > 0 {
				cell = strconv.Itoa(v)
			}
			rec = append(rec, cell)
		}
		mean := ""
		if r.Mean > 0 {
			mean = export.Ftoa(r.Mean)
		}
		cw.Write(append(rec, mean, t.Graph))
	}
	cw.Flush()
	return cw.Error()
}

// sitesTableRow is one site of the sites table in JSON.
type sitesTableRow struct {
	Site        string  `json:"site"`
	CrawlStatus string  `json:"crawl_status"`
	Pages       int     `json:"pages"`
	OPIC        float64 `json:"opic"`
	PageRank    float64 `json:"pagerank"`
	InSites     int     `json:"in_sites"`
	OutSites    int     `json:"out_sites"`
	Hub         float64 `json:"hub"`
	Authority   float64 `json:"authority"`
	Selection   string  `json:"selection"`
	// Ratings maps each librarian who rated the site to their rating.
	Ratings    map[string]int `json:"ratings"`
	MeanRating *float64       `json:"mean_rating"`
	Graph      string         `json:"graph"`
}

// WriteSitesTableJSON writes the sites table t as a JSON array of
// objects, each with its ratings by librarian and mean_rating (null when
// no one rated the site).
func WriteSitesTableJSON(w io.Writer, t RatingsTable) error {
	out := make([]sitesTableRow, len(t.Rows))
	for i, r := range t.Rows {
		o := sitesTableRow{Site: r.Site, CrawlStatus: r.CrawlStatus, Pages: r.Pages, OPIC: r.OPIC, PageRank: r.PageRank,
			InSites: r.InSites, OutSites: r.OutSites, Hub: r.Hub, Authority: r.Authority, Selection: r.Selection,
			Ratings: map[string]int{}, Graph: t.Graph}
		for j, v := range r.Ratings {
			if v > 0 {
				o.Ratings[t.Librarians[j]] = v
			}
		}
		if r.Mean > 0 {
			o.MeanRating = &r.Mean
		}
		out[i] = o
	}
	return export.WriteJSON(w, out)
}

// WriteAgreement writes an agreement report as a table, CSV or JSON. The
// CSV has exactly the columns AgreementColumns, an undefined statistic as
// an empty cell; the table and JSON also say how many sites a single
// librarian rated (left out) and give the measures' thresholds.
func WriteAgreement(w io.Writer, ag review.Agreement, format string) error {
	switch format {
	case export.CSV:
		cw := export.NewCSVWriter(w)
		cw.Write(AgreementColumns)
		for _, r := range ag.Rows {
			cw.Write([]string{r.Rater, r.Kind, strconv.Itoa(r.Sites), csvFloat(r.ScorePct), csvFloat(r.ScoreLOOPct),
				csvFloat(r.KappaW), csvFloat(r.Spearman)})
		}
		cw.Flush()
		return cw.Error()
	case export.JSON:
		return export.WriteJSON(w, ag)
	case export.Table:
		return writeAgreementTable(w, ag)
	}
	return &export.ErrFormat{Format: format, Want: []string{export.Table, export.CSV, export.JSON}}
}

func csvFloat(f review.Float) string {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return export.Ftoa(v)
}

func tableFloat(f review.Float, format string) string {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return fmt.Sprintf(format, v)
}

func writeAgreementTable(w io.Writer, ag review.Agreement) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%-24s %-9s %5s %7s %7s %7s %8s  %s\n", "rater", "kind", "sites", "score%", "loo%", "kappa_w", "spearman", "thresholds (least value ranked 2, 3, 4)")
	for _, r := range ag.Rows {
		th := ""
		for i, t := range r.Thresholds {
			if i > 0 {
				th += "  "
			}
			th += tableFloat(t, "%.4g")
		}
		if r.AllTied {
			th += "  (all tied: it cannot tell the rated sites apart)"
		}
		fmt.Fprintf(&b, "%-24s %-9s %5d %7s %7s %7s %8s  %s\n", r.Rater, r.Kind, r.Sites,
			tableFloat(r.ScorePct, "%.1f"), tableFloat(r.ScoreLOOPct, "%.1f"),
			tableFloat(r.KappaW, "%.3f"), tableFloat(r.Spearman, "%.3f"), th)
	}
	if ag.MeasuresTied {
		fmt.Fprintf(&b, "\nThe measures cannot tell these sites apart: every rated site has the same value of each, so their scores say nothing of the measures. Rate sites that differ in their links.\n")
	}
	fmt.Fprintf(&b, "\nReference: the mean of all librarians' ratings, rounded half up, over %d sites rated by at least two of %d librarians.\n",
		ag.ReferenceSites, ag.Librarians)
	fmt.Fprintf(&b, "Excluded: %d sites rated by a single librarian.\n", ag.Excluded)
	fmt.Fprintf(&b, "score%%: rank equal to the reference; loo%%: against the other librarians' mean only; measures ranked 1-4 by quantiles matching the reference.\n")
	if len(ag.Comparisons) > 0 {
		fmt.Fprintf(&b, "\nCommon Crawl's ranks beside sitesift's, over the sites that have them:\n%-12s %-9s %7s %8s %8s  %s\n",
			"measure", "with", "sites", "spearman", "kendall", "top-k overlap%")
		for _, c := range ag.Comparisons {
			fmt.Fprintf(&b, "%-12s %-9s %7d %8s %8s  %s (k = %d)\n", c.Measure, c.With, c.Sites,
				tableFloat(c.Spearman, "%.3f"), tableFloat(c.KendallTau, "%.3f"), tableFloat(c.TopKOverlapPct, "%.1f"), c.TopK)
		}
	}
	if ag.Bias != nil {
		fmt.Fprintf(&b, "Biased PageRank: teleport weight 1 + %g for the %d sites of mean rating >= %g. %s is scored on the ratings it was biased with (in-sample); %s takes each site's value from a PageRank biased by the other %d folds' ratings.\n",
			*ag.Bias, ag.Favoured, ranking.FavouredRating, review.MeasureBiased, review.MeasureBiasedCV, review.BiasFolds-1)
	}
	if c := ag.Confusion; c != nil {
		fmt.Fprintf(&b, "\nConfusion of %s (%s): rows are the reference rank, columns %s's rank.\n%9s", c.Rater, c.Kind, c.Rater, "")
		for j := range importance.Levels {
			fmt.Fprintf(&b, " %5d", j+1)
		}
		b.WriteString("\n")
		for i, row := range c.Matrix {
			fmt.Fprintf(&b, "%9d", i+1)
			for _, n := range row {
				fmt.Fprintf(&b, " %5d", n)
			}
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteSites writes sites with their crawl status as a table (importance
// rank and 0–100 scores), CSV (SitesColumns, with the shares) or JSON.
func WriteSites(w io.Writer, rows []ranking.SiteRow, format string) error {
	switch format {
	case export.JSON:
		return export.WriteJSON(w, export.List(rows))
	case export.CSV:
		cw := export.NewCSVWriter(w)
		cw.Write(SitesColumns)
		for _, r := range rows {
			cw.Write([]string{r.Site, r.CrawlStatus, strconv.Itoa(r.Pages), strconv.Itoa(r.Errors), export.Ftoa(r.OPIC),
				export.Ftoa(r.PageRank), strconv.Itoa(r.InSites), strconv.Itoa(r.OutSites)})
		}
		cw.Flush()
		return cw.Error()
	case export.Table:
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		// The importance rank and 0–100 scores of [ranking.Ranking], as the app shows them; CSV and JSON keep the shares.
		fmt.Fprintln(tw, "rank\tsite\tstatus\tpages\terrors\tscore\tpr_score\t")
		for _, r := range rows {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d\t%d\t%d\t\n", r.OPICRank, r.Site, r.CrawlStatus, r.Pages, r.Errors, r.OPICScore, r.PageRankScore)
		}
		return tw.Flush()
	}
	return &export.ErrFormat{Format: format, Want: []string{export.Table, export.CSV, export.JSON}}
}

// WriteSiteReport writes what the crawl got of one site — its status,
// pages fetched fine, failed fetches by class, URLs robots.txt refused, URLs
// left out of scope or by the trap guards, the delay used — as lines of
// text (table), CSV (class,count; the delay apart) or JSON.
func WriteSiteReport(w io.Writer, d review.SiteDetail, format string) error {
	classes := slices.Sorted(maps.Keys(d.Report.ErrorsByClass))
	switch format {
	case export.JSON:
		return export.WriteJSON(w, struct {
			Site        string            `json:"site"`
			CrawlStatus string            `json:"crawl_status"`
			Report      review.SiteReport `json:"report"`
		}{d.Site, d.CrawlStatus, d.Report})
	case export.CSV:
		cw := export.NewCSVWriter(w)
		cw.Write([]string{"class", "count"})
		cw.Write([]string{"ok", strconv.Itoa(d.Report.PagesOK)})
		for _, c := range classes {
			cw.Write([]string{c, strconv.Itoa(d.Report.ErrorsByClass[c])})
		}
		cw.Write([]string{sites.ErrRobots, strconv.Itoa(d.Report.RobotsBlocked)})
		cw.Write([]string{"out-of-scope", strconv.Itoa(d.Report.OutOfScope)})
		cw.Write([]string{"trapped", strconv.Itoa(d.Report.Trapped)})
		cw.Flush()
		return cw.Error()
	case export.Table:
		fmt.Fprintf(w, "%s: %s\npages fetched fine: %d\n", d.Site, d.CrawlStatus, d.Report.PagesOK)
		for _, c := range classes {
			fmt.Fprintf(w, "failed (%s): %d\n", c, d.Report.ErrorsByClass[c])
		}
		_, err := fmt.Fprintf(w, "refused by robots.txt: %d\nleft out of scope: %d\nleft out by trap guards: %d\ndelay used: %v\n",
			d.Report.RobotsBlocked, d.Report.OutOfScope, d.Report.Trapped, time.Duration(d.Report.DelayMS)*time.Millisecond)
		return err
	}
	return &export.ErrFormat{Format: format, Want: []string{export.Table, export.CSV, export.JSON}}
}
