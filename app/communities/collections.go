package communities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"sitesift/app/fault"
	"sitesift/app/internal/wire"
	"sitesift/importance"
	"sitesift/sites"
	"sitesift/sites/store"
)

// MaxCollectionName is the longest name of a collection or of one of its
// communities, in characters.
const MaxCollectionName = 120

// NewCollection asks for a collection made of an extraction.
type NewCollection struct {
	// Name is the collection's name; empty gives "Collection" and the
	// time, made unique.
	Name string
	// By is the librarian who makes it.
	By string
	// Count and Options are the extraction's (see [Service.Extract]).
	Count   int
	Options importance.CoreOptions
}

// collectionParams are the extraction settings a collection keeps.
type collectionParams struct {
	Count          int     `json:"count"`
	Density        float64 `json:"density,omitempty"`
	CoreSize       int     `json:"core_size,omitempty"`
	NewMembers     int     `json:"new_members,omitempty"`
	HITSIterations int     `json:"hits_iterations"`
	// Ended says why the extraction found fewer than Count cores (see
	// importance.SeedsEnd): "no_links" or "small_cores"; empty when it
	// found Count.
	Ended string `json:"ended,omitempty"`
	// OffMainEigenvector are the cores whose hub score is known and off
	// the main eigenvector (see Community.OffMainEigenvector): a stored
	// hub score of 0 may also be one not known.
	OffMainEigenvector []int `json:"off_main_eigenvector,omitempty"`
}

// CreateCollection runs the extraction of req (or takes it from the memo)
// and saves it as a new collection: every community with its seed kept and
// named by its topic, no seed added by hand, and the picture of the
// [DefaultGraphSites] most important sites coloured by its communities. An
// extraction that finds no community is a conflict, and nothing is saved.
func (s *Service) CreateCollection(ctx context.Context, req NewCollection) (Collection, error) {
	// Made by a librarian of the project, spelt as the project spells it.
	by, err := s.project.Librarian(ctx, req.By)
	if err != nil {
		return Collection{}, fmt.Errorf("collection: made by: %w", err)
	}
	req.By = by
	name := strings.TrimSpace(req.Name)
	if name != "" {
		if err := checkName("collection", name); err != nil {
			return Collection{}, err
		}
	}
	cs, end, err := s.ExtractEnd(ctx, req.Count, req.Options)
	if err != nil {
		return Collection{}, err
	}
	if len(cs) == 0 {
		return Collection{}, fault.Conflict(errors.New("collection: no community found: the graph has no links between different sites yet; crawl more pages first"))
	}
	graph, err := s.Graph(ctx, DefaultGraphSites, cs)
	if err != nil {
		return Collection{}, err
	}
	p := collectionParams{Count: req.Count, HITSIterations: req.Options.HITS.MaxIter}
	if end != importance.EndCount {
		p.Ended = end.String()
	}
	for _, k := range cs {
		if k.OffMainEigenvector {
			p.OffMainEigenvector = append(p.OffMainEigenvector, k.Core)
		}
	}
	if req.Options.CoreSize > 0 {
		p.CoreSize, p.NewMembers = req.Options.CoreSize, max(req.Options.NewMembers, 1)
	} else {
		p.Density = req.Options.CoverDensity
	}
	c := store.Collection{Name: name, CreatedBy: req.By, Communities: make([]store.CollectionCommunity, len(cs))}
	if c.Params, err = json.Marshal(p); err != nil {
		return Collection{}, err
	}
	if c.Graph, err = json.Marshal(graph); err != nil {
		return Collection{}, err
	}
	for i, k := range cs {
		c.Communities[i] = store.CollectionCommunity{Core: k.Core, Name: k.Name, Topic: k.Topic, Kept: k.Seed != "",
			Seed: k.Seed, Site: k.Site, FromHub: k.FromHub, HubScore: k.HubScore, CoverDensity: k.CoverDensity,
			Hubs: k.Hubs, Authorities: k.Authorities}
	}
	if name != "" {
		out, err := s.store.CreateCollection(ctx, c)
		return collection(out), collectionError(0, err)
	}
	// A default name is made unique by a number rather than refused.
	base := "Collection " + time.Now().UTC().Format("2006-01-02 15:04")
	for n := 1; ; n++ {
		c.Name = base
		if n > 1 {
			c.Name = fmt.Sprintf("%s (%d)", base, n)
		}
		out, err := s.store.CreateCollection(ctx, c)
		if !errors.Is(err, store.ErrNameTaken) || n == 100 {
			return collection(out), collectionError(0, err)
		}
	}
}

