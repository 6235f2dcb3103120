package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"sitesift/sites"
)

// A recrawl revisits the pages a project has, as a crawl continuing weeks
// later would, and tells apart what changed. The visits of the web are
// numbered rounds: round 0 is the first crawl (with the crawls that
// continued it), round k > 0 the k-th recrawl. Each round keeps every site's
// importance reading — the cash it received during the round over the cash
// read by all sites, the paper's ΔH/ΔG — so that a window policy of
// Adaptive OPIC can estimate the importance from the recent rounds only.

// Round is one visit of the web: the first crawl (0) or a recrawl.
type Round struct {
	Round      int
	StartedAt  time.Time
	FinishedAt time.Time // zero while open
	// G is OPIC's clock at the round's end: the cash read in all rounds up
	// to it (0 while open).
	G float64
	// What the round's fetches found of the pages: see [RecrawlCounts].
	RecrawlCounts
}

// RecrawlCounts count what the fetches of a recrawl found: pages whose
// digest (title, text and links) is the stored one, pages with another
// digest, pages not stored before (or back after they were gone), pages
// gone (404, 410, or moved by a redirect), and fetches of the project's
// pages that failed otherwise, which change nothing. A page still gone,
// and a new URL whose fetch failed, count nowhere.
type RecrawlCounts struct {
	Unchanged int
	Changed   int
	New       int
	Gone      int
	Failed    int
}

// Add adds o to c.
func (c *RecrawlCounts) Add(o RecrawlCounts) {
	c.Unchanged += o.Unchanged
	c.Changed += o.Changed
	c.New += o.New
	c.Gone += o.Gone
	c.Failed += o.Failed
}

