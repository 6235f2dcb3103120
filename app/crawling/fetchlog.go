package crawling

import (
	"mime"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"

	"sitesift/sites"
	"sitesift/sites/crawllog"
	"sitesift/sites/warcfile"
)

// fetchLog writes a crawl's crawl.log from its pages and from what its WARC
// file archived of each fetch: the payload digests, the status of each
// redirect hop, and a line of each robots.txt fetch, which gives no page.
// Captures come from the fetch goroutines, pages from the sink.
type fetchLog struct {
	path string
	mu   sync.Mutex
	// archived holds what was archived under each URL (normalised) until
	// its page is logged.
	archived map[string]crawllog.Fetch
	failed   bool // a write failed (said once)
	fail     func(err error)
}

// maxArchivedWaiting bounds the archived fetches kept for their pages:
// those of answers that give no page (an image dropped after its headers)
// would otherwise pile up over a long crawl.
const maxArchivedWaiting = 100_000

func newFetchLog(path string, fail func(error)) *fetchLog {
	return &fetchLog{path: path, archived: map[string]crawllog.Fetch{}, fail: fail}
}

// capturer returns the capture function of a crawl that archives into w:
// it writes each capture to w and keeps its digest and status for the log.
func (l *fetchLog) capturer(w *warcfile.Writer) func(sites.Capture) error {
	return func(c sites.Capture) error {
		digest, err := w.WriteDigest(c)
		if err != nil {
			return err
		}
		l.archive(c, digest, time.Now())
		return nil
	}
}

// archive records what the WARC file holds of c; a robots.txt fetch is
// logged at once, since no page will be.
func (l *fetchLog) archive(c sites.Capture, digest string, now time.Time) {
	ct, _, _ := mime.ParseMediaType(c.ResponseHeader.Get("Content-Type"))
	if u, err := url.Parse(c.URL); err == nil && u.Path == "/robots.txt" && u.RawQuery == "" {
		l.write([]string{crawllog.PrerequisiteLine(c.URL, c.StatusCode, c.BodyLen(), ct, c.At, now.Sub(c.At), digest, now)})
		return
	}
	n, err := sites.Normalize(c.URL)
	if err != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.archived) >= maxArchivedWaiting {
		clear(l.archived)
	}
	l.archived[n] = crawllog.Fetch{Status: c.StatusCode, Size: c.BodyLen(), ContentType: ct, Digest: digest}
}

// pages logs a batch of pages.
func (l *fetchLog) pages(pages []sites.Page, at time.Time) {
	lines := make([]string, 0, len(pages))
	l.mu.Lock()
	for _, p := range pages {
		f, ok := l.archived[p.URL]
		delete(l.archived, p.URL)
		if p.ErrClass == sites.ErrRedirect && !ok && cleaned(p) {
			// No server was asked this URL: the crawler asked its
			// cleaned form, which the target's own line logs.
			continue
		}
		lines = append(lines, crawllog.LineOf(p, f, at))
	}
	l.mu.Unlock()
	l.write(lines)
}

// cleaned reports whether the redirect record p is of a URL whose target
// is the URL itself with its dot segments ("/a/../b") removed: the crawler
// asks that form, and no server redirected.
func cleaned(p sites.Page) bool {
	target, ok := strings.CutPrefix(p.Err, "redirected to ")
	if !ok {
		return false
	}
	u, err := url.Parse(p.URL)
	if err != nil || u.Path == "" {
		return false
	}
	clean := path.Clean(u.Path)
	if strings.HasSuffix(u.Path, "/") && clean != "/" {
		clean += "/"
	}
	u.Path, u.RawPath = clean, ""
	t, err := sites.Normalize(u.String())
	return err == nil && t == target
}

// write appends lines to the log; the log is for operators and the store
// is the record, so a log that cannot be written costs lines, not the
// crawl.
func (l *fetchLog) write(lines []string) {
	if len(lines) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := crawllog.AppendLines(l.path, lines); err != nil && !l.failed {
		l.failed = true
		l.fail(err)
	}
}
