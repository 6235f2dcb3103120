package store

import (
	"context"
	"testing"
)

func TestRerateKeepsNote(t *testing.T) {
	t.Parallel()
	s := openFixture(t)
	ctx := context.Background()
	if r, err := s.Rerate(ctx, "ana", "a.test", 2); err != nil || r.Note != "" {
		t.Fatalf("first rating without a note: %+v, %v", r, err)
	}
	if _, err := s.SetRating(ctx, "ana", "a.test", 3, "a fine local archive"); err != nil {
		t.Fatal(err)
	}
	r, err := s.Rerate(ctx, "ana", "a.test", 4)
	if err != nil || r.Rating != 4 || r.Note != "a fine local archive" {
		t.Fatalf("Rerate = %+v, %v; want rating 4 with the note kept", r, err)
	}
	if r, err := s.SetRating(ctx, "ana", "a.test", 4, ""); err != nil || r.Note != "" {
		t.Fatalf("SetRating with an empty note = %+v, %v; want the note cleared", r, err)
	}
}
