package sites

import (
	"net/netip"
	"strings"
)

// cgnat is the shared address space of carrier-grade NAT (RFC 6598): private
// in all but name.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// reserved are the other ranges that IANA's special-purpose registries set
// aside and that netip's predicates do not name: IETF protocol assignments,
// documentation, benchmarking, the old class E, and local-use NAT64.
var reserved = []netip.Prefix{
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("2001:db8::/32"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
}

// nat64 is the well-known NAT64 prefix (RFC 6052): its addresses reach the
// IPv4 address in their last 32 bits, which is what must be checked.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// AddrKind names what makes an address not public — "loopback",
// "private" (CGNAT included), "link-local", "unspecified", "multicast" or
// "reserved" — or returns "" for a public one.
func AddrKind(a netip.Addr) string {
	a = a.Unmap()
	if nat64.Contains(a) {
		b := a.As16()
		a = netip.AddrFrom4([4]byte(b[12:]))
	}
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
	for _, p := range reserved {
		if p.Contains(a) {
			return "reserved"
		}
	}
	return ""
}

// HostKind names what makes the canonical host (as [Host] returns it, or
// the Hostname of a URL from [Parse]) not a public host of the Internet:
// the kind of a non-public IP address (see [AddrKind]), "loopback" for
// localhost, "single-label" for a name without a dot, which only a local
// resolver's search list can find (an intranet's "wiki", or "http" from a
// mistyped "http://http://…"); "" for a public host.
func HostKind(host string) string {
	host = strings.Trim(host, "[]")
	if a, err := netip.ParseAddr(host); err == nil {
		return AddrKind(a)
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return "loopback"
	}
	if !strings.Contains(host, ".") {
		return "single-label"
	}
	return ""
}
