package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"sitesift/sites/index"
)

// searcher runs a full-text query: the project's index, or, in a project
// opened beside its holder, the holder's index over its socket.
type searcher func(ctx context.Context, q index.Query) (index.Result, error)

// besideSearch asks the holder of the project for searches: its index is
// open in that process alone (Bleve holds it exclusively), so a process
// reading beside it sends GET /api/search to the socket where the holder
// serves its API.
func besideSearch(p *Project) searcher {
	h := p.Holder
	if h.Socket == "" {
		return func(context.Context, index.Query) (index.Result, error) {
			return index.Result{}, conflict(fmt.Errorf("search: the search index of %s is open in %s (pid %d), which serves no socket to ask; close it and try again",
				p.Dir, h.Command, h.PID))
		}
	}
	client := &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", h.Socket)
		}},
	}
	return func(ctx context.Context, q index.Query) (index.Result, error) {
		v := url.Values{"q": {q.Text}, "offset": {strconv.Itoa(q.Offset)}, "limit": {strconv.Itoa(q.Limit)}}
		if q.Site != "" {
			v.Set("site", q.Site)
		}
		if q.Limit == 0 {
			v.Set("limit", strconv.Itoa(index.DefaultLimit))
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://localhost/api/search?"+v.Encode(), nil)
		if err != nil {
			return index.Result{}, err
		}
		res, err := client.Do(req)
		if err != nil {
			return index.Result{}, fmt.Errorf("search: ask %s (pid %d) at %s: %w", h.Command, h.PID, h.Socket, err)
		}
		defer res.Body.Close()
		var env struct {
			Status    string       `json:"status"`
			Data      SearchResult `json:"data"`
			ErrorType string       `json:"error_type"`
			Error     string       `json:"error"`
		}
		if err := json.NewDecoder(res.Body).Decode(&env); err != nil {
			return index.Result{}, fmt.Errorf("search: the answer of pid %d: HTTP %d: %w", h.PID, res.StatusCode, err)
		}
		if env.Status != "success" {
			err := fmt.Errorf("%s", env.Error)
			if Kind(env.ErrorType) == KindInvalid {
				return index.Result{}, fmt.Errorf("%w: %s", index.ErrBadQuery, env.Error)
			}
			return index.Result{}, &Error{Kind(env.ErrorType), err}
		}
		d := env.Data
		out := index.Result{Total: d.Total, Took: time.Duration(d.TookMS * float64(time.Millisecond)), Sites: d.Facets,
			Hits: make([]index.Hit, len(d.Hits))}
		for i, h := range d.Hits {
			out.Hits[i] = index.Hit{URL: h.URL, Site: h.Site, Title: h.Title, Score: h.Score, Snippet: h.Snippet}
		}
		return out, nil
	}
}
