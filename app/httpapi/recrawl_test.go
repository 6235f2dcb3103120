package httpapi

import (
	"strings"
	"testing"
	"testing/fstest"

	"sitesift/app/apptest"
)

// The recrawl endpoints on a project with no page: nothing to revisit, a
// recrawl with seeds refused, an unknown site not found.
func TestRecrawlAPIEmptyProject(t *testing.T) {
	h := New(apptest.Empty(t), Assets(fstest.MapFS{"index.html": {Data: []byte("<title>sitesift</title>")}}))
	for body, want := range map[string]string{
		`{}`:                            "no page to revisit",
		`{"seeds": ["http://a.test/"]}`: "takes no seeds",
		`{"max_pages": -1}`:             "must not be negative",
		`{"strategy": "fastest"}`:       "fastest",
		`{"window": "median"}`:          "window",
	} {
		if env := apptest.Call(t, h, "POST", "/api/crawl/recrawl", body, 400, nil); !strings.Contains(env.Error, want) {
			t.Errorf("POST /api/crawl/recrawl %s: %q, want it to say %q", body, env.Error, want)
		}
	}
	apptest.Call(t, h, "GET", "/api/sites/nowhere.test/recrawls", "", 404, nil)
	var changed map[string]any
	apptest.Call(t, h, "GET", "/api/recrawl/changed", "", 200, &changed)
	if len(changed) != 0 {
		t.Errorf("changed sites of an empty project: %v", changed)
	}
	var st struct {
		State string `json:"state"`
	}
	apptest.Call(t, h, "GET", "/api/crawl", "", 200, &st)
	if st.State != "idle" {
		t.Errorf("after the refused recrawls the crawl is %q, want idle", st.State)
	}
}
