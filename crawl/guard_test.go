package crawl

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"slices"
	"sync/atomic"
	"testing"

	"sitesift/sites"
)

func TestAddressKinds(t *testing.T) {
	tests := []struct{ addr, want string }{
		{"127.0.0.1", "loopback"}, {"::1", "loopback"}, {"::ffff:127.0.0.1", "loopback"},
		{"10.1.2.3", "private"}, {"192.168.0.1", "private"}, {"172.16.5.4", "private"}, {"fd00::1", "private"},
		{"100.64.0.1", "private"}, {"169.254.169.254", "link-local"}, {"fe80::1", "link-local"},
		{"0.0.0.0", "unspecified"}, {"::", "unspecified"}, {"239.1.2.3", "multicast"}, {"0.1.2.3", "reserved"},
		{"255.255.255.255", "reserved"}, {"93.184.216.34", ""}, {"2606:4700::1", ""},
	}
	for _, tt := range tests {
		if got := sites.AddrKind(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("AddrKind(%s) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

// Through the fixture web's proxy: links to loopback and cloud-metadata
// addresses are left out and counted, never requested, and become no site
// nor a link of their page; with AllowPrivate they are fetched.
func TestPrivateLinksRefusedThroughProxy(t *testing.T) {
	t.Parallel()
	page := `<a href="http://169.254.169.254/latest/meta-data/">m</a> <a href="http://127.0.0.1:1/secret">l</a>
		<a href="http://[::1]:1/">6</a> <a href="http://localhost:1/">h</a> <a href="http://b.test/">b</a>`
	hosts := map[string]map[string]resp{"a.test": {"/": {body: page}}, "b.test": {"/": {body: "<p>b</p>"}},
		"169.254.169.254": {"/latest/meta-data/": {body: "<p>m</p>"}}}
	w := newWeb(t, hosts)
	r := crawl(t, w, []string{"http://a.test/"})
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := r.urls(); !sameSet(got, []string{"http://a.test/", "http://b.test/"}) {
		t.Errorf("pages %q, want a.test and b.test only", got)
	}
	if r.status.Dropped[DropPrivate] != 4 || r.status.Sites != 2 {
		t.Errorf("Dropped = %v, %d sites; want 4 private hosts left out and 2 sites", r.status.Dropped, r.status.Sites)
	}
	if p, _ := r.byURL("http://a.test/"); !slices.Equal(p.Links, []string{"http://b.test/"}) {
		t.Errorf("links of a.test %q, want b.test only", p.Links)
	}
	if n := w.count("169.254.169.254", "/latest/meta-data/") + w.count("127.0.0.1:1", "/secret"); n != 0 {
		t.Errorf("private addresses requested %d times, want 0", n)
	}

	r = crawl(t, w, []string{"http://a.test/"}, AllowPrivate(true))
	if r.status.Refused != 0 || w.count("169.254.169.254", "/latest/meta-data/") != 1 {
		t.Errorf("with AllowPrivate: Refused = %d, metadata requested %d times; want 0 and 1",
			r.status.Refused, w.count("169.254.169.254", "/latest/meta-data/"))
	}
}

// Without a proxy: the seed's own loopback host may be crawled, a redirect
// from it to another name for this machine may not.
func TestRedirectToLoopbackRefused(t *testing.T) {
	t.Parallel()
	inner, secret := countingServer(t)
	_, port, _ := net.SplitHostPort(inner.Listener.Addr().String())
	st := crawlDirect(t, `<a href="/go">go</a> <a href="/self">self</a>`, "http://localhost:"+port+"/")
	if st.Pages != 2 || st.Refused != 1 || secret.Load() != 0 {
		t.Errorf("status %+v, secret requested %d times; want 2 pages, 1 refused, 0 requests", st, secret.Load())
	}
}

// countingServer is another service on this machine; it counts the
// requests that reach it.
func countingServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		fmt.Fprint(w, "another service")
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// crawlDirect crawls, without a proxy, a site on 127.0.0.1 whose home page
// is home, whose /go redirects to redirect, and whose other pages are
// plain, and returns the crawl's final status.
func crawlDirect(t *testing.T, home, redirect string) Status {
	t.Helper()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/go":
			http.Redirect(w, r, redirect, http.StatusFound)
		default:
			w.Header().Set("Content-Type", "text/html")
			if r.URL.Path == "/" {
				fmt.Fprint(w, home)
			} else {
				fmt.Fprint(w, "<p>ok</p>")
			}
		}
	}))
	t.Cleanup(site.Close)
	c, err := New(Delay(0), Proxy(""), OnBatch(func(context.Context, []sites.Page, []sites.SiteState) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangTimeout)
	defer cancel()
	if err := c.Run(ctx, []string{site.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	return c.Status()
}

// The dialler checks the address a name resolves to: "localhost" through
// the resolver, not by its name.
func TestDialRefusesResolvedLoopback(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	dial := newGuard(false).dialContext(&net.Dialer{Timeout: hangTimeout})
	_, err = dial(context.Background(), "tcp", "localhost:"+port)
	var re *RefusedError
	if !errors.As(err, &re) || re.Kind != "loopback" {
		t.Fatalf("dial localhost = %v, want a loopback refusal", err)
	}
	g := newGuard(false)
	g.allowSeed(&url.URL{Scheme: "http", Host: "localhost:" + port})
	conn, err := g.dialContext(&net.Dialer{Timeout: hangTimeout})(context.Background(), "tcp", "localhost:"+port)
	if err != nil {
		t.Fatalf("dial an allowed host: %v", err)
	}
	conn.Close()
}

// Through a proxy the crawler cannot see addresses, so a redirect's host is
// checked by name: spellings of this machine that normalise to a refused
// host ("localhost.", "127.0.0.1.") are refused, and a host no URL parser
// accepts ("0177.0.0.1", which some resolvers read as octal) fails the fetch.
// None is requested.
func TestRedirectToOddLoopbackSpellings(t *testing.T) {
	t.Parallel()
	hosts := map[string]map[string]resp{"a.test": {
		"/":   {body: page("a", "/r1", "/r2", "/r3", "/r4")},
		"/r1": {location: "http://localhost.:1/secret"},
		"/r2": {location: "http://127.0.0.1.:1/secret"},
		"/r3": {location: "http://0177.0.0.1:1/secret"},
		"/r4": {location: "http://2130706433:1/secret"},
	}}
	w := newWeb(t, hosts)
	r := crawl(t, w, []string{"http://a.test/"})
	if r.err != nil {
		t.Fatal(r.err)
	}
	for _, h := range w.requests() {
		if h.path == "/secret" {
			t.Errorf("%s%s requested", h.host, h.path)
		}
	}
	if r.status.Refused != 2 || r.status.Errors != 2 || r.status.Pages != 1 {
		t.Errorf("status %+v; want 1 page, 2 refused, 2 errors", r.status)
	}
}

// A seed lets the crawl fetch its own host and port whatever the address;
// a link to another port of the same private host is left out, never
// requested: seeding a local test server does not open every service of
// the machine.
func TestSeedAllowsItsOwnPortOnly(t *testing.T) {
	t.Parallel()
	inner, other := countingServer(t)
	st := crawlDirect(t, fmt.Sprintf(`<a href="/next">next</a> <a href="%s/x">other port</a>`, inner.URL), "")
	if st.Pages != 2 || st.Dropped[DropPrivate] != 1 || st.Sites != 1 || other.Load() != 0 {
		t.Errorf("status %+v, other port requested %d times; want 2 pages of 1 site, 1 private host left out, 0 requests", st, other.Load())
	}
}

// Addresses the IANA registries set aside (documentation, benchmarking,
// reserved, NAT64 of a private address) are not public either.
func TestReservedAddressKinds(t *testing.T) {
	t.Parallel()
	for _, a := range []string{"192.0.2.7", "198.18.0.1", "198.51.100.1", "203.0.113.9", "240.0.0.1",
		"192.0.0.8", "2001:db8::1", "64:ff9b::7f00:1", "64:ff9b::a00:1"} {
		if sites.AddrKind(netip.MustParseAddr(a)) == "" {
			t.Errorf("AddrKind(%s) is public, want it refused", a)
		}
	}
	if k := sites.AddrKind(netip.MustParseAddr("64:ff9b::5db8:d822")); k != "" {
		t.Errorf("AddrKind(64:ff9b::5db8:d822) = %q, want public (NAT64 of a public address)", k)
	}
}
