package communities

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"sitesift/app/fault"
	"sitesift/importance"
)

// GraphView is the site graph as the communities page draws it.
type GraphView struct {
	// TotalSites is the number of sites of the project; Nodes holds the
	// most important of them.
	TotalSites int         `json:"total_sites"`
	Nodes      []GraphNode `json:"nodes"`
	Links      []GraphLink `json:"links"`
}

// GraphNode is a site of a [GraphView].
type GraphNode struct {
	Site     string  `json:"site"`
	OPIC     float64 `json:"opic"`
	PageRank float64 `json:"pagerank"`
	// Core is the index of the community the site belongs to, -1 for none
	// (see [Service.Graph]).
	Core int `json:"core"`
}

// GraphLink is a weighted link between two sites of a [GraphView].
type GraphLink struct {
	Source string  `json:"source"`
	Target string  `json:"target"`
	Weight float64 `json:"weight"`
}

// DefaultGraphSites and MaxGraphSites bound the sites of a [GraphView]: a
// drawing of more is unreadable and slow in the browser.
const (
	DefaultGraphSites = 150
	MaxGraphSites     = 2000
)

// Graph returns the limit most important sites by OPIC and the site links
// among them, each site with the community of cs it belongs to: the first
// core whose seed is one of its pages, else the first core with one of its
// pages as a hub or authority, else -1.
func (s *Service) Graph(ctx context.Context, limit int, cs []Community) (GraphView, error) {
	rows, err := s.ranking.AllSites(ctx, limit)
	if err != nil {
		return GraphView{}, err
	}
	_, total, err := s.store.Stats(ctx)
	if err != nil {
		return GraphView{}, err
	}
	sg, err := s.store.SiteGraphCSR(ctx)
	if err != nil {
		return GraphView{}, err
	}
	// The site of a member URL: an imported graph's node http://NAME/ is
	// the site NAME, which may hold a path sites.Of would cut. Only the
	// names the communities give are looked up, in one pass over the
	// sites: a set of every name would take more memory than the graph.
	known := map[string]bool{}
	for _, c := range cs {
		for _, u := range append([]string{c.Seed}, append(slices.Clone(c.Hubs), c.Authorities...)...) {
			known[trimHome(u)] = false
		}
	}
	pos := make(map[string]int32, len(rows))
	for _, r := range rows {
		pos[r.Site] = -1
	}
	for u, n := range sg.Names {
		if _, ok := known[n]; ok {
			known[n] = true
		}
		if _, ok := pos[n]; ok {
			pos[n] = int32(u)
		}
	}
	siteOf := func(u string) string {
		if n := trimHome(u); known[n] {
			return n
		}
		s, _ := s.store.SiteRule().Of(u)
		return s
	}
	seedCore, memberCore := map[string]int{}, map[string]int{}
	for _, c := range cs {
		if s := c.Site; s != "" {
			if _, ok := seedCore[s]; !ok {
				seedCore[s] = c.Core
			}
		}
		for _, u := range append(slices.Clone(c.Hubs), c.Authorities...) {
			if s := siteOf(u); s != "" {
				if _, ok := memberCore[s]; !ok {
					memberCore[s] = c.Core
				}
			}
		}
	}
	view := GraphView{TotalSites: total, Nodes: make([]GraphNode, len(rows)), Links: []GraphLink{}}
	shown := make(map[string]bool, len(rows))
	for i, r := range rows {
		core := -1
		if k, ok := seedCore[r.Site]; ok {
			core = k
		} else if k, ok := memberCore[r.Site]; ok {
			core = k
		}
		view.Nodes[i] = GraphNode{Site: r.Site, OPIC: r.OPIC, PageRank: r.PageRank, Core: core}
		shown[r.Site] = true
	}
	for _, r := range rows {
		u := pos[r.Site]
		if u < 0 {
			continue
		}
		for k := sg.Offsets[u]; k < sg.Offsets[u+1]; k++ {
			if t := sg.Names[sg.Targets[k]]; shown[t] {
				view.Links = append(view.Links, GraphLink{Source: r.Site, Target: t, Weight: sg.Weights[k]})
			}
		}
	}
	// In order of names, as the links have always been listed.
	slices.SortFunc(view.Links, func(x, y GraphLink) int {
		if c := strings.Compare(x.Source, y.Source); c != 0 {
			return c
		}
		return strings.Compare(x.Target, y.Target)
	})
	return view, nil
}

// trimHome returns NAME for http://NAME/, and u otherwise.
func trimHome(u string) string {
	const pre = "http://"
	if len(u) > len(pre)+1 && u[:len(pre)] == pre && u[len(u)-1] == '/' {
		return u[len(pre) : len(u)-1]
	}
	return u
}

// Extraction asks for count communities extracted with opt (see
// [Service.Extract]).
type Extraction struct {
	Count   int
	Options importance.CoreOptions
}

// CommunityGraph returns the [Service.Graph] of the limit (1..MaxGraphSites)
// most important sites, coloured by the communities of ex, or by the last
// extraction when ex is nil.
func (s *Service) CommunityGraph(ctx context.Context, limit int, ex *Extraction) (GraphView, error) {
	if limit <= 0 || limit > MaxGraphSites {
		return GraphView{}, fault.Invalid(fmt.Errorf("parameter limit=%d must lie in 1..%d", limit, MaxGraphSites))
	}
	var cs []Community
	var err error
	if ex != nil {
		cs, err = s.Extract(ctx, ex.Count, ex.Options)
	} else {
		_, cs, err = s.current(ctx)
	}
	if err != nil {
		return GraphView{}, err
	}
	return s.Graph(ctx, limit, cs)
}
