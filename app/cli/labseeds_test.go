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
	edges := filepath.Join("..", "..", "shared", "data", "polblogs", "edges.tsv")
	if _, err := os.Stat(edges); err != nil {
		t.Skipf("reference data not found: %v", err)
	}
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
	for _, name := range []string{"cores.svg", "core_distances.svg", "bfs_pagerank.svg", "bfs_visited.svg"} {
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
