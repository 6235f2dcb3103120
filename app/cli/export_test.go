package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app/apptest"
)

// TestExportCLI: sitesift help export lists every deliverable; sitesift
// export --what writes each under the Export page's name into a directory,
// or to standard output; a bad request writes nothing.
func TestExportCLI(t *testing.T) {
	dir := apptest.ReviewProject(t)
	code, out, _ := runCLI(t, "help", "export")
	for _, w := range []string{"--what approved", "PROJECT-approved.txt|csv|json", "--what top-k", "PROJECT-top-K.txt|csv|json",
		"--what communities", "--what ratings", "PROJECT-ratings.csv", "--what sites", "--what heritrix-precedence", "--what warc-list"} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("help export lacks %q:\n%s", w, out)
		}
	}
	for _, args := range [][]string{
		{"selection", "set", "--project", dir, "--librarian", "ana", "s1.test", "nominated"},
		{"selection", "set", "--project", dir, "--librarian", "ben", "s1.test", "approved"},
		{"selection", "set", "--project", dir, "--librarian", "cleo", "--reason", "a shop", "s2.test", "rejected"},
	} {
		if code, _, stderr := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: %d %s", args, code, stderr)
		}
	}
	// The seeds by importance are the top-k list: s2, rejected, stays out.
	if code, out, _ := runCLI(t, "seeds", "--project", dir, "--method", "importance", "--count", "2"); code != 0 || out != "http://s3.test/\nhttp://s4.test/\n" {
		t.Errorf("seeds by importance: %d %q", code, out)
	}
	if code, out, _ := runCLI(t, "seeds", "--project", dir, "--method", "importance", "--count", "2", "--include-rejected"); code != 0 ||
		out != "http://s2.test/\nhttp://s3.test/\n" {
		t.Errorf("seeds by importance with the rejected: %d %q", code, out)
	}
	outDir := t.TempDir()
	for _, tc := range []struct {
		args []string
		file string
		want string
	}{
		{[]string{"--what", "approved"}, "project-approved.txt", "http://s1.test/\n"},
		{[]string{"--what", "approved", "--format", "csv"}, "project-approved.csv", "site,seed_url,status,nominated_by,nominated_at,approved_by,approved_at"},
		{[]string{"--what", "approved", "--format", "json"}, "project-approved.json", `"nominated_by": "ana"`},
		{[]string{"--what", "top-k", "--count", "2"}, "project-top-2.txt", "http://s3.test/\nhttp://s4.test/\n"},
		{[]string{"--what", "top-k", "--count", "2", "--include-rejected"}, "project-top-2.txt", "http://s2.test/\nhttp://s3.test/\n"},
		{[]string{"--what", "communities"}, "project-communities.txt", ""},
		{[]string{"--what", "ratings"}, "project-ratings.csv", "librarian,site,rating,note\n"},
		{[]string{"--what", "sites", "--format", "json"}, "project-sites.json", `"selection": "rejected"`},
		{[]string{"--what", "heritrix-precedence"}, "project-heritrix-precedence.txt", "http://s3.test/ 1\n"},
		{[]string{"--what", "heritrix-seeds"}, "project-heritrix-seeds.txt", "http://s1.test/"},
		{[]string{"--what", "browsertrix"}, "project-browsertrix.yaml", "# browsertrix-crawler"},
	} {
		args := append([]string{"export", "--project", dir, "--out", outDir + string(os.PathSeparator)}, tc.args...)
		code, _, stderr := runCLI(t, args...)
		b, err := os.ReadFile(filepath.Join(outDir, tc.file))
		if code != 0 || err != nil || !strings.Contains(string(b), tc.want) || !strings.Contains(stderr, tc.file) {
			t.Errorf("%v: exit %d %s %v\n%s", tc.args, code, stderr, err, b)
		}
		code, out, _ := runCLI(t, append([]string{"export", "--project", dir}, tc.args...)...)
		if code != 0 || out != string(b) {
			t.Errorf("%v on standard output differs from the file: %q", tc.args, out)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--what", "seeds"}, `unknown --what "seeds"`},
		{[]string{}, "--what is required"},
		{[]string{"--what", "ratings", "--format", "json"}, `format "json" (want csv)`},
		{[]string{"--what", "approved", "--count", "3"}, "--count goes with --what top-k"},
		{[]string{"--what", "top-k", "--count", "0"}, "--count 0 must be positive"},
		{[]string{"--what", "ratings", "--buckets", "3"}, "--buckets goes with --what heritrix-precedence"},
		{[]string{"--what", "browsertrix", "--count", "3"}, "--count goes with --what top-k"},
		{[]string{"--what", "heritrix-seeds", "--include-platforms"}, "--include-platforms goes with --what approved, top-k, communities, heritrix-precedence"},
	} {
		bad := filepath.Join(t.TempDir(), "bad.txt")
		code, _, stderr := runCLI(t, append([]string{"export", "--project", dir, "--out", bad}, tc.args...)...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d %q, want %q", tc.args, code, stderr, tc.want)
		}
		if _, err := os.Stat(bad); err == nil {
			t.Errorf("%v: a refused export wrote %s", tc.args, bad)
		}
	}
}

