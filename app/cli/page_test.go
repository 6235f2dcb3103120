package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/review"
)

// TestCLIPage: sitesift page prints a page's main text, with --whole its
// whole text, with --format json both and the rest; for a page fetched
// before the whole text was kept it says so on standard error and prints
// the text kept then; an unknown page and a bad URL fail on one line.
func TestCLIPage(t *testing.T) {
	dir := apptest.TextsProject(t)
	// Opened once, the project has its pages indexed: the commands below
	// print nothing of that.
	_, closeProject := apptest.Open(t, dir)
	closeProject()

	code, out, stderr := runCLI(t, "page", "--project", dir, apptest.StoryURL)
	if code != 0 || out != apptest.StoryText+"\n" || stderr != "" {
		t.Errorf("main text: exit %d, out %q, stderr %q", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "page", "--whole", "--project", dir, apptest.StoryURL)
	if code != 0 || out != apptest.StoryFullText+"\n" || stderr != "" {
		t.Errorf("--whole: exit %d, out %q, stderr %q", code, out, stderr)
	}
	code, out, _ = runCLI(t, "page", "--project", dir, "--format", "json", apptest.StoryURL)
	var p review.PageText
	if err := json.Unmarshal([]byte(out), &p); code != 0 || err != nil || p.FullText != apptest.StoryFullText ||
		p.Text != apptest.StoryText || p.Language != "en" || p.EditorialLinks != 2 || p.TemplateLinks != 3 {
		t.Errorf("--format json: exit %d, %v, %+v", code, err, p)
	}

	code, out, stderr = runCLI(t, "page", "--whole", "--project", dir, apptest.OldURL)
	if code != 0 || out != apptest.OldText+"\n" || !strings.Contains(stderr, "was fetched before sitesift told a page's main text from its template") {
		t.Errorf("--whole of a page fetched before: exit %d, out %q, stderr %q", code, out, stderr)
	}

	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"page", "--project", dir, "http://news.test/none"}, 1, `"http://news.test/none"`},
		{[]string{"page", "--project", dir, "news.test/2024/story"}, 1, "not an http(s) URL"},
		{[]string{"page", "--project", dir}, 2, "give one URL"},
		{[]string{"page", "--project", dir, "--format", "csv", apptest.StoryURL}, 2, `unknown format "csv"`},
	} {
		code, out, stderr := runCLI(t, c.args...)
		if code != c.code || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, out %q, stderr %q; want exit %d saying %s", c.args, code, out, stderr, c.code, c.want)
		}
	}
}
