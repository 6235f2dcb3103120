package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// hostSuffix ends every host of the bench web; it is under the reserved
// .test domain, so nothing here can reach a real site.
const hostSuffix = ".bench.test"

// robotsTxt is every host's robots.txt: both crawlers fetch and obey it, and
// no page links to /private/, so it refuses nothing. In a web with extras
// (see [web.extras]) only the hosts of [web.closed] send it; the others send
// robotsOpen.
const (
	robotsTxt  = "User-agent: *\nDisallow: /private/\n"
	robotsOpen = "User-agent: *\nDisallow:\n"
)

// web is a generated web of hosts × pages HTML pages. Each page's links and
// text follow from its host and number and the web's seed alone, so a page
// is the same bytes every time it is served, in every run, and nothing is
// kept in memory but a pool of paragraphs.
type web struct {
	hosts      int
	pages      int // per host; page 0 is the home page "/"
	ownLinks   int // links of a page to pages of its own host
	otherLinks int // links of a page to pages of other hosts
	seed       uint64
	// extras adds, for the kill test (-serve), what the benchmark leaves
	// out: some pages link to /old-N, which answers 301 to page N, and to
	// /private/N, which robots.txt disallows on the hosts of [web.closed]
	// and which is a small page elsewhere. The pages' other bytes stay the
	// same.
	extras bool
	paras  [][]byte // pre-rendered <p> elements the pages draw from
	bufs   sync.Pool
}

// newWeb generates a web with enough pages for a crawl of maxPages pages:
// three times as many, so neither crawler runs out before its cap whatever
// order it takes.
func newWeb(hosts, maxPages, ownLinks, otherLinks int, seed uint64) *web {
	per := max(4, (3*maxPages+hosts-1)/hosts)
	w := &web{hosts: hosts, pages: per, ownLinks: ownLinks, otherLinks: otherLinks, seed: seed}
	rng := rand.New(rand.NewPCG(seed, 0x6265_6e63_6821))
	for range 256 {
		var b bytes.Buffer
		b.WriteString("<p>")
		for i := range 40 + rng.IntN(40) {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(vocabulary[rng.IntN(len(vocabulary))])
		}
		b.WriteString(".</p>\n")
		w.paras = append(w.paras, b.Bytes())
	}
	w.bufs.New = func() any { return new(bytes.Buffer) }
	return w
}

// host is the name of host number i.
func (w *web) host(i int) string { return fmt.Sprintf("site%05d%s", i, hostSuffix) }

// path is the path of page p of a host.
func path(p int) string {
	if p == 0 {
		return "/"
	}
	return "/p/" + strconv.Itoa(p)
}

// seeds returns the home pages of the first n hosts, spread over the web.
func (w *web) seeds(n int) []string {
	n = min(max(n, 1), w.hosts)
	out := make([]string, n)
	for i := range n {
		out[i] = "http://" + w.host(i*w.hosts/n) + "/"
	}
	return out
}

// parseHost returns the number of the bench host h ("site00042.bench.test",
// with or without ":80").
func (w *web) parseHost(h string) (int, bool) {
	h = strings.TrimSuffix(strings.ToLower(h), ":80")
	name, ok := strings.CutSuffix(h, hostSuffix)
	if !ok {
		return 0, false
	}
	num, ok := strings.CutPrefix(name, "site")
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(num)
	if err != nil || i < 0 || i >= w.hosts || w.host(i) != h {
		return 0, false
	}
	return i, true
}

// parsePath returns the page number of path p.
func (w *web) parsePath(p string) (int, bool) {
	if p == "/" || p == "" {
		return 0, true
	}
	num, ok := strings.CutPrefix(p, "/p/")
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(num)
	if err != nil || i < 1 || i >= w.pages || path(i) != p {
		return 0, false
	}
	return i, true
}

// render writes page p of host h into b. Links to the own host are relative,
// those to other hosts absolute, as on real sites.
func (w *web) render(b *bytes.Buffer, h, p int) {
	rng := rand.New(rand.NewPCG(w.seed^uint64(h)<<32^uint64(p), 0x7061_6765))
	host := w.host(h)
	fmt.Fprintf(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s — page %d</title></head>\n<body>\n<h1>%s, page %d</h1>\n<nav>",
		host, p, host, p)
	for range w.ownLinks {
		fmt.Fprintf(b, "<a href=\"%s\">more here</a> ", path(rng.IntN(w.pages)))
	}
	b.WriteString("</nav>\n")
	for i := range 6 {
		b.Write(w.paras[rng.IntN(len(w.paras))])
		if i < w.otherLinks {
			t := rng.IntN(w.hosts - 1)
			if t >= h {
				t++
			}
			fmt.Fprintf(b, "<p>See <a href=\"http://%s%s\">%s</a>.</p>\n", w.host(t), path(rng.IntN(w.pages)), html.EscapeString(w.host(t)))
		}
	}
	for i := 6; i < w.otherLinks; i++ {
		t := rng.IntN(w.hosts - 1)
		if t >= h {
			t++
		}
		fmt.Fprintf(b, "<a href=\"http://%s%s\">elsewhere</a>\n", w.host(t), path(rng.IntN(w.pages)))
	}
	if w.extras {
		if rng.IntN(4) == 0 {
			fmt.Fprintf(b, "<a href=\"/old-%d\">the old address</a>\n", rng.IntN(w.pages))
		}
		if rng.IntN(5) == 0 {
			fmt.Fprintf(b, "<a href=\"/private/%d\">members only</a>\n", rng.IntN(w.pages))
		}
	}
	b.WriteString("</body></html>\n")
}

