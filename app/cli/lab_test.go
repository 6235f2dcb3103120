package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/lab"
	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/sites"
)

// labCSV reads a CSV output of a lab run.
func labCSV(t *testing.T, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// noTempFiles fails the test if dir holds a temporary file of a write.
func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left in %s", e.Name(), dir)
		}
	}
}

func TestCLILabConvergence(t *testing.T) {
	out := filepath.Join(t.TempDir(), "conv")
	code, stdout, stderr := runCLI(t, "lab", "convergence", "--synthetic", "500", "--steps", "5000", "--every", "1000", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "lab convergence: reads") || !strings.Contains(stderr, "100.0%") {
		t.Errorf("no progress line on stderr: %q", stderr)
	}
	if !strings.Contains(stdout, "greedy after 5000 reads (10·N)") {
		t.Errorf("summary %q", stdout)
	}
	rows := labCSV(t, filepath.Join(out, "convergence.csv"))
	if got := strings.Join(rows[0], ","); got != "strategy,step,mean_rel_error_pct,top1pct_rel_error_pct,spearman" {
		t.Fatalf("header %q", got)
	}
	if len(rows) != 1+3*6 {
		t.Fatalf("%d rows, want 3 strategies × 6 measures", len(rows)-1)
	}
	first := map[string]float64{}
	for _, r := range rows[1:] {
		if len(r) != 5 {
			t.Fatalf("row %v", r)
		}
		v, err := strconv.ParseFloat(r[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		if r[1] == "0" {
			first[r[0]] = v
		} else if r[1] == "5000" && !(v < first[r[0]]/3) {
			t.Errorf("%s: error %v at the end, %v at the start", r[0], v, first[r[0]])
		}
	}
	more := labCSV(t, filepath.Join(out, "convergence-more.csv"))
	if len(more) != len(rows) || more[0][3] != "top10pct_rel_error_pct" {
		t.Errorf("convergence-more.csv: %d rows, header %v", len(more), more[0])
	}
	for _, name := range []string{"convergence.svg", "convergence-received.svg"} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if n := apptest.SeriesCount(t, data); n != 6 {
			t.Errorf("%s: %d series, want 6 (3 strategies × all nodes, top 1%%)", name, n)
		}
	}
	noTempFiles(t, out)
}

func TestCLILabConvergenceEdges(t *testing.T) {
	dir := t.TempDir()
	edges := filepath.Join(dir, "edges.txt")
	var b strings.Builder
	for i := range 60 {
		for _, j := range []int{(i + 1) % 60, (i * 7) % 60, 0} {
			b.WriteString("s" + strconv.Itoa(i) + ".test s" + strconv.Itoa(j) + ".test 2\n")
		}
	}
	os.WriteFile(edges, []byte(b.String()), 0o644)
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runCLI(t, "lab", "convergence", "--edges", edges, "--weighting", "binary", "--strategies", "greedy,cycle", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Defaults: 10·N reads, measured every N.
	rows := labCSV(t, filepath.Join(out, "convergence.csv"))
	if len(rows) != 1+2*11 || rows[len(rows)-1][0] != "cycle" || rows[len(rows)-1][1] != "600" {
		t.Errorf("rows %v", rows)
	}
	if !strings.Contains(stdout, "edges.txt, binary: 60 nodes") {
		t.Errorf("summary %q", stdout)
	}

	// A bad edge list fails (exit 1), its bad line named on a line of its
	// own, and writes nothing.
	os.WriteFile(edges, []byte("a.test b.test\nonly-one-token\n"), 0o644)
	bad := filepath.Join(dir, "bad")
	code, _, stderr = runCLI(t, "lab", "convergence", "--edges", edges, "--out", bad)
	if code != 1 || strings.Count(stderr, "\n") != 2 || !strings.Contains(stderr, "\n"+edges+":2:") {
		t.Errorf("bad edge list: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("a failed run created %s", bad)
	}
}

func TestCLILabWindowsAndNormLeak(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, "lab", "windows", "--synthetic", "400", "--change-rate", "0.1",
		"--steps", "4000", "--every", "400", "--window", "1600", "--out", dir)
	if code != 0 {
		t.Fatalf("windows: exit %d: %s", code, stderr)
	}
	rows := labCSV(t, filepath.Join(dir, "windows.csv"))
	if got := strings.Join(rows[0], ","); got != "policy,step,mean_rel_error_pct,top1pct_rel_error_pct,measures_per_node" {
		t.Fatalf("header %q", got)
	}
	if len(rows) != 1+5*11 {
		t.Errorf("%d rows, want 5 policies × 11 measures", len(rows)-1)
	}
	if !strings.Contains(stdout, "full-history  after 4000 reads") {
		t.Errorf("summary %q", stdout)
	}
	for name, series := range map[string]int{"windows.svg": 10, "windows-measures.svg": 5} {
		data, _ := os.ReadFile(filepath.Join(dir, name))
		if n := apptest.SeriesCount(t, data); n != series {
			t.Errorf("%s: %d series, want %d", name, n, series)
		}
	}

	code, _, stderr = runCLI(t, "lab", "normleak", "--out", dir, "--iterations", "30", "--damping", "0.3")
	if code != 0 {
		t.Fatalf("normleak: exit %d: %s", code, stderr)
	}
	rows = labCSV(t, filepath.Join(dir, "normleak.csv"))
	if got := strings.Join(rows[0], ","); got != "case,dangling_pages,matrix,iteration,norm" || len(rows) != 1+3*2*31 {
		t.Fatalf("header %q, %d rows", got, len(rows))
	}
	for _, r := range rows[1:] {
		norm, _ := strconv.ParseFloat(r[4], 64)
		leaking := r[2] == "M'" && r[1] != "0" && r[3] != "0"
		if leaking && !(norm < 1) || !leaking && (norm < 1-1e-12 || norm > 1+1e-12) {
			t.Errorf("row %v: norm %v", r, norm)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "normleak.svg"))
	if n := apptest.SeriesCount(t, data); n != 6 {
		t.Errorf("normleak.svg: %d series, want 6", n)
	}
	noTempFiles(t, dir)
}

func TestCLILabUsageErrors(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no experiment", []string{"lab"}, "name an experiment"},
		{"unknown experiment", []string{"lab", "speed", "--out", out}, `unknown experiment "speed"`},
		{"no graph", []string{"lab", "convergence", "--out", out}, "--edges FILE or --synthetic N"},
		{"two graphs", []string{"lab", "convergence", "--edges", "x", "--synthetic", "10", "--out", out}, "--edges FILE or --synthetic N"},
		{"no out", []string{"lab", "convergence", "--synthetic", "10"}, "--out DIR is required"},
		{"bad strategy", []string{"lab", "convergence", "--synthetic", "10", "--strategies", "greedy,fastest", "--out", out}, `unknown strategy "fastest"`},
		{"every 0", []string{"lab", "convergence", "--synthetic", "10", "--every", "0", "--out", out}, "must be positive"},
		{"teleport 1", []string{"lab", "convergence", "--synthetic", "10", "--teleport", "1", "--out", out}, "teleport 1 not in (0, 1)"},
		{"too many points", []string{"lab", "convergence", "--synthetic", "10", "--steps", "100000", "--every", "1", "--out", out}, "at most 10000"},
		{"too many arcs", []string{"lab", "convergence", "--synthetic", "10000000", "--avg-out", "100", "--out", out}, "at most 50000000"},
		{"bad weighting", []string{"lab", "convergence", "--synthetic", "10", "--weighting", "heavy", "--out", out}, `unknown weighting "heavy"`},
		{"unknown flag", []string{"lab", "convergence", "--synthetic", "10", "--fast", "--out", out}, "flag provided but not defined"},
		{"no change rate", []string{"lab", "windows", "--synthetic", "100", "--out", out}, "--change-rate R is required"},
		{"change rate 2", []string{"lab", "windows", "--synthetic", "100", "--change-rate", "2", "--out", out}, "change rate 2 not in [0, 1]"},
		{"windows one node", []string{"lab", "windows", "--synthetic", "1", "--change-rate", "0.1", "--out", out}, "n from 2"},
		{"damping 0", []string{"lab", "normleak", "--damping", "0", "--out", out}, "must be positive"},
		{"damping 2", []string{"lab", "normleak", "--damping", "2", "--out", out}, "damping 2 not in (0, 1]"},
		{"stray argument", []string{"lab", "normleak", "--out", out, "extra"}, `unexpected argument "extra"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q: want 2 and one line containing %q", code, stderr, tc.want)
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused command created %s", out)
	}
}

// TestCLILabCancelled: an interrupted run (Ctrl-C cancels the context)
// fails and writes nothing.
func TestCLILabCancelled(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	c := CLI{Stdout: &stdout, Stderr: &stderr, Desktop: func(string, http.Handler) error { return ErrNoDesktop }}
	code := c.Run(ctx, []string{"lab", "convergence", "--synthetic", "300", "--out", out})
	if code != 1 || !strings.Contains(stderr.String(), "context canceled") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a cancelled run created %s", out)
	}
}

// TestLabWeightingNames: the lab's weightings, which --weighting and the
// API's "weighting" pass through, are named as the app's.
func TestLabWeightingNames(t *testing.T) {
	if lab.WeightingLinks != ranking.WeightingLinks || lab.WeightingBinary != ranking.WeightingBinary {
		t.Errorf("lab weightings %q, %q; app's %q, %q", lab.WeightingLinks, lab.WeightingBinary, ranking.WeightingLinks, ranking.WeightingBinary)
	}
}

// `lab links` compares a project's two site graphs: the share site its
// pages link to in their template tops all links only.
func TestLabLinks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "project")
	p, err := project.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	var pages []sites.Page
	for _, u := range []string{"http://news.test/", "http://news.test/a", "http://zine.test/"} {
		pg := apptest.Page(t, u, "http://blog.test/")
		pg.TemplateLinks = []string{"http://share.test/intent?u=" + u}
		pages = append(pages, pg)
	}
	pages = append(pages, apptest.Page(t, "http://blog.test/", "http://news.test/"))
	if err := p.Store.SaveCrawlBatch(context.Background(), pages, nil); err != nil {
		t.Fatal(err)
	}
	p.Close()
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runCLI(t, "lab", "links", "--project", dir, "--out", out, "--top", "2")
	if code != 0 || !strings.Contains(stdout, "4 sites, 3 site links on editorial links, 5 on all links") ||
		!strings.Contains(stdout, "Spearman") {
		t.Fatalf("lab links: exit %d, %q %q", code, stdout, stderr)
	}
	top := labCSV(t, filepath.Join(out, "links-top.csv"))
	if len(top) != 3 || top[1][1] != "blog.test" {
		t.Errorf("links-top.csv %q", top)
	}
	for _, r := range labCSV(t, filepath.Join(out, "links-sites.csv")) {
		if r[0] == "share.test" && (r[3] != "0" || r[6] != "2" || !(num(t, r[5]) < num(t, r[2]))) {
			t.Errorf("share.test in links-sites.csv %q: want 0 and 2 in-sites, a better place on all links", r)
		}
	}
	if code, _, stderr := runCLI(t, "lab", "links", "--project", dir); code != 2 || !strings.Contains(stderr, "--out DIR is required") {
		t.Errorf("lab links without --out: exit %d, %q", code, stderr)
	}
}
