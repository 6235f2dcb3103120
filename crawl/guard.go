package crawl

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"

	"sitesift/sites"
)

// RefusedError is why the crawler did not connect to an address: it is
// loopback, private, link-local or otherwise not on the public Internet, so
// fetching it would let a web page make the crawler read the operator's own
// machine, LAN or cloud metadata service (server-side request forgery).
type RefusedError struct {
	Host string     // the host of the URL or the dialled address
	Addr netip.Addr // the address refused
	Kind string     // "loopback", "private", ...
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("refused: %s is a %s address (a seed on that host and port, or --allow-private, lets the crawl fetch it)", e.Addr, e.Kind)
}

// guard decides which addresses the crawler may connect to: public ones
// always; others only with AllowPrivate, or on a host and port a seed names
// (a crawl of an intranet or a test server is started from it), or the proxy
// the operator chose.
type guard struct {
	allowPrivate bool
	hostPorts    map[string]bool // "host:port" allowed whatever the host's address
	proxies      map[string]bool // proxy hosts: dialled whatever their address, never fetched from
}

func newGuard(allowPrivate bool) *guard {
	return &guard{allowPrivate: allowPrivate, hostPorts: map[string]bool{}, proxies: map[string]bool{}}
}

// allowSeed lets the crawl fetch URLs on the host and port of the normalised
// seed u whatever the host's address. A seed without a port allows both
// default ports, since sites commonly redirect from http to https; one with
// a port allows that port only, so that seeding a test server on this
// machine does not open its other services to the pages crawled.
func (g *guard) allowSeed(u *url.URL) {
	host := hostKey(u.Hostname())
	if p := u.Port(); p != "" {
		g.hostPorts[net.JoinHostPort(host, p)] = true
		return
	}
	g.hostPorts[net.JoinHostPort(host, "80")] = true
	g.hostPorts[net.JoinHostPort(host, "443")] = true
}

// hostKey is how the guard's sets name a host: lower-cased, IPv6 without
// brackets.
func hostKey(host string) string { return strings.ToLower(strings.Trim(host, "[]")) }

// allowed reports whether host and port were allowed by a seed.
func (g *guard) allowed(host, port string) bool {
	return g.hostPorts[net.JoinHostPort(hostKey(host), port)]
}

// allowsHost reports whether the crawl may fetch from the host of the
// normalised URL u whatever its address: with AllowPrivate, or on a seed's
// host and port.
func (g *guard) allowsHost(u *url.URL) bool {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return g.allowPrivate || g.allowed(u.Hostname(), port)
}

// allowProxy lets the crawl connect to a proxy on host whatever its
// address; URLs on that host are still refused when it is not public.
func (g *guard) allowProxy(host string) {
	g.proxies[hostKey(host)] = true
}

// checkURL refuses, before any connection, a URL whose host is a non-public
// IP address or a name that always means this machine ("localhost"). It is
// the only check possible when a proxy resolves the names; without a proxy
// the dialler checks every address a name resolves to as well. The host is
// checked as normalised, so "localhost." is "localhost"; a URL whose host
// does not normalise (a redirect to "0177.0.0.1", which some resolvers read
// as octal) is an error, never sent.
func (g *guard) checkURL(raw *url.URL) error {
	if g.allowPrivate {
		return nil
	}
	u, err := sites.Parse(raw.String())
	if err != nil {
		return fmt.Errorf("crawl: %w", err)
	}
	if g.allowsHost(u) {
		return nil
	}
	host := u.Hostname()
	if _, err := netip.ParseAddr(host); err != nil && sites.HostKind(host) == "loopback" {
		return &RefusedError{Host: host, Addr: netip.MustParseAddr("127.0.0.1"), Kind: "loopback"}
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if k := sites.AddrKind(a); k != "" {
			return &RefusedError{Host: host, Addr: a, Kind: k}
		}
	}
	return nil
}

// dialContext wraps dial so that a connection to a non-public address is
// refused after name resolution, redirects included, unless the host dialled
// is allowed.
func (g *guard) dialContext(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	checked := *d
	checked.Control = func(network, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		a, err := netip.ParseAddr(host)
		if err != nil {
			return err
		}
		if k := sites.AddrKind(a); k != "" {
			return &RefusedError{Host: host, Addr: a, Kind: k}
		}
		return nil
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		if g.allowPrivate || g.allowed(host, port) || g.proxies[hostKey(host)] {
			return d.DialContext(ctx, network, addr)
		}
		return checked.DialContext(ctx, network, addr)
	}
}