// pageDigest is the digest of what sitesift keeps of a page: its title, its
// text and the sets of its editorial and template links. A page whose
// markup changed but not these has nothing to update, so it counts as
// unchanged. A page without template links digests as before they were
// kept, so that the digests stored then still match.
func pageDigest(title, text string, links, templateLinks []string) string {
	ls := slices.Clone(links)
	slices.Sort(ls)
	ls = slices.Compact(ls)
	h := sha256.New()
	h.Write([]byte(title))
	h.Write([]byte{0})
	h.Write([]byte(text))
	for _, l := range ls {
		h.Write([]byte{0})
		h.Write([]byte(l))
	}
	ts := slices.Clone(templateLinks)
	slices.Sort(ts)
	for _, l := range slices.Compact(ts) {
		h.Write([]byte{1})
		h.Write([]byte(l))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// OpenRound returns the recrawl round not finished yet, if any: a recrawl
// stopped or killed, which the next recrawl continues.
func (s *Store) OpenRound(ctx context.Context) (r Round, ok bool, err error) {
	rs, err := s.Rounds(ctx)
	if err != nil {
		return Round{}, false, err
	}
	if len(rs) > 0 && rs[len(rs)-1].Round > 0 && rs[len(rs)-1].FinishedAt.IsZero() {
		return rs[len(rs)-1], true, nil
	}
	return Round{}, false, nil
}

// Rounds returns the rounds, oldest first, with their counts.
func (s *Store) Rounds(ctx context.Context) ([]Round, error) {
	out, err := queryList(ctx, s.rdb, func(sc scanner) (r Round, err error) {
		var started string
		var finished sql.NullString
		if err := sc.Scan(&r.Round, &started, &finished, &r.G, &r.Unchanged, &r.Changed, &r.New, &r.Gone, &r.Failed); err != nil {
			return r, err
		}
		if r.StartedAt, err = parseTime(started); err != nil {
			return r, err
		}
		r.FinishedAt, err = parseNullTime(finished)
		return r, err
	}, `SELECT r.round, r.started_at, r.finished_at, r.g,
			COALESCE(SUM(x.unchanged), 0), COALESCE(SUM(x.changed), 0), COALESCE(SUM(x.new), 0),
			COALESCE(SUM(x.gone), 0), COALESCE(SUM(x.failed), 0)
		FROM rounds r LEFT JOIN round_sites x ON x.round = r.round
		GROUP BY r.round ORDER BY r.round`)
	if err != nil {
		return nil, fmt.Errorf("store: rounds: %w", err)
	}
	return out, nil
}

// StartRound begins a recrawl round, or returns the open one (a recrawl
// stopped or killed) to be continued. The first recrawl of a project first
// closes round 0, the crawl so far: its readings are each site's share of
// the history. A new round records every site's history at its start. A
// project without pages is [ErrInvalid]: there is nothing to revisit.
func (s *Store) StartRound(ctx context.Context) (Round, error) {
	var r Round
	err := s.write(ctx, "start recrawl round", func(tx *sql.Tx) error {
		var pages int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM pages WHERE err_class = ''`).Scan(&pages); err != nil {
			return fmt.Errorf("store: start recrawl round: %w", err)
		}
		if pages == 0 {
			return fmt.Errorf("store: recrawl: %w: the project has no page to revisit; crawl first", ErrInvalid)
		}
		var last int
		var finished sql.NullString
		var started string
		switch err := tx.QueryRowContext(ctx, `SELECT round, started_at, finished_at FROM rounds ORDER BY round DESC LIMIT 1`).
			Scan(&last, &started, &finished); {
		case errors.Is(err, sql.ErrNoRows):
			if err := closeFirstRound(ctx, tx, formatTime(s.now())); err != nil {
				return err
			}
		case err != nil:
			return fmt.Errorf("store: start recrawl round: %w", err)
		case !finished.Valid && last > 0:
			t, err := parseTime(started)
			r = Round{Round: last, StartedAt: t}
			return err
		}
		r = Round{Round: last + 1, StartedAt: s.now().UTC()}
		if _, err := tx.ExecContext(ctx, `INSERT INTO rounds (round, started_at) VALUES (?, ?)`, r.Round, formatTime(r.StartedAt)); err != nil {
			return fmt.Errorf("store: start recrawl round %d: %w", r.Round, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO round_sites (round, site_id, history_start)
			SELECT ?, id, opic_history FROM sites`, r.Round); err != nil {
			return fmt.Errorf("store: start recrawl round %d: %w", r.Round, err)
		}
		return nil
	})
	return r, err
}

// closeFirstRound records round 0, the crawl before the first recrawl, as
// finished at now: every site received all its history during it.
func closeFirstRound(ctx context.Context, tx *sql.Tx, now string) error {
	var g float64
	var first sql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(opic_history), 0), (SELECT MIN(started_at) FROM crawls) FROM sites`).
		Scan(&g, &first); err != nil {
		return fmt.Errorf("store: close the first round: %w", err)
	}
	started := now
	if first.Valid {
		started = first.String
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO rounds (round, started_at, finished_at, g) VALUES (0, ?, ?, ?)`,
		started, now, g); err != nil {
		return fmt.Errorf("store: close the first round: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO round_sites (round, site_id, received, reading)
		SELECT 0, id, opic_history, CASE WHEN ?1 > 0 THEN opic_history / ?1 ELSE 0 END FROM sites`, g); err != nil {
		return fmt.Errorf("store: close the first round: %w", err)
	}
	return nil
}

// RevisitList returns the pages round has still to revisit, in the order a
// recrawl queues them: sites by importance (OPIC history + cash, highest
// first, ties by name), and within a site by the number of stored pages
// linking to the page (most first), then depth, then URL, the pages found
// gone last, since they may be back. The pages are those fetched fine and
// those found gone, not fetched by the round yet; failed fetches and
// redirect sources are not revisited.
func (s *Store) RevisitList(ctx context.Context, round int) ([]string, error) {
	out, err := queryList(ctx, s.rdb, scanValue[string], `
		WITH inlinks AS (SELECT target_url, COUNT(*) AS n FROM links GROUP BY target_url)
		SELECT p.url FROM pages p
		JOIN sites s ON s.id = p.site_id
		LEFT JOIN inlinks i ON i.target_url = p.url
		WHERE (p.err_class = '' OR p.gone_at IS NOT NULL) AND p.round < ?
		ORDER BY (s.opic_history + s.opic_cash) DESC, s.name, p.gone_at IS NOT NULL, COALESCE(i.n, 0) DESC, p.depth, p.url`, round)
	if err != nil {
		return nil, fmt.Errorf("store: revisit list: %w", err)
	}
	return out, nil
}

// Statements of SaveRecrawlBatch.
const (
	sqlRecrawlOld = `SELECT id, site_id, err_class, digest, gone_at IS NOT NULL, title, text, round FROM pages WHERE url = ?`
	sqlOldLinks   = `SELECT target_url, editorial FROM links WHERE page_id = ?`
	sqlSeen       = `UPDATE pages SET last_seen = ?, round = ? WHERE id = ?`
	sqlSetDigest  = `UPDATE pages SET digest = ?, last_seen = ?, gone_at = NULL, round = ? WHERE url = ?`
	sqlMarkGone   = `UPDATE pages SET status = ?, err = ?, err_class = ?, gone_at = ?, round = ?, indexed = 0 WHERE id = ?`
	sqlCount      = `INSERT INTO round_sites (round, site_id, unchanged, changed, new, gone, failed)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (site_id, round) DO UPDATE SET unchanged = unchanged + excluded.unchanged,
			changed = changed + excluded.changed, new = new + excluded.new,
			gone = gone + excluded.gone, failed = failed + excluded.failed`
)

// RecrawlSaved is what [Store.SaveRecrawlBatch] did with a batch.
type RecrawlSaved struct {
	RecrawlCounts
	// Reindex are the pages whose stored version changed — changed, new,
	// back, or gone — which the search index must take again.
	Reindex []sites.Page
}

// SaveRecrawlBatch stores a batch of a recrawl's results in round, in one
// transaction, as [Store.SaveCrawlBatch] does a crawl's, but against what the
// project has. A record of a page stored fine and not gone:
//
//   - fetched fine with the stored digest: only its last-seen date changes;
//   - fetched fine with another digest: saved again (its links, and the site
//     graph they imply, replaced; the index takes it again);
//   - a 404 or 410, or a redirect: marked gone, kept with its title and text
//     but without its out-links, so the site graph loses them;
//   - any other failure (a timeout, a 5xx, a refusal by robots.txt …):
//     nothing changes; the failure is counted.
//
// A page found gone before that is fetched fine is back: saved, and counted
// new; still gone, it stays as it is. Any other record — a URL not stored,
// or stored as a failed fetch — is saved as a crawl saves it, and counted
// new when it is a page fetched fine. The counts go to the round's row of each site. Either all of it is
// kept or, on any error, none of it.
//
// A round fetches a page once (a continued recrawl revisits only the pages
// the round has not visited), so a record of a page the round has already
// saved is one saved again: a journal replayed after a kill that came once
// its batches were committed. It changes nothing and counts nowhere, so
// that the round's counts are those of its pages, however often their
// records are replayed.
func (s *Store) SaveRecrawlBatch(ctx context.Context, round int, pages []sites.Page, states []sites.SiteState) (RecrawlSaved, error) {
	var out RecrawlSaved
	linkSites := make([][]string, len(pages))
	for i := range pages {
		p := &pages[i]
		if err := validatePage(p, s.rule); err != nil {
			return out, err
		}
		var err error
		if linkSites[i], err = linkSitesOf(p, s.rule); err != nil {
			return out, err
		}
	}
	if len(pages) == 0 && len(states) == 0 {
		return out, nil
	}
	err := s.write(ctx, fmt.Sprintf("save recrawl batch of %d pages", len(pages)), func(tx *sql.Tx) error {
		out = RecrawlSaved{}
		b := &batch{tx: tx, now: formatTime(s.now()), siteIDs: map[string]int64{}, stmts: map[string]*sql.Stmt{}}
		defer b.close()
		for i := range pages {
			c, reindex, err := b.revisit(ctx, round, &pages[i], linkSites[i])
			if err != nil {
				return err
			}
			out.Add(c)
			if reindex {
				out.Reindex = append(out.Reindex, pages[i])
			}
			siteID, err := b.siteID(ctx, pages[i].Site)
			if err != nil {
				return err
			}
			st, err := b.stmt(ctx, sqlCount)
			if err != nil {
				return err
			}
			if _, err := st.ExecContext(ctx, round, siteID, c.Unchanged, c.Changed, c.New, c.Gone, c.Failed); err != nil {
				return fmt.Errorf("store: count recrawl of %q: %w", pages[i].URL, err)
			}
		}
		if len(states) == 0 {
			return nil
		}
		st, err := b.stmt(ctx, sqlUpsertOPIC)
		if err != nil {
			return err
		}
		return saveOPIC(ctx, st, b.now, states)
	})
	if err != nil {
		return RecrawlSaved{}, err
	}
	return out, nil
}

// revisit saves one record of a recrawl (see [Store.SaveRecrawlBatch]) and
// says what it found and whether the index must take the page again.
func (b *batch) revisit(ctx context.Context, round int, p *sites.Page, linkSites []string) (c RecrawlCounts, reindex bool, err error) {
	old, err := b.stmt(ctx, sqlRecrawlOld)
	if err != nil {
		return c, false, err
	}
	var (
		id, siteID        int64
		class, digest     string
		gone              bool
		oldTitle, oldText string
		visited           int // the last round that saved the page
		seenAt            = formatTimeOrNull(p.FetchedAt)
		fine              = p.ErrClass == ""
		digestNew         = ""
		stored            = true
	)
	switch err := old.QueryRowContext(ctx, p.URL).Scan(&id, &siteID, &class, &digest, &gone, &oldTitle, &oldText, &visited); {
	case errors.Is(err, sql.ErrNoRows):
		stored = false
	case err != nil:
		return c, false, fmt.Errorf("store: look up page %q: %w", p.URL, err)
	}
	if stored && visited == round {
		return c, false, nil // saved by this round already: a replayed record
	}
	if fine {
		digestNew = pageDigest(p.Title, p.Text, p.Links, p.TemplateLinks)
	}

	if gone && !fine {
		// Still gone (or failing): it stays as it is, visited by the round.
		if _, err := b.tx.ExecContext(ctx, `UPDATE pages SET round = ? WHERE id = ?`, round, id); err != nil {
			return c, false, fmt.Errorf("store: page %q still gone: %w", p.URL, err)
		}
		return c, false, nil
	}
	if !stored || class != "" || gone {
		// Not a page the project has (a new URL, a failed fetch, a page
		// back after it was gone): saved as a crawl saves it. A new URL
		// that failed is no change of the project's pages: not counted.
		if err := b.savePage(ctx, p, linkSites); err != nil {
			return c, false, err
		}
		if fine {
			c.New = 1
		}
		return c, true, b.setDigest(ctx, round, p.URL, digestNew, seenAt)
	}

	switch {
	case fine:
		if digest == "" { // saved before recrawls: digest its stored version
			links, template, err := b.oldLinks(ctx, id)
			if err != nil {
				return c, false, err
			}
			digest = pageDigest(oldTitle, oldText, links, template)
		}
		if digest == digestNew {
			st, err := b.stmt(ctx, sqlSeen)
			if err != nil {
				return c, false, err
			}
			if _, err := st.ExecContext(ctx, seenAt, round, id); err != nil {
				return c, false, fmt.Errorf("store: page %q seen: %w", p.URL, err)
			}
			if _, err := b.tx.ExecContext(ctx, `UPDATE pages SET digest = ? WHERE id = ? AND digest = ''`, digest, id); err != nil {
				return c, false, fmt.Errorf("store: page %q seen: %w", p.URL, err)
			}
			c.Unchanged = 1
			return c, false, nil
		}
		if err := b.savePage(ctx, p, linkSites); err != nil {
			return c, false, err
		}
		c.Changed = 1
		return c, true, b.setDigest(ctx, round, p.URL, digestNew, seenAt)
	case p.Status == 404 || p.Status == 410 || p.ErrClass == sites.ErrRedirect:
		if err := b.withdrawLinks(ctx, siteID, id, p.URL); err != nil {
			return c, false, err
		}
		st, err := b.stmt(ctx, sqlMarkGone)
		if err != nil {
			return c, false, err
		}
		why := fmt.Sprintf("gone: %d", p.Status)
		class := sites.ErrHTTP4xx
		if p.ErrClass == sites.ErrRedirect {
			why, class = "gone: "+p.Err, sites.ErrRedirect
		}
		if _, err := st.ExecContext(ctx, p.Status, why, class, seenAt, round, id); err != nil {
			return c, false, fmt.Errorf("store: mark page %q gone: %w", p.URL, err)
		}
		c.Gone = 1
		return c, true, nil
	default:
		// A passing failure or a refusal says nothing of the page: it is
		// kept whole, and marked visited so that a continued recrawl does
		// not ask again.
		if _, err := b.tx.ExecContext(ctx, `UPDATE pages SET round = ? WHERE id = ?`, round, id); err != nil {
			return c, false, fmt.Errorf("store: page %q failed: %w", p.URL, err)
		}
		c.Failed = 1
		return c, false, nil
	}
}

// oldLinks returns the stored link targets of page id: editorial, and of
// the template.
func (b *batch) oldLinks(ctx context.Context, id int64) (links, template []string, err error) {
	st, err := b.stmt(ctx, sqlOldLinks)
	if err != nil {
		return nil, nil, err
	}
	rows, err := st.QueryContext(ctx, id)
	if err != nil {
		return nil, nil, fmt.Errorf("store: links of page %d: %w", id, err)
	}
	err = eachRow(rows, func(sc scanner) error {
		var l string
		var editorial int
		if err := sc.Scan(&l, &editorial); err != nil {
			return err
		}
		if editorial != 0 { // 2: editorial, repeated on most pages of the site
			links = append(links, l)
		} else {
			template = append(template, l)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("store: links of page %d: %w", id, err)
	}
	return links, template, nil
}

// withdrawLinks removes page id's out-links and their part of the site
// graph: one unit of w(S→T) for every other site T it linked to. It serves
// a page saved again (savePage) and a recrawl's changed or gone page; u
// names the page in errors.
func (b *batch) withdrawLinks(ctx context.Context, siteID, id int64, u string) error {
	for _, q := range []struct {
		query string
		args  []any
	}{
		{sqlDropSoleSiteLinks, []any{siteID, id}},
		{sqlWithdrawSiteLinks, []any{siteID, id}},
		{sqlDeleteLinks, []any{id}},
	} {
		st, err := b.stmt(ctx, q.query)
		if err != nil {
			return err
		}
		if _, err := st.ExecContext(ctx, q.args...); err != nil {
			return fmt.Errorf("store: withdraw the links of %q: %w", u, err)
		}
	}
	return nil
}

// setDigest records the digest and last-seen date of the page saved at u.
func (b *batch) setDigest(ctx context.Context, round int, u, digest string, seenAt any) error {
	st, err := b.stmt(ctx, sqlSetDigest)
	if err != nil {
		return err
	}
	if digest == "" {
		seenAt = nil // a failed fetch saw no page
	}
	if _, err := st.ExecContext(ctx, digest, seenAt, round, u); err != nil {
		return fmt.Errorf("store: page %q digest: %w", u, err)
	}
	return nil
}

// SiteReading is a site's importance reading of one round.
type SiteReading struct {
	Site    string
	Round   int
	Reading float64 // received over the cash all sites received in the round
	// Received is the cash the site received during the round.
	Received float64
}

// FinishRound closes round: every site's reading is computed from the
// history it gained during the round, and OPIC's clock G moves on by the
// cash read in it. Sites met during the round started it with no history.
// It returns the readings of all finished rounds, round included, oldest
// first, for the window policy ([Store.SetRoundImportance]).
func (s *Store) FinishRound(ctx context.Context, round int) ([]SiteReading, []Round, error) {
	err := s.write(ctx, fmt.Sprintf("finish recrawl round %d", round), func(tx *sql.Tx) error {
		var prevG float64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(g), 0) FROM rounds WHERE round < ?`, round).Scan(&prevG); err != nil {
			return fmt.Errorf("store: finish round %d: %w", round, err)
		}
		for _, q := range []string{
			`INSERT INTO round_sites (round, site_id) SELECT ?1, id FROM sites WHERE true
				ON CONFLICT DO NOTHING`,
			`UPDATE round_sites SET received = max(0, (SELECT opic_history FROM sites WHERE id = site_id) - history_start)
				WHERE round = ?1`,
		} {
			if _, err := tx.ExecContext(ctx, q, round); err != nil {
				return fmt.Errorf("store: finish round %d: %w", round, err)
			}
		}
		var dg float64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(received), 0) FROM round_sites WHERE round = ?`, round).Scan(&dg); err != nil {
			return fmt.Errorf("store: finish round %d: %w", round, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE round_sites SET reading = CASE WHEN ?2 > 0 THEN received / ?2 ELSE 0 END
			WHERE round = ?1`, round, dg); err != nil {
			return fmt.Errorf("store: finish round %d: %w", round, err)
		}
		res, err := tx.ExecContext(ctx, `UPDATE rounds SET finished_at = ?, g = ? WHERE round = ?`, formatTime(s.now()), prevG+dg, round)
		if err != nil {
			return fmt.Errorf("store: finish round %d: %w", round, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("store: finish round %d: %w", round, ErrNotFound)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return s.Readings(ctx)
}

// Readings returns the rounds and the site readings of the finished ones,
// oldest round first.
func (s *Store) Readings(ctx context.Context) ([]SiteReading, []Round, error) {
	rs, err := s.Rounds(ctx)
	if err != nil {
		return nil, nil, err
	}
	readings, err := queryList(ctx, s.rdb, func(sc scanner) (r SiteReading, err error) {
		err = sc.Scan(&r.Site, &r.Round, &r.Reading, &r.Received)
		return r, err
	}, `SELECT s.name, x.round, x.reading, x.received FROM round_sites x
		JOIN sites s ON s.id = x.site_id JOIN rounds r ON r.round = x.round
		WHERE r.finished_at IS NOT NULL ORDER BY x.round, s.name`)
	if err != nil {
		return nil, nil, fmt.Errorf("store: readings: %w", err)
	}
	return readings, rs, nil
}

// SetRoundImportance stores the importance of every site after round, as the
// project's window policy estimates it (shares summing to 1), and makes it
// the sites' importance: each site's OPIC history is set to the history its
// window keeps, scaled so that history + cash is importance times a common
// total. The cash is left as it is, so OPIC goes on from where the crawl
// left it. A site missing from importance gets 0.
func (s *Store) SetRoundImportance(ctx context.Context, round int, importance map[string]float64) error {
	return s.write(ctx, fmt.Sprintf("set the importance of round %d", round), func(tx *sql.Tx) error {
		type row struct {
			id               int64
			name             string
			cash, history, w float64
		}
		rows, err := queryList(ctx, tx, func(sc scanner) (r row, err error) {
			err = sc.Scan(&r.id, &r.name, &r.cash, &r.history)
			return r, err
		}, `SELECT id, name, opic_cash, opic_history FROM sites`)
		if err != nil {
			return fmt.Errorf("store: set round importance: %w", err)
		}
		// total·w − cash must be ≥ 0 for every site: the total is at least
		// the present one and at least cash/w for each site.
		var total float64
		for i := range rows {
			rows[i].w = importance[rows[i].name]
			total += rows[i].cash + rows[i].history
		}
		for _, r := range rows {
			if r.w > 0 {
				total = max(total, r.cash/r.w)
			}
		}
		st, err := tx.PrepareContext(ctx, `UPDATE sites SET opic_history = ? WHERE id = ?`)
		if err != nil {
			return fmt.Errorf("store: set round importance: %w", err)
		}
		defer st.Close()
		imp, err := tx.PrepareContext(ctx, `INSERT INTO round_sites (round, site_id, importance) VALUES (?1, ?2, ?3)
			ON CONFLICT (site_id, round) DO UPDATE SET importance = ?3`)
		if err != nil {
			return fmt.Errorf("store: set round importance: %w", err)
		}
		defer imp.Close()
		for _, r := range rows {
			if _, err := st.ExecContext(ctx, max(0, total*r.w-r.cash), r.id); err != nil {
				return fmt.Errorf("store: set the importance of %q: %w", r.name, err)
			}
			if _, err := imp.ExecContext(ctx, round, r.id, r.w); err != nil {
				return fmt.Errorf("store: set the importance of %q: %w", r.name, err)
			}
		}
		return nil
	})
}

// SiteRound is a site's part in one round, for its page.
type SiteRound struct {
	Round     int
	StartedAt time.Time
	// Reading is the site's share of the cash read in the round;
	// Importance its importance after the round under the window policy
	// (round 0: its OPIC importance then, its reading).
	Reading    float64
	Importance float64
	RecrawlCounts
}

// SiteRounds returns site's part in every finished round, oldest first
// (empty for a project never recrawled); an unknown site is [ErrNotFound].
func (s *Store) SiteRounds(ctx context.Context, site string) ([]SiteRound, error) {
	var id int64
	if err := s.rdb.QueryRowContext(ctx, `SELECT id FROM sites WHERE name = ?`, site).Scan(&id); errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: site %q: %w", site, ErrNotFound)
	} else if err != nil {
		return nil, fmt.Errorf("store: site %q: %w", site, err)
	}
	out, err := queryList(ctx, s.rdb, func(sc scanner) (r SiteRound, err error) {
		var started string
		if err := sc.Scan(&r.Round, &started, &r.Reading, &r.Importance, &r.Unchanged, &r.Changed, &r.New, &r.Gone, &r.Failed); err != nil {
			return r, err
		}
		r.StartedAt, err = parseTime(started)
		return r, err
	}, `SELECT r.round, r.started_at, COALESCE(x.reading, 0),
			CASE WHEN r.round = 0 THEN COALESCE(x.reading, 0) ELSE COALESCE(x.importance, 0) END,
			COALESCE(x.unchanged, 0), COALESCE(x.changed, 0), COALESCE(x.new, 0), COALESCE(x.gone, 0), COALESCE(x.failed, 0)
		FROM rounds r LEFT JOIN round_sites x ON x.round = r.round AND x.site_id = ?
		WHERE r.finished_at IS NOT NULL ORDER BY r.round`, id)
	if err != nil {
		return nil, fmt.Errorf("store: rounds of %q: %w", site, err)
	}
	return out, nil
}

