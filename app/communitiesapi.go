package app

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"

	"sitesift/app/export"
	"sitesift/importance"
	"sitesift/sites"
)

// routeCommunities registers the endpoints of the communities page and of
// the exports: seed lists (both methods, and a list the librarian edited),
// the Heritrix precedence file and the ratings table.
func (a *App) routeCommunities(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/communities", a.api(a.handleCommunities))
	mux.HandleFunc("GET /api/graph", a.api(a.handleGraph))
	mux.HandleFunc("GET /api/export/seeds", a.handleExportSeeds)
	mux.HandleFunc("POST /api/export/seeds", a.handleExportEditedSeeds)
	mux.HandleFunc("GET /api/export/heritrix", a.handleExportHeritrix)
	mux.HandleFunc("GET /api/export/ratings.csv", a.handleExportRatings)
}

// floatParam reads a float query parameter, def when absent.
func floatParam(r *http.Request, name string, def float64) (float64, error) {
	s := r.FormValue(name)
	if s == "" {
		return def, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, badRequest(fmt.Errorf("parameter %s=%q is not a number", name, s))
	}
	return f, nil
}

// communityParams are the query parameters that set up an extraction.
var communityParams = []string{"count", "density", "core_size", "new_members", "hits_iterations"}

// communityRequest reads count (default def), density, core_size,
// new_members and hits_iterations, with the rules of `sitesift seeds`:
// density and core_size exclude each other, new_members needs core_size.
func communityRequest(r *http.Request, def int) (int, importance.CoreOptions, error) {
	opt := importance.DefaultCoreOptions()
	count, err := intParam(r, "count", def)
	if err != nil {
		return 0, opt, err
	}
	if count == 0 || count > MaxCommunityCount {
		return 0, opt, badRequest(fmt.Errorf("parameter count=%d must lie in 1..%d", count, MaxCommunityCount))
	}
	has := func(name string) bool { return r.FormValue(name) != "" }
	if has("density") && has("core_size") {
		return 0, opt, badRequest(fmt.Errorf("parameters density and core_size are exclusive"))
	}
	if has("new_members") && !has("core_size") {
		return 0, opt, badRequest(fmt.Errorf("parameter new_members goes with core_size"))
	}
	if opt.CoverDensity, err = floatParam(r, "density", opt.CoverDensity); err != nil {
		return 0, opt, err
	}
	if opt.CoreSize, err = intParam(r, "core_size", 0); err != nil {
		return 0, opt, err
	}
	if opt.NewMembers, err = intParam(r, "new_members", 1); err != nil {
		return 0, opt, err
	}
	if opt.HITS.MaxIter, err = intParam(r, "hits_iterations", opt.HITS.MaxIter); err != nil {
		return 0, opt, err
	}
	if opt.NewMembers == 0 {
		return 0, opt, badRequest(fmt.Errorf("parameter new_members must be positive"))
	}
	return count, opt, CheckCoreOptions(opt)
}

func (a *App) handleCommunities(r *http.Request) (any, error) {
	count, opt, err := communityRequest(r, DefaultCommunityCount)
	if err != nil {
		return nil, err
	}
	return a.Communities(r.Context(), count, opt)
}

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
	// (see [App.Graph]).
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

func (a *App) handleGraph(r *http.Request) (any, error) {
	limit, err := intParam(r, "limit", DefaultGraphSites)
	if err != nil {
		return nil, err
	}
	if limit == 0 || limit > MaxGraphSites {
		return nil, badRequest(fmt.Errorf("parameter limit=%d must lie in 1..%d", limit, MaxGraphSites))
	}
	// With extraction parameters, colour by that extraction; without, by
	// the current one.
	var cs []Community
	if slices.ContainsFunc(communityParams, func(p string) bool { return r.FormValue(p) != "" }) {
		count, opt, err := communityRequest(r, DefaultCommunityCount)
		if err != nil {
			return nil, err
		}
		if cs, err = a.Communities(r.Context(), count, opt); err != nil {
			return nil, err
		}
	} else if _, cs, err = a.currentCommunities(r.Context()); err != nil {
		return nil, err
	}
	return a.Graph(r.Context(), limit, cs)
}

