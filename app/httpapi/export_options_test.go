package httpapi

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/export"
	"sitesift/app/exports"
	"sitesift/importance"
)

// TestExportOptionsOneTable: each deliverable takes the options its entry
// of the export table declares, and the API refuses the others as the
// command line does (GET /api/export/ratings?buckets=3 is a 400), the
// download and its left-out count alike.
func TestExportOptionsOneTable(t *testing.T) {
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	h := New(a)
	values := map[string]string{exports.OptCount: "3", exports.OptBuckets: "3", exports.OptIncludeFailed: "true",
		exports.OptIncludeRejected: "true", exports.OptIncludePlatforms: "true"}
	if len(values) != len(exports.Options) {
		t.Fatalf("options %v, the test knows %v", exports.Options, values)
	}
	for _, d := range exports.Deliverables {
		for _, o := range exports.Options {
			want := 400
			if slices.Contains(d.Options, o) {
				want = 200
			}
			for _, path := range []string{"/api/export/" + d.What + "?" + o + "=" + values[o], "/api/export/" + d.What + "/left-out?" + o + "=" + values[o]} {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, apptest.Request(h, "GET", path, nil))
				if rec.Code != want || want == 400 && !strings.Contains(rec.Body.String(), o) {
					t.Errorf("%s: %d %s, want %d", path, rec.Code, rec.Body, want)
				}
			}
		}
	}
	apptest.Call(t, h, "GET", "/api/export/ratings?buckets=3", "", 400, nil)
}

// TestEveryDeliverableShown: each deliverable of the export table has its
// card on the Export page and its entry in the API reference.
func TestEveryDeliverableShown(t *testing.T) {
	page, err := os.ReadFile("../../frontend/src/export-view.ts")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := os.ReadFile("API.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range exports.Deliverables {
		if !strings.Contains(string(page), "#card('"+d.What+"'") && !strings.Contains(string(page), `data-deliverable="`+d.What+`"`) {
			t.Errorf("%s has no card on the Export page (frontend/src/export-view.ts)", d.What)
		}
		if !strings.Contains(string(ref), "\n  - `"+d.What+"` (") {
			t.Errorf("%s has no entry in app/httpapi/API.md", d.What)
		}
	}
}

// TestCommunitySeedsOneMethod: the community seeds are one service method,
// whichever way they are asked for: a fresh extraction (sitesift seeds, GET
// /api/export/seeds) or the Communities page's current one (the Export
// page's deliverable), the same bytes and counts.
func TestCommunitySeedsOneMethod(t *testing.T) {
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	h := New(a)
	ctx := context.Background()
	var fresh bytes.Buffer
	wr, err := a.Exports.ExportCommunitySeeds(ctx, &fresh, exports.CommunitySeedsRequest{Count: 3, Options: importance.DefaultCoreOptions(),
		Format: export.CSV})
	if err != nil || wr.LeftOut == nil {
		t.Fatalf("fresh extraction: %+v, %v", wr, err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "GET", "/api/export/seeds?count=3&format=csv", nil))
	if rec.Code != 200 || rec.Body.String() != fresh.String() {
		t.Errorf("GET /api/export/seeds: %d %q; the service writes %q", rec.Code, rec.Body, fresh.String())
	}
	var current bytes.Buffer
	if _, err := a.Exports.ExportCommunitySeeds(ctx, &current, exports.CommunitySeedsRequest{Current: true, Format: export.JSON}); err != nil {
		t.Fatal(err)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "GET", "/api/export/communities?format=json", nil))
	if rec.Code != 200 || rec.Body.String() != current.String() {
		t.Errorf("GET /api/export/communities: %d %q; the service writes %q", rec.Code, rec.Body, current.String())
	}
}