// collectionError gives a store error of collection id its kind and a
// message for people.
func collectionError(id int64, err error) error {
	var e *fault.Error
	switch {
	case err == nil || errors.As(err, &e):
		return err
	case errors.Is(err, store.ErrNameTaken):
		return fault.Conflict(fmt.Errorf("collection: %w", err))
	case errors.Is(err, store.ErrNotFound):
		return fault.NotFound(fmt.Errorf("no collection %d in this project (it may have been deleted)", id))
	}
	return err
}

// checkName checks the name of a collection or community (what says
// which): not empty, at most MaxCollectionName characters, no control
// characters.
func checkName(what, name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return fault.Invalid(fmt.Errorf("%s: empty name", what))
	case !utf8.ValidString(name):
		return fault.Invalid(fmt.Errorf("%s: name %q is not valid UTF-8", what, name))
	case utf8.RuneCountInString(name) > MaxCollectionName:
		return fault.Invalid(fmt.Errorf("%s: name longer than %d characters", what, MaxCollectionName))
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fault.Invalid(fmt.Errorf("%s: name %q has a control character", what, name))
	}
	return nil
}

// Collections lists the project's collections, the one edited last first.
func (s *Service) Collections(ctx context.Context) ([]CollectionSummary, error) {
	cs, err := s.store.Collections(ctx)
	return wire.Each(cs, func(c store.CollectionSummary) CollectionSummary { return CollectionSummary(c) }), err
}

// Collection returns the collection id.
func (s *Service) Collection(ctx context.Context, id int64) (Collection, error) {
	c, err := s.store.Collection(ctx, id)
	return collection(c), collectionError(id, err)
}

// DeleteCollection deletes the collection id.
func (s *Service) DeleteCollection(ctx context.Context, id int64) error {
	if err := s.mayChange(ctx, id); err != nil {
		return err
	}
	return collectionError(id, s.store.DeleteCollection(ctx, id))
}

// RenameCollection renames the collection id; the name is trimmed, and
// another collection's name is a conflict.
func (s *Service) RenameCollection(ctx context.Context, id int64, name string) (Collection, error) {
	if err := s.mayChange(ctx, id); err != nil {
		return Collection{}, err
	}
	name = strings.TrimSpace(name)
	if err := checkName("collection", name); err != nil {
		return Collection{}, err
	}
	c, err := s.store.UpdateCollection(ctx, id, func(c *store.Collection) error {
		c.Name = name
		return nil
	})
	return collection(c), collectionError(id, err)
}

// CommunityEdit is an edit of one community of a collection; nil fields
// are left as they are.
type CommunityEdit struct {
	// Name renames the community (trimmed).
	Name *string
	// Kept checks (true) or unchecks (false) the community's seed.
	Kept *bool
}

// EditCommunity renames the community core of the collection id, or checks
// or unchecks its seed. A community without a seed cannot be checked, nor
// can one whose site has meanwhile been given a seed by hand: one seed a
// site.
func (s *Service) EditCommunity(ctx context.Context, id int64, core int, e CommunityEdit) (Collection, error) {
	if err := s.mayChange(ctx, id); err != nil {
		return Collection{}, err
	}
	if e.Name != nil {
		n := strings.TrimSpace(*e.Name)
		if err := checkName("community", n); err != nil {
			return Collection{}, err
		}
		e.Name = &n
	}
	c, err := s.store.UpdateCollection(ctx, id, func(c *store.Collection) error {
		k := -1
		for i := range c.Communities {
			if c.Communities[i].Core == core {
				k = i
			}
		}
		if k < 0 {
			return fault.NotFound(fmt.Errorf("collection %d has no community %d", id, core))
		}
		com := &c.Communities[k]
		if e.Name != nil {
			com.Name = *e.Name
		}
		if e.Kept != nil && *e.Kept && !com.Kept {
			if com.Seed == "" {
				return fault.Conflict(fmt.Errorf("community %q has no seed: every hub site of it gave another community its seed", com.Name))
			}
			if owner := seedOwner(c, com.Site); owner != "" {
				return fault.Conflict(fmt.Errorf("site %s already gives a seed: %s", com.Site, owner))
			}
		}
		if e.Kept != nil {
			com.Kept = *e.Kept
		}
		return nil
	})
	return collection(c), collectionError(id, err)
}

// seedOwner says which seed of c, kept or added, is of site, "" when none.
func seedOwner(c *store.Collection, site string) string {
	for _, k := range c.Communities {
		if k.Kept && k.Site == site {
			return fmt.Sprintf("%s (community %q)", k.Seed, k.Name)
		}
	}
	for _, s := range c.Added {
		if s.Site == site {
			return s.URL + " (added by hand)"
		}
	}
	return ""
}

