package store

import (
	"context"
	"errors"
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
