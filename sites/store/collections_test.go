package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

func TestCollections(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(filepath.Join(dir, "project.db"))
	if err != nil {
		t.Fatal(err)
	}
	in := Collection{Name: "jazz", CreatedBy: "ana", Params: []byte(`{"count":2}`),
		Communities: []CollectionCommunity{
			{Core: 0, Name: "jazz · vinyl", Topic: "jazz · vinyl", Kept: true, Seed: "http://h1.test/", Site: "h1.test",
				FromHub: "http://h1.test/links", HubScore: 0.5, CoverDensity: 100, Hubs: []string{"http://h1.test/links"},
				Authorities: []string{"http://a1.test/"}},
			{Core: 1, Name: "b", Kept: true, Seed: "http://g1.test/", Site: "g1.test"},
		},
		Added: []CollectionSeed{{URL: "http://x.test/", Site: "x.test"}},
	}
	c, err := s.CreateCollection(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateCollection(ctx, Collection{Name: "jazz", CreatedBy: "bo"}); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("second collection named jazz: %v, want ErrNameTaken", err)
	}
	other, err := s.CreateCollection(ctx, Collection{Name: "other", CreatedBy: "bo"})
	if err != nil {
		t.Fatal(err)
	}
	// An edit that fails saves nothing.
	boom := errors.New("boom")
	if _, err := s.UpdateCollection(ctx, c.ID, func(c *Collection) error {
		c.Communities[0].Kept = false
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("failed edit: %v", err)
	}
	if _, err := s.UpdateCollection(ctx, c.ID, func(c *Collection) error { c.Name = "other"; return nil }); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("rename onto another: %v, want ErrNameTaken", err)
	}
	if _, err := s.UpdateCollection(ctx, c.ID, func(c *Collection) error {
		c.Communities[1].Kept = false
		c.Communities[1].Name = "records"
		c.Added = append(c.Added, CollectionSeed{URL: "http://y.test/", Site: "y.test"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	// Reopened: exactly what was saved.
	s, err = Open(filepath.Join(dir, "project.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Collection(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "jazz" || got.CreatedBy != "ana" || string(got.Params) != `{"count":2}` || len(got.Communities) != 2 || len(got.Added) != 2 {
		t.Fatalf("reopened collection: %+v", got)
	}
	k0, k1 := got.Communities[0], got.Communities[1]
	if !k0.Kept || k0.Name != "jazz · vinyl" || k0.FromHub != "http://h1.test/links" || k0.HubScore != 0.5 ||
		len(k0.Hubs) != 1 || k0.Authorities[0] != "http://a1.test/" {
		t.Errorf("community 0: %+v", k0)
	}
	if k1.Kept || k1.Name != "records" || k1.Hubs == nil {
		t.Errorf("community 1: %+v", k1)
	}
	if got.Added[0].URL != "http://x.test/" || got.Added[1].URL != "http://y.test/" {
		t.Errorf("added seeds %+v, want x.test then y.test", got.Added)
	}
	list, err := s.Collections(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != c.ID || list[0].Communities != 2 || list[0].Kept != 1 || list[0].Added != 2 {
		t.Fatalf("list %+v; want jazz first (updated last), 2 communities, 1 kept, 2 added", list)
	}
	if err := s.DeleteCollection(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Collection(ctx, c.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleted collection read: %v", err)
	}
	if err := s.DeleteCollection(ctx, c.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleted twice: %v", err)
	}
	var rows int
	s.db.QueryRow(`SELECT count(*) FROM collection_communities`).Scan(&rows)
	if rows != 0 {
		t.Errorf("%d community rows left after delete", rows)
	}
	if _, err := s.Collection(ctx, other.ID); err != nil {
		t.Errorf("the other collection: %v", err)
	}
}