// ChangedSites returns the sites whose pages the last finished recrawl
// found changed, new or gone, with the counts.
func (s *Store) ChangedSites(ctx context.Context) (map[string]RecrawlCounts, error) {
	out := map[string]RecrawlCounts{}
	err := queryRows(ctx, s.rdb, func(sc scanner) error {
		var name string
		var c RecrawlCounts
		if err := sc.Scan(&name, &c.Unchanged, &c.Changed, &c.New, &c.Gone, &c.Failed); err != nil {
			return err
		}
		out[name] = c
		return nil
	}, `SELECT s.name, x.unchanged, x.changed, x.new, x.gone, x.failed FROM round_sites x
		JOIN sites s ON s.id = x.site_id
		WHERE x.round = (SELECT MAX(round) FROM rounds WHERE round > 0 AND finished_at IS NOT NULL)
			AND x.changed + x.new + x.gone > 0`)
	if err != nil {
		return nil, fmt.Errorf("store: changed sites: %w", err)
	}
	return out, nil
}

// GonePage is a page a recrawl found gone: kept with its title, without its
// out-links.
type GonePage struct {
	URL    string
	Title  string
	Status int    // 404 or 410; a redirect's own status, or 0
	Why    string // "gone: 404", "gone: redirected to …"
	GoneAt time.Time
}

// GonePages returns the pages of site a recrawl found gone, latest first.
func (s *Store) GonePages(ctx context.Context, site string) ([]GonePage, error) {
	out, err := queryList(ctx, s.rdb, func(sc scanner) (g GonePage, err error) {
		var at string
		if err := sc.Scan(&g.URL, &g.Title, &g.Status, &g.Why, &at); err != nil {
			return g, err
		}
		g.GoneAt, err = parseTime(at)
		return g, err
	}, `SELECT p.url, p.title, p.status, p.err, p.gone_at FROM pages p JOIN sites s ON s.id = p.site_id
		WHERE s.name = ? AND p.gone_at IS NOT NULL ORDER BY p.gone_at DESC, p.url`, site)
	if err != nil {
		return nil, fmt.Errorf("store: gone pages of %q: %w", site, err)
	}
	return out, nil
}
