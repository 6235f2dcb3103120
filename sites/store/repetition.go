package store

import (
	"context"
	"database/sql"
	"fmt"
)

// The repetition rule: a link that most pages of a site carry is the
// template's, wherever the extraction placed it. A blog's "follow us"
// link in every post's last paragraph, or a publisher's sister sites in a
// box the extractor kept with the text, would otherwise give the target
// one vote per page. A URL counts as repeated on a site when at least
// RepeatedMinPages of its pages fetched fine, and at least
// RepeatedShare of them, link to it from their main content.
const (
	RepeatedShare    = 0.6
	RepeatedMinPages = 5
)

// RepetitionRule applies the repetition rule to the editorial links and
// the editorial graph: the editorial links to a URL repeated on their site
// become template links (editorial 2 in links: see migration 0017), and a
// link marked so whose URL is no longer repeated (its site grew) is
// editorial again; the editorial weights of the site links concerned
// change with them. It returns the number of links that changed. Run it
// before the importance is computed: it reads every editorial link between
// sites once, grouped by site and URL.
func (s *Store) RepetitionRule(ctx context.Context) (changed int, err error) {
	err = s.write(ctx, "apply the repetition rule", func(tx *sql.Tx) error {
		changed = 0
		type group struct {
			site int64
			url  string
		}
		repeated := map[group]bool{}
		err := queryRows(ctx, tx, func(sc scanner) error {
			var g group
			err := sc.Scan(&g.site, &g.url)
			repeated[g] = true
			return err
		}, `SELECT p.site_id, l.target_url
			FROM (SELECT site_id, COUNT(*) AS n FROM pages WHERE err_class = '' GROUP BY site_id HAVING COUNT(*) >= ?1) sp
			JOIN pages p ON p.site_id = sp.site_id AND p.err_class = ''
			JOIN links l ON l.page_id = p.id
			WHERE l.editorial <> 0 AND l.target_site_id <> p.site_id
			GROUP BY p.site_id, l.target_url
			HAVING COUNT(*) >= ?1 AND COUNT(*) >= ?2 * max(sp.n)`, RepeatedMinPages, RepeatedShare)
		if err != nil {
			return fmt.Errorf("store: repetition rule: find repeated links: %w", err)
		}
		// The groups marked before, through the partial index on editorial 2.
		marked := map[group]bool{}
		err = queryRows(ctx, tx, func(sc scanner) error {
			var g group
			err := sc.Scan(&g.site, &g.url)
			marked[g] = true
			return err
		}, `SELECT DISTINCT p.site_id, l.target_url FROM links l INDEXED BY links_repeated
			JOIN pages p ON p.id = l.page_id WHERE l.editorial = 2`)
		if err != nil {
			return fmt.Errorf("store: repetition rule: marked links: %w", err)
		}
		// pair is a site link whose editorial weight may change: the
		// number of pages of site with an editorial link to target, before
		// and after.
		type pair struct{ site, target int64 }
		counts := map[pair][2]int64{}
		countPages := func(i int, g group) error {
			return queryRows(ctx, tx, func(sc scanner) error {
				var t, n int64
				if err := sc.Scan(&t, &n); err != nil {
					return err
				}
				c := counts[pair{g.site, t}]
				c[i] = n
				counts[pair{g.site, t}] = c
				return nil
			}, `SELECT l.target_site_id, COUNT(DISTINCT l.page_id) FROM links l
				WHERE l.page_id IN (SELECT id FROM pages WHERE site_id = ?1) AND l.editorial = 1
				AND l.target_site_id = (SELECT target_site_id FROM links
					WHERE target_url = ?2 AND page_id IN (SELECT id FROM pages WHERE site_id = ?1) LIMIT 1)
				GROUP BY l.target_site_id`, g.site, g.url)
		}
		set := func(g group, from, to int) error {
			res, err := tx.ExecContext(ctx, `UPDATE links SET editorial = ?3
				WHERE editorial = ?4 AND target_url = ?2 AND page_id IN (SELECT id FROM pages WHERE site_id = ?1)`,
				g.site, g.url, to, from)
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			changed += int(n)
			return err
		}
		// A change sets the links of g whose editorial is from to to.
		type change struct {
			g        group
			from, to int
		}
		var changes []change
		// A repeated URL marked before may have new editorial links to it
		// (pages saved since): each is marked too.
		for g := range repeated {
			changes = append(changes, change{g, 1, 2})
		}
		for g := range marked {
			if !repeated[g] {
				changes = append(changes, change{g, 2, 1})
			}
		}
		for _, c := range changes {
			if err := countPages(0, c.g); err != nil {
				return fmt.Errorf("store: repetition rule: count pages: %w", err)
			}
		}
		for _, c := range changes {
			if err := set(c.g, c.from, c.to); err != nil {
				return fmt.Errorf("store: repetition rule: links of site %d to %q: %w", c.g.site, c.g.url, err)
			}
		}
		for _, c := range changes {
			if err := countPages(1, c.g); err != nil {
				return fmt.Errorf("store: repetition rule: count pages: %w", err)
			}
		}
		for p, c := range counts {
			if c[0] == c[1] {
				continue
			}
			// An editorial weight NULL stood for the whole weight (links
			// of no kind); the rule's change is applied to that.
			if _, err := tx.ExecContext(ctx, `UPDATE site_links SET editorial_weight = COALESCE(editorial_weight, weight) + ?3
				WHERE from_site_id = ?1 AND to_site_id = ?2`, p.site, p.target, c[1]-c[0]); err != nil {
				return fmt.Errorf("store: repetition rule: site link %d → %d: %w", p.site, p.target, err)
			}
		}
		return nil
	})
	return changed, err
}
