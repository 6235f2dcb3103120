package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sitesift/app/apptest"
)

func TestCLISeedsCommunities(t *testing.T) {
	dir := apptest.CommunityProject(t)
	code, out, stderr := runCLI(t, "seeds", "--project", dir, "--count", "3")
	if code != 0 || out != "http://h1.test/\nhttp://g1.test/\n" ||
		!strings.HasSuffix(stderr, "\nsitesift: seeds: 2 communities of 3 asked: no links were left outside the cores found\n") {
		t.Errorf("txt: %d %q %q", code, out, stderr)
	}
	// With a least core of 3 hub sites, g1.test and g2.test are none.
	code, _, stderr = runCLI(t, "seeds", "--project", dir, "--count", "3", "--min-hubs", "3")
	if code != 0 || !strings.HasSuffix(stderr, "sitesift: seeds: 1 community of 3 asked: the links left outside the cores found make no core of 3 hub sites and 2 authority sites\n") {
		t.Errorf("least core 3×2: %d %q", code, stderr)
	}
	code, out, stderr = runCLI(t, "seeds", "--project", dir, "--count", "3", "--format", "csv")
	if code != 0 {
		t.Fatalf("csv: %d %s", code, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != "seed_url,site,core,hubs,authorities,cover_density,hub_score" {
		t.Fatalf("csv header %q", rows[0])
	}
	if len(rows) != 3 || strings.Join(rows[1][:6], ",") != "http://h1.test/,h1.test,0,3,3,100" ||
		strings.Join(rows[2][:6], ",") != "http://g1.test/,g1.test,1,2,2,100" {
		t.Errorf("csv rows %q", rows[1:])
	}
	if h, err := strconv.ParseFloat(rows[1][6], 64); err != nil || !(h > 0 && h <= 1) {
		t.Errorf("hub score %q", rows[1][6])
	}
	code, out, stderr = runCLI(t, "seeds", "--project", dir, "--count", "3", "--format", "json")
	if code != 0 {
		t.Fatalf("json: %d %s", code, stderr)
	}
	var cores []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &cores); err != nil || len(cores) != 2 {
		t.Fatalf("json %q: %v", out, err)
	}
	for _, c := range cores {
		var keys []string
		for k := range c {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if strings.Join(keys, ",") != "authorities,core,cover_density,hubs,seed" {
			t.Errorf("json core keys %v", keys)
		}
	}
	var first struct {
		Core         int      `json:"core"`
		Seed         string   `json:"seed"`
		Hubs         []string `json:"hubs"`
		Authorities  []string `json:"authorities"`
		CoverDensity float64  `json:"cover_density"`
	}
	json.Unmarshal(cores[0]["hubs"], &first.Hubs)
	json.Unmarshal(cores[0]["seed"], &first.Seed)
	json.Unmarshal(cores[0]["cover_density"], &first.CoverDensity)
	if first.Seed != "http://h1.test/" || len(first.Hubs) != 3 || first.CoverDensity != 100 {
		t.Errorf("json first core %+v", first)
	}
	// Fixed size, and the old method.
	code, out, _ = runCLI(t, "seeds", "--project", dir, "--count", "1", "--core-size", "4", "--format", "csv")
	if rows, _ := csv.NewReader(strings.NewReader(out)).ReadAll(); code != 0 || len(rows) != 2 || rows[1][3] != "2" || rows[1][4] != "2" {
		t.Errorf("--core-size 4: %d %q", code, out)
	}
	code, out, _ = runCLI(t, "seeds", "--project", dir, "--count", "2", "--method", "importance")
	// h1.test's one page is its seed: the crawl never saw http://h1.test/.
	if code != 0 || out != "http://h1.test/links\nhttp://a1.test/\n" {
		t.Errorf("--method importance: %d %q", code, out)
	}
}

func TestCLISeedsUsageErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nothing")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--density", "90", "--core-size", "4"}, "exclusive"},
		{[]string{"--new-members", "2"}, "--new-members goes with --core-size"},
		{[]string{"--method", "importance", "--density", "90"}, "--density goes with --method communities"},
		{[]string{"--method", "magic"}, `unknown method "magic"`},
		{[]string{"--density", "0"}, "cover density"},
		{[]string{"--density", "101"}, "cover density"},
		{[]string{"--core-size", "1"}, "core size"},
		{[]string{"--hits-iterations", "0"}, "HITS iterations"},
		{[]string{"--min-hubs", "0"}, "least hubs 0"},
		{[]string{"--core-size", "3"}, "below the least core of 2 hubs and 2 authorities"},
		{[]string{"--method", "importance", "--min-authorities", "3"}, "--min-authorities goes with --method communities"},
		{[]string{"--format", "xml"}, `unknown format "xml"`},
	} {
		args := append([]string{"seeds", "--project", missing, "--count", "3"}, tc.args...)
		code, _, stderr := runCLI(t, args...)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "--project", missing}, "--what"},
		{[]string{"export", "--project", missing, "--what", "warc"}, `unknown --what "warc"`},
		{[]string{"export", "--project", missing, "--what", "heritrix-precedence", "--buckets", "0"}, "--buckets"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("a refused command created %s", missing)
	}
}

