package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestArchiveImportedBySlice: a host graph file is imported before with the
// same slice only, and a record without a slice (made before slices were
// recorded) stands for every slice.
func TestArchiveImportedBySlice(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	record := func(f ArchiveFile) error {
		_, err := s.ImportArchiveFile(ctx, f, func(*ArchiveTx) error { return nil }, func() any { return map[string]int{} })
		return err
	}
	fr := ArchiveFile{Kind: "cc-vertices", Path: "v.gz", Size: 10, Digest: "sha256:aa", Slice: "--tld fr"}
	if err := record(fr); err != nil {
		t.Fatal(err)
	}
	de := fr
	de.Slice = "--tld de"
	for _, c := range []struct {
		f    ArchiveFile
		done bool
	}{{fr, true}, {de, false}} {
		r, done, err := s.ArchiveImported(ctx, c.f)
		if err != nil || done != c.done || (done && r.Slice != c.f.Slice) {
			t.Errorf("%s: imported before %v (record %+v, %v), want %v", c.f.Slice, done, r, err, c.done)
		}
	}
	if err := record(fr); !errors.Is(err, ErrAlreadyImported) {
		t.Errorf("the same slice again: %v, want ErrAlreadyImported", err)
	}
	if err := record(de); err != nil {
		t.Errorf("another slice of the same file: %v", err)
	}

	legacy := ArchiveFile{Kind: "cc-edges", Path: "e.gz", Size: 20, Digest: "sha256:bb"}
	if err := record(legacy); err != nil {
		t.Fatal(err)
	}
	sliced := legacy
	sliced.Slice = "--host-suffix bnf.fr"
	if _, done, err := s.ArchiveImported(ctx, sliced); err != nil || !done {
		t.Errorf("a file recorded without a slice: imported before %v (%v), want true", done, err)
	}
	if err := record(sliced); !errors.Is(err, ErrAlreadyImported) {
		t.Errorf("a file recorded without a slice, again with one: %v, want ErrAlreadyImported", err)
	}
}

// TestArchiveImportCache: an archive file's import writes with a page cache
// of archiveCacheKiB, and its connection goes back to the pool with the
// default cache, whether the import was kept or failed.
func TestArchiveImportCache(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	s.db.SetMaxOpenConns(1) // the connection the import used is the one read below
	for i, fail := range []bool{false, true} {
		f := ArchiveFile{Kind: "warc", Path: fmt.Sprintf("f%d.warc.gz", i), Size: 10, Digest: fmt.Sprintf("sha256:%d", i)}
		var during int
		_, err := s.ImportArchiveFile(ctx, f, func(a *ArchiveTx) error {
			if err := a.tx.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&during); err != nil {
				return err
			}
			if fail {
				return errors.New("broken file")
			}
			return nil
		}, func() any { return map[string]int{} })
		if (err != nil) != fail {
			t.Fatalf("import (fail %v): %v", fail, err)
		}
		var after int
		if err := s.db.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&after); err != nil {
			t.Fatal(err)
		}
		if during != archiveCacheKiB || after != -2000 {
			t.Errorf("fail %v: cache_size %d during the import, %d after; want %d, -2000", fail, during, after, archiveCacheKiB)
		}
	}
}
