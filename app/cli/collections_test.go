package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sitesift/app/apptest"
	"sitesift/app/communities"
)

func TestCLICollections(t *testing.T) {
	dir := apptest.TopicProject(t)
	code, out, stderr := runCLI(t, "collections", "save", "--project", dir, "--librarian", "ana", "--name", "Jazz", "--count", "5")
	if code != 0 || !strings.Contains(out, `"Jazz": 2 communities, 2 seeds`) {
		t.Fatalf("save: %d %q %s", code, out, stderr)
	}
	if code, _, stderr = runCLI(t, "collections", "save", "--project", dir, "--librarian", "bo", "--name", "Jazz"); code != 1 ||
		!strings.Contains(stderr, "name taken") {
		t.Errorf("save under a taken name: %d %s", code, stderr)
	}
	code, out, _ = runCLI(t, "collections", "list", "--project", dir)
	if code != 0 || !strings.Contains(out, "Jazz") || !strings.Contains(out, "ana") {
		t.Errorf("list: %d %q", code, out)
	}
	code, out, _ = runCLI(t, "collections", "show", "--project", dir, "Jazz")
	if code != 0 || !strings.Contains(out, "jazz records · rare vinyl") || !strings.Contains(out, "http://q1.test/") {
		t.Errorf("show: %d %q", code, out)
	}
	code, out, _ = runCLI(t, "collections", "export", "--project", dir, "1")
	if code != 0 || out != "http://hub.test/\nhttp://q1.test/\n" {
		t.Errorf("export txt: %d %q", code, out)
	}
	file := filepath.Join(t.TempDir(), "seeds.csv")
	code, _, stderr = runCLI(t, "collections", "export", "--project", dir, "--format", "csv", "--out", file, "Jazz")
	b, _ := os.ReadFile(file)
	if code != 0 || !strings.HasPrefix(string(b), "community,topic,site,seed_url,hub_score,added_by_hand\njazz records · rare vinyl,") {
		t.Errorf("export csv: %d %s %q", code, stderr, b)
	}
	// A collection that does not exist writes no file.
	missing := filepath.Join(t.TempDir(), "none.txt")
	if code, _, stderr = runCLI(t, "collections", "export", "--project", dir, "--out", missing, "Nope"); code != 1 ||
		!strings.Contains(stderr, `no collection named "Nope"`) {
		t.Errorf("export of a missing collection: %d %s", code, stderr)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("a file was written for a missing collection: %v", err)
	}
	for _, args := range [][]string{
		{"collections", "export", "--project", dir},
		{"collections", "export", "--project", dir, "--format", "xml", "1"},
		{"collections", "save", "--project", dir},
		{"collections", "frob"},
	} {
		if code, _, _ := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, out, _ = runCLI(t, "collections", "delete", "--project", dir, "Jazz"); code != 0 || !strings.Contains(out, "deleted") {
		t.Errorf("delete: %d %q", code, out)
	}
	if code, _, _ = runCLI(t, "collections", "delete", "--project", dir, "1"); code != 1 {
		t.Errorf("delete again: %d", code)
	}
}

// A saved collection exports by name, as librarians edited it, under the
// project's name; the current extraction, exported as the community seeds,
// says when it differs from a saved collection.
func TestExportCollectionByName(t *testing.T) {
	dir := apptest.TopicProject(t)
	if code, _, errs := runCLI(t, "collections", "save", "--project", dir, "--librarian", "ana", "--name", "Seeds Nov 2026", "--count", "5", "--density", "100"); code != 0 {
		t.Fatalf("collections save: %s", errs)
	}
	// Unedited, the collection is the current extraction: nothing to say.
	code, current, errs := runCLI(t, "export", "--project", dir, "--what", "communities")
	if code != 0 || strings.Contains(errs, "differs") {
		t.Fatalf("communities: %d %q %s", code, current, errs)
	}
	code, saved, errs := runCLI(t, "export", "--project", dir, "--what", "collection", "--name", "Seeds Nov 2026")
	if code != 0 || saved != current {
		t.Fatalf("collection before editing: %d %q %s; want the current extraction %q", code, saved, errs, current)
	}
	// A librarian unchecks the first community and adds a seed by hand.
	a, closeApp := apptest.Open(t, dir)
	ctx := context.Background()
	list, err := a.Communities.Collections(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("collections %v %v", list, err)
	}
	off := false
	col, err := a.Communities.EditCommunity(ctx, list[0].ID, 0, communities.CommunityEdit{Kept: &off})
	if err != nil {
		t.Fatal(err)
	}
	removed := col.Communities[0].Seed
	if _, err := a.Communities.AddCollectionSeed(ctx, list[0].ID, "https://radio.example/jazz"); err != nil {
		t.Fatal(err)
	}
	closeApp()

	out := t.TempDir()
	code, _, errs = runCLI(t, "export", "--project", dir, "--what", "collection", "--name", "Seeds Nov 2026", "--out", out+"/")
	file := filepath.Join(out, "project-seeds-nov-2026.txt")
	got, rerr := os.ReadFile(file)
	if code != 0 || rerr != nil || strings.Contains(string(got), removed) || !strings.Contains(string(got), "https://radio.example/jazz\n") {
		t.Errorf("collection after editing: %d %s, %q %v; want without %s, with radio.example", code, errs, got, rerr, removed)
	}
	code, after, errs := runCLI(t, "export", "--project", dir, "--what", "communities")
	want := `sitesift: export communities: this is the current extraction of the Communities page, not a saved collection: ` +
		`it differs from the saved collection "Seeds Nov 2026", which leaves out 1 of these seeds and has 1 of its own; ` +
		`export a saved collection by name (sitesift export --what collection --name NAME`
	if code != 0 || after != current || !strings.Contains(errs, want) {
		t.Errorf("communities after editing: %d %q, stderr %q; want the same list and %q", code, after, errs, want)
	}
	// Every seed unchecked: the empty collection is written, its header
	// alone, said, and exit status 3, as every empty export.
	a, closeApp = apptest.Open(t, dir)
	for core := range col.Communities {
		if _, err := a.Communities.EditCommunity(ctx, list[0].ID, core, communities.CommunityEdit{Kept: &off}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.Communities.RemoveCollectionSeed(ctx, list[0].ID, "https://radio.example/jazz"); err != nil {
		t.Fatal(err)
	}
	closeApp()
	wantEmpty := `the collection "Seeds Nov 2026" has no seed: every community unchecked, none added by hand`
	for _, args := range [][]string{
		{"export", "--project", dir, "--what", "collection", "--name", "Seeds Nov 2026", "--format", "csv"},
		{"collections", "export", "--project", dir, "--format", "csv", "Seeds Nov 2026"},
	} {
		code, got, errs := runCLI(t, args...)
		if code != 3 || got != "community,topic,site,seed_url,hub_score,added_by_hand\n" || !strings.Contains(errs, wantEmpty) {
			t.Errorf("%v on an empty collection: exit %d, %q, stderr %q; want 3, the header alone and %q", args, code, got, errs, wantEmpty)
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--what", "collection"}, 2, "--what collection needs --name NAME"},
		{[]string{"--what", "collection", "--name", "Nope"}, 1, `no collection named "Nope"`},
		{[]string{"--what", "collection", "--name", "Seeds Nov 2026", "--format", "yaml"}, 2, "yaml"},
		{[]string{"--what", "approved", "--name", "x"}, 2, "--name goes with --what collection"},
	} {
		code, _, errs := runCLI(t, append([]string{"export", "--project", dir}, tc.args...)...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d %q; want %d and %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}

// An export into a folder that does not exist says so, naming the file it
// was to write and not a temporary one, and leaves nothing behind.
func TestCLIExportIntoMissingFolder(t *testing.T) {
	dir := apptest.TopicProject(t)
	root := t.TempDir()
	missing := filepath.Join(root, "no-such-folder")
	for _, args := range [][]string{
		{"export", "--project", dir, "--what", "top-k", "--out", missing + "/"},
		{"export", "--project", dir, "--what", "sites", "--out", filepath.Join(missing, "sites.csv")},
		{"export", "--project", dir, "--what", "browsertrix", "--out", filepath.Join(missing, "crawl.yaml")},
		{"ratings", "export", "--project", dir, filepath.Join(missing, "ratings.csv")},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != 1 || !strings.Contains(stderr, "the folder "+missing+" does not exist") || strings.Contains(stderr, ".part-") || strings.Contains(stderr, ".export-") {
			t.Errorf("%v: exit %d, %s; want exit 1 saying the folder does not exist", args[:2], code, stderr)
		}
	}
	if es, _ := os.ReadDir(root); len(es) != 0 {
		t.Errorf("left behind: %v", es)
	}
}
