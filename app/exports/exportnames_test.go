package exports_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/exports"
	"sitesift/app/fault"
	"sitesift/app/ranking"
	"sitesift/sites/store"
)

// TestExports: every deliverable's file name starts with the project's
// name; the approved selection carries its nominator and approver; top-K
// leaves out the rejected sites unless asked.
func TestExports(t *testing.T) {
	ctx := context.Background()
	a, _ := apptest.Open(t, apptest.ReviewProject(t))
	want := map[exports.ExportRequest]string{
		{What: exports.ExportApproved}:                   "project-approved.txt",
		{What: exports.ExportApproved, Format: "csv"}:    "project-approved.csv",
		{What: exports.ExportApproved, Format: "json"}:   "project-approved.json",
		{What: exports.ExportTopK, Count: 25}:            "project-top-25.txt",
		{What: exports.ExportCommunities, Format: "csv"}: "project-communities.csv",
		{What: exports.ExportRatings}:                    "project-ratings.csv",
		{What: exports.ExportSites}:                      "project-sites.csv",
		{What: exports.ExportSites, Format: "json"}:      "project-sites.json",
		{What: exports.ExportHeritrix}:                   "project-heritrix-precedence.txt",
	}
	for req, name := range want {
		if got, err := a.Exports.ExportName(req); err != nil || got != name {
			t.Errorf("%+v: %q %v, want %q", req, got, err, name)
		}
	}
	for _, bad := range []exports.ExportRequest{{What: "seeds"}, {What: exports.ExportRatings, Format: "json"}, {What: exports.ExportTopK, Count: -1}} {
		if _, err := a.Exports.ExportName(bad); fault.KindOf(err) != fault.KindInvalid {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	// The sites of another selection status are named by it.
	for _, tt := range []struct{ status, format, name string }{
		{"", "txt", "project-approved.txt"}, {"nominated", "csv", "project-nominated.csv"},
		{"rejected", "json", "project-rejected.json"},
	} {
		if got, err := a.Exports.SelectionName(tt.status, tt.format); err != nil || got != tt.name {
			t.Errorf("SelectionName(%q, %q) = %q %v, want %q", tt.status, tt.format, got, err, tt.name)
		}
	}
	if _, err := a.Exports.SelectionName("nominated", "xml"); fault.KindOf(err) != fault.KindInvalid {
		t.Errorf("SelectionName in xml: %v", err)
	}

	for _, s := range []struct{ lib, site, status string }{
		{"ana", "s1.test", "nominated"}, {"ben", "s1.test", "approved"},
		{"ben", "s4.test", "nominated"}, {"cleo", "s4.test", "approved"},
		{"ana", "s2.test", "rejected"},
	} {
		if _, err := a.Review.SetSelection(ctx, s.site, store.SelectionUpdate{Librarian: s.lib, Status: s.status, Subject: app.Set("maps")}); err != nil {
			t.Fatal(err)
		}
	}
	export := func(req exports.ExportRequest) string {
		t.Helper()
		var buf bytes.Buffer
		if err := a.Exports.Export(ctx, &buf, req); err != nil {
			t.Fatalf("%+v: %v", req, err)
		}
		return buf.String()
	}
	// s4 (OPIC 0.2) before s1 (0.1).
	if got := export(exports.ExportRequest{What: exports.ExportApproved}); got != "http://s4.test/\nhttp://s1.test/\n" {
		t.Errorf("approved txt %q", got)
	}
	rows := apptest.ReadCSV(t, export(exports.ExportRequest{What: exports.ExportApproved, Format: "csv"}))
	if strings.Join(rows[0], ",") != strings.Join(exports.SelectionColumns, ",") || len(rows) != 3 ||
		strings.Join(rows[2][:4], ",") != "s1.test,http://s1.test/,approved,ana" || rows[2][5] != "ben" || rows[2][4] == "" || rows[2][6] == "" {
		t.Errorf("approved csv %q", rows)
	}
	var js []map[string]any
	if err := json.Unmarshal([]byte(export(exports.ExportRequest{What: exports.ExportApproved, Format: "json"})), &js); err != nil || len(js) != 2 ||
		js[0]["site"] != "s4.test" || js[0]["seed_url"] != "http://s4.test/" || js[0]["nominated_by"] != "ben" ||
		js[0]["approved_by"] != "cleo" || js[0]["nominated_at"] == nil || js[0]["approved_at"] == nil || js[0]["subject"] != "maps" {
		t.Errorf("approved json %v %v", js, err)
	}

	// s2, the most important site, was rejected: left out of top-K unless asked.
	if got := export(exports.ExportRequest{What: exports.ExportTopK, Count: 3}); got != "http://s3.test/\nhttp://s4.test/\nhttp://s1.test/\n" {
		t.Errorf("top 3 %q", got)
	}
	if got := export(exports.ExportRequest{What: exports.ExportTopK, Count: 3, IncludeRejected: true}); got != "http://s2.test/\nhttp://s3.test/\nhttp://s4.test/\n" {
		t.Errorf("top 3 with the rejected %q", got)
	}

	rows = apptest.ReadCSV(t, export(exports.ExportRequest{What: exports.ExportSites}))
	if strings.Join(rows[0], ",") != "site,crawl_status,pages,opic,pagerank,in_sites,out_sites,hub,authority,selection,ana,ben,cleo,mean_rating,graph" {
		t.Errorf("sites table header %q", rows[0])
	}
	for _, r := range rows[1:] {
		if r[0] == "s1.test" && (r[1] != "ok" || r[2] != "2" || r[5] != "3" || r[8] == "0" || r[9] != "approved" ||
			strings.Join(r[10:], ",") != "4,4,3,3.6666666666666665,"+ranking.GraphEditorial) {
			t.Errorf("s1 in the sites table: %q", r)
		}
	}
	// s2, rejected, gets no precedence unless asked for.
	if got := export(exports.ExportRequest{What: exports.ExportHeritrix}); !strings.HasPrefix(got, "http://s3.test/ 1\n") || strings.Contains(got, "s2.test") {
		t.Errorf("heritrix %q", got)
	}
	if got := export(exports.ExportRequest{What: exports.ExportHeritrix, IncludeRejected: true}); !strings.HasPrefix(got, "http://s2.test/ 1\n") {
		t.Errorf("heritrix with the rejected %q", got)
	}
}
