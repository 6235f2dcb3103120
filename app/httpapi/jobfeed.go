package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"sitesift/app"
	"sitesift/app/crawling"
	"sitesift/app/imports"
	"sitesift/app/lab"
)

// The job feed: the status of the project's crawl, archive import and lab
// job in one Server-Sent Events stream (GET /api/jobs/events), and the same
// statuses in one JSON answer (GET /api/jobs) for a client that cannot
// stream. The app's pages follow every job through it.
//
// A stream holds a connection and a goroutine for as long as the page
// stays open, so streams are bounded: any page the librarian opens can
// make the browser open one (an EventSource or an <img src> needs no
// permission), so a stream is refused to another web site, at most
// maxFeeds are open at once (more are refused with 429, and the app's
// pages then poll GET /api/jobs), the statuses are read once per tick for
// all streams, and a server shutting down ends them rather than waiting
// for them.

// Jobs is the status of each kind of job of the project: what GET /api/jobs
// answers, and what GET /api/jobs/events sends, one kind per event named
// by its JSON field.
type Jobs struct {
	Crawl  crawling.CrawlStatus `json:"crawl"`
	Import imports.ImportStatus `json:"import"`
	// Lab is the newest lab job kept, null before the first.
	Lab *lab.JobStatus `json:"lab"`
}

// The kinds of job the feed follows, as its events name them.
const (
	jobCrawl  = "crawl"
	jobImport = "import"
	jobLab    = "lab"
)

// jobKinds are the kinds in the order a stream sends them.
var jobKinds = []string{jobCrawl, jobImport, jobLab}

const (
	// maxFeeds bounds the streams open at once: the desktop window opens
	// one, each browser tab of a served project one.
	maxFeeds = 16
	// feedTick is how often a stream looks at the statuses: a running
	// crawl's counts move under the user's eyes.
	feedTick = 500 * time.Millisecond
	// feedKeepAlive is the longest a stream stays silent: a comment then
	// keeps proxies from closing it and finds a page that went away (in
	// the desktop window only a failed write does).
	feedKeepAlive = 15 * time.Second
)

// feeds are the job streams of a handler.
type feeds struct {
	slots     chan struct{} // a token for every open stream
	tick      time.Duration // feedTick; a test may change it
	keepAlive time.Duration // feedKeepAlive; a test may shorten it

	mu      sync.Mutex
	servers map[*http.Server]chan struct{} // closed when that server shuts down

	snapMu sync.Mutex
	snapAt time.Time
	snap   map[string]jobEvent
}

func newFeeds() *feeds {
	return &feeds{slots: make(chan struct{}, maxFeeds), tick: feedTick, keepAlive: feedKeepAlive,
		servers: map[*http.Server]chan struct{}{}}
}

// jobEvent is one kind's status, encoded.
type jobEvent struct {
	data    []byte
	running bool
}

// jobStatuses reads the status of each kind of job.
func jobStatuses(a *app.App) Jobs {
	js := Jobs{Crawl: a.Crawling.Status(), Import: a.Imports.Status()}
	if labs := a.Lab.Jobs(); len(labs) > 0 {
		js.Lab = &labs[0]
	}
	return js
}

// statuses returns each kind's status, encoded: read at most once a half
// tick whatever the number of streams, for a crawl's status reads the
// store.
func (f *feeds) statuses(a *app.App) (map[string]jobEvent, error) {
	f.snapMu.Lock()
	defer f.snapMu.Unlock()
	if f.snap != nil && time.Since(f.snapAt) < f.tick/2 {
		return f.snap, nil
	}
	js := jobStatuses(a)
	out := map[string]jobEvent{}
	for _, k := range []struct {
		kind    string
		status  any
		running bool
	}{
		{jobCrawl, js.Crawl, activeCrawl[js.Crawl.State]},
		{jobImport, js.Import, js.Import.State == imports.ImportRunning},
		{jobLab, js.Lab, js.Lab != nil && js.Lab.State == lab.JobRunning},
	} {
		b, err := json.Marshal(k.status)
		if err != nil {
			return nil, fmt.Errorf("job feed: encoding the %s status: %w", k.kind, err)
		}
		out[k.kind] = jobEvent{data: b, running: k.running}
	}
	f.snap, f.snapAt = out, time.Now()
	return out, nil
}

// activeCrawl are the crawl states in which its status moves.
var activeCrawl = map[string]bool{crawling.StateRunning: true, crawling.StatePaused: true, crawling.StateStopping: true}

// closing returns a channel closed when the server that serves r shuts
// down. http.Server.Shutdown waits for every request to end, and a stream
// never would: each server's first stream registers the close.
func (f *feeds) closing(r *http.Request) <-chan struct{} {
	srv, _ := r.Context().Value(http.ServerContextKey).(*http.Server)
	if srv == nil { // the desktop window: a failed write ends the stream
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.servers[srv]
	if !ok {
		c = make(chan struct{})
		f.servers[srv] = c
		srv.RegisterOnShutdown(func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			close(c)
			delete(f.servers, srv)
		})
	}
	return c
}

// streamJobs streams the statuses of kinds as Server-Sent Events named by
// name: each at once, then whenever it changes or while its job runs, or,
// with every, at every tick. In the Wails window the writer is not an
// http.Flusher and the request context is not cancelled when the page goes
// away, so the loop flushes when it can and stops on the first failed
// write.
func (h *handler) streamJobs(w http.ResponseWriter, r *http.Request, kinds []string, name func(kind string) string, every bool) {
	f := h.feeds
	select {
	case f.slots <- struct{}{}:
		defer func() { <-f.slots }()
	default:
		writeError(w, &apiError{"busy", http.StatusTooManyRequests,
			fmt.Errorf("%d job feeds are open, the most this project serves at once: close a page of sitesift, or poll GET /api/jobs", maxFeeds)})
		return
	}
	closing := f.closing(r)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	t := time.NewTicker(f.tick)
	defer t.Stop()
	sent := map[string]string{}
	quiet := time.Duration(0) // since the last write
	for {
		st, err := f.statuses(h.app)
		if err != nil {
			h.log.Error("job feed", "err", err)
			return
		}
		wrote := false
		for _, k := range kinds {
			ev := st[k]
			if !every && !ev.running && sent[k] == string(ev.data) {
				continue
			}
			if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name(k), ev.data); err != nil {
				return
			}
			sent[k], wrote = string(ev.data), true
		}
		if !wrote && quiet >= f.keepAlive {
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			wrote = true
		}
		if wrote {
			quiet = 0
			if flusher != nil {
				flusher.Flush()
			}
		}
		select {
		case <-r.Context().Done():
			return
		case <-closing:
			return
		case <-t.C:
			quiet += f.tick
		}
	}
}

// routeJobs registers the job feed: GET /api/jobs and its stream. The
// crawl's own stream, GET /api/crawl/events, is registered with the crawl.
func (h *handler) routeJobs(mux *router) {
	mux.HandleFunc("GET /api/jobs", h.api(func(r *http.Request) (any, error) { return jobStatuses(h.app), nil }))
	mux.HandleFunc("GET /api/jobs/events", func(w http.ResponseWriter, r *http.Request) {
		h.streamJobs(w, r, jobKinds, func(kind string) string { return kind }, false)
	})
}

// crawlEvents streams the crawl status alone, as `event: status` at every
// tick: the stream the app had before the job feed, kept for the clients
// that read it. It shares the feed's bounds.
func (h *handler) crawlEvents(w http.ResponseWriter, r *http.Request) {
	h.streamJobs(w, r, []string{jobCrawl}, func(string) string { return "status" }, true)
}
