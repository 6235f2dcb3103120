package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
)

// serveOnly serves the generated web, with extras (redirects from /old-N, a
// robots.txt closing /private/ on one host in three), as an HTTP proxy on
// addr until ctx ends, as `sitesift demo-web` does: it prints the proxy URL,
// then the seed URLs, one a line. With logFile, every request is appended to
// it as one line (the absolute URL) before it is answered, written at once,
// so a crawler killed in the middle of a request leaves it in the log.
// .ci/killtest counts the requests a crawl killed and restarted makes.
func serveOnly(ctx context.Context, cfg config, addr, logFile string) error {
	w := newWeb(cfg.hosts, cfg.pages, cfg.ownLinks, cfg.otherLinks, cfg.seed)
	w.extras = true
	var h http.Handler = w
	if logFile != "" {
		f, err := os.OpenFile(logFile, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return fmt.Errorf("bench: request log: %w", err)
		}
		defer f.Close()
		h = &requestLog{f: f, next: w}
	}
	srv, err := serve(ctx, h, addr)
	if err != nil {
		return err
	}
	defer srv.close()
	fmt.Println(srv.URL)
	for _, s := range w.seeds(cfg.seeds) {
		fmt.Println(s)
	}
	fmt.Fprintf(os.Stderr, "bench: serving a web of %d hosts × %d pages (redirects from /old-N, /private/ closed by robots.txt on one host in three) at %s\n",
		cfg.hosts, w.pages, srv.URL)
	<-ctx.Done()
	return nil
}

// requestLog writes the absolute URL of every request to f, one a line,
// then hands the request on.
type requestLog struct {
	mu   sync.Mutex
	f    *os.File
	next http.Handler
	err  bool // a write failed; reported once
}

func (l *requestLog) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	host := r.URL.Host
	if host == "" {
		host = r.Host
	}
	line := "http://" + strings.TrimSuffix(strings.ToLower(host), ":80") + r.URL.RequestURI() + "\n"
	l.mu.Lock()
	// One write(2) a request, no buffer: what a killed client asked for is
	// in the file already.
	if _, err := l.f.WriteString(line); err != nil && !l.err {
		l.err = true
		fmt.Fprintln(os.Stderr, "bench: request log:", err)
	}
	l.mu.Unlock()
	l.next.ServeHTTP(rw, r)
}
