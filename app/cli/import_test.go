package cli

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/httpapi"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/app/review"
	"sitesift/importance"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// rankCSV runs sitesift rank with args and the CSV format and returns the
// rows by site.
func rankCSV(t *testing.T, args ...string) map[string][]string {
	t.Helper()
	code, out, stderr := runCLI(t, append([]string{"rank", "--format", "csv"}, args...)...)
	if code != 0 {
		t.Fatalf("rank %v: exit %d: %s", args, code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != "site,opic,pagerank,in_sites,out_sites,pages,opic_rank,opic_score,pagerank_rank,pagerank_score,graph,opic_ties" {
		t.Fatalf("header %v", recs[0])
	}
	rows := map[string][]string{}
	for _, r := range recs[1:] {
		rows[r[0]] = r
		// Every project ranked here is an imported edge list.
		if r[10] != ranking.GraphNoPages {
			t.Fatalf("graph of %s = %q, want %q", r[0], r[10], ranking.GraphNoPages)
		}
	}
	return rows
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// checkRank compares the pagerank column with want to 1e-9 (RankTolerance's
// promise), checks the
// degrees of the hand example and that opic sums to opicSum.
func checkRank(t *testing.T, rows map[string][]string, want map[string]float64, opicSum float64) {
	t.Helper()
	if len(rows) != len(want) {
		t.Fatalf("%d sites, want %d: %v", len(rows), len(want), rows)
	}
	degrees := map[string]string{"a.test": "2,2,0", "b.test": "1,1,0", "c.test": "1,1,0"}
	var sum float64
	for site, w := range want {
		r := rows[site]
		if r == nil {
			t.Fatalf("no row for %s", site)
		}
		if got := num(t, r[2]); math.Abs(got-w) > 1e-9 {
			t.Errorf("pagerank of %s = %v, want %v", site, got, w)
		}
		if got := strings.Join(r[3:6], ","); got != degrees[site] {
			t.Errorf("%s in_sites,out_sites,pages = %s, want %s", site, got, degrees[site])
		}
		sum += num(t, r[1])
	}
	if math.Abs(sum-opicSum) > 1e-9 {
		t.Errorf("opic sums to %v, want %v", sum, opicSum)
	}
}

func TestCLIImportAndRank(t *testing.T) {
	edges := writeFile(t, "edges.txt", handEdges)
	dir := filepath.Join(t.TempDir(), "project")
	code, out, stderr := runCLI(t, "import", "--project", dir, "--edges", edges)
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "3 sites, 4 edges (1 self-edges dropped)") || !strings.Contains(out, "30 greedy reads") {
		t.Errorf("import output %q", out)
	}
	// Storing a large graph and ranking it takes a while: said when it begins.
	if !strings.Contains(stderr, "import "+edges+": 3 sites read in ") || !strings.Contains(stderr, "storing the graph and computing PageRank and OPIC") {
		t.Errorf("import progress %q, want the sites read and the step that follows", stderr)
	}

	rows := rankCSV(t, "--project", dir)
	checkRank(t, rows, handLinks, 1)
	// OPIC's estimate after 10·N greedy reads is close to the fixpoint.
	for site, w := range handLinks {
		if got := num(t, rows[site][1]); math.Abs(got-w) > 0.05*w {
			t.Errorf("opic of %s = %v, more than 5%% from pagerank %v", site, got, w)
		}
	}

	checkRank(t, rankCSV(t, "--project", dir, "--weighting", "binary"), handBinary, 1)
	// The binary ranking is for the answer only: the store keeps the
	// links-weighted PageRank.
	p, err := project.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	_, stored, err := p.Store.ListSites(context.Background(), review.SiteQuery{Sort: "site"})
	p.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range stored {
		if math.Abs(r.PageRank-handLinks[r.Site]) > 1e-9 {
			t.Errorf("stored pagerank of %s = %v after a binary rank, want %v", r.Site, r.PageRank, handLinks[r.Site])
		}
	}

	// Without a project: the same PageRank, OPIC by the same simulation.
	checkRank(t, rankCSV(t, "--edges", edges), handLinks, 1)
	checkRank(t, rankCSV(t, "--edges", edges, "--weighting", "binary"), handBinary, 1)
	checkRank(t, rankCSV(t, "--edges", edges, "--no-opic"), handLinks, 0)
	code, out, _ = runCLI(t, "rank", "--edges", edges, "--no-opic", "--limit", "1")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(lines) != 3 || lines[0] != "importance from the site graph of "+ranking.GraphNoPages ||
		!strings.Contains(lines[2], "a.test") {
		t.Errorf("rank --edges --limit 1 (table):\n%s", out)
	}

	// A second import adds its edges: a → c gains 2, so a's links split
	// 3:3 and the ranking becomes the binary one.
	more := writeFile(t, "more.txt", "a.test c.test 2\n")
	if code, _, stderr := runCLI(t, "import", "--project", dir, "--edges", more); code != 0 {
		t.Fatalf("second import: exit %d: %s", code, stderr)
	}
	checkRank(t, rankCSV(t, "--project", dir), handBinary, 1)
}

func TestCLIImportBadLines(t *testing.T) {
	bad := writeFile(t, "bad.txt", "a.test b.test\nonly-one-field\nb.test c.test 1\nb.test c.test -2\nftp://x.test/ a.test\n# fine\n")
	dir := filepath.Join(t.TempDir(), "project")
	code, out, stderr := runCLI(t, "import", "--project", dir, "--edges", bad, "--strict")
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q; want 1 and nothing", code, out)
	}
	if strings.Count(stderr, "\n") != 4 || !strings.Contains(stderr, "3 bad lines, nothing imported") {
		t.Errorf("stderr %q", stderr)
	}
	for _, n := range []int{2, 4, 5} {
		if want := fmt.Sprintf("bad.txt:%d:", n); !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q: %s", want, stderr)
		}
	}
	if strings.Contains(stderr, "bad.txt:1:") || strings.Contains(stderr, "bad.txt:3:") {
		t.Errorf("stderr names a good line: %s", stderr)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a refused import created %s", dir)
	}

	// Into an existing project: nothing changes.
	good := writeFile(t, "good.txt", "a.test b.test\n")
	if code, _, stderr := runCLI(t, "import", "--project", dir, "--edges", good); code != 0 {
		t.Fatalf("import: %s", stderr)
	}
	if code, _, _ := runCLI(t, "import", "--project", dir, "--edges", bad, "--strict"); code != 1 {
		t.Errorf("bad import into a project: exit %d, want 1", code)
	}
	rows := rankCSV(t, "--project", dir)
	if len(rows) != 2 || rows["a.test"][4] != "1" || rows["b.test"][3] != "1" {
		t.Errorf("after a refused import: %v", rows)
	}
	p, err := project.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if imps, err := p.Store.Imports(context.Background()); err != nil || len(imps) != 1 {
		t.Errorf("imports = %+v, %v; want one", imps, err)
	}
}

