package crawl

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
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
	return fmt.Sprintf("refused: %s is a %s address (a seed on that host, or --allow-private, lets the crawl fetch it)", e.Addr, e.Kind)
}

// guard decides which addresses the crawler may connect to: public ones
// always; others only with AllowPrivate, or on a host a seed names (a crawl
// of an intranet is started from it), or the proxy the operator chose.
type guard struct {
	allowPrivate bool
	hosts        map[string]bool // host names (without port) allowed whatever their address
	proxies      map[string]bool // proxy hosts: dialled whatever their address, never fetched from
}

func newGuard(allowPrivate bool) *guard {
	return &guard{allowPrivate: allowPrivate, hosts: map[string]bool{}, proxies: map[string]bool{}}
}

// allow lets the crawl fetch URLs of host whatever its address.
func (g *guard) allow(host string) {
	g.hosts[strings.ToLower(strings.Trim(host, "[]"))] = true
}

// allowProxy lets the crawl connect to a proxy on host whatever its
// address; URLs on that host are still refused when it is not public.
func (g *guard) allowProxy(host string) {
	g.proxies[strings.ToLower(strings.Trim(host, "[]"))] = true
}

// cgnat is the shared address space of carrier-grade NAT (RFC 6598).
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// kind names what makes an address non-public, or "" for a public one.
func kind(a netip.Addr) string {
	a = a.Unmap()
	switch {
	case a.IsLoopback():
		return "loopback"
	case a.IsPrivate(), cgnat.Contains(a):
		return "private"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "link-local"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsMulticast():
		return "multicast"
	case !a.IsGlobalUnicast(), a.Is4() && a.As4()[0] == 0:
		return "reserved"
	}
	return ""
}

// checkURL refuses, before any connection, a URL whose host is a non-public
// IP address or a name that always means this machine ("localhost"). It is
// the only check possible when a proxy resolves the names; without a proxy
// the dialler checks every address a name resolves to as well.
func (g *guard) checkURL(u *url.URL) error {
	if g.allowPrivate {
		return nil
	}
	host := strings.ToLower(u.Hostname())
	if g.hosts[host] {
		return nil
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return &RefusedError{Host: host, Addr: netip.MustParseAddr("127.0.0.1"), Kind: "loopback"}
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if k := kind(a); k != "" {
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
		if k := kind(a); k != "" {
			return &RefusedError{Host: host, Addr: a, Kind: k}
		}
		return nil
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		if h := strings.ToLower(strings.Trim(host, "[]")); g.allowPrivate || g.hosts[h] || g.proxies[h] {
			return d.DialContext(ctx, network, addr)
		}
		return checked.DialContext(ctx, network, addr)
	}
}
