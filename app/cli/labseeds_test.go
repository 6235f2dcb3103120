package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/internal/refdata"
)

// runLabSeeds runs `sitesift lab seeds` and returns stdout, or the error.
func runLabSeeds(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	c := CLI{Stdout: &out, Stderr: &errb}
	err := c.lab(context.Background(), append([]string{"seeds"}, args...))
	return out.String(), err
}

func readCSVFile(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

func TestLabSeedsPolblogs(t *testing.T) {
	edges := refdata.Shared(t, "polblogs", "edges.tsv")
	out := filepath.Join(t.TempDir(), "run")
	stdout, err := runLabSeeds(t, "--edges", edges, "--count", "10", "--out", out, "--distance-sources", "200")
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + stdout)
	summary := map[string]string{}
	for _, r := range readCSVFile(t, filepath.Join(out, "summary.csv"))[1:] {
		summary[r[0]] = r[1]
	}
	// polblogs: 1,224 nodes with an edge (as the reference scores count
	// them), 1,490 labels in nodes.tsv; 19,022 distinct links.
	if summary["links"] != "19022" || summary["cores"] != "10" {
		t.Errorf("summary %v", summary)
	}
	if d, _ := strconv.ParseFloat(summary["average_distance"], 64); !(d > 2 && d < 5) {
		t.Errorf("average distance %v", summary["average_distance"])
	}
	cores := readCSVFile(t, filepath.Join(out, "cores.csv"))
	if strings.Join(cores[0], ",") != "core,seed,hubs,authorities,cover_density,arcs,hub_score" || len(cores) != 11 {
		t.Fatalf("cores.csv %q", cores)
	}
	seen := map[string]bool{}
	for _, r := range cores[1:] {
		if r[4] != "100" || seen[r[1]] {
			t.Errorf("core %q: not complete, or a repeated seed", r)
		}
		seen[r[1]] = true
		h, _ := strconv.Atoi(r[2])
		a, _ := strconv.Atoi(r[3])
		if arcs, _ := strconv.Atoi(r[5]); arcs != h*a {
			t.Errorf("core %q: %d arcs for %d×%d", r, arcs, h, a)
		}
	}
	if d := readCSVFile(t, filepath.Join(out, "core_distances.csv")); len(d) != 1+10*9 {
		t.Errorf("core_distances.csv has %d rows", len(d))
	}
	for _, name := range []string{"cores.svg", "core_distances.svg", "bfs_pagerank.svg", "bfs_top1pct.svg", "bfs_visited.svg"} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || !bytes.HasPrefix(data, []byte("<?xml")) || !bytes.Contains(data, []byte("</svg>")) {
			t.Errorf("%s: %v, %d bytes", name, err, len(data))
		}
	}
	crawl := readCSVFile(t, filepath.Join(out, "bfs_crawl.csv"))
	if strings.Join(crawl[0], ",") != "depth,seeds_visited,seeds_total,seeds_mean_pagerank,random_visited,random_total,random_mean_pagerank" ||
		crawl[1][1] != "10" || crawl[1][4] != "10" {
		t.Errorf("bfs_crawl.csv starts %q", crawl[:2])
	}
	// Every core has at least 2 hubs and 2 authorities, and core_shapes.csv
	// counts the cores of cores.csv by shape.
	shapes := readCSVFile(t, filepath.Join(out, "core_shapes.csv"))
	total := 0
	for _, r := range shapes[1:] {
		h, _ := strconv.Atoi(r[0])
		a, _ := strconv.Atoi(r[1])
		n, _ := strconv.Atoi(r[2])
		if h < 2 || a < 2 || n < 1 {
			t.Errorf("core shape %q", r)
		}
		total += n
	}
	if strings.Join(shapes[0], ",") != "hubs,authorities,cores" || total != 10 {
		t.Errorf("core_shapes.csv %q", shapes)
	}
	// 100 random draws by default: the seeds' crawl against each, per depth
	// and measure.
	draws := readCSVFile(t, filepath.Join(out, "bfs_draws.csv"))
	if strings.Join(draws[0], ",") != "depth,measure,seeds,random_mean,random_ci95_low,random_ci95_high,random_p5,random_p95,random_draws,draws_below_seeds,draws_above_seeds" {
		t.Fatalf("bfs_draws.csv header %q", draws[0])
	}
	for _, r := range draws[1:] {
		if r[0] == "0" && r[1] == "visited" && (r[2] != "10" || r[3] != "10" || r[8] != "100") {
			t.Errorf("depth 0 visited %q: 10 seeds and 100 draws of 10", r)
		}
		if r[1] == "top1pct_share" {
			mean, _ := strconv.ParseFloat(r[3], 64)
			lo, _ := strconv.ParseFloat(r[4], 64)
			p5, _ := strconv.ParseFloat(r[6], 64)
			p95, _ := strconv.ParseFloat(r[7], 64)
			if !(p5 <= mean && mean <= p95 && lo <= mean && mean <= 1) {
				t.Errorf("top 1%% share %q out of order", r)
			}
		}
	}
	if each := readCSVFile(t, filepath.Join(out, "bfs_random_draws.csv")); each[len(each)-1][0] != "99" {
		t.Errorf("bfs_random_draws.csv ends %q, want draw 99", each[len(each)-1])
	}
}

