package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/app/review"
)

// HolderSearch returns the search of the process that holds a project,
// for a process that reads the project beside it ([project.ReadOnlyBeside]):
// the search index is open in the holder alone (Bleve holds it
// exclusively), so the search is asked of the holder's API on the socket
// it serves in the project (h.Socket). Give it to [app.New] as
// Options.Search.
func HolderSearch(h project.Holder) func(context.Context, review.Query) (review.IndexResult, error) {
	client := &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", h.Socket)
		}},
	}
	return func(ctx context.Context, q review.Query) (review.IndexResult, error) {
		v := url.Values{"q": {q.Text}, "offset": {strconv.Itoa(q.Offset)}, "limit": {strconv.Itoa(q.Limit)}}
		if q.Site != "" {
			v.Set("site", q.Site)
		}
		if q.Any {
			v.Set("any", "1")
		}
		if q.Limit == 0 {
			v.Set("limit", strconv.Itoa(review.SearchDefaultLimit))
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://localhost/api/search?"+v.Encode(), nil)
		if err != nil {
			return review.IndexResult{}, err
		}
		res, err := client.Do(req)
		if err != nil {
			return review.IndexResult{}, fmt.Errorf("search: ask %s (pid %d), which holds the index, at %s: %w", h.Command, h.PID, h.Socket, err)
		}
		defer res.Body.Close()
		var env struct {
			Status    string              `json:"status"`
			Data      review.SearchResult `json:"data"`
			ErrorType string              `json:"error_type"`
			Error     string              `json:"error"`
		}
		if err := json.NewDecoder(res.Body).Decode(&env); err != nil {
			return review.IndexResult{}, fmt.Errorf("search: the answer of pid %d: HTTP %d: %w", h.PID, res.StatusCode, err)
		}
		if env.Status != "success" {
			err := fmt.Errorf("%s", env.Error)
			if fault.Kind(env.ErrorType) == fault.KindInvalid {
				return review.IndexResult{}, fmt.Errorf("%w: %s", review.ErrBadQuery, env.Error)
			}
			// The holder's own kinds of the HTTP layer (busy: too many
			// searches at once) are not the service's: the API beside
			// would have no status for them.
			kind := fault.Kind(env.ErrorType)
			if _, ok := statuses[kind]; !ok {
				kind = fault.KindInternal
				if res.StatusCode == http.StatusTooManyRequests {
					kind = fault.KindConflict
				}
			}
			return review.IndexResult{}, &fault.Error{Kind: kind, Err: err}
		}
		return env.Data.IndexResult(q.FacetSites), nil
	}
}