// TestExportLeftOutCLI: an export that left sites out says how many and
// why on standard error, the file staying what its crawler reads;
// --include-failed keeps them in the Heritrix precedence file too.
func TestExportLeftOutCLI(t *testing.T) {
	dir := apptest.FailuresProject(t)
	code, out, stderr := runCLI(t, "export", "--project", dir, "--what", "heritrix-precedence")
	if code != 0 || out != "http://ok.test/ 1\n" ||
		!strings.Contains(stderr, "export heritrix-precedence: left out 3 sites: 1 dead (every fetch failed), 1 errors only, 1 closed to robots") {
		t.Errorf("heritrix-precedence: %d %q %q", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "export", "--project", dir, "--what", "heritrix-precedence", "--include-failed")
	if code != 0 || strings.Count(out, "\n") != 4 || strings.Contains(stderr, "left out") {
		t.Errorf("heritrix-precedence --include-failed: %d %q %q", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "seeds", "--project", dir, "--count", "5", "--method", "importance")
	if code != 0 || out != "http://ok.test/\n" || !strings.Contains(stderr, "seeds: left out 3 sites") {
		t.Errorf("seeds: %d %q %q", code, out, stderr)
	}
	if code, _, stderr = runCLI(t, "export", "--project", dir, "--what", "ratings", "--include-failed"); code == 0 ||
		!strings.Contains(stderr, "--include-failed goes with --what approved, top-k, heritrix-precedence") {
		t.Errorf("ratings --include-failed: %d %q", code, stderr)
	}
}

// TestExportBOMCLI: `sitesift export` starts the sites table and the
// ratings file with a UTF-8 byte-order mark unless --bom=false, a seed list
// only with --bom, refuses --bom for a file that is not CSV; `sitesift
// ratings export` writes the mark too, and `ratings import` reads the file
// back, with or without it.
func TestExportBOMCLI(t *testing.T) {
	dir := apptest.ReviewProject(t)
	outDir := t.TempDir()
	for _, tc := range []struct {
		args []string
		file string
		bom  bool
	}{
		{[]string{"--what", "sites", "--format", "csv"}, "project-sites.csv", true},
		{[]string{"--what", "sites", "--format", "csv", "--bom=false"}, "project-sites.csv", false},
		{[]string{"--what", "ratings"}, "project-ratings.csv", true},
		{[]string{"--what", "top-k", "--format", "csv"}, "project-top-100.csv", false},
		{[]string{"--what", "top-k", "--format", "csv", "--bom"}, "project-top-100.csv", true},
	} {
		args := append([]string{"export", "--project", dir, "--out", outDir + string(os.PathSeparator)}, tc.args...)
		code, _, stderr := runCLI(t, args...)
		b, err := os.ReadFile(filepath.Join(outDir, tc.file))
		if code != 0 || err != nil || strings.HasPrefix(string(b), "\uFEFF") != tc.bom || !strings.Contains(string(b), ",") {
			t.Errorf("%v: %d %v %s; starts %q, want a byte-order mark: %v", tc.args, code, err, stderr, string(b)[:min(len(b), 8)], tc.bom)
		}
	}
	for _, args := range [][]string{{"--what", "top-k", "--bom"}, {"--what", "browsertrix", "--bom"}, {"--what", "sites", "--format", "json", "--bom"}} {
		if code, _, stderr := runCLI(t, append([]string{"export", "--project", dir}, args...)...); code == 0 || !strings.Contains(stderr, "--bom") && !strings.Contains(stderr, "byte-order mark") {
			t.Errorf("%v: %d %s, want a refusal", args, code, stderr)
		}
	}
	for _, bom := range []string{"--bom=true", "--bom=false"} {
		file := filepath.Join(outDir, "ratings"+bom+".csv")
		if code, _, stderr := runCLI(t, "ratings", "export", "--project", dir, bom, file); code != 0 {
			t.Fatalf("ratings export %s: %d %s", bom, code, stderr)
		}
		b, _ := os.ReadFile(file)
		if strings.HasPrefix(string(b), "\uFEFF") != (bom == "--bom=true") {
			t.Errorf("ratings export %s starts %q", bom, string(b)[:min(len(b), 8)])
		}
		code, out, stderr := runCLI(t, "ratings", "import", "--project", dir, file)
		if code != 0 || !strings.Contains(out, "0 added, 0 changed") {
			t.Errorf("ratings import of the file of ratings export %s: %d %s %s", bom, code, out, stderr)
		}
	}
}

// An empty deliverable is written with its header alone, says why on
// stderr and exits with status 3, for every --what: a script does not hand
// an empty seed list to a crawler unawares.
func TestExportEmpty(t *testing.T) {
	dir := apptest.ReviewProject(t) // rated, nothing approved, no WARC file
	out := t.TempDir()
	for _, tc := range []struct {
		args   []string
		stdout string // the file written to standard output, "-" when it goes to --out
		file   string
		stderr string
		exit   int
	}{
		{[]string{"--what", "approved"}, "", "", "sitesift: export approved: nothing approved yet: approve sites on the Selection page (or sitesift selection set) first\n", 3},
		{[]string{"--what", "approved", "--format", "csv", "--out", out}, "-", "project-approved.csv", "nothing approved yet", 3},
		{[]string{"--what", "approved", "--format", "json"}, "[]\n", "", "nothing approved yet", 3},
		{[]string{"--what", "heritrix-seeds"}, "# Heritrix seeds", "", "nothing approved yet", 3},
		{[]string{"--what", "browsertrix"}, "# browsertrix-crawler", "", "nothing approved yet", 3},
		{[]string{"--what", "heritrix", "--out", filepath.Join(out, "h")}, "-", "h/seeds.txt", "nothing approved yet", 3},
		{[]string{"--what", "warc-list"}, "", "", "no WARC file in this project yet", 3},
		{[]string{"--what", "ratings"}, "\uFEFFlibrarian,site,rating,note\n", "", "", 0},
		// The other commands that write a list of sites say so alike.
		{[]string{"selection", "export"}, "", "", "sitesift: selection export: no site is approved yet\n", 3},
		{[]string{"selection", "export", "--status", "rejected", "--format", "csv"}, "site,", "", "no site is rejected yet", 3},
		{[]string{"seeds", "--count", "3", "--min-hubs", "50"}, "", "", "sitesift: seeds: no community found in the site graph", 3},
	} {
		args := append([]string{"export", "--project", dir}, tc.args...)
		if tc.args[0] != "--what" { // another command than export
			args = append(append(tc.args[:len(tc.args):len(tc.args)], "--project", dir), args[len(args):]...)
		}
		code, stdout, stderr := runCLI(t, args...)
		if code != tc.exit || !strings.Contains(stderr, tc.stderr) || tc.stderr == "" && strings.Contains(stderr, "sitesift:") {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.exit, tc.stderr)
		}
		if tc.stdout != "-" && !strings.HasPrefix(stdout, tc.stdout) {
			t.Errorf("%v: stdout %q, want %q first", tc.args, stdout, tc.stdout)
		}
		if tc.file != "" {
			if b, err := os.ReadFile(filepath.Join(out, tc.file)); err != nil || len(b) == 0 {
				t.Errorf("%v: %s not written: %q %v", tc.args, tc.file, b, err)
			}
		}
	}
}

// A project with no rating exports the ratings file's header alone, says
// so and exits with status 3, to standard output and to a file alike.
func TestRatingsExportEmpty(t *testing.T) {
	dir := apptest.CrawledProject(t)
	file := filepath.Join(t.TempDir(), "ratings.csv")
	for _, args := range [][]string{{"ratings", "export", "--project", dir}, {"ratings", "export", "--project", dir, file}} {
		code, _, stderr := runCLI(t, args...)
		if code != 3 || stderr != "sitesift: ratings export: no rating or note yet\n" {
			t.Errorf("%v: exit %d, %q; want 3 and no rating", args[3:], code, stderr)
		}
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "\uFEFFlibrarian,site,rating,note\n" {
		t.Errorf("the file holds %q (%v), want its header", b, err)
	}
}