func TestLabSeedsSynthetic(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	stdout, err := runLabSeeds(t, "--synthetic", "3000", "--avg-out", "6", "--count", "5", "--random-draws", "7",
		"--min-hubs", "3", "--min-authorities", "3", "--distance-sources", "20", "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "against 7 random draws") {
		t.Errorf("summary %s", stdout)
	}
	for _, r := range readCSVFile(t, filepath.Join(out, "cores.csv"))[1:] {
		if h, _ := strconv.Atoi(r[2]); h < 3 {
			t.Errorf("core %q has fewer than 3 hubs", r)
		}
		if a, _ := strconv.Atoi(r[3]); a < 3 {
			t.Errorf("core %q has fewer than 3 authorities", r)
		}
	}
	for _, args := range [][]string{
		{"--synthetic", "1", "--out", out},
		{"--synthetic", "100", "--edges", "x.tsv", "--out", out},
		{"--avg-out", "3", "--edges", "x.tsv", "--out", out},
		{"--synthetic", "100", "--avg-out", "0", "--out", out},
		{"--synthetic", "100", "--random-draws", "0", "--out", out},
		{"--synthetic", "100", "--min-hubs", "0", "--out", out},
	} {
		if _, err := runLabSeeds(t, args...); err == nil || !strings.Contains(err.Error(), "lab seeds") {
			t.Errorf("%v: error %v", args, err)
		}
	}
}

func TestLabSeedsProject(t *testing.T) {
	dir := apptest.CommunityProject(t)
	out := filepath.Join(t.TempDir(), "run")
	if _, err := runLabSeeds(t, "--project", dir, "--count", "5", "--out", out); err != nil {
		t.Fatal(err)
	}
	cores := readCSVFile(t, filepath.Join(out, "cores.csv"))
	if len(cores) != 3 || cores[1][1] != "http://h1.test/links" || cores[2][1] != "http://g1.test/list" {
		t.Errorf("cores.csv %q", cores)
	}
	// Core 0 (h → a) reaches core 1 (g → b) through a1.test → g1.test;
	// nothing leads back.
	dist := readCSVFile(t, filepath.Join(out, "core_distances.csv"))
	if strings.Join(dist[1], ",") != "0,1,1" || strings.Join(dist[2], ",") != "1,0,-1" {
		t.Errorf("core_distances.csv %q", dist)
	}
	for _, args := range [][]string{
		{"--count", "3", "--out", out},
		{"--project", dir, "--edges", "x.tsv", "--out", out},
		{"--project", dir},
		{"--project", dir, "--out", out, "--density", "90", "--core-size", "4"},
		{"--project", dir, "--out", out, "--count", "0"},
	} {
		if _, err := runLabSeeds(t, args...); err == nil || !strings.Contains(err.Error(), "lab seeds") {
			t.Errorf("%v: error %v", args, err)
		}
	}
}
