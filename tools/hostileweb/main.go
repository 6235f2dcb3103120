// Command hostileweb serves a small hostile web as an HTTP proxy, to measure
// how the crawler holds up against it: an endless calendar that also links
// centuries ahead and back, a 50 MB page, a redirect loop, a server that
// never answers, a robots.txt that never ends, pages whose <title> is
// megabytes long, a page of 100,000 links, links no URL
// parser should accept, links and redirects to loopback and cloud-metadata
// addresses, an endless link trap, a body that never ends, a gzip bomb and a
// server that drips one byte a second.
//
// It prints the proxy's URL on the first line and the seed URLs after it, as
// `sitesift demo-web` does:
//
//	go run ./tools/hostileweb --addr 127.0.0.1:7779 > web.txt
//	sitesift crawl --project P --proxy $(head -1 web.txt) --delay 0s $(tail -n +2 web.txt)
//
// Every host ends in .test; requests for other hosts get 502, as from a
// proxy that cannot resolve them. Nothing here is reachable from outside the
// machine unless --addr says so.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"html"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The hostile sites, by host.
const (
	hubHost       = "hostile-hub.test"      // links to every trap below
	robotsHost    = "endless-robots.test"   // robots.txt streams forever
	titleHost     = "huge-titles.test"      // 41 pages with 4.7 MB titles
	linksHost     = "link-farm.test"        // 100,000 links on one page
	badLinksHost  = "bad-links.test"        // hrefs that are not valid URLs
	ssrfHost      = "private-links.test"    // links and redirects to private addresses
	trapHost      = "link-trap.test"        // every page links to ten new ones
	endlessHost   = "endless-body.test"     // a body that never ends
	gzipBombHost  = "gzip-bomb.test"        // 10 MB of gzip that inflates to 10 GB
	dripHost      = "slow-drip.test"        // one byte a second
	calendarHost  = "endless-calendar.test" // every month links to the next, forever, and centuries ahead and back
	bigPageHost   = "big-page.test"         // a 50 MB page
	loopHost      = "redirect-loop.test"    // /a redirects to /b, /b to /a
	silentHost    = "never-answers.test"    // answers nothing, ever
	bigPageBytes  = 50 << 20                // the size of big-page.test's page
	farmSiteCount = 2000                    // link-farm targets spread over this many sites
	titleBytes    = 4_700_000               // the size of a huge title
	titlePages    = 41                      // pages of huge-titles.test
	farmLinks     = 100_000                 // links on the link-farm page
	trapFanout    = 10                      // links per link-trap page
	chunk         = 64 << 10                // the unit of streamed bodies
	dripInterval  = time.Second             // slow-drip's pace
	calendarAhead = 109                     // years a month links ahead: 2026 to 2135, 2135 to 2244…
	calendarBack  = 792                     // years a month links back: 2026 to 1234
	farmHostFmt   = "farm-%04d.link-farm.test"
	listHostFmt   = "link-list-%d.test" // with --link-lists: a home page of listBytes of links
	listBytes     = 10 << 20            // the size of a link list, the crawler's MaxBodySize
	badUTF8Host   = "b\xffd.test"
	metadataURL   = "http://169.254.169.254/latest/meta-data/"
	loopbackURL   = "http://127.0.0.1:1/secret"
	loopback6URL  = "http://[::1]:1/secret"
	localhostURL  = "http://localhost:1/secret"
	privateLANURL = "http://192.168.0.1/admin"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address of the proxy")
	lists := flag.Int("link-lists", 0, "print as seeds only this many sites whose home page is a 10 MiB list of links to their own pages (link-list-N.test), instead of the hostile web's")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostileweb:", err)
		os.Exit(1)
	}
	fmt.Printf("http://%s\n", ln.Addr())
	if *lists > 0 {
		for i := 1; i <= *lists; i++ {
			fmt.Printf("http://"+listHostFmt+"/\n", i)
		}
	} else {
		for _, h := range []string{hubHost, robotsHost, titleHost, linksHost, badLinksHost, ssrfHost, trapHost, endlessHost, gzipBombHost, dripHost, calendarHost, bigPageHost, loopHost, silentHost} {
			fmt.Printf("http://%s/\n", h)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	srv := &http.Server{Handler: http.HandlerFunc(serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { <-ctx.Done(); srv.Close() }()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, "hostileweb:", err)
		os.Exit(1)
	}
}

// linkList is the home page of a link-list-N.test site: nothing but a list
// of links to the site's own pages, listBytes long, the page that costs a
// parser the most nodes a byte. It is made the first time it is asked
// for, not at every start of the tool.
var linkList = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	b.WriteString("<!doctype html><html><head><title>A list of links</title></head><body><ul>\n")
	for i := 0; b.Len() < listBytes-100; i++ {
		fmt.Fprintf(&b, "<li><a href=\"/p/%d\">page %d</a></li>\n", i, i)
	}
	b.WriteString("</ul></body></html>\n")
	return b.Bytes()
})

