package main

import (
	"math"
	"slices"
	"testing"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Hello, World! It's 2024.", []string{"hello", "world", "it", "s", "2024"}},
		{"Ça coûte 12,50 € — l'été", []string{"ça", "coûte", "12", "50", "l", "été"}},
		{"Привет, МИР_1", []string{"привет", "мир_1"}},
		{"図書館は9時に開く。", []string{"図", "書", "館", "は", "9", "時", "に", "開", "く"}},
		{"借书证 ABC", []string{"借", "书", "证", "abc"}},
		{"  \n\t", nil},
	}
	for _, tt := range tests {
		if got := Tokens(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestShingles(t *testing.T) {
	got := Shingles("a b c d e a b c d")
	want := map[string]int{"a b c d": 2, "b c d e": 1, "c d e a": 1, "d e a b": 1, "e a b c": 1}
	if len(got) != len(want) {
		t.Fatalf("Shingles = %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("shingle %q: %d, want %d", k, got[k], n)
		}
	}
	if got := Shingles("Two words"); len(got) != 1 || got["two words"] != 1 {
		t.Errorf("a short text is one shingle: got %v", got)
	}
	if got := Shingles("…"); len(got) != 0 {
		t.Errorf("no tokens, no shingles: got %v", got)
	}
}

// TestCompare checks scores worked out by hand.
func TestCompare(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	tests := []struct {
		name, truth, pred string
		want              Score
		p, r, f1          float64
	}{
		// 7 tokens: 4 shingles, all found.
		{"same text", "The cat sat on the red mat.", "the CAT sat, on the red mat", Score{TP: 4}, 1, 1, 1},
		// The prediction adds 3 tokens of menu before: 3 more shingles
		// that straddle or sit in the menu, 4 of 7 right.
		{"menu before", "The cat sat on the red mat.", "Home News Sport The cat sat on the red mat.", Score{TP: 4, FP: 3}, 4.0 / 7, 1, 8.0 / 11},
		// Half the text: "the cat sat on the" has 2 of the 4 shingles.
		{"half", "The cat sat on the red mat.", "The cat sat on the", Score{TP: 2, FN: 2}, 1, 0.5, 2.0 / 3},
		// A repeated paragraph counts twice: the multiset has one more
		// "a b c d" than the truth.
		{"repeated", "a b c d", "a b c d a b c d", Score{TP: 1, FP: 4}, 0.2, 1, 1.0 / 3},
		// Both hold "a b c d" twice: both count, as a multiset counts
		// them; the 4 shingles around x and y miss on either side.
		{"twice in both", "a b c d x a b c d", "a b c d y a b c d", Score{TP: 2, FP: 4, FN: 4}, 1.0 / 3, 1.0 / 3, 1.0 / 3},
		{"nothing extracted", "The cat sat on the red mat.", "", Score{FN: 4}, 0, 0, 0},
		{"all wrong", "one two three four five", "six seven eight nine", Score{FP: 1, FN: 2}, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compare(tt.truth, tt.pred)
			if got != tt.want {
				t.Fatalf("Compare = %+v, want %+v", got, tt.want)
			}
			if !near(got.Precision(), tt.p) || !near(got.Recall(), tt.r) || !near(got.F1(), tt.f1) {
				t.Errorf("P %.4f R %.4f F1 %.4f, want %.4f %.4f %.4f", got.Precision(), got.Recall(), got.F1(), tt.p, tt.r, tt.f1)
			}
		})
	}
}