// TestImportedAndCrawledDoNotMix: no crawl in an imported project (CLI and
// API), no import into a crawled one.
func TestImportedAndCrawledDoNotMix(t *testing.T) {
	edges := writeFile(t, "edges.txt", handEdges)
	dir := filepath.Join(t.TempDir(), "project")
	if code, _, stderr := runCLI(t, "import", "--project", dir, "--edges", edges); code != 0 {
		t.Fatalf("import: %s", stderr)
	}
	code, _, stderr := runCLI(t, "crawl", "--project", dir, "http://a.test/")
	if code != 1 || !strings.Contains(stderr, "imported site graph") {
		t.Errorf("crawl of an imported project: exit %d, %q", code, stderr)
	}

	p, err := project.Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Project: p})
	env := apptest.Call(t, httpapi.New(a), "POST", "/api/crawl", `{"seeds":["http://a.test/"]}`, 409, nil)
	if !strings.Contains(env.Error, "imported site graph") {
		t.Errorf("API error %q", env.Error)
	}
	a.Close()
	if crawls, err := p.Store.Crawls(context.Background()); err != nil || len(crawls) != 0 {
		t.Errorf("crawls recorded: %v, %v", crawls, err)
	}
	p.Close()

	crawled := apptest.CrawledProject(t)
	code, _, stderr = runCLI(t, "import", "--project", crawled, "--edges", edges)
	if code != 1 || !strings.Contains(stderr, "holds a crawl") {
		t.Errorf("import into a crawled project: exit %d, %q", code, stderr)
	}
}

