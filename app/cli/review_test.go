package cli

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/ranking"
	"sitesift/app/review"
)

func TestAgreementCLI(t *testing.T) {
	dir := apptest.ReviewProject(t)
	code, out, stderr := runCLI(t, "agreement", "--project", dir, "--format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if first, _, _ := strings.Cut(out, "\n"); first != "rater,kind,sites,score_pct,score_loo_pct,kappa_w,spearman" {
		t.Fatalf("CSV header %q", first)
	}
	nan := math.NaN()
	want := []struct {
		rater, kind, sites        string
		pct, loo, kappa, spearman float64
	}{
		// Hand-computed in importance/agreement_test.go.
		{"ana", "librarian", "4", 50, 25, 0.8, 0.8},
		{"ben", "librarian", "4", 100, 25, 1, 1},
		// cleo = [3,2,2] against means [11/3, 7/3, 4/3]: average ranks
		// [3, 1.5, 1.5] and [3, 2, 1] correlate 1.5/√3 = √3/2.
		{"cleo", "librarian", "3", 100.0 / 3, 0, 0.625, math.Sqrt(3) / 2},
		// OPIC ranks 1, 4, 3, 2 against 4, 2, 1, 3: none equal.
		// Observed quadratic disagreement (9+4+4+1)/9/4 = 1/2, expected
		// 5/18 (uniform marginals) → κw = 1 − 9/5 = −0.8; Spearman
		// 1 − 6·18/(4·15) = −0.8.
		{"opic", "measure", "4", 0, nan, -0.8, -0.8},
		{"pagerank", "measure", "4", 100, nan, 1, 1},
		{"hits_authority", "measure", "4", 100, nan, 1, 1},
		{"in_sites", "measure", "4", 100, nan, 1, 1},
	}
	recs := apptest.ReadCSV(t, out)[1:]
	if len(recs) != len(want) {
		t.Fatalf("%d rows, want %d:\n%s", len(recs), len(want), out)
	}
	for i, w := range want {
		r := recs[i]
		if r[0] != w.rater || r[1] != w.kind || r[2] != w.sites {
			t.Errorf("row %d = %v, want %s %s %s", i, r, w.rater, w.kind, w.sites)
			continue
		}
		apptest.CellNear(t, r, 3, w.pct)
		apptest.CellNear(t, r, 4, w.loo)
		apptest.CellNear(t, r, 5, w.kappa)
		apptest.CellNear(t, r, 6, w.spearman)
	}
	if strings.Contains(out, "#") || strings.Contains(out, "xcluded") {
		t.Errorf("the CSV holds more than its rows:\n%s", out)
	}

	code, out, _ = runCLI(t, "agreement", "--project", dir, "--rater", "cleo")
	if code != 0 || !strings.Contains(out, "Excluded: 1 sites rated by a single librarian") ||
		!strings.Contains(out, "Confusion of cleo") || !strings.Contains(out, "0.2  0.3  0.4") {
		t.Errorf("table:\n%s", out)
	}

	code, out, _ = runCLI(t, "agreement", "--project", dir, "--format", "json", "--biased")
	var ag struct {
		Excluded       int      `json:"excluded"`
		ReferenceSites int      `json:"reference_sites"`
		Bias           *float64 `json:"bias"`
		Favoured       int      `json:"favoured"`
		Rows           []struct {
			Rater       string     `json:"rater"`
			ScoreLOOPct *float64   `json:"score_loo_pct"`
			ScorePct    *float64   `json:"score_pct"`
			Thresholds  []*float64 `json:"thresholds"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &ag); err != nil || code != 0 {
		t.Fatalf("json: %v\n%s", err, out)
	}
	// s1 alone has a mean rating ≥ 3 (11/3); s4's is 2.5.
	if ag.Excluded != 1 || ag.ReferenceSites != 4 || ag.Bias == nil || *ag.Bias != ranking.DefaultBias || ag.Favoured != 1 || len(ag.Rows) != 9 {
		t.Fatalf("json report %+v", ag)
	}
	if ag.Rows[3].Rater != "opic" || ag.Rows[3].ScoreLOOPct != nil || len(ag.Rows[3].Thresholds) != 3 ||
		math.Abs(*ag.Rows[3].Thresholds[0]-0.2) > 1e-12 || ag.Rows[0].ScoreLOOPct == nil {
		t.Errorf("json rows %+v %+v", ag.Rows[0], ag.Rows[3])
	}
	if ag.Rows[7].Rater != review.MeasureBiased || ag.Rows[8].Rater != review.MeasureBiasedCV || ag.Rows[7].ScorePct == nil || ag.Rows[8].ScorePct == nil {
		t.Errorf("biased rows %+v %+v", ag.Rows[7], ag.Rows[8])
	}

	for _, bad := range [][]string{
		{"agreement", "--project", dir, "--format", "csv", "--rater", "ana"},
		{"agreement", "--project", dir, "--format", "xml"},
	} {
		if code, _, _ := runCLI(t, bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
	if code, _, stderr := runCLI(t, "agreement", "--project", dir, "--rater", "nobody"); code != 1 || !strings.Contains(stderr, `no rater "nobody"`) {
		t.Errorf("unknown rater: %d %s", code, stderr)
	}
}

func TestRatingsImportCLI(t *testing.T) {
	dir := apptest.ReviewProject(t)
	tmp := t.TempDir()
	good := filepath.Join(tmp, "good.csv")
	os.WriteFile(good, []byte("librarian,site,rating,note\ndan,s1.test,4,\"maps, rare\"\ndan,S2.test,2,\nana,s1.test,4,\n"), 0o644)
	// A colleague's file naming a librarian the project does not have is
	// refused, naming them, until the import is told to add them.
	code, out, stderr := runCLI(t, "ratings", "import", "--project", dir, good)
	if code != 2 || out != "" || !strings.Contains(stderr, good+" names librarians this project does not have: dan; nothing imported: add them with --new-librarians") {
		t.Fatalf("import naming a new librarian: exit %d %q %q; want 2 and the name", code, out, stderr)
	}
	if code, out, _ := runCLI(t, "librarians", "--project", dir); code != 0 || strings.Contains(out, "dan") {
		t.Errorf("the refused import added a librarian: %d %q", code, out)
	}
	code, out, stderr = runCLI(t, "ratings", "import", "--project", dir, "--new-librarians", good)
	if code != 0 || out != "3 ratings: 2 added, 0 changed, 1 unchanged; new librarians: dan\n" {
		t.Fatalf("import: %d %q %q", code, out, stderr)
	}
	code, out, _ = runCLI(t, "ratings", "import", "--project", dir, good)
	if code != 0 || out != "3 ratings: 0 added, 0 changed, 3 unchanged\n" {
		t.Errorf("second import: %d %q", code, out)
	}
	bad := filepath.Join(tmp, "bad.csv")
	os.WriteFile(bad, []byte("librarian,site,rating,note\neve,s1.test,3,\neve,s2.test,5,\neve,nowhere.test,2,\neve,,2,\n"), 0o644)
	code, out, stderr = runCLI(t, "ratings", "import", "--project", dir, bad)
	wantErr := bad + ":3: rating \"5\" is not a whole number from 1 to 4\n" +
		bad + ":4: unknown site \"nowhere.test\": not a site of this project\n" +
		bad + ":5: empty site\n" +
		"sitesift: ratings import: " + bad + " refused, nothing imported: 3 bad lines\n"
	if code != 1 || out != "" || stderr != wantErr {
		t.Errorf("bad import: exit %d, stdout %q, stderr\n%s\nwant\n%s", code, out, stderr, wantErr)
	}
	code, out, _ = runCLI(t, "librarians", "--project", dir)
	if code != 0 || strings.Contains(out, "eve") || !strings.Contains(out, "dan") {
		t.Errorf("librarians after a refused import:\n%s", out)
	}

	code, out, _ = runCLI(t, "ratings", "export", "--project", dir)
	if code != 0 || !strings.HasPrefix(out, "\uFEFFlibrarian,site,rating,note\nana,s1.test,4,\nben,s1.test,4,\ncleo,s1.test,3,\ndan,s1.test,4,\"maps, rare\"\n") {
		t.Errorf("export:\n%s", out)
	}
	exported := filepath.Join(tmp, "out.csv")
	if code, _, stderr := runCLI(t, "ratings", "export", "--project", dir, exported); code != 0 {
		t.Fatal(stderr)
	}
	if b, err := os.ReadFile(exported); err != nil || string(b) != out {
		t.Errorf("export to a file differs from stdout: %v", err)
	}
	// The exported file imports into the project as it is: nothing changes.
	code, got, _ := runCLI(t, "ratings", "import", "--project", dir, exported)
	if code != 0 || !strings.Contains(got, ": 0 added, 0 changed, 14 unchanged") {
		t.Errorf("re-import of the export: %q", got)
	}
	if code, _, _ := runCLI(t, "ratings", "import", "--project", dir); code != 2 {
		t.Errorf("import without file: exit %d", code)
	}
	if code, _, _ := runCLI(t, "ratings", "merge", "--project", dir); code != 2 {
		t.Errorf("unknown subcommand: exit %d", code)
	}
}

func TestReviewCLI(t *testing.T) {
	dir := apptest.ReviewProject(t)
	for _, tc := range []struct {
		args []string
		code int
		want string // in stdout (exit 0) or stderr
	}{
		{[]string{"librarians", "add", "--project", dir, "zoé"}, 0, "librarian zoé added"},
		{[]string{"librarians", "add", "--project", dir, "zoé"}, 0, "exists already"},
		{[]string{"librarians", "list", "--project", dir}, 0, "zoé"},
		{[]string{"rate", "--project", dir, "--librarian", "zoé", "--note", "dull", "S5.test", "1"}, 0, "zoé rated s5.test 1"},
		{[]string{"rate", "--project", dir, "--librarian", "zoé", "s5.test", "5"}, 2, "not 1, 2, 3 or 4"},
		{[]string{"rate", "--project", dir, "s5.test", "3"}, 2, "--librarian NAME is required"},
		{[]string{"rate", "--project", dir, "--librarian", "zoé", "nowhere.test", "3"}, 1, "sitesift: no site nowhere.test in this project\n"},
		{[]string{"rate", "--project", dir, "--librarian", "zoé", "S9.test", "3"}, 1,
			"sitesift: no site s9.test in this project (did you mean s1.test, s2.test, s3.test?)\n"},
		{[]string{"rate", "--project", dir, "--librarian", "zoé", "--note", "x", "s9.test"}, 1, "no site s9.test in this project (did you mean"},
		{[]string{"selection", "set", "--project", dir, "--librarian", "ana", "s9.test", "nominated"}, 1,
			"no site s9.test in this project (did you mean s1.test, s2.test, s3.test?)"},
		{[]string{"librarians", "add", "--project", dir, "ZOÉ"}, 0, "librarian zoé exists already"},
		{[]string{"rate", "--project", dir, "--librarian", "Zoé", "s4.test", "2"}, 0, "zoé rated s4.test 2"},
		{[]string{"rate", "--project", dir, "--librarian", "zoe", "s4.test", "2"}, 1,
			`unknown librarian "zoe": the project's librarians are ana, ben, cleo, zoé; add a librarian with ` + "`sitesift librarians add NAME`"},
		{[]string{"rate", "--project", dir, "--librarian", "zoé", "--note", "soup, not maps", "s3.test"}, 0, "zoé noted s3.test (not rated)"},
		{[]string{"rate", "--project", dir, "--librarian", "zoé", "s3.test"}, 2, "SITE and --note TEXT for a note without a rating"},
		{[]string{"selection", "set", "--project", dir, "--librarian", "ana", "--reason", "why", "s3.test", "nominated"}, 2,
			"--reason goes with the status rejected"},
		{[]string{"review", "--project", dir, "--librarian", "ana", "--format", "csv"}, 0,
			"site,status,opic,pagerank,pages,in_sites,out_sites\n"},
		{[]string{"review", "--project", dir, "--librarian", "ana"}, 0, "3 of 3 sites ana has not rated, by importance"},
		{[]string{"review", "--project", dir}, 2, "--librarian NAME is required"},
		{[]string{"review", "--project", dir, "--librarian", "ana", "--order", "colour"}, 1, `unknown order "colour"`},
		{[]string{"selection", "set", "--project", dir, "--librarian", "ana", "--subject", "maps", "s1.test", "nominated"}, 0, "s1.test: nominated by ana"},
		{[]string{"selection", "set", "--project", dir, "--librarian", "ANA", "s1.test", "approved"}, 1,
			"approval of s1.test refused: it was nominated by ana, and ana cannot also approve it"},
		{[]string{"selection", "set", "--project", dir, "--librarian", "bem", "s1.test", "approved"}, 1,
			`unknown librarian "bem": the project's librarians are ana, ben, cleo`},
		{[]string{"selection", "set", "--project", dir, "--librarian", "ben", "s1.test", "approved"}, 0, "s1.test: approved by ben (nominated by ana)"},
		{[]string{"selection", "set", "--project", dir, "--librarian", "ana", "--page-only", "s3.test", "nominated"}, 1,
			"a seed of this page only goes with the status approved, not nominated"},
		{[]string{"selection", "set", "--project", dir, "--librarian", "ben", "--page-only", "s1.test", "approved"}, 0,
			"s1.test: approved by ben (nominated by ana), its seed page only"},
		{[]string{"selection", "set", "--project", dir, "--librarian", "ben", "s2.test", "approved"}, 1, "candidate → approved"},
		{[]string{"selection", "set", "--project", dir, "--librarian", "ben", "s2.test"}, 2, "give SITE and STATUS"},
		{[]string{"selection", "export", "--project", dir}, 0, "http://s1.test/\n"},
		{[]string{"selection", "export", "--project", dir, "--format", "csv"}, 0,
			"site,seed_url,status,nominated_by,nominated_at,approved_by,approved_at,rejected_by,rejected_at,rejected_reason,note,subject,opic,checked,page_only\ns1.test,http://s1.test/,approved,ana,"},
		{[]string{"selection", "export", "--project", dir, "--status", "maybe"}, 1, `unknown selection status "maybe"`},
		{[]string{"selection", "--project", dir}, 2, "want set or export"},
	} {
		code, out, stderr := runCLI(t, tc.args...)
		text := out
		if tc.code != 0 {
			text = stderr
		}
		if code != tc.code || !strings.Contains(text, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d and %q", tc.args, code, out, stderr, tc.code, tc.want)
		}
	}
	code, out, _ := runCLI(t, "selection", "export", "--project", dir, "--format", "json")
	var seeds []map[string]any
	if err := json.Unmarshal([]byte(out), &seeds); err != nil || code != 0 || len(seeds) != 1 || seeds[0]["seed_url"] != "http://s1.test/" ||
		seeds[0]["subject"] != "maps" || seeds[0]["decided_by"] != "ben" || seeds[0]["decided_at"] == nil || seeds[0]["page_only"] != true {
		t.Errorf("json export %v: %s", err, out)
	}
	// Its seed page only: no SURT prefix of its site in the Heritrix seeds,
	// the page scope in Browsertrix; --page-only=false gives the whole site.
	code, out, stderr := runCLI(t, "export", "--project", dir, "--what", "heritrix-seeds")
	if code != 0 || !strings.Contains(out, "\nhttp://s1.test/\n") || strings.Contains(out, "+http://(test,s1,") {
		t.Errorf("heritrix seeds of a seed page only: %d %q %q", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "export", "--project", dir, "--what", "browsertrix")
	if code != 0 || !strings.Contains(out, "  - url: \"http://s1.test/\"\n    scopeType: page\n") {
		t.Errorf("browsertrix of a seed page only: %d %q %q", code, out, stderr)
	}
	if code, out, stderr := runCLI(t, "selection", "set", "--project", dir, "--librarian", "ben", "--page-only=false", "s1.test", "approved"); code != 0 ||
		strings.Contains(out, "page only") {
		t.Errorf("--page-only=false: %d %q %q", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "export", "--project", dir, "--what", "heritrix-seeds")
	if code != 0 || !strings.Contains(out, "\nhttp://s1.test/\n+http://(test,s1,)/\n") {
		t.Errorf("heritrix seeds of a whole site: %d %q %q", code, out, stderr)
	}
}

func TestBiasedRanking(t *testing.T) {
	dir := apptest.ReviewProject(t)
	a, closeApp := apptest.Open(t, dir)
	ctx := context.Background()
	br, err := a.Ranking.BiasedPageRank(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if br.Bias != ranking.DefaultBias || br.Favoured != 1 {
		t.Errorf("bias %v, favoured %d", br.Bias, br.Favoured)
	}
	var sum float64
	for _, v := range br.Rank {
		sum += v
	}
	// s1 (mean 11/3) gains from the bias, s5 (mean 2) does not; the
	// stored, unbiased PageRank is what Plain gives.
	if math.Abs(sum-1) > 1e-9 || br.Rank["s1.test"] <= br.Plain["s1.test"] || br.Rank["s5.test"] >= br.Plain["s5.test"] {
		t.Errorf("biased %v plain %v", br.Rank, br.Plain)
	}
	closeApp()
	code, out, stderr := runCLI(t, "rank", "--project", dir, "--biased", "--format", "csv")
	if code != 0 {
		t.Fatal(stderr)
	}
	recs := apptest.ReadCSV(t, out)
	if strings.Join(recs[0], ",") != "site,biased_pagerank,pagerank,opic,mean_rating,favoured" ||
		recs[1][0] != "s1.test" || recs[1][5] != "true" || len(recs) != 8 {
		t.Errorf("rank --biased:\n%s", out)
	}
	if code, _, _ := runCLI(t, "rank", "--project", dir, "--biased", "--weighting", "binary"); code != 2 {
		t.Errorf("--biased --weighting binary: exit %d", code)
	}
}
