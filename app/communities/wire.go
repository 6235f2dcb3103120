package communities

import (
	"encoding/json"
	"time"

	"sitesift/app/internal/wire"
	"sitesift/sites/store"
)

// The types of this file are what the API says of saved collections: the
// field names on the wire are decided here, not by the store's rows, which
// carry none.

// Collection is a saved communities run with a librarian's edits: its
// communities (each with its seed kept or unchecked, and a name), the seeds
// added by hand, and the picture of the site graph, as they were when saved
// and edited, whatever later crawls do to the graph. See [Service.CreateCollection].
type Collection struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	CreatedBy string    `json:"created_by"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Params and Graph are JSON documents of the service: the settings of
	// the extraction and the picture of the site graph when it was saved.
	Params json.RawMessage `json:"params"`
	Graph  json.RawMessage `json:"graph"`
	// Communities are in the order of extraction; Added the seeds added by
	// hand, in the order added.
	Communities []CollectionCommunity `json:"communities"`
	Added       []CollectionSeed      `json:"added"`
}

// CollectionCommunity is one community of a [Collection].
type CollectionCommunity struct {
	Core int    `json:"core"`
	Name string `json:"name"`
	// Topic is the label computed from the community's pages.
	Topic string `json:"topic"`
	// Kept is false when the librarian unchecked the seed.
	Kept         bool     `json:"kept"`
	Seed         string   `json:"seed"`
	Site         string   `json:"site"`
	FromHub      string   `json:"from_hub"`
	HubScore     float64  `json:"hub_score"`
	CoverDensity float64  `json:"cover_density"`
	Hubs         []string `json:"hubs"`
	Authorities  []string `json:"authorities"`
}

// CollectionSeed is a seed added by hand to a [Collection].
type CollectionSeed struct {
	URL  string `json:"url"`
	Site string `json:"site"`
}

// CollectionSummary is a [Collection] as listed: its name, who made it and
// when, and how many communities and seeds it holds.
type CollectionSummary struct {
	ID          int64     `json:"id"`
	Name        string    `json:"name"`
	CreatedBy   string    `json:"created_by"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
	Communities int       `json:"communities"`
	// Kept is the number of communities whose seed is kept; Added the
	// number of seeds added by hand.
	Kept  int `json:"kept"`
	Added int `json:"added"`
}

// collection is the collection of a stored one.
func collection(c store.Collection) Collection {
	return Collection{ID: c.ID, Name: c.Name, CreatedBy: c.CreatedBy, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
		Params: c.Params, Graph: c.Graph,
		Communities: wire.Each(c.Communities, func(k store.CollectionCommunity) CollectionCommunity { return CollectionCommunity(k) }),
		Added:       wire.Each(c.Added, func(s store.CollectionSeed) CollectionSeed { return CollectionSeed(s) })}
}