// AddCollectionSeed adds a seed by hand to the collection id. raw must be
// an absolute http(s) URL; it is normalised and kept as given (a librarian
// may want a section rather than the home page). A site gives one seed: the
// URL of a site whose community seed is unchecked checks it again instead
// when it is that seed, and is a conflict when the site already gives a
// kept or added seed.
func (s *Service) AddCollectionSeed(ctx context.Context, id int64, raw string) (Collection, error) {
	if err := s.mayChange(ctx, id); err != nil {
		return Collection{}, err
	}
	u, err := normalizeSeed(raw)
	if err != nil {
		return Collection{}, err
	}
	site, err := s.store.SiteRule().Of(u)
	if err != nil {
		return Collection{}, fault.Invalid(fmt.Errorf("seed %q: %w", raw, err))
	}
	c, err := s.store.UpdateCollection(ctx, id, func(c *store.Collection) error {
		for i, k := range c.Communities {
			if k.Seed == u && !k.Kept {
				if owner := seedOwner(c, k.Site); owner != "" {
					return fault.Conflict(fmt.Errorf("site %s already gives a seed: %s", k.Site, owner))
				}
				c.Communities[i].Kept = true
				return nil
			}
		}
		if owner := seedOwner(c, site); owner != "" {
			return fault.Conflict(fmt.Errorf("site %s already gives a seed: %s", site, owner))
		}
		c.Added = append(c.Added, store.CollectionSeed{URL: u, Site: site})
		return nil
	})
	return collection(c), collectionError(id, err)
}

// RemoveCollectionSeed removes a seed added by hand from the collection id;
// one it does not hold is not found.
func (s *Service) RemoveCollectionSeed(ctx context.Context, id int64, raw string) (Collection, error) {
	if err := s.mayChange(ctx, id); err != nil {
		return Collection{}, err
	}
	u, err := normalizeSeed(raw)
	if err != nil {
		return Collection{}, err
	}
	c, err := s.store.UpdateCollection(ctx, id, func(c *store.Collection) error {
		for i, s := range c.Added {
			if s.URL == u {
				c.Added = append(c.Added[:i], c.Added[i+1:]...)
				return nil
			}
		}
		return fault.NotFound(fmt.Errorf("collection %d has no seed %s added by hand", id, u))
	})
	return collection(c), collectionError(id, err)
}

// normalizeSeed checks and normalises a seed typed by a librarian.
func normalizeSeed(raw string) (string, error) {
	t := strings.TrimSpace(raw)
	if t == "" {
		return "", fault.Invalid(errors.New("seed: empty URL"))
	}
	u, err := sites.Normalize(t)
	if err != nil {
		return "", fault.Invalid(fmt.Errorf("seed %q: %w", t, err))
	}
	return u, nil
}

// ListedSeed is one seed of a collection's seed list (see
// [CollectionSeeds]).
type ListedSeed struct {
	// Community and Topic are the name and topic label of the community
	// the seed is of, empty for a seed added by hand.
	Community string `json:"community"`
	Topic     string `json:"topic"`
	Site      string `json:"site"`
	SeedURL   string `json:"seed_url"`
	// HubScore is the hub score of the hub page the seed comes from (see
	// Community.HubScore); 0 for a seed added by hand.
	HubScore    float64 `json:"hub_score"`
	AddedByHand bool    `json:"added_by_hand"`
}

// CollectionSeeds returns the seed list of c: the kept seeds of its
// communities in the order found, then the seeds added by hand in the
// order added. Unchecked seeds are left out.
func CollectionSeeds(c Collection) []ListedSeed {
	out := []ListedSeed{}
	for _, k := range c.Communities {
		if k.Kept && k.Seed != "" {
			out = append(out, ListedSeed{Community: k.Name, Topic: k.Topic, Site: k.Site, SeedURL: k.Seed, HubScore: k.HubScore})
		}
	}
	for _, s := range c.Added {
		out = append(out, ListedSeed{Site: s.Site, SeedURL: s.URL, AddedByHand: true})
	}
	return out
}

// CollectionFileName is the name of the file of c's seed list in format:
// "seeds-" and the ASCII letters and digits of the collection's name, runs
// of anything else made one dash, at most 60 of them, without a leading
// word "seeds" of its own; the collection's ID when that leaves nothing.
// ASCII only, as a Content-Disposition file name is read safely
// everywhere. The exports service's CollectionName puts the project's name
// before it.
func CollectionFileName(c Collection, format string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(c.Name) {
		if b.Len() >= 60 {
			break
		}
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	name := strings.Trim(b.String(), "-")
	// A collection named "Seeds Nov 2026" is not "seeds-seeds-nov-2026".
	if name == "seeds" {
		name = ""
	}
	name = strings.TrimPrefix(name, "seeds-")
	if name == "" {
		name = fmt.Sprint(c.ID)
	}
	return "seeds-" + name + "." + format
}