func TestExportHeritrixPrecedence(t *testing.T) {
	dir := apptest.CommunityProject(t)
	out := filepath.Join(t.TempDir(), "precedence.txt")
	if code, _, stderr := runCLI(t, "export", "--project", dir, "--what", "heritrix-precedence", "--out", out); code != 0 {
		t.Fatalf("export: %d %s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	// Heritrix's PrecedenceLoader reads "URI precedence", one space.
	line := regexp.MustCompile(`^http://[a-z0-9.]+/[a-z0-9]* ([1-9][0-9]*)$`)
	var got []int
	for _, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("line %q is not 'URI precedence'", l)
		}
		p, _ := strconv.Atoi(m[1])
		got = append(got, p)
	}
	// 11 sites with distinct OPIC in 10 buckets: rank r gets 1 + r·10/11.
	want := []int{1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if !reflect.DeepEqual(got, want) || lines[0] != "http://h1.test/links 1" {
		t.Errorf("precedences %v (first line %q), want %v", got, lines[0], want)
	}
	code, stdout, _ := runCLI(t, "export", "--project", dir, "--what", "heritrix-precedence", "--buckets", "2")
	if code != 0 || !strings.HasPrefix(stdout, "http://h1.test/links 1\n") || !strings.HasSuffix(stdout, " 2\n") {
		t.Errorf("2 buckets: %q", stdout)
	}
}

func TestExportRatingsCSV(t *testing.T) {
	dir := apptest.CommunityProject(t)
	a, closeApp := apptest.Open(t, dir)
	ctx := context.Background()
	apptest.AddLibrarians(t, a, "ana", "ben")
	for _, r := range []struct {
		lib, site string
		v         int
	}{{"ben", "h1.test", 4}, {"ana", "h1.test", 3}, {"ana", "a2.test", 1}, {"ben", "b2.test", 2}} {
		if _, err := a.Review.Rate(ctx, r.lib, r.site, r.v, ""); err != nil {
			t.Fatal(err)
		}
	}
	closeApp()
	if code, _, stderr := runCLI(t, "export", "--project", dir, "--what", "ratings-csv"); code != 2 || !strings.Contains(stderr, "is now --what sites") {
		t.Errorf("the old name: %d %s", code, stderr)
	}
	code, out, stderr := runCLI(t, "export", "--project", dir, "--what", "sites")
	if code != 0 {
		t.Fatalf("export: %d %s", code, stderr)
	}
	// A table for a spreadsheet: a byte-order mark first, for Excel.
	out, ok := strings.CutPrefix(out, "\uFEFF")
	if !ok {
		t.Errorf("the sites table starts %q, without a byte-order mark", out[:min(len(out), 8)])
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != "site,crawl_status,pages,opic,pagerank,in_sites,out_sites,hub,authority,selection,ana,ben,mean_rating,graph" {
		t.Fatalf("header %q", rows[0])
	}
	if len(rows) != 12 {
		t.Fatalf("%d rows, want 11 sites", len(rows)-1)
	}
	bySite := map[string][]string{}
	for _, r := range rows[1:] {
		bySite[r[0]] = r
	}
	for site, want := range map[string]string{
		"h1.test": "3,4,3.5", "a2.test": "1,,1", "b2.test": ",2,2", "nav.test": ",,",
	} {
		if got := strings.Join(bySite[site][10:13], ","); got != want {
			t.Errorf("%s: ratings %q, want %q", site, got, want)
		}
	}
	if rows[1][0] != "h1.test" {
		t.Errorf("first row %q, want the most important site", rows[1])
	}
	if o, err := strconv.ParseFloat(bySite["h1.test"][3], 64); err != nil || !(o > 0) {
		t.Errorf("opic %q", bySite["h1.test"][3])
	}
}
