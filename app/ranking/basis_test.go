package ranking

import (
	"strings"
	"testing"

	"sitesift/sites/store"
)

// TestBasis judges rankings from what they rest on: a crawl of 60 pages
// whose first 50 sites are mostly one tie is thin, and says why; pairs of
// ties among well-linked sites are not; most sites known from one link is
// thin whatever the ties.
func TestBasis(t *testing.T) {
	values := func(groups ...[2]int) []float64 { // groups of {count, value}
		var v []float64
		for _, g := range groups {
			for range g[0] {
				v = append(v, float64(g[1]))
			}
		}
		return v
	}
	for _, c := range []struct {
		name      string
		rb        store.RankBasis
		opic      []float64
		thin      bool
		largest   int
		tied      int
		advice    []string
		summaryOf string
	}{
		{"one large tie", store.RankBasis{Sites: 564, FetchedSites: 60, Pages: 60, OneLink: 120},
			values([2]int{3, 90}, [2]int{39, 58}, [2]int{522, 10}), true, 39, 50,
			[]string{"504 of the 564 sites were met only", "39 of the first 50 sites share one rank"}, "Ranked from 60 pages fetched on 60 sites: 564 sites ranked"},
		{"pairs of ties", store.RankBasis{Sites: 60, FetchedSites: 55, Pages: 400, OneLink: 5},
			append(values([2]int{2, 100}, [2]int{1, 90}, [2]int{2, 80}), distinct(55)...), false, 2, 4, nil, "4 of the first 50 share"},
		{"one link", store.RankBasis{Sites: 100, FetchedSites: 80, Pages: 300, OneLink: 70},
			values([2]int{1, 9}, [2]int{1, 8}, [2]int{1, 7}, [2]int{1, 6}, [2]int{1, 5}), true, 1, 0,
			[]string{"70 of the 100 sites are linked from one site at most"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := NewBasis(c.rb, NewRanking(c.opic), store.Fixpoint{Rounds: 30, Residual: 5e-13})
			if b.Thin != c.thin || b.TopTied != c.tied || len(b.Advice) != len(c.advice) || !strings.Contains(b.Summary, c.summaryOf) {
				t.Fatalf("%+v", b)
			}
			for i, a := range c.advice {
				if !strings.HasPrefix(b.Advice[i], a) {
					t.Errorf("advice %d %q, want %q…", i, b.Advice[i], a)
				}
			}
			if b.LargestTie != c.largest {
				t.Errorf("largest tie %d, want %d", b.LargestTie, c.largest)
			}
		})
	}
}

// distinct returns n values that no two share.
func distinct(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(70 - i)
	}
	return v
}

// TestLargestTie counts the largest group of values sharing a rank among the
// first k, a group running past k counted up to k.
func TestLargestTie(t *testing.T) {
	r := NewRanking([]float64{5, 4, 4, 3, 3, 3, 3, 2})
	for k, want := range map[int]int{1: 1, 2: 1, 3: 2, 4: 2, 5: 2, 6: 3, 8: 4, 20: 4} {
		if got := r.LargestTie(k); got != want {
			t.Errorf("LargestTie(%d) = %d, want %d", k, got, want)
		}
	}
	if got := NewRanking(nil).LargestTie(5); got != 0 {
		t.Errorf("no value: %d", got)
	}
}
