package imports

import (
	"cmp"
	"context"
	"math"
	"slices"

	"sitesift/sites/ccgraph"
	"sitesift/sites/store"
)

// ccSlice is the slice of the Common Crawl host graph an import keeps: the
// kept hosts' vertex ids, each mapped to its site's position in sites.
type ccSlice struct {
	filter ccgraph.Filter
	ids    ccgraph.IDs
	sites  []string
	pos    map[string]int32
	sorted bool
	// hosts counts the hosts of the vertices files read, kept or not;
	// known holds their ids, so that an edge naming an id no vertices file
	// gives is told from one linking a host outside the slice.
	hosts int
	known ccgraph.IDSet
}

func (im *archiveImporter) slice() *ccSlice {
	if im.cc == nil {
		im.cc = &ccSlice{filter: ccgraph.Filter{TLDs: im.req.TLDs, Suffixes: im.req.HostSuffixes},
			pos: map[string]int32{}}
	}
	return im.cc
}

// CCVerticesSummary is what one vertices file of the host graph held.
type CCVerticesSummary struct {
	Hosts int `json:"hosts"`
	// Kept counts the hosts of the slice, Sites the sites they make under
	// the project's site rule (hosts that are no valid name are dropped,
	// counted in BadHosts).
	Kept     int `json:"kept"`
	Sites    int `json:"sites"`
	BadHosts int `json:"bad_hosts"`
}

// importCCVertices reads a vertices file: the ids of the slice's hosts are
// kept for the edges, and (unless skip: the file was imported before) every
// site of the slice is stored, linked or not.
func (im *archiveImporter) importCCVertices(ctx context.Context, f store.ArchiveFile, skip bool, progress func(int64)) (any, bool, error) {
	cc := im.slice()
	rule := im.s.store.SiteRule()
	var sum CCVerticesSummary
	fileSites := map[int32]bool{}
	read := func() error {
		sum, fileSites = CCVerticesSummary{}, map[int32]bool{}
		r, err := openArchive(ctx, f.Path, progress)
		if err != nil {
			return err
		}
		defer r.Close()
		err = ccgraph.ReadVertices(r, f.Path, func(id int64, host string) error {
			sum.Hosts++
			cc.known.Add(id)
			if !cc.filter.Keep(host) {
				return nil
			}
			site, err := rule.Of("http://" + host + "/")
			if err != nil {
				sum.BadHosts++
				return nil
			}
			sum.Kept++
			p, ok := cc.pos[site]
			if !ok {
				p = int32(len(cc.sites))
				cc.pos[site] = p
				cc.sites = append(cc.sites, site)
			}
			fileSites[p] = true
			cc.ids.Add(id, p)
			cc.sorted = false
			return nil
		})
		if err == nil {
			cc.hosts += sum.Hosts
		}
		return err
	}
	if skip {
		if err := read(); err != nil {
			return nil, false, archiveErr(f, err)
		}
		return nil, false, nil
	}
	_, err := im.s.store.ImportArchiveFile(ctx, f, func(tx *store.ArchiveTx) error {
		if err := read(); err != nil {
			return err
		}
		ps := make([]int32, 0, len(fileSites))
		for p := range fileSites {
			ps = append(ps, p)
		}
		slices.Sort(ps)
		for _, p := range ps {
			if err := tx.AddSite(ctx, cc.sites[p]); err != nil {
				return err
			}
		}
		sum.Sites = len(ps)
		return nil
	}, func() any { return sum })
	if err != nil {
		return nil, false, archiveErr(f, err)
	}
	return sum, sum.Sites > 0, nil
}

// CCEdgesSummary is what one edges file of the host graph held and added.
type CCEdgesSummary struct {
	Edges int `json:"edges"`
	// Inside counts the links between two hosts of the slice; SiteLinks
	// the distinct links between two sites they make (links within a site
	// dropped); FromOutside the links from a host outside the slice to one
	// inside, counted per site and not stored as links.
	Inside      int `json:"inside"`
	SiteLinks   int `json:"site_links"`
	FromOutside int `json:"from_outside"`
	// UnknownIDs counts the links naming a vertex id that no vertices file
	// of the import gives (a vertices file left out, or the files of two
	// releases mixed): neither inside nor from outside, nothing stored.
	UnknownIDs int `json:"unknown_ids"`
}

