package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"sitesift/app/apptest"
	"sitesift/app/crawling"
	"sitesift/app/imports"
	"sitesift/app/lab"
	"sitesift/internal/refdata"
)

// feedEvent is one event read from a stream: its name and data, or the
// name ":" and the text of a comment.
type feedEvent struct{ name, data string }

// feed is an open event stream.
type feed struct {
	t      *testing.T
	resp   *http.Response
	r      *bufio.Reader
	cancel context.CancelFunc
}

// openFeed opens path on srv with headers and returns the answer; a
// stream that is answered 200 is read with next. Reads fail after a
// minute rather than hang the test.
func openFeed(t *testing.T, srv *httptest.Server, path string, headers map[string]string) *feed {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		cancel()
		t.Fatalf("GET %s: %v", path, err)
	}
	f := &feed{t: t, resp: resp, r: bufio.NewReader(resp.Body), cancel: cancel}
	t.Cleanup(f.close)
	return f
}

func (f *feed) close() {
	f.cancel()
	f.resp.Body.Close()
}

// next reads the next event or comment.
func (f *feed) next() (feedEvent, error) {
	var ev feedEvent
	for {
		line, err := f.r.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "" && ev.name != "":
			return ev, nil
		case strings.HasPrefix(line, ":"):
			return feedEvent{":", strings.TrimSpace(line[1:])}, nil
		case strings.HasPrefix(line, "event: "):
			ev.name = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			ev.data = line[len("data: "):]
		}
	}
}

// until reads events until one named name whose data decodes into v and
// makes ok true; it fails the test when the stream ends first.
func until[T any](f *feed, name string, ok func(T) bool) T {
	f.t.Helper()
	for {
		ev, err := f.next()
		if err != nil {
			f.t.Fatalf("stream ended before the %s event awaited: %v", name, err)
		}
		if ev.name != name {
			continue
		}
		var v T
		if err := json.Unmarshal([]byte(ev.data), &v); err != nil {
			f.t.Fatalf("%s event: %v in %s", name, err, ev.data)
		}
		if ok(v) {
			return v
		}
	}
}