// Graph returns the limit most important sites by OPIC and the site links
// among them, each site with the community of cs it belongs to: the first
// core whose seed is one of its pages, else the first core with one of its
// pages as a hub or authority, else -1.
func (a *App) Graph(ctx context.Context, limit int, cs []Community) (GraphView, error) {
	rows, err := a.allSites(ctx, limit)
	if err != nil {
		return GraphView{}, err
	}
	_, total, err := a.store.Stats(ctx)
	if err != nil {
		return GraphView{}, err
	}
	names, edges, err := a.store.SiteGraph(ctx)
	if err != nil {
		return GraphView{}, err
	}
	// The site of a member URL: an imported graph's node http://NAME/ is
	// the site NAME, which may hold a path sites.Of would cut.
	known := make(map[string]bool, len(names))
	for _, n := range names {
		known[n] = true
	}
	siteOf := func(u string) string {
		if n := trimHome(u); known[n] {
			return n
		}
		s, _ := sites.Of(u)
		return s
	}
	seedCore, memberCore := map[string]int{}, map[string]int{}
	for _, c := range cs {
		if s := siteOf(c.Seed); s != "" {
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
	for _, e := range edges {
		if shown[e.From] && shown[e.To] {
			view.Links = append(view.Links, GraphLink{Source: e.From, Target: e.To, Weight: e.Weight})
		}
	}
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

// contentTypes of the exported files, by format.
var contentTypes = map[string]string{
	export.Txt:  "text/plain; charset=utf-8",
	export.CSV:  "text/csv; charset=utf-8",
	export.JSON: "application/json",
}

// sendFile answers with body as a file to download.
func sendFile(w http.ResponseWriter, name, ctype string, body []byte) {
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, name))
	w.Write(body)
}

// exportFormat reads the format parameter (default txt) and checks it.
func exportFormat(format string) (string, error) {
	if format == "" {
		format = export.Txt
	}
	if _, ok := contentTypes[format]; !ok {
		return "", badRequest(fmt.Errorf("unknown format %q (want txt, csv or json)", format))
	}
	return format, nil
}

func (a *App) handleExportSeeds(w http.ResponseWriter, r *http.Request) {
	format, err := exportFormat(r.FormValue("format"))
	if err != nil {
		writeError(w, err)
		return
	}
	var buf bytes.Buffer
	switch method := r.FormValue("method"); method {
	case "", MethodCommunities:
		count, opt, err := communityRequest(r, DefaultCommunityCount)
		if err == nil {
			var cs []Community
			if cs, err = a.Communities(r.Context(), count, opt); err == nil {
				err = WriteCommunities(&buf, cs, format)
			}
		}
		if err != nil {
			writeError(w, err)
			return
		}
	case MethodImportance:
		for _, p := range communityParams[1:] {
			if r.FormValue(p) != "" {
				writeError(w, badRequest(fmt.Errorf("parameter %s goes with method=communities", p)))
				return
			}
		}
		count, err := intParam(r, "count", 50)
		if err == nil {
			var seeds []Seed
			if seeds, err = a.Seeds(r.Context(), count); err == nil {
				err = WriteSeeds(&buf, seeds, format)
			}
		}
		if err != nil {
			writeError(w, err)
			return
		}
	default:
		writeError(w, badRequest(fmt.Errorf("unknown method %q (want communities or importance)", method)))
		return
	}
	sendFile(w, "seeds."+format, contentTypes[format], buf.Bytes())
}

// handleExportEditedSeeds exports a seed list the librarian edited on the
// communities page.
func (a *App) handleExportEditedSeeds(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Seeds  []string `json:"seeds"`
		Format string   `json:"format"`
	}
	if err := decodeBody(r, &body); err != nil {
		writeError(w, err)
		return
	}
	format, err := exportFormat(body.Format)
	if err != nil {
		writeError(w, err)
		return
	}
	cs, err := a.EditedSeeds(r.Context(), body.Seeds)
	if err != nil {
		writeError(w, err)
		return
	}
	var buf bytes.Buffer
	if err := WriteCommunities(&buf, cs, format); err != nil {
		writeError(w, err)
		return
	}
	sendFile(w, "seeds."+format, contentTypes[format], buf.Bytes())
}

func (a *App) handleExportHeritrix(w http.ResponseWriter, r *http.Request) {
	buckets, err := intParam(r, "buckets", DefaultPrecedenceBuckets)
	if err != nil {
		writeError(w, err)
		return
	}
	ps, err := a.HeritrixPrecedence(r.Context(), buckets)
	if err != nil {
		writeError(w, err)
		return
	}
	var buf bytes.Buffer
	if err := WriteHeritrixPrecedence(&buf, ps); err != nil {
		writeError(w, err)
		return
	}
	sendFile(w, "heritrix-precedence.txt", contentTypes[export.Txt], buf.Bytes())
}

func (a *App) handleExportRatings(w http.ResponseWriter, r *http.Request) {
	t, err := a.Ratings(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	var buf bytes.Buffer
	if err := WriteRatingsCSV(&buf, t); err != nil {
		writeError(w, err)
		return
	}
	sendFile(w, "ratings.csv", contentTypes[export.CSV], buf.Bytes())
}