func serve(w http.ResponseWriter, r *http.Request) {
	host := r.URL.Host
	if host == "" {
		host = r.Host
	}
	host = strings.TrimSuffix(strings.ToLower(host), ":80")
	path := r.URL.Path
	switch {
	case host == robotsHost && path == "/robots.txt":
		stream(w, r, "text/plain", []byte("User-agent: *\nDisallow: /private/\n# "+strings.Repeat("x", 200)+"\n"))
		return
	case path == "/robots.txt":
		http.NotFound(w, r)
		return
	}
	switch {
	case host == hubHost:
		var b strings.Builder
		for _, h := range []string{robotsHost, titleHost, linksHost, badLinksHost, ssrfHost, trapHost, endlessHost, gzipBombHost, dripHost, calendarHost, bigPageHost, loopHost, silentHost} {
			fmt.Fprintf(&b, "<a href=\"http://%s/\">%s</a>\n", h, h)
		}
		page(w, "Hostile hub", b.String())
	case host == robotsHost:
		page(w, "Endless robots.txt", `<a href="/a">a</a> <a href="/private/b">b</a>`)
	case host == titleHost:
		n, _ := strconv.Atoi(strings.TrimPrefix(path, "/p/"))
		next := ""
		if n+1 < titlePages {
			next = fmt.Sprintf(`<a href="/p/%d">next</a>`, n+1)
		}
		title := strings.Repeat("huge title ", titleBytes/11)
		page(w, title, next+" "+strings.Repeat("body words ", 1000))
	case host == linksHost && path == "/":
		var b strings.Builder
		for i := range farmLinks {
			fmt.Fprintf(&b, "<a href=\"http://"+farmHostFmt+"/p%d\">%d</a>\n", i%farmSiteCount, i, i)
		}
		page(w, "Link farm", b.String())
	case strings.HasPrefix(host, "link-list-") && strings.HasSuffix(host, ".test") && path == "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(linkList())
	case strings.HasPrefix(host, "link-list-") && strings.HasSuffix(host, ".test"):
		page(w, "Listed page", "<p>A page of the list.</p>")
	case strings.HasSuffix(host, "."+linksHost):
		page(w, "Farm page", `<a href="http://`+linksHost+`/">farm</a>`)
	case host == badLinksHost:
		bad := []string{
			"http://../x", "http://./", "http://a..test/", "http://a.test:99999/", "http://a.test:0/",
			"http://[fe80::1%25eth0]/", "http://0x7f.1/", "http://" + badUTF8Host + "/",
			"http://" + strings.Repeat("a", 64) + ".test/", "http://long-url.test/" + strings.Repeat("p", 100_000),
			"http://\x00.test/", "http://%zz.test/", "http:///no-host", "javascript:alert(1)",
		}
		var b strings.Builder
		for _, l := range bad {
			fmt.Fprintf(&b, "<a href=\"%s\">bad</a>\n", html.EscapeString(l))
		}
		b.WriteString(`<a href="http://` + hubHost + `/">a good link</a>`)
		page(w, "Bad links", b.String())
	case host == ssrfHost && path == "/to-metadata":
		http.Redirect(w, r, metadataURL, http.StatusFound)
	case host == ssrfHost && path == "/to-loopback":
		http.Redirect(w, r, loopbackURL, http.StatusFound)
	case host == ssrfHost:
		var b strings.Builder
		for _, l := range []string{metadataURL, loopbackURL, loopback6URL, localhostURL, privateLANURL, "/to-metadata", "/to-loopback"} {
			fmt.Fprintf(&b, "<a href=\"%s\">private</a>\n", l)
		}
		page(w, "Private links", b.String())
	case host == trapHost:
		var b strings.Builder
		for k := range trapFanout {
			fmt.Fprintf(&b, "<a href=\"%s%d/\">deeper</a>\n", path, k)
		}
		page(w, "Link trap "+path, b.String())
	case host == endlessHost:
		stream(w, r, "text/html", []byte("<p>"+strings.Repeat("endless ", chunk/8)+"</p>\n"))
	case host == gzipBombHost:
		gzipBomb(w)
	case host == dripHost:
		drip(w, r)
	case host == calendarHost:
		calendar(w, path)
	case host == bigPageHost:
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><head><title>Big page</title></head><body><p>"))
		w.Write(bytes.Repeat([]byte("big page words "), bigPageBytes/15))
	case host == loopHost && path == "/a":
		http.Redirect(w, r, "/b", http.StatusFound)
	case host == loopHost && path == "/b":
		http.Redirect(w, r, "/a", http.StatusFound)
	case host == loopHost:
		page(w, "Redirect loop", `<a href="/a">in</a>`)
	case host == silentHost:
		<-r.Context().Done() // nothing, until the client gives up
	default:
		http.Error(w, "hostileweb: unknown host "+host, http.StatusBadGateway)
	}
}

