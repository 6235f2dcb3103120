package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// LinkGraph names the links a project's site graph is made of: the setting
// links of a project.
type LinkGraph string

// The link graphs a project can rank on.
const (
	// EditorialLinks are the links inside the pages' main content, which
	// their authors wrote: the default.
	EditorialLinks LinkGraph = "editorial"
	// AllLinks are every link of the pages, the template's (navigation,
	// footers, share buttons) included.
	AllLinks LinkGraph = "all"
)

// DefaultLinkGraph is the link graph of a project that never chose one.
const DefaultLinkGraph = EditorialLinks

// ErrUnknownLinkGraph is returned (wrapped) for a link graph that is
// neither editorial nor all.
var ErrUnknownLinkGraph = errors.New("unknown link graph (want editorial or all)")

// ParseLinkGraph checks a link graph's name; "" is [DefaultLinkGraph].
func ParseLinkGraph(s string) (LinkGraph, error) {
	switch g := LinkGraph(s); g {
	case "":
		return DefaultLinkGraph, nil
	case EditorialLinks, AllLinks:
		return g, nil
	}
	return "", fmt.Errorf("links %q: %w", s, ErrUnknownLinkGraph)
}

// keyLinks is the setting of the project's link graph.
const keyLinks = "links"

// LinkGraphInfo says which links a project's site graph is made of, and
// what its links were.
type LinkGraphInfo struct {
	// Links is the graph the project chose.
	Links LinkGraph
	// NoPageStructure is set when links of the graph came from an import
	// with no page structure (an edge list, CDX, a crawl log, the Common
	// Crawl graph): they count in both graphs.
	NoPageStructure bool
	// Pages is set when the project holds pages whose links have kinds
	// (a crawl, a WARC import).
	Pages bool
	// BeforeKinds is set for a project that held links before sitesift
	// told editorial links from template links: those count as editorial
	// until their pages are crawled again.
	BeforeKinds bool
}

// LinkGraph returns the project's link graph and what its links were.
func (s *Store) LinkGraph(ctx context.Context) (LinkGraphInfo, error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return LinkGraphInfo{}, fmt.Errorf("store: link graph: begin: %w", err)
	}
	defer tx.Rollback()
	var info LinkGraphInfo
	if info.Links, err = linkGraph(ctx, tx); err != nil {
		return LinkGraphInfo{}, err
	}
	// Every import without page structure leaves a record: an imports row
	// (edge lists) or an archive file of a kind other than WARC.
	err = tx.QueryRowContext(ctx, `SELECT
			EXISTS (SELECT 1 FROM imports) OR EXISTS (SELECT 1 FROM archive_files WHERE kind <> 'warc'),
			EXISTS (SELECT 1 FROM crawls) OR EXISTS (SELECT 1 FROM archive_files WHERE kind = 'warc'),
			(SELECT links_before_kinds FROM project)`).Scan(&info.NoPageStructure, &info.Pages, &info.BeforeKinds)
	if err != nil {
		return LinkGraphInfo{}, fmt.Errorf("store: link graph: %w", err)
	}
	return info, nil
}

// linkGraph reads the project's link graph as q sees it.
func linkGraph(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (LinkGraph, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, keyLinks).Scan(&v)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("store: link graph: %w", err)
	}
	g, err := ParseLinkGraph(v)
	if err != nil {
		return "", fmt.Errorf("store: stored setting %w", err)
	}
	return g, nil
}

// SetLinkGraph chooses the links the project's site graph is made of and
// reports whether that changed it. A change marks the importance stale
// ([Store.ImportanceStale]) in the same transaction when the project has
// sites: their PageRank and OPIC are those of the other graph until they
// are computed again.
func (s *Store) SetLinkGraph(ctx context.Context, g LinkGraph) (changed bool, err error) {
	if _, err := ParseLinkGraph(string(g)); err != nil || g == "" {
		return false, fmt.Errorf("store: set link graph: %w: %q", ErrInvalid, g)
	}
	err = s.write(ctx, "set link graph", func(tx *sql.Tx) error {
		old, err := linkGraph(ctx, tx)
		if err != nil {
			return err
		}
		if changed = old != g; !changed {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, keyLinks, string(g)); err != nil {
			return fmt.Errorf("store: set link graph: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE project SET importance_stale = 1 WHERE EXISTS (SELECT 1 FROM sites)`); err != nil {
			return fmt.Errorf("store: set link graph: mark the importance stale: %w", err)
		}
		return nil
	})
	return changed, err
}

// edgeSQL is how a row l of site_links counts in graph g: its weight, and
// whether it is an edge. An editorial weight NULL counts the whole weight
// (links of no kind: see migration 0017); an editorial weight 0 is an edge
// of the template only.
func edgeSQL(g LinkGraph, l string) (weight, isEdge string) {
	if g == AllLinks {
		return l + ".weight", "1"
	}
	w := "COALESCE(" + l + ".editorial_weight, " + l + ".weight)"
	return w, w + " > 0"
}
