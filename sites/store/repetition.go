package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
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

// The shared-block rule: a block of links that pages of two sites carry
// alike is their template's, however few pages each site has. A
// publisher's network teaser ("from our network": the same latest stories of
// its sister sites) or a syndication widget sits in one site's articles and
// in another's, link for link, where two authors citing their sources
// rarely pick the same SharedBlockLinks URLs. Two pages of two sites share
// a block when their main contents link to at least SharedBlockLinks
// identical URLs, on at least SharedBlockSites sites other than the two;
// those links become template links on both. Home pages do not count: two
// directories or blogrolls list the same sites by their home pages, and
// those are their authors' votes; a teaser links stories. A URL linked so
// from more than SharedBlockMaxPages pages is compared on its first pages
// only.
const (
	SharedBlockLinks    = 4
	SharedBlockSites    = 2
	SharedBlockMaxPages = 64
)

// RepetitionRule applies the repetition rule and the shared-block rule to
// the editorial links and the editorial graph: the editorial links to a URL
// repeated on their site, or in a block shared with a page of another site,
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
		shared, err := sharedBlocks(ctx, tx)
		if err != nil {
			return fmt.Errorf("store: repetition rule: find shared blocks: %w", err)
		}
		for _, g := range shared {
			repeated[group(g)] = true
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

// siteURL is a site's links to one URL.
type siteURL struct {
	site int64
	url  string
}

// sharedBlocks returns the sites' links that the shared-block rule makes
// template links: for every two pages of two sites whose main contents link
// to SharedBlockLinks identical URLs or more, on SharedBlockSites sites or
// more other than the two, each site's links to those URLs.
func sharedBlocks(ctx context.Context, tx *sql.Tx) ([]siteURL, error) {
	type link struct {
		page, site, target int64
	}
	// The pages whose main contents link to each URL of another site, read
	// in one pass; then only the URLs of two sites or more are kept.
	byURL := map[string][]link{}
	err := queryRows(ctx, tx, func(sc scanner) error {
		var u string
		var l link
		if err := sc.Scan(&u, &l.page, &l.site, &l.target); err != nil {
			return err
		}
		if len(byURL[u]) < SharedBlockMaxPages && !homePage(u) {
			byURL[u] = append(byURL[u], l)
		}
		return nil
	}, `SELECT l.target_url, l.page_id, p.site_id, l.target_site_id FROM links l JOIN pages p ON p.id = l.page_id
		WHERE l.editorial <> 0 AND l.target_site_id <> p.site_id`)
	if err != nil {
		return nil, err
	}
	for u, ls := range byURL {
		if !slices.ContainsFunc(ls[1:], func(x link) bool { return x.site != ls[0].site }) {
			delete(byURL, u)
		}
	}
	// How many of those URLs each two pages of two sites both link to.
	type pagePair struct{ a, b int64 }
	common := map[pagePair]int{}
	pageSite := map[int64]int64{}
	urlsOf := map[int64]map[string]int64{} // page → URL → target site
	for u, ls := range byURL {
		for i, x := range ls {
			pageSite[x.page] = x.site
			if urlsOf[x.page] == nil {
				urlsOf[x.page] = map[string]int64{}
			}
			urlsOf[x.page][u] = x.target
			for _, y := range ls[i+1:] {
				if x.site != y.site && x.page != y.page {
					common[pagePair{min(x.page, y.page), max(x.page, y.page)}]++
				}
			}
		}
	}
	seen := map[siteURL]bool{}
	var out []siteURL
	for pp, n := range common {
		if n < SharedBlockLinks {
			continue
		}
		sa, sb := pageSite[pp.a], pageSite[pp.b]
		var urls []string
		targets := map[int64]bool{}
		for u, t := range urlsOf[pp.a] {
			if _, ok := urlsOf[pp.b][u]; ok && t != sa && t != sb {
				urls = append(urls, u)
				targets[t] = true
			}
		}
		if len(urls) < SharedBlockLinks || len(targets) < SharedBlockSites {
			continue
		}
		for _, u := range urls {
			for _, g := range []siteURL{{sa, u}, {sb, u}} {
				if !seen[g] {
					seen[g] = true
					out = append(out, g)
				}
			}
		}
	}
	return out, nil
}

// homePage reports whether u, a normalised URL, is a site's home page: no
// path beyond "/", whatever its query.
func homePage(u string) bool {
	rest := u
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	i := strings.IndexAny(rest, "/?#")
	return i < 0 || rest[i] != '/' || i+1 == len(rest) || rest[i+1] == '?' || rest[i+1] == '#'
}
