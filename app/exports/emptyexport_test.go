package exports_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/exports"
)

// Every deliverable that holds nothing is written with its header alone
// (a CSV header row, an empty JSON array, an empty txt file, a crawler
// file's comments) and says why in its own words: one rule for all.
func TestEmptyExports(t *testing.T) {
	ctx := context.Background()
	a := apptest.Empty(t)
	header := map[string]string{
		"approved.csv": "site,seed_url,status,", "top-k.csv": "seed_url,site,", "communities.csv": "seed_url,site,core,",
		"sites.csv": "site,crawl_status,", "ratings.csv": "librarian,site,rating,note",
	}
	for _, d := range exports.Deliverables {
		for _, f := range d.Formats {
			var b bytes.Buffer
			wr, err := a.Exports.ExportWritten(ctx, &b, exports.ExportRequest{What: d.What, Format: f})
			if err != nil {
				t.Errorf("%s.%s on an empty project: %v", d.What, f, err)
				continue
			}
			if wr.Empty == "" {
				t.Errorf("%s.%s on an empty project does not say it is empty", d.What, f)
			}
			body := strings.TrimPrefix(b.String(), "\uFEFF")
			switch {
			case f == "json":
				if strings.TrimSpace(body) != "[]" {
					t.Errorf("%s.%s: %q, want []", d.What, f, body)
				}
			case f == "csv":
				lines := strings.Split(strings.TrimSpace(body), "\n")
				if want := header[d.What+"."+f]; len(lines) != 1 || !strings.HasPrefix(lines[0], want) {
					t.Errorf("%s.%s: %q, want its header %q alone", d.What, f, body, want)
				}
			case d.What == exports.ExportBrowsertrix:
				if !strings.Contains(body, "\nseeds: []\n") || strings.Contains(body, "- url:") {
					t.Errorf("%s: %q, want an empty seeds list", d.What, body)
				}
			default:
				for _, l := range strings.Split(strings.TrimSpace(body), "\n") {
					if l != "" && !strings.HasPrefix(l, "#") {
						t.Errorf("%s.%s: line %q in an empty deliverable", d.What, f, l)
					}
				}
			}
		}
	}
	var b bytes.Buffer
	if wr, _ := a.Exports.ExportWritten(ctx, &b, exports.ExportRequest{What: exports.ExportApproved}); !strings.HasPrefix(wr.Empty, "nothing approved yet") {
		t.Errorf("approved: %q", wr.Empty)
	}
	if wr, _ := a.Exports.ExportWritten(ctx, &b, exports.ExportRequest{What: exports.ExportRatings}); wr.Empty != "no rating or note yet" {
		t.Errorf("ratings: %q", wr.Empty)
	}

	// A project with sites, ratings and no approval: only the approved
	// selection and the crawler files are empty.
	p, closeP := apptest.Open(t, apptest.ReviewProject(t))
	defer closeP()
	for _, d := range exports.Deliverables {
		wr, err := p.Exports.ExportWritten(ctx, &b, exports.ExportRequest{What: d.What})
		approvedOnly := d.What == exports.ExportApproved || d.What == exports.ExportBrowsertrix || d.What == exports.ExportHeritrixSeeds
		if err != nil || (wr.Empty != "") != approvedOnly {
			t.Errorf("%s on a reviewed project: empty %q, %v", d.What, wr.Empty, err)
		}
	}
}