// TestJobFeedFollowsEveryKind: the feed sends the crawl's, the import's
// and the lab's status at once, then a lab run's progress as it moves and
// its end, and an import's end with its files; GET /api/jobs answers the
// same statuses in one.
func TestJobFeedFollowsEveryKind(t *testing.T) {
	_, h := emptyApp(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	var js Jobs
	apptest.Call(t, h, "GET", "/api/jobs", "", http.StatusOK, &js)
	if js.Crawl.State != crawling.StateIdle || js.Import.State != imports.ImportIdle || js.Lab != nil {
		t.Fatalf("GET /api/jobs of a new project: %+v", js)
	}

	f := openFeed(t, srv, "/api/jobs/events", map[string]string{"Sec-Fetch-Site": "same-origin"})
	if f.resp.StatusCode != http.StatusOK || f.resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("feed: %d %s", f.resp.StatusCode, f.resp.Header.Get("Content-Type"))
	}
	var names []string
	for range 3 {
		ev, err := f.next()
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, ev.name+"="+ev.data[:min(len(ev.data), 15)])
	}
	if got := strings.Join(names, " "); got != `crawl={"state":"idle" import={"state":"idle" lab=null` {
		t.Errorf("the first events: %s", got)
	}

	// A lab run: its progress moves in the feed, then its end.
	var st lab.JobStatus
	apptest.Call(t, h, "POST", "/api/lab/convergence", `{"graph": "synthetic", "n": 20000, "steps": 100000000, "every": 10000000}`, http.StatusAccepted, &st)
	first := until(f, "lab", func(l *lab.JobStatus) bool { return l != nil && l.ID == st.ID && l.Done > 0 })
	until(f, "lab", func(l *lab.JobStatus) bool {
		return l != nil && l.ID == st.ID && l.State == lab.JobRunning && l.Done > first.Done
	})
	apptest.Call(t, h, "POST", "/api/lab/jobs/"+st.ID+"/cancel", "", http.StatusOK, nil)
	until(f, "lab", func(l *lab.JobStatus) bool { return l != nil && l.ID == st.ID && l.State == lab.JobCancelled })

	// An import: its end, with the file it read.
	b, err := os.ReadFile(refdata.Shared(t, "warc", "iana.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(imports.ArchiveImportRequest{WARC: []string{upload(t, h, "iana.warc.gz", b)}})
	apptest.Call(t, h, "POST", "/api/imports", string(body), http.StatusAccepted, nil)
	imp := until(f, "import", func(s imports.ImportStatus) bool {
		return s.State != imports.ImportRunning && s.State != imports.ImportIdle
	})
	if imp.State != imports.ImportDone || len(imp.Result.Files) != 1 {
		t.Errorf("the import's last event: %+v", imp)
	}

	apptest.Call(t, h, "GET", "/api/jobs", "", http.StatusOK, &js)
	if js.Import.State != imports.ImportDone || js.Lab == nil || js.Lab.ID != st.ID || js.Lab.State != lab.JobCancelled {
		t.Errorf("GET /api/jobs after both: %+v", js)
	}
}

// TestJobFeedBounded: at most maxFeeds streams are open at once, the
// crawl's own stream counted; one more is refused at once with 429, and a
// stream closed frees its place.
func TestJobFeedBounded(t *testing.T) {
	_, h := emptyApp(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	var open []*feed
	for i := range maxFeeds {
		path := "/api/jobs/events"
		if i%2 == 1 {
			path = "/api/crawl/events"
		}
		f := openFeed(t, srv, path, nil)
		if f.resp.StatusCode != http.StatusOK {
			t.Fatalf("stream %d of %d: %d", i+1, maxFeeds, f.resp.StatusCode)
		}
		if _, err := f.next(); err != nil { // it is open and served
			t.Fatal(err)
		}
		open = append(open, f)
	}
	for _, path := range []string{"/api/jobs/events", "/api/crawl/events"} {
		f := openFeed(t, srv, path, nil)
		b, _ := io.ReadAll(f.resp.Body)
		if f.resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(b), "16 job feeds are open") {
			t.Errorf("stream %d, %s: %d %s; want 429 naming the bound", maxFeeds+1, path, f.resp.StatusCode, b)
		}
	}
	// The answers that are no streams stay open to all.
	apptest.Call(t, h, "GET", "/api/jobs", "", http.StatusOK, nil)

	open[0].close()
	deadline := time.Now().Add(time.Minute)
	for {
		f := openFeed(t, srv, "/api/jobs/events", nil)
		if f.resp.StatusCode == http.StatusOK {
			break
		}
		f.close()
		if time.Now().After(deadline) {
			t.Fatalf("a stream closed a minute ago left no place: %d", f.resp.StatusCode)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestJobFeedRefusesOtherSites: a page of another web site (by
// Sec-Fetch-Site, same-site included, or by Origin) cannot open a stream,
// and its attempts take no place from the app's own pages.
func TestJobFeedRefusesOtherSites(t *testing.T) {
	_, h := emptyApp(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	others := []map[string]string{
		{"Sec-Fetch-Site": "cross-site"},
		{"Sec-Fetch-Site": "same-site"},
		{"Origin": "http://evil.example"},
	}
	for range maxFeeds + 1 {
		for _, hd := range others {
			for _, path := range []string{"/api/jobs/events", "/api/crawl/events"} {
				f := openFeed(t, srv, path, hd)
				b, _ := io.ReadAll(f.resp.Body)
				f.close()
				if f.resp.StatusCode != http.StatusForbidden || !strings.Contains(string(b), "another web site") {
					t.Fatalf("%s with %v: %d %s; want 403", path, hd, f.resp.StatusCode, b)
				}
			}
		}
	}
	for _, hd := range []map[string]string{{"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"}, {"Origin": srv.URL}, nil} {
		if f := openFeed(t, srv, "/api/jobs/events", hd); f.resp.StatusCode != http.StatusOK {
			t.Errorf("the app's own stream with %v: %d", hd, f.resp.StatusCode)
		}
	}
}

// TestJobFeedEndsOnShutdown: a server shutting down ends its streams, so
// that Shutdown returns rather than wait for a page to close.
func TestJobFeedEndsOnShutdown(t *testing.T) {
	_, h := emptyApp(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	f := openFeed(t, srv, "/api/jobs/events", nil)
	if _, err := f.next(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := srv.Config.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown with a stream open: %v", err)
	}
	for {
		if _, err := f.next(); err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("the stream ended with %v, want its end", err)
			}
			break
		}
	}
}

// TestJobFeedKeepAlive: a stream with nothing to say sends a comment,
// which keeps proxies from closing it and finds a page gone away.
func TestJobFeedKeepAlive(t *testing.T) {
	a := apptest.Empty(t)
	h := New(a, func(c *config) { c.feeds.keepAlive = c.feeds.tick })
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	f := openFeed(t, srv, "/api/jobs/events", nil)
	for {
		ev, err := f.next()
		if err != nil {
			t.Fatal(err)
		}
		if ev.name == ":" {
			if ev.data != "keep-alive" {
				t.Errorf("comment %q", ev.data)
			}
			break
		}
		if ev.name != "crawl" && ev.name != "import" && ev.name != "lab" {
			t.Errorf("event %q on an idle project", ev.name)
		}
	}
}