func TestCLIImportRankUsage(t *testing.T) {
	edges := writeFile(t, "edges.txt", handEdges)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"import without edges", []string{"import", "--project", t.TempDir()}, "--edges FILE are required"},
		{"import without project", []string{"import", "--edges", edges}, "--project DIR"},
		{"rank with both", []string{"rank", "--project", t.TempDir(), "--edges", edges}, "not both"},
		{"rank bad weighting", []string{"rank", "--edges", edges, "--weighting", "pages"}, `unknown weighting "pages"`},
		{"no-opic without edges", []string{"rank", "--project", t.TempDir(), "--no-opic"}, "--no-opic goes with --edges"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tc.want)
			}
		})
	}
	code, _, stderr := runCLI(t, "rank", "--edges", filepath.Join(t.TempDir(), "missing.txt"))
	if code != 1 || !strings.Contains(stderr, "missing.txt") {
		t.Errorf("rank of a missing file: exit %d, %q", code, stderr)
	}
}

// TestRankEdgeFileMatchesProject: on a larger graph, the project-less
// ranking and the imported project's agree on PageRank, and OPIC after 10·N
// greedy reads is near PageRank.
func TestRankEdgeFileMatchesProject(t *testing.T) {
	path := filepath.Join(t.TempDir(), "synthetic.txt")
	apptest.WriteSynthetic(t, path, 2000, 6)
	rows, err := ranking.RankEdgeFile(context.Background(), path, ranking.EdgeRankOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "project")
	if code, _, stderr := runCLI(t, "import", "--project", dir, "--edges", path); code != 0 {
		t.Fatalf("import: %s", stderr)
	}
	proj := rankCSV(t, "--project", dir)
	if len(proj) != len(rows) {
		t.Fatalf("%d sites in the project, %d from the file", len(proj), len(rows))
	}
	est, ref := make([]float64, len(rows)), make([]float64, len(rows))
	for i, r := range rows {
		p := proj[r.Site]
		if p == nil {
			t.Fatalf("no %s in the project", r.Site)
		}
		if got := num(t, p[2]); math.Abs(got-r.PageRank) > 1e-9 {
			t.Errorf("%s: pagerank %v in the project, %v from the file", r.Site, got, r.PageRank)
		}
		if p[3] != strconv.Itoa(r.InSites) || p[4] != strconv.Itoa(r.OutSites) {
			t.Errorf("%s: degrees %s,%s in the project, %d,%d from the file", r.Site, p[3], p[4], r.InSites, r.OutSites)
		}
		est[i], ref[i] = r.OPIC, r.PageRank
		if pe := num(t, p[1]); math.Abs(pe-r.OPIC) > 0.2*r.PageRank {
			t.Errorf("%s: opic %v in the project, %v from the file", r.Site, pe, r.OPIC)
		}
	}
	// Greedy reads the sites with the most cash, so the least important
	// ones lag: the mean over all sites is several percent here (7% when
	// written), the top 1% much closer.
	t.Logf("OPIC vs PageRank after 10·N greedy reads: mean relative error %.2f%%, top 1%% %.2f%%",
		importance.MeanRelativeError(est, ref), importance.TopRelativeError(est, ref, 0.01))
	if e := importance.MeanRelativeError(est, ref); e > 15 {
		t.Errorf("OPIC after 10·N reads is %.2f%% from PageRank on average", e)
	}
	if e := importance.TopRelativeError(est, ref, 0.01); e > 5 {
		t.Errorf("OPIC after 10·N reads is %.2f%% from PageRank on the top 1%%", e)
	}
}

// handEdges is a three-site graph whose PageRank (teleport 0.15, M*) is
// known in closed form. a splits its links 3:1 between b and c; b and c
// link back to a. With x_b + x_c = 1 − x_a, a receives 0.85·(1 − x_a) +
// 0.05, so x_a = 0.9/1.85 = 18/37 under either weighting.
//
//	links:  x_b = 0.85·¾·x_a + 0.05 = 13.325/37, x_c = 0.85·¼·x_a + 0.05 = 5.675/37
//	binary: x_b = x_c = (1 − x_a)/2 = 19/74
//
// The URL and the upper-case name must map to the sites a.test and b.test;
// the self-edge and the comment are dropped.
const handEdges = `# hand example
http://a.test/page b.test 2
A.TEST c.test
a.test	b.test 1   # a repeat: weight 3 in all
b.test a.test
c.test http://a.test/
c.test c.test 5
`

var (
	handLinks  = map[string]float64{"a.test": 18.0 / 37, "b.test": 13.325 / 37, "c.test": 5.675 / 37}
	handBinary = map[string]float64{"a.test": 18.0 / 37, "b.test": 19.0 / 74, "c.test": 19.0 / 74}
)
