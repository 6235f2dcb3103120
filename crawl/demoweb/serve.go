package demoweb

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Handler returns the demo web as an HTTP proxy. A crawler configured with
// the proxy sends proxy-form requests ("GET http://bnf-archives.test/ HTTP/1.1"),
// and the handler answers from the site named by the request's host:
//
//   - a demo site: its page, file, robots.txt, redirect or 404; GET and HEAD only;
//   - an alias (lyon-gazette.test): 301 to the www. site, same path;
//   - any other host: 502 Bad Gateway, as a proxy answers for a host that
//     does not resolve;
//   - CONNECT: 405, because the demo web is plain http only;
//   - a request to the server itself ("GET /" with no demo host): an HTML
//     index of the demo sites, for a look in a browser.
//
// A direct request whose Host header names a demo site is served as that
// site, so the handler also works as a plain virtual-host server.
func (w *Web) Handler() http.Handler {
	return http.HandlerFunc(w.serveHTTP)
}

func (w *Web) serveHTTP(rw http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		plain(rw, r, http.StatusMethodNotAllowed, "demoweb: CONNECT is not supported; the demo web speaks plain http only\n")
		return
	}
	host := r.URL.Host
	if host == "" {
		host = r.Host
	}
	host = strings.TrimSuffix(strings.ToLower(host), ":80")
	s, isSite := w.byHost[host]
	alias, isAlias := w.alias[host]
	switch {
	case !isSite && !isAlias && (r.URL.Host == "" || isSelf(r, host)):
		w.serveIndex(rw, r)
		return
	case !isSite && !isAlias:
		plain(rw, r, http.StatusBadGateway, "demoweb: unknown host "+host+": it is not part of the demo web\n")
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		rw.Header().Set("Allow", "GET, HEAD")
		plain(rw, r, http.StatusMethodNotAllowed, "demoweb: method not allowed\n")
		return
	}
	path := r.URL.Path
	if path == "" {
		path = "/"
	}
	if isAlias {
		target := &url.URL{Scheme: "http", Host: alias.host, Path: path, RawQuery: r.URL.RawQuery}
		http.Redirect(rw, r, target.String(), http.StatusMovedPermanently)
		return
	}
	if d, ok := s.docs[path]; ok {
		write(rw, r, http.StatusOK, d.ctype, d.body)
		return
	}
	if d, ok := s.media[path]; ok {
		write(rw, r, http.StatusOK, d.ctype, d.body)
		return
	}
	switch {
	case path == "/robots.txt" && s.feat.robots != "":
		write(rw, r, http.StatusOK, "text/plain; charset=utf-8", []byte(s.feat.robots))
	case path == "/old-home" && s.feat.oldHome:
		http.Redirect(rw, r, "http://"+s.host+"/", http.StatusMovedPermanently)
	default:
		body := fmt.Sprintf("<!DOCTYPE html>\n<html lang=\"en\"><head><title>Page not found — %s</title></head>\n"+
			"<body><h1>Page not found</h1><p>There is no page at this address. Try the <a href=\"/\">home page</a>.</p></body></html>\n",
			template.HTMLEscapeString(s.name))
		write(rw, r, http.StatusNotFound, htmlType, []byte(body))
	}
}

// isSelf reports whether host names the server the request came to, as in
// a proxy-form request for the proxy's own address (a browser that sends
// everything through the proxy, loopback included).
func isSelf(r *http.Request, host string) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	lhost, lport, err := net.SplitHostPort(local.String())
	if err != nil {
		return false
	}
	h, port, err := net.SplitHostPort(host)
	if err != nil || port != lport {
		return false
	}
	if h == lhost || h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback() && net.ParseIP(lhost).IsLoopback()
}

// write answers with a complete body; HEAD gets the same headers and no body.
func write(rw http.ResponseWriter, r *http.Request, status int, ctype string, body []byte) {
	h := rw.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	rw.WriteHeader(status)
	if r.Method != http.MethodHead {
		rw.Write(body) //nolint:errcheck // the client went away; nothing to do
	}
}

func plain(rw http.ResponseWriter, r *http.Request, status int, msg string) {
	write(rw, r, status, "text/plain; charset=utf-8", []byte(msg))
}