// importCCEdges streams an edges file against the slice's ids.
func (im *archiveImporter) importCCEdges(ctx context.Context, f store.ArchiveFile, progress func(int64)) (any, bool, error) {
	cc := im.slice()
	if !cc.sorted {
		cc.ids.Sort()
		cc.sorted = true
	}
	var sum CCEdgesSummary
	_, err := im.s.store.ImportArchiveFile(ctx, f, func(tx *store.ArchiveTx) error {
		sum = CCEdgesSummary{}
		type pair struct{ from, to int32 }
		weights := map[pair]float64{}
		outside := map[int32]int{}
		r, err := openArchive(ctx, f.Path, progress)
		if err != nil {
			return err
		}
		defer r.Close()
		err = ccgraph.ReadEdges(r, f.Path, func(from, to int64) error {
			sum.Edges++
			t, ok := cc.ids.Find(to)
			if !ok {
				if !cc.known.Has(to) || !cc.known.Has(from) {
					sum.UnknownIDs++
				}
				return nil
			}
			s, ok := cc.ids.Find(from)
			if !ok {
				if !cc.known.Has(from) {
					sum.UnknownIDs++
					return nil
				}
				sum.FromOutside++
				outside[t]++
				return nil
			}
			sum.Inside++
			if s != t {
				weights[pair{s, t}]++
			}
			return nil
		})
		if err != nil {
			return err
		}
		pairs := make([]pair, 0, len(weights))
		for p := range weights {
			pairs = append(pairs, p)
		}
		slices.SortFunc(pairs, func(a, b pair) int {
			return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to))
		})
		for _, p := range pairs {
			if err := tx.AddSiteLink(ctx, cc.sites[p.from], cc.sites[p.to], weights[p]); err != nil {
				return err
			}
		}
		sum.SiteLinks = len(pairs)
		ts := make([]int32, 0, len(outside))
		for t := range outside {
			ts = append(ts, t)
		}
		slices.Sort(ts)
		for _, t := range ts {
			if err := tx.AddOutsideInlinks(ctx, cc.sites[t], outside[t]); err != nil {
				return err
			}
		}
		return nil
	}, func() any { return sum })
	if err != nil {
		return nil, false, archiveErr(f, err)
	}
	return sum, sum.SiteLinks > 0, nil
}

// CCRanksSummary is what one ranks file of the host graph held.
type CCRanksSummary struct {
	Hosts int `json:"hosts"`
	// Kept counts the slice's hosts ranked, Sites the stored sites given
	// ranks (under a site rule that joins hosts, a site takes the best
	// ranks of its hosts; a value the file gives as "---", missing, is
	// stored as missing).
	Kept  int `json:"kept"`
	Sites int `json:"sites"`
}

// importCCRanks keeps Common Crawl's harmonic centrality and PageRank of
// the slice's sites.
func (im *archiveImporter) importCCRanks(ctx context.Context, f store.ArchiveFile, progress func(int64)) (any, bool, error) {
	cc := im.slice()
	rule := im.s.store.SiteRule()
	var sum CCRanksSummary
	_, err := im.s.store.ImportArchiveFile(ctx, f, func(tx *store.ArchiveTx) error {
		sum = CCRanksSummary{}
		best := map[string]ccgraph.Rank{}
		r, err := openArchive(ctx, f.Path, progress)
		if err != nil {
			return err
		}
		defer r.Close()
		err = ccgraph.ReadRanks(r, f.Path, func(k ccgraph.Rank) error {
			sum.Hosts++
			if !cc.filter.Keep(k.Host) {
				return nil
			}
			site, err := rule.Of("http://" + k.Host + "/")
			if err != nil {
				return nil
			}
			sum.Kept++
			// A value the file lacks ("---", NaN) gives way to any other.
			b, ok := best[site]
			if !ok || math.IsNaN(b.Harmonic) || k.Harmonic > b.Harmonic {
				b.Harmonic = k.Harmonic
			}
			if !ok || math.IsNaN(b.PageRank) || k.PageRank > b.PageRank {
				b.PageRank = k.PageRank
			}
			best[site] = b
			return nil
		})
		if err != nil {
			return err
		}
		names := make([]string, 0, len(best))
		for s := range best {
			names = append(names, s)
		}
		slices.Sort(names)
		for _, s := range names {
			ok, err := tx.SetCCRanks(ctx, s, best[s].Harmonic, best[s].PageRank)
			if err != nil {
				return err
			}
			if ok {
				sum.Sites++
			}
		}
		return nil
	}, func() any { return sum })
	if err != nil {
		return nil, false, archiveErr(f, err)
	}
	return sum, false, nil
}
