package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/project"
	"sitesift/app/ranking"
)

// TestMain removes the project apptest.CrawledProject made.
func TestMain(m *testing.M) { apptest.Main(m) }

// runCLI runs the command line and returns its exit status and outputs.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	c := CLI{Stdout: &out, Stderr: &errb, Desktop: func(string, http.Handler) error { return ErrNoDesktop }}
	code := c.Run(context.Background(), args)
	return code, out.String(), errb.String()
}

func TestCLIErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nothing")
	seeds := filepath.Join(t.TempDir(), "seeds.txt")
	os.WriteFile(seeds, []byte("# seeds\nhttp://a.test/\nnot a url\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown command", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"unknown flag", []string{"rank", "--project", missing, "--colour"}, 2, "flag provided but not defined: -colour"},
		{"missing project", []string{"rank", "--project", missing}, 1, "no sitesift project"},
		{"no project flag", []string{"crawl", "http://a.test/"}, 2, "--project DIR is required"},
		{"bad seed line", []string{"crawl", "--project", missing, "--seeds", seeds}, 1, "seeds.txt:3:"},
		{"bad seed argument", []string{"crawl", "--project", missing, "mailto:a@b.test"}, 1, `seed 1 "mailto:a@b.test"`},
		{"bad strategy", []string{"crawl", "--project", missing, "--strategy", "fastest", "http://a.test/"}, 1, "fastest"},
		{"bad contact", []string{"crawl", "--project", missing, "--contact", "nobody", "http://a.test/"}, 1, "neither an e-mail address"},
		{"negative delay", []string{"crawl", "--project", missing, "--delay", "-1s", "http://a.test/"}, 1, "negative"},
		{"no parallel", []string{"crawl", "--project", missing, "--parallel", "0", "http://a.test/"}, 1, "parallel 0"},
		{"max delay under delay", []string{"crawl", "--project", missing, "--delay", "5s", "--max-delay", "1s", "http://a.test/"}, 1, "max delay"},
		{"bad delay", []string{"crawl", "--project", missing, "--delay", "soon", "http://a.test/"}, 2, "invalid value"},
		{"settings without project", []string{"settings"}, 2, "--project DIR is required"},
		{"settings of no project", []string{"settings", "--project", missing}, 1, "no sitesift project"},
		{"settings argument", []string{"settings", "--project", missing, "extra"}, 2, `unexpected argument "extra"`},
		{"settings format", []string{"settings", "--project", missing, "--format", "csv"}, 2, `unknown format "csv"`},
		{"seeds without count", []string{"seeds", "--project", missing}, 2, "--count"},
		{"bad format", []string{"rank", "--project", missing, "--format", "xml"}, 2, `unknown format "xml"`},
		{"search without query", []string{"search", "--project", missing}, 2, "no query"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q: want one line containing %q", stderr, tc.want)
			}
		})
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("a failed command left %s behind", missing)
	}
}

