package httpapi

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/imports"
)

// messyEdges is an edge list with two bad lines, 3 and 5, among four
// good ones: a comma for a dot, and an address cut short.
const messyEdges = "# a host graph\n" +
	"a.test b.test\n" +
	"www,umass.edu c.test\n" +
	"b.test c.test\n" +
	"a.test 194.131.191\n" +
	"c.test a.test 2\n"

// siteCount is the number of sites the project lists.
func siteCount(t *testing.T, h http.Handler) int {
	t.Helper()
	var sr struct {
		Total int `json:"total"`
	}
	apptest.Call(t, h, "GET", "/api/sites", "", http.StatusOK, &sr)
	return sr.Total
}

// TestImportEdgesAPI: an edge list uploaded and imported from the app.
// Read strictly, a file with bad lines is refused with each named by its
// number, and the project is left as it was; read leniently, the bad lines
// are skipped, counted and named, and the good ones imported.
func TestImportEdgesAPI(t *testing.T) {
	_, h := emptyApp(t)
	path := upload(t, h, "messy.txt", []byte(messyEdges))
	body := func(strict bool) string {
		b, _ := json.Marshal(imports.EdgeImportRequest{Path: path, Strict: strict})
		return string(b)
	}

	env := apptest.Call(t, h, "POST", "/api/imports/edges", body(true), http.StatusBadRequest, nil)
	var ref imports.EdgeListRefusal
	if err := json.Unmarshal(env.Data, &ref); err != nil {
		t.Fatalf("refusal data %s: %v", env.Data, err)
	}
	if ref.TotalBad != 2 || len(ref.BadLines) != 2 || ref.BadLines[0].Line != 3 || ref.BadLines[1].Line != 5 ||
		ref.BadLines[0].Error == "" {
		t.Errorf("strict refusal names %+v (%d in all), want lines 3 and 5", ref.BadLines, ref.TotalBad)
	}
	if !strings.Contains(env.Error, "messy.txt:3: ") || !strings.Contains(env.Error, "nothing imported") {
		t.Errorf("strict refusal says %q, want line 3 named and nothing imported", env.Error)
	}
	if n := siteCount(t, h); n != 0 {
		t.Fatalf("a refused file left %d sites in the project", n)
	}

	var res imports.ImportResult
	apptest.Call(t, h, "POST", "/api/imports/edges", body(false), http.StatusOK, &res)
	r := res.Read
	if res.Sites != 3 || res.Edges != 3 || r.Format != "edge list" || r.IDs {
		t.Errorf("imported %d sites, %d edges from a %q (ids %v), want 3 sites and 3 edges from an edge list of host names",
			res.Sites, res.Edges, r.Format, r.IDs)
	}
	if r.SkippedLines != 2 || len(r.SkippedFirst) != 2 || r.SkippedFirst[0].Line != 3 || r.SkippedFirst[1].Line != 5 {
		t.Errorf("skipped %d lines, named %+v; want 2, lines 3 and 5", r.SkippedLines, r.SkippedFirst)
	}
	why := 0
	for _, w := range r.SkippedWhy {
		if w.Why == "" {
			t.Errorf("a reason without words: %+v", r.SkippedWhy)
		}
		why += w.Lines
	}
	if why != 2 {
		t.Errorf("reasons count %d lines (%+v), want 2", why, r.SkippedWhy)
	}
	if n := siteCount(t, h); n != 3 {
		t.Errorf("the project lists %d sites after the import, want 3", n)
	}

	env = apptest.Call(t, h, "POST", "/api/imports/edges", `{"path": "/no/such/edges.txt"}`, http.StatusBadRequest, nil)
	if !strings.Contains(env.Error, "/no/such/edges.txt") {
		t.Errorf("a missing file is refused with %q, which does not name it", env.Error)
	}
}

// TestTeamImportEdges: on a team server an edge list is an admin's to
// import, from the import folder or the project's uploads only; a path
// outside is refused without a word of what lies there, and one inside
// goes on to the import's own checks (a crawled project takes none).
func TestTeamImportEdges(t *testing.T) {
	ts := newTeamServer(t)
	root := t.TempDir()
	folder, outside := filepath.Join(root, "imports"), filepath.Join(root, "secret")
	os.Mkdir(folder, 0o755)
	os.Mkdir(outside, 0o755)
	os.WriteFile(filepath.Join(outside, "hosts.txt"), []byte("secret.test other.test\n"), 0o644)
	os.WriteFile(filepath.Join(folder, "hosts.txt"), []byte("a.test b.test\n"), 0o644)
	if err := ts.a.Imports.SetImportFolder(folder); err != nil {
		t.Fatal(err)
	}
	body := func(p string) string {
		b, _ := json.Marshal(imports.EdgeImportRequest{Path: p})
		return string(b)
	}
	dora := ts.login("dora")
	for _, p := range []string{filepath.Join(outside, "hosts.txt"), folder + "/../secret/hosts.txt", "/etc/passwd", "hosts.txt"} {
		rec := ts.want(dora, "POST", "/api/imports/edges", body(p), http.StatusBadRequest, "^import: the path is outside the import folder$")
		if strings.Contains(rec.Body.String(), "secret") || strings.Contains(rec.Body.String(), "passwd") {
			t.Errorf("the refusal of %s echoes it: %s", p, rec.Body)
		}
	}
	ts.want(ts.login("ana"), "POST", "/api/imports/edges", body(filepath.Join(folder, "hosts.txt")), http.StatusForbidden, "needs the admin role")
	ts.want(dora, "POST", "/api/imports/edges", body(filepath.Join(folder, "hosts.txt")), http.StatusConflict, "holds a crawl")
}