// closed reports whether robots.txt of host h disallows /private/ in a web
// with extras: one host in three.
func (w *web) closed(h int) bool { return h%3 == 0 }

// number returns the page number after prefix in p ("/old-12" → 12).
func (w *web) number(p, prefix string) (int, bool) {
	num, ok := strings.CutPrefix(p, prefix)
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(num)
	if err != nil || i < 0 || i >= w.pages || strconv.Itoa(i) != num {
		return 0, false
	}
	return i, true
}

// serveExtra answers the paths of a web with extras and reports whether p
// was one: /old-N (301 to page N) and /private/N (a small page; the hosts of
// [web.closed] disallow it, so a crawler asking for it there ignored
// robots.txt).
func (w *web) serveExtra(rw http.ResponseWriter, r *http.Request, h int) bool {
	if n, ok := w.number(r.URL.Path, "/old-"); ok {
		http.Redirect(rw, r, "http://"+w.host(h)+path(n), http.StatusMovedPermanently)
		return true
	}
	if n, ok := w.number(r.URL.Path, "/private/"); ok {
		body := fmt.Sprintf("<!DOCTYPE html>\n<html lang=\"en\"><head><title>%s — private %d</title></head>\n"+
			"<body><p>Members only: the archive of the council.</p><a href=\"/\">home</a></body></html>\n", w.host(h), n)
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		rw.Header().Set("Content-Length", strconv.Itoa(len(body)))
		rw.Write([]byte(body)) //nolint:errcheck // the client went away
		return true
	}
	return false
}

// ServeHTTP answers proxy-form requests for the web's hosts (and direct
// requests whose Host names one): a page, robots.txt, or 404; an unknown host
// gets 502, as from a proxy that cannot resolve it.
func (w *web) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	host := r.URL.Host
	if host == "" {
		host = r.Host
	}
	h, ok := w.parseHost(host)
	if !ok {
		http.Error(rw, "bench: unknown host "+host, http.StatusBadGateway)
		return
	}
	if r.URL.Path == "/robots.txt" {
		robots := robotsTxt
		if w.extras && !w.closed(h) {
			robots = robotsOpen
		}
		rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
		rw.Header().Set("Content-Length", strconv.Itoa(len(robots)))
		rw.Write([]byte(robots)) //nolint:errcheck // the client went away
		return
	}
	if w.extras && w.serveExtra(rw, r, h) {
		return
	}
	p, ok := w.parsePath(r.URL.Path)
	if !ok {
		http.NotFound(rw, r)
		return
	}
	b := w.bufs.Get().(*bytes.Buffer)
	b.Reset()
	w.render(b, h, p)
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	rw.Header().Set("Content-Length", strconv.Itoa(b.Len()))
	rw.Write(b.Bytes()) //nolint:errcheck // the client went away
	w.bufs.Put(b)
}

// server is the web served as an HTTP proxy on a loopback port. It counts
// the TCP connections it accepts, so a run can report how many it opened.
type server struct {
	URL   string
	srv   *http.Server
	conns atomic.Int64
	done  chan struct{}
}

// serve serves h (the web, or the web behind a request log) on addr.
func serve(ctx context.Context, h http.Handler, addr string) (*server, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("bench: listen: %w", err)
	}
	s := &server{URL: "http://" + ln.Addr().String(), done: make(chan struct{})}
	s.srv = &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ConnState: func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				s.conns.Add(1)
			}
		},
		BaseContext: func(net.Listener) context.Context { return ctx },
	}
	// The label sorts the server's CPU from the crawlers' in a profile;
	// every connection's goroutine inherits it from the serve loop.
	go pprof.Do(ctx, pprof.Labels("run", "server"), func(context.Context) {
		defer close(s.done)
		if err := s.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			fmt.Println("bench: serve:", err)
		}
	})
	return s, nil
}

func (s *server) close() {
	s.srv.Close() //nolint:errcheck // the benchmark is over
	<-s.done
}

// vocabulary is the words of the pages' text.
var vocabulary = strings.Fields(`archive library web site page record collection catalogue reader
history heritage museum letter photograph map newspaper journal article survey report council parish
river market harbour bridge festival concert choir orchestra record label jazz folk poetry novel
science physics biology chemistry telescope laboratory experiment theory measure sample data
recipe bread cheese wine orchard garden harvest kitchen bakery market football rugby cycling
stadium season league match club volunteer election assembly budget school transport housing
the of and to in a is that for it as was with be by on not he this are or his from at which but
have an they you were her she there been one all we their has would when if so no will more`)

// pageSize is the size of the first host's home page, for the banner.
func (w *web) pageSize() int {
	var b bytes.Buffer
	w.render(&b, 0, 0)
	return b.Len()
}