var indexTmpl = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>sitesift demo web</title>
<style>body{font-family:sans-serif;max-width:50em;margin:1em auto;padding:0 1em}code{background:#eee}</style></head>
<body>
<h1>sitesift demo web</h1>
<p>This server is an HTTP proxy for an offline web of {{.NSites}} sites and {{.NPages}} pages under the
reserved <code>.test</code> domain. To browse it, set <code>http://{{.Proxy}}</code> as your browser's
HTTP proxy; to crawl it, start from the seeds below.</p>
<h2>Seeds</h2>
<ul>{{range .Seeds}}<li><a href="{{.}}">{{.}}</a></li>{{end}}</ul>
{{range .Topics}}<h2>{{.Label}}</h2>
<ul>{{range .Sites}}<li><a href="http://{{.Host}}/">{{.Host}}</a> — {{.Name}}: {{.About}}</li>{{end}}</ul>
{{end}}</body>
</html>
`))

// serveIndex lists the demo sites for someone who opens the proxy's own
// address in a browser.
func (w *Web) serveIndex(rw http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" && r.URL.Path != "" {
		plain(rw, r, http.StatusNotFound, "demoweb: not found; the index is at /\n")
		return
	}
	type siteRow struct{ Host, Name, About string }
	type topicRow struct {
		Label string
		Sites []siteRow
	}
	data := struct {
		NSites, NPages int
		Proxy          string
		Seeds          []string
		Topics         []topicRow
	}{NSites: len(w.sites), NPages: w.Pages(), Proxy: r.Host, Seeds: w.Seeds()}
	for _, t := range topics {
		row := topicRow{Label: t.label}
		for _, spec := range t.sites {
			row.Sites = append(row.Sites, siteRow{spec.host, spec.name, spec.about})
		}
		data.Topics = append(data.Topics, row)
	}
	var b strings.Builder
	if err := indexTmpl.Execute(&b, data); err != nil {
		plain(rw, r, http.StatusInternalServerError, "demoweb: render index: "+err.Error()+"\n")
		return
	}
	write(rw, r, http.StatusOK, htmlType, []byte(b.String()))
}

// Server is a running demo web proxy, returned by [Web.Serve].
type Server struct {
	// URL is the proxy URL to give a crawler or a browser,
	// e.g. "http://127.0.0.1:41234".
	URL string

	srv       *http.Server
	done      chan struct{} // closed when the serve loop has returned
	serveErr  error         // why the serve loop stopped, nil after Close
	stopWatch func() bool   // unregisters the ctx watcher
	closeOnce sync.Once
	closeErr  error
}

// Serve listens on addr ("127.0.0.1:0" when empty: a free port on the
// loopback interface) and serves [Web.Handler] in the background until ctx
// is cancelled or Close is called. A wildcard address (":8080",
// "0.0.0.0:8080") is advertised in Server.URL as 127.0.0.1.
//
//	srv, err := demoweb.New(demoweb.DefaultSeed).Serve(ctx, "")
//	// crawl with proxy srv.URL from web.Seeds() ...
//	defer srv.Close()
func (w *Web) Serve(ctx context.Context, addr string) (*Server, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("demoweb: listen on %s: %w", addr, err)
	}
	tcp := ln.Addr().(*net.TCPAddr)
	ip := tcp.IP
	if ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
	}
	s := &Server{
		URL:  "http://" + net.JoinHostPort(ip.String(), strconv.Itoa(tcp.Port)),
		srv:  &http.Server{Handler: w.Handler(), ReadHeaderTimeout: 10 * time.Second},
		done: make(chan struct{}),
	}
	go func() {
		defer close(s.done)
		if err := s.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			s.serveErr = fmt.Errorf("demoweb: serve on %s: %w", s.URL, err)
		}
	}()
	s.stopWatch = context.AfterFunc(ctx, func() { s.Close() }) //nolint:errcheck // reported by Wait
	return s, nil
}

// ProxyURL returns URL parsed, ready for http.ProxyURL or a crawler option.
func (s *Server) ProxyURL() *url.URL {
	u, err := url.Parse(s.URL)
	if err != nil {
		panic("demoweb: bad server URL " + s.URL) // built by Serve from a TCP address
	}
	return u
}

// Close stops the server: it waits up to five seconds for requests in
// flight, then drops the connections. It may be called more than once.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.stopWatch()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.srv.Shutdown(ctx); err != nil {
			s.srv.Close() //nolint:errcheck // already failing; Shutdown's error is the one to report
			s.closeErr = fmt.Errorf("demoweb: shut down %s: %w", s.URL, err)
		}
		<-s.done
	})
	return s.closeErr
}

// Wait blocks until the server has stopped, after Close or the cancellation
// of Serve's context, and returns why it stopped: nil for a clean stop.
func (s *Server) Wait() error {
	<-s.done
	if s.serveErr != nil {
		return s.serveErr
	}
	// The loop returned because Close began; wait for it to finish.
	return s.Close()
}