func TestCLIRankSeedsSearch(t *testing.T) {
	dir := apptest.CrawledProject(t)
	// Every site, platforms included, so that the shares sum to 1.
	code, out, stderr := runCLI(t, "rank", "--project", dir, "--format", "csv", "--include-platforms")
	if code != 0 {
		t.Fatalf("rank: %d %s", code, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != "site,opic,pagerank,in_sites,out_sites,pages,opic_rank,opic_score,pagerank_rank,pagerank_score,graph,opic_ties" {
		t.Fatalf("header %v", rows[0])
	}
	var opic, pr float64
	prev := math.Inf(1)
	for _, r := range rows[1:] {
		if r[10] != ranking.GraphEditorial {
			t.Fatalf("graph of a crawled project's ranking %q, want %q", r[10], ranking.GraphEditorial)
		}
		o, _ := strconv.ParseFloat(r[1], 64)
		p, _ := strconv.ParseFloat(r[2], 64)
		if o > prev {
			t.Fatalf("not sorted by opic: %v", r)
		}
		prev, opic, pr = o, opic+o, pr+p
	}
	// opic_ties counts the other sites of the same OPIC rank, as the table's "=" marks them
	// (platforms, rank 0, are not ranked).
	sameRank := map[string]int{}
	for _, r := range rows[1:] {
		sameRank[r[6]]++
	}
	tied := 0
	for _, r := range rows[1:] {
		if r[6] == "0" {
			continue
		}
		if want := strconv.Itoa(sameRank[r[6]] - 1); r[11] != want {
			t.Fatalf("opic_ties of %s = %q, want %s (rank %s)", r[0], r[11], want, r[6])
		}
		if r[11] != "0" {
			tied++
		}
	}
	if tied == 0 {
		t.Errorf("no site of the crawled project shares its rank: the ties column goes untested")
	}
	if math.Abs(opic-1) > 1e-9 || math.Abs(pr-1) > 1e-9 {
		t.Errorf("opic sums to %v, pagerank to %v", opic, pr)
	}
	code, out, _ = runCLI(t, "rank", "--project", dir, "--limit", "3")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 5 || lines[0] != "importance from the site graph of "+ranking.GraphEditorial {
		t.Fatalf("rank table --limit 3:\n%s", out)
	}
	lines = lines[1:] // the graph's line
	// The table shows rank and score, the top site first at 100; the shares
	// only with --raw.
	if f := strings.Fields(lines[0]); f[0] != "rank" || f[1] != "score" || slices.Contains(f, "opic") {
		t.Errorf("rank table header %q", lines[0])
	}
	if f := strings.Fields(lines[1]); f[0] != "1" || f[1] != "100" || f[2] != rows[1][0] {
		t.Errorf("rank table top line %q, want rank 1, score 100, %s", lines[1], rows[1][0])
	}
	code, out, _ = runCLI(t, "sites", "--project", dir, "--limit", "1")
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if f := strings.Fields(lines[len(lines)-1]); code != 0 || len(lines) != 2 || f[0] != "1" || f[1] != rows[1][0] || f[5] != "100" {
		t.Errorf("sites --limit 1:\n%s\nwant rank 1, %s, score 100", out, rows[1][0])
	}
	code, out, _ = runCLI(t, "rank", "--project", dir, "--limit", "1", "--raw")
	lines = strings.Split(strings.TrimSpace(out), "\n")[1:] // after the graph's line
	if f := strings.Fields(lines[0]); code != 0 || !slices.Contains(f, "opic") || !slices.Contains(f, "pagerank") {
		t.Errorf("rank --raw header %q", lines[0])
	}
	if f := strings.Fields(lines[1]); len(f) < 2 || f[len(f)-2] != strconv.FormatFloat(mustFloat(t, rows[1][1]), 'g', 6, 64) {
		t.Errorf("rank --raw top line %q, want the share %s", lines[1], rows[1][1])
	}
	code, out, _ = runCLI(t, "seeds", "--project", dir, "--count", "4", "--method", "importance")
	if lines := strings.Fields(out); code != 0 || len(lines) != 4 || lines[0] != "http://"+rows[1][0]+"/" {
		t.Errorf("seeds: %d %q; top site %s", code, out, rows[1][0])
	}
	code, out, _ = runCLI(t, "search", "--project", dir, "music")
	if code != 0 || out == "" {
		t.Fatalf("search: %d %q", code, out)
	}
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Split(line, "\t")
		rel, err := strconv.Atoi(f[0])
		if len(f) != 3 || err != nil || rel < 0 || rel > 100 || (i == 0 && rel != 100) || !strings.HasPrefix(f[1], "http://") {
			t.Errorf("search line %q is not relevance (0–100, the first 100), URL, title", line)
		}
	}
	// Every word is required unless --any.
	if code, out, _ = runCLI(t, "search", "--project", dir, "music", "zzxqvnope"); code != 0 || out != "" {
		t.Errorf("search music zzxqvnope: %d %q, want no page", code, out)
	}
	if code, out, _ = runCLI(t, "search", "--project", dir, "--any", "music", "zzxqvnope"); code != 0 || out == "" {
		t.Errorf("search --any music zzxqvnope: %d %q, want the music pages", code, out)
	}
	code, _, stderr = runCLI(t, "search", "--project", dir, "the", "of")
	if code == 0 || !strings.Contains(stderr, "'the of' only has words too common to search for.") {
		t.Errorf("search the of: %d %q", code, stderr)
	}
	code, _, stderr = runCLI(t, "search", "--project", dir, `music "open`)
	if code == 0 || !strings.Contains(stderr, `Unbalanced quote: the " at character 7 has no closing quote.`) {
		t.Errorf("search with an open quote: %d %q", code, stderr)
	}
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// crawl --recrawl refuses what is for a crawl from seeds before it opens
// the project, and a project with nothing to revisit.
func TestRecrawlCLIErrors(t *testing.T) {
	empty := t.TempDir()
	p, err := project.Open(empty, true)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"crawl", "--project", empty, "--recrawl", "http://a.test/"}, 2, "give no seed URL"},
		{[]string{"crawl", "--project", empty, "--recrawl", "--scope", "host"}, 2, "--scope is for a crawl from seeds"},
		{[]string{"crawl", "--project", empty, "--recrawl", "--max-pages", "-3"}, 1, "must not be negative"},
		{[]string{"crawl", "--project", empty, "--recrawl"}, 1, "no page to revisit"},
		{[]string{"settings", "--project", empty, "--window", "median"}, 1, `window "median" is none of`},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}

// `settings --links` chooses the site graph ranked, shows it, and refuses a
// graph of another name.
func TestSettingsLinks(t *testing.T) {
	dir := t.TempDir()
	p, err := project.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	if code, out, errOut := runCLI(t, "settings", "--project", dir); code != 0 || !regexp.MustCompile(`(?m)^links +editorial$`).MatchString(out) {
		t.Errorf("settings: exit %d, %q %q; want links editorial", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, "settings", "--project", dir, "--links", "all"); code != 0 || !regexp.MustCompile(`(?m)^links +all$`).MatchString(out) {
		t.Errorf("settings --links all: exit %d, %q %q", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, "settings", "--project", dir, "--links", "template"); code != 1 || !strings.Contains(errOut, `links "template": unknown link graph`) {
		t.Errorf("settings --links template: exit %d, %q", code, errOut)
	}
}