// calendar writes the month of path (/2026/01/), which links to the months
// before and after it, to each of its days, and to the same month
// calendarAhead years ahead and calendarBack years back while those have
// four digits: a calendar without end, in time and out of it.
func calendar(w http.ResponseWriter, path string) {
	var y, m int
	if _, err := fmt.Sscanf(path, "/%d/%d/", &y, &m); err != nil || m < 1 || m > 12 || y < 1000 || y > 9999 {
		y, m = 2026, 1
	}
	at := time.Date(y, time.Month(m), 1, 0, 0, 0, 0, time.UTC)
	var b strings.Builder
	for _, d := range []time.Time{at.AddDate(0, -1, 0), at.AddDate(0, 1, 0), at.AddDate(calendarAhead, 0, 0), at.AddDate(-calendarBack, 0, 0)} {
		if d.Year() >= 1000 && d.Year() <= 9999 {
			fmt.Fprintf(&b, "<a href=\"/%d/%02d/\">%s</a>\n", d.Year(), d.Month(), d.Format("January 2006"))
		}
	}
	for d := 1; d <= 28; d++ {
		fmt.Fprintf(&b, "<a href=\"/%d/%02d/%02d/\">%d</a>\n", y, m, d, d)
	}
	page(w, at.Format("January 2006"), b.String())
}

// page writes an HTML page.
func page(w http.ResponseWriter, title, body string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!DOCTYPE html><html><head><title>%s</title></head><body>%s</body></html>\n", html.EscapeString(title), body)
}

// stream writes unit over and over until the client goes away.
func stream(w http.ResponseWriter, r *http.Request, ctype string, unit []byte) {
	w.Header().Set("Content-Type", ctype)
	buf := bytes.Repeat(unit, max(1, chunk/len(unit)))
	for r.Context().Err() == nil {
		if _, err := w.Write(buf); err != nil {
			return
		}
	}
}

// gzipBomb writes a gzip-encoded page that inflates to 10 GB of zeros.
func gzipBomb(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html")
	w.Header().Set("Content-Encoding", "gzip")
	zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for range 10 << 10 {
		if _, err := zw.Write(zeros); err != nil {
			return
		}
	}
	zw.Close()
}

// drip sends one byte of a page at a time, slowly.
func drip(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html")
	f, _ := w.(http.Flusher)
	for _, c := range []byte("<html><head><title>slow</title></head><body>" + strings.Repeat(".", 3600)) {
		select {
		case <-r.Context().Done():
			return
		case <-time.After(dripInterval):
		}
		if _, err := w.Write([]byte{c}); err != nil {
			return
		}
		if f != nil {
			f.Flush()
		}
	}
}
