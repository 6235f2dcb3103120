package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/project"
	"sitesift/sites"
)

// platformProject is a closed project whose two sites link, from their
// templates, to youtube.com and bit.ly, which rank first.
func platformProject(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "project")
	p, err := project.Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	template := []string{"https://www.youtube.com/@news", "https://bit.ly/x"}
	err = p.Store.SaveCrawlBatch(context.Background(), []sites.Page{
		apptest.Page(t, "http://news.test/", append(template, "http://blog.test/")...),
		apptest.Page(t, "http://news.test/a", "https://www.youtube.com/@news"),
		apptest.Page(t, "http://blog.test/", append(template, "http://news.test/")...),
		apptest.Page(t, "http://blog.test/b", "http://news.test/"),
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// youtube.com, linked from three pages, then bit.ly, news.test (linked
	// from two pages of blog.test) and blog.test.
	if _, err := app.New(app.Options{Project: p}).Ranking.UpdateImportance(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// firstColumn returns the first field of each CSV line after the header.
func firstColumn(out string) []string {
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		names = append(names, strings.Split(l, ",")[0])
	}
	return names
}

// TestCLIPlatforms: `platforms` lists the platform sites and moves a site
// in or out; rank, sites, seeds and export leave them out with a count on
// standard error, and keep them with --include-platforms.
func TestCLIPlatforms(t *testing.T) {
	dir := platformProject(t)
	code, out, stderr := runCLI(t, "platforms", "--project", dir)
	if code != 0 || out != "youtube.com\nbit.ly\n" || !strings.Contains(stderr, "2 platform sites") ||
		!strings.Contains(stderr, "Archive-It and Browsertrix") {
		t.Errorf("platforms: %d %q %q", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "rank", "--project", dir, "--format", "csv")
	if code != 0 || strings.Join(firstColumn(out), " ") != "news.test blog.test" ||
		!strings.Contains(stderr, "left out 2 platform sites (--include-platforms keeps them)") {
		t.Errorf("rank: %d %q %q", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "rank", "--project", dir, "--format", "csv", "--include-platforms")
	if code != 0 || strings.Join(firstColumn(out), " ") != "youtube.com bit.ly news.test blog.test" || stderr != "" {
		t.Errorf("rank --include-platforms: %d %q %q", code, out, stderr)
	}
	code, out, _ = runCLI(t, "sites", "--project", dir, "--platforms", "only", "--format", "csv")
	if code != 0 || strings.Join(firstColumn(out), " ") != "youtube.com bit.ly" {
		t.Errorf("sites --platforms only: %d %q", code, out)
	}
	code, out, stderr = runCLI(t, "export", "--project", dir, "--what", "top-k")
	if code != 0 || out != "http://news.test/\nhttp://blog.test/\n" || !strings.Contains(stderr, "left out 2 sites: 2 on the platforms list") {
		t.Errorf("export top-k: %d %q %q", code, out, stderr)
	}
	code, out, _ = runCLI(t, "export", "--project", dir, "--what", "top-k", "--include-platforms")
	if code != 0 || !strings.HasPrefix(out, "http://youtube.com/\n") {
		t.Errorf("export top-k --include-platforms: %d %q", code, out)
	}
	code, out, stderr = runCLI(t, "seeds", "--project", dir, "--count", "5", "--method", "importance")
	if code != 0 || out != "http://news.test/\nhttp://blog.test/\n" || !strings.Contains(stderr, "2 on the platforms list") {
		t.Errorf("seeds --method importance: %d %q %q", code, out, stderr)
	}
	if code, _, stderr = runCLI(t, "export", "--project", dir, "--what", "sites", "--include-platforms"); code != 2 ||
		!strings.Contains(stderr, "--include-platforms goes with") {
		t.Errorf("export sites --include-platforms: %d %q", code, stderr)
	}

	code, out, stderr = runCLI(t, "platforms", "--project", dir, "--out", "bit.ly")
	if code != 0 || out != "bit.ly moved out of the platforms (the list names it)\n" {
		t.Errorf("platforms --out: %d %q %q", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "platforms", "--project", dir, "--in", "http://www.blog.test/x")
	if code != 0 || out != "blog.test moved into the platforms (the list does not name it)\n" {
		t.Errorf("platforms --in: %d %q %q", code, out, stderr)
	}
	if code, out, _ = runCLI(t, "platforms", "--project", dir); out != "youtube.com\nblog.test\n" {
		t.Errorf("platforms after the moves: %d %q", code, out)
	}
	if code, _, stderr = runCLI(t, "platforms", "--project", dir, "--in", "a.test", "--out", "b.test"); code != 2 {
		t.Errorf("--in and --out: %d %q", code, stderr)
	}
	if code, _, stderr = runCLI(t, "platforms", "--project", dir, "--in", "nowhere.test"); code != 1 || !strings.Contains(stderr, "nowhere.test") {
		t.Errorf("an unknown site: %d %q", code, stderr)
	}
}

// TestCLICommunitySeedsLeaveOutPlatforms: a site moved into the platforms
// is a hub of no community, so its core takes its seed from its next hub
// site, with or without the platforms kept.
func TestCLICommunitySeedsLeaveOutPlatforms(t *testing.T) {
	dir := apptest.CommunityProject(t)
	if code, _, stderr := runCLI(t, "platforms", "--project", dir, "--in", "h1.test"); code != 0 {
		t.Fatalf("platforms --in: %d %s", code, stderr)
	}
	for _, args := range [][]string{nil, {"--include-platforms"}} {
		code, out, stderr := runCLI(t, append([]string{"seeds", "--project", dir, "--count", "3"}, args...)...)
		if code != 0 || out != "http://h2.test/\nhttp://g1.test/\n" || strings.Contains(stderr, "platforms list") {
			t.Errorf("seeds %v: %d %q %q", args, code, out, stderr)
		}
	}
}
