package sites

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// ErrNotHTTP is returned for URLs whose scheme is not http or https.
var ErrNotHTTP = errors.New("sites: not an http(s) URL")

// Of returns the site of a URL: its host, lower-cased, with "www." kept and
// the port kept when it is not the scheme's default. This is the one site
// rule of sitesift; every other package calls it.
func Of(rawURL string) (string, error) {
	u, err := Parse(rawURL)
	if err != nil {
		return "", err
	}
	return OfURL(u), nil
}

// OfURL is [Of] for an already parsed and normalised URL (see [Parse]).
func OfURL(u *url.URL) string {
	return u.Host
}

// Parse parses an absolute http(s) URL and normalises it: scheme and host
// lower-cased, the default port and the fragment removed, an empty path
// written as "/". Two spellings of the same page give the same string.
func Parse(rawURL string) (*url.URL, error) {
	raw := strings.TrimSpace(rawURL)
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("sites: parse %q: %w", raw, err)
	}
	return normalise(u, raw)
}

// Resolve resolves ref against base and normalises the result as [Parse]
// does; it fails for references that do not lead to an http(s) URL
// (mailto:, javascript:, ...).
func Resolve(base *url.URL, ref string) (*url.URL, error) {
	r, err := url.Parse(strings.TrimSpace(ref))
	if err != nil {
		return nil, fmt.Errorf("sites: parse %q: %w", ref, err)
	}
	return normalise(base.ResolveReference(r), ref)
}

func normalise(u *url.URL, raw string) (*url.URL, error) {
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%w: %q", ErrNotHTTP, raw)
	}
	host, err := Host(u.Hostname())
	if err != nil {
		return nil, fmt.Errorf("%w in %q", err, raw)
	}
	port := u.Port()
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("%w: port %q out of range 1-65535 in %q", ErrBadHost, port, raw)
		}
		port = strings.TrimLeft(port, "0")
	}
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") { // IPv6 literal
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	u.Host = host
	u.User = nil
	u.Fragment = ""
	u.RawFragment = ""
	u.RawQuery = escapeQuery(u.RawQuery)
	if u.Path == "" {
		u.Path = "/"
		u.RawPath = ""
	}
	return u, nil
}

// ErrBadHost is returned for an http(s) URL or a site name whose host is not
// a valid host name or IP address (or whose port is out of range).
var ErrBadHost = errors.New("sites: invalid host")

// idnaProfile maps a host name as browsers do for lookup (UTS #46,
// non-transitional, as the WHATWG URL standard), without the hyphen check
// browsers also skip ("r3---sn-x" is a real host) and with '_' allowed, which
// occurs in real host names; labels must be 1-63 bytes, the name at most 253.
var idnaProfile = idna.New(
	idna.MapForLookup(),
	idna.Transitional(false),
	idna.BidiRule(),
	idna.StrictDomainName(false),
	idna.CheckHyphens(false),
	idna.VerifyDNSLength(true),
)

// Host returns the canonical form of a host, the one a site name uses: an
// IP address in its standard form (IPv6 without brackets), a name mapped by
// IDNA to its ASCII form (so "bücher.test" and "xn--bcher-kva.test" are one
// site), lower-cased, without a trailing dot. A name that cannot be a DNS
// host name (an empty label as in "..", a character other than a letter,
// digit, '-' or '_', a label longer than 63 bytes, invalid UTF-8, a numeric
// last label that is not an IPv4 address) is an [ErrBadHost] error.
func Host(h string) (string, error) {
	if h == "" {
		return "", fmt.Errorf("%w: no host", ErrBadHost)
	}
	if !utf8.ValidString(h) {
		return "", fmt.Errorf("%w: host %q is not valid UTF-8", ErrBadHost, h)
	}
	if strings.Contains(h, ":") || strings.HasPrefix(h, "[") {
		ip, err := netip.ParseAddr(strings.Trim(h, "[]"))
		if err != nil || !ip.Is6() || ip.Zone() != "" {
			return "", fmt.Errorf("%w: %q is not an IPv6 address", ErrBadHost, h)
		}
		return ip.String(), nil
	}
	name := strings.TrimSuffix(h, ".")
	ascii, err := idnaProfile.ToASCII(name)
	if err != nil {
		return "", fmt.Errorf("%w: %q: %v", ErrBadHost, h, err)
	}
	ascii = strings.ToLower(ascii)
	labels := strings.Split(ascii, ".")
	for _, l := range labels {
		if l == "" {
			return "", fmt.Errorf("%w: %q has an empty label", ErrBadHost, h)
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return "", fmt.Errorf("%w: %q has the character %q", ErrBadHost, h, rune(c))
			}
		}
	}
	// As in the WHATWG URL standard, a name whose last label is a number is
	// an IPv4 address; only the dotted-decimal form is accepted.
	if last := labels[len(labels)-1]; isNumeric(last) {
		ip, err := netip.ParseAddr(ascii)
		if err != nil || !ip.Is4() {
			return "", fmt.Errorf("%w: %q is not an IPv4 address", ErrBadHost, h)
		}
		return ip.String(), nil
	}
	return ascii, nil
}

// isNumeric reports whether a label is a decimal or 0x-hexadecimal number.
func isNumeric(l string) bool {
	if strings.HasPrefix(l, "0x") {
		l = l[2:]
		return strings.Trim(l, "0123456789abcdef") == ""
	}
	return strings.Trim(l, "0123456789") == ""
}

// Name returns the canonical form of a site name written without a scheme,
// as edge lists and ratings files name sites, under the host rule (see
// [Rule.Name]).
func Name(s string) string { return RuleHost.Name(s) }

// escapeQuery percent-encodes the spaces and non-ASCII bytes of a raw
// query, as browsers do: net/url keeps them as they are, and a URL string
// ending in a space (or another Unicode space) would not parse back to
// itself once trimmed.
func escapeQuery(q string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c != ' ' && c < 0x80 {
			if b.Len() > 0 {
				b.WriteByte(c)
			}
			continue
		}
		if b.Len() == 0 {
			b.WriteString(q[:i])
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	if b.Len() == 0 {
		return q
	}
	return b.String()
}

// Normalize returns the normalised string form of an absolute http(s) URL.
func Normalize(rawURL string) (string, error) {
	u, err := Parse(rawURL)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// Canonical returns the form of an absolute http(s) URL under which a crawl
// keeps its page: normalised, without the parameters that track a reader or
// a share (see [StripTracking]). A seed, a link and a URL a librarian pastes
// all meet the page under it.
func Canonical(rawURL string) (string, error) {
	u, err := Parse(rawURL)
	if err != nil {
		return "", err
	}
	StripTracking(u)
	return u.String(), nil
}

// HomeURL returns the URL that stands for a site in seed lists: its root page
// over http.
func HomeURL(site string) string {
	return "http://" + site + "/"
}
