package communities_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/communities"
	"sitesift/importance"
)

// TestCollectionEnded: a collection of fewer cores than asked keeps the
// true reason: no links left outside the cores found, or links left (a
// star: one hub site) in which no core has two hub sites and two
// authority sites.
func TestCollectionEnded(t *testing.T) {
	core := []string{"a1.test b1.test", "a1.test b2.test", "a2.test b1.test", "a2.test b2.test"}
	star := []string{"s.test t1.test", "s.test t2.test", "s.test t3.test"}
	for _, tc := range []struct {
		name  string
		lines []string
		count int
		ended string
	}{
		{"as many as asked", core, 1, ""},
		{"links used up", core, 3, "no_links"},
		{"a star left", append(append([]string(nil), core...), star...), 3, "small_cores"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := apptest.EmptyStoreApp(t)
			f := filepath.Join(t.TempDir(), "edges.txt")
			if err := os.WriteFile(f, []byte(strings.Join(tc.lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if _, err := p.Imports.Import(ctx, f); err != nil {
				t.Fatal(err)
			}
			apptest.AddLibrarians(t, p.App, "ana")
			c, err := p.Communities.CreateCollection(ctx, communities.NewCollection{By: "ana", Count: tc.count, Options: importance.DefaultCoreOptions()})
			if err != nil {
				t.Fatal(err)
			}
			var params struct {
				Ended string `json:"ended"`
			}
			if err := json.Unmarshal(c.Params, &params); err != nil {
				t.Fatal(err)
			}
			if len(c.Communities) != 1 || params.Ended != tc.ended {
				t.Errorf("%d communities, ended %q; want 1, %q (params %s)", len(c.Communities), params.Ended, tc.ended, c.Params)
			}
		})
	}
}

// TestHubOffMainEigenvector: a core beside a star of 49 links lies off the
// main eigenvector of its HITS run, its hub score a remnant below 1e-20
// (the star's authorities, tried first, have one hub site each): it is
// flagged, on the community and in the collection, rather than shown as a
// score of 0; the core alone is on it.
func TestHubOffMainEigenvector(t *testing.T) {
	core := []string{"c1.test d1.test", "c1.test d2.test", "c2.test d1.test", "c2.test d2.test"}
	var star []string
	for v := range 49 {
		star = append(star, fmt.Sprintf("star.test a%d.test", v))
	}
	star = append(star, "x.test a0.test")
	for _, tc := range []struct {
		name  string
		lines []string
		off   bool
	}{
		{"the core alone", core, false},
		{"the core beside a star", append(append([]string(nil), star...), core...), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := apptest.EmptyStoreApp(t)
			f := filepath.Join(t.TempDir(), "edges.txt")
			if err := os.WriteFile(f, []byte(strings.Join(tc.lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if _, err := p.Imports.Import(ctx, f); err != nil {
				t.Fatal(err)
			}
			cs, err := p.Communities.Extract(ctx, 5, importance.DefaultCoreOptions())
			if err != nil {
				t.Fatal(err)
			}
			if len(cs) != 1 || cs[0].OffMainEigenvector != tc.off || (cs[0].HubScore <= 1e-20) != tc.off {
				t.Fatalf("communities %+v; want one, off the main eigenvector %v", cs, tc.off)
			}
			apptest.AddLibrarians(t, p.App, "ana")
			c, err := p.Communities.CreateCollection(ctx, communities.NewCollection{By: "ana", Count: 5, Options: importance.DefaultCoreOptions()})
			if err != nil {
				t.Fatal(err)
			}
			var params struct {
				Off []int `json:"off_main_eigenvector"`
			}
			if err := json.Unmarshal(c.Params, &params); err != nil {
				t.Fatal(err)
			}
			if want := map[bool]string{true: "[0]", false: "[]"}[tc.off]; fmt.Sprint(params.Off) != want {
				t.Errorf("collection params %s: off the main eigenvector %v, want %s", c.Params, params.Off, want)
			}
		})
	}
}
