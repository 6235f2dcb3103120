package review

import (
	"context"
	"strings"

	"sitesift/app/project"
	"sitesift/app/ranking"
	"sitesift/sites/store"
)

// Blind ratings (docs/team.md): a librarian judges a site before she
// learns what the others made of it. Every answer that carries ratings or
// notes goes through one rule, [sight.sees]: a reader sees her own ratings
// and notes, and the others' of a site once she has rated it herself (a
// note alone is no rating). No role sees them earlier: every role rates,
// and a rating made after reading the others' would be counted as
// independent in the agreement all the same.
//
// The reader is the signed-in librarian on a team server, whatever the
// request names; elsewhere the librarian a view is asked for (the review
// card, the site page with a librarian), or no one: the desktop window,
// the command line and a single-user serve read every rating, as whoever
// holds the project's files can.

// sight is what one reader may see of the librarians' ratings and notes.
type sight struct {
	// reader is whose sight it is; "" sees everything.
	reader string
	// rated holds the sites the reader has rated.
	rated map[string]bool
}

// reader returns the reader of ctx's answers: the signed-in librarian on
// a team server, else named ("" for no one).
func reader(ctx context.Context, named string) string {
	if id, ok := project.IdentityFrom(ctx); ok {
		return id.Name
	}
	return named
}

// sightOf returns the sight of reader, whose ratings of the sites that
// matter are among rs.
func sightOf(reader string, rs []store.Rating) sight {
	v := sight{reader: reader, rated: map[string]bool{}}
	for _, r := range rs {
		if r.Rating > 0 && v.own(r.Librarian) {
			v.rated[r.Site] = true
		}
	}
	return v
}

// own tells whether librarian is the reader.
func (v sight) own(librarian string) bool {
	return strings.EqualFold(librarian, v.reader)
}

// sees reports whether the reader may see librarian's rating or note of
// site: her own, every one of a site she has rated, and all of them for no
// reader. Librarian "" asks for them all (a mean).
func (v sight) sees(librarian, site string) bool {
	return v.reader == "" || v.own(librarian) || v.rated[site]
}

// filter returns the ratings of rs the reader sees, in their order.
func (v sight) filter(rs []store.Rating) []store.Rating {
	if v.reader == "" {
		return rs
	}
	out := make([]store.Rating, 0, len(rs))
	for _, r := range rs {
		if v.sees(r.Librarian, r.Site) {
			out = append(out, r)
		}
	}
	return out
}

// sight returns the sight of ctx's reader (see [reader]) over the whole
// project, from every rating.
func (s *Service) sight(ctx context.Context) (sight, error) {
	who := reader(ctx, "")
	if who == "" {
		return sight{}, nil
	}
	rs, err := s.store.Ratings(ctx)
	if err != nil {
		return sight{}, err
	}
	return sightOf(who, rs), nil
}

// RatingsSeen returns every rating of the project (notes alone left out)
// that the signed-in librarian of ctx may see: on a team server her own,
// and the others' of the sites she has rated; every rating elsewhere.
// The sites table and anything else that shows others' ratings read them
// here.
func (s *Service) RatingsSeen(ctx context.Context) ([]store.Rating, error) {
	rs, err := s.store.Ratings(ctx)
	if err != nil {
		return nil, err
	}
	return sightOf(reader(ctx, ""), rs).filter(rs), nil
}

// RankBiased is [ranking.Service.RankBiased] as the reader of ctx may see
// it: on a team server a site she has not rated comes without its mean
// rating and without saying whether the bias favoured it (a mean of 3 or
// more), which would tell her what the others rated it.
func (s *Service) RankBiased(ctx context.Context, limit int, bias float64) ([]ranking.BiasedRankRow, error) {
	rows, err := s.ranking.RankBiased(ctx, limit, bias)
	if err != nil {
		return nil, err
	}
	v, err := s.sight(ctx)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		if !v.sees("", rows[i].Site) {
			rows[i].MeanRating, rows[i].Favoured = nil, false
		}
	}
	return rows, nil
}
