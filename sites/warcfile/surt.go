package warcfile

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// SURT returns the Sort-friendly URI Reordering Transform of rawURL as the
// Internet Archive's surt library (the one pywb calls) writes it for CDX
// and CDXJ keys, so that a pywb or a wayback serving sitesift's index finds
// every capture under the key it looks up. Its canonicalisation, in IA's
// order (GoogleURLCanonicalizer, then IAURLCanonicalizer):
//   - the fragment dropped; the host, path and query percent-decoded
//     repeatedly ("%2525" is "%") and percent-encoded once again, where
//     only control characters, space, '#', '%' and bytes beyond ASCII are
//     encoded ("%5B%3A%21%2F" in a query is "[:!/");
//   - the host: an internationalised name in IDNA ASCII form, ".."
//     collapsed and dots trimmed, a numeric host written as a dotted quad
//     ("3279880203" is 195.127.0.11), lower case, a leading "www.",
//     "www2." and so on dropped, its labels reversed and joined by commas;
//   - user and password dropped, the scheme's default port dropped;
//   - the path: "." and ".." segments resolved, repeated slashes joined,
//     lower-cased, ASP.NET session ids dropped, a trailing slash dropped;
//   - the query: jsessionid, phpsessid, sid, ASPSESSIONID and CFID/CFTOKEN
//     session ids dropped, lower-cased, its parameters sorted by name then
//     value; an empty query dropped.
//
// "http://www.Example.org:8080/A?b=1&a=2#x" is "org,example:8080)/a?a=2&b=1".
// A "dns:" URL is its host's key ("com,alexa)"); a URL of another scheme
// than http, https and dns is returned as it is.
func SURT(rawURL string) string {
	u := strings.TrimSpace(rawURL)
	u = strings.NewReplacer("\n", "", "\r", "", "\t", "").Replace(u)
	if u == "" {
		return "-"
	}
	if !hasScheme.MatchString(u) {
		u = "http://" + u
	}
	scheme, rest, _ := strings.Cut(u, ":")
	scheme = strings.ToLower(scheme)
	switch scheme {
	case "dns":
		// IA's massageHost leaves a dns: host its www.
		return surtHost(canonicalHost(strings.ToLower(rest), false)) + ")"
	case "http", "https":
	default:
		return rawURL
	}
	// "http://https://host/" is https://host/.
	for strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") {
		next, ok := cutScheme(rest)
		if !ok {
			break
		}
		scheme, rest = next, rest[len("//"+next+":"):]
	}
	rest, _, _ = strings.Cut(rest, "#")
	rest, query, hasQuery := strings.Cut(rest, "?")
	var netloc, path string
	if r, ok := strings.CutPrefix(rest, "//"); ok {
		netloc, path = r, ""
		if i := strings.IndexByte(r, '/'); i >= 0 {
			netloc, path = r[:i], r[i:]
		}
	} else {
		path = rest
	}
	netloc = strings.TrimRight(netloc, ":")
	if i := strings.LastIndexByte(netloc, '@'); i >= 0 {
		netloc = netloc[i+1:]
	}
	hostname, port := netloc, ""
	if i := strings.LastIndexByte(netloc, ':'); i >= 0 && !strings.Contains(netloc[i:], "]") {
		hostname, port = netloc[:i], netloc[i+1:]
	}
	hostname = strings.Trim(hostname, "[]")
	if hostname == "" && path != "" {
		// "http:////www.vikings.com" is http://www.vikings.com/.
		hostname, path, _ = strings.Cut(strings.TrimLeft(path, "/"), "/")
		path = "/" + path
	}
	hostname = strings.ToLower(hostname)

	var b strings.Builder
	b.WriteString(surtHost(canonicalHost(hostname, true)))
	if p, err := strconv.Atoi(port); err == nil && p != 0 && !(p == 80 && scheme == "http") && !(p == 443 && scheme == "https") {
		b.WriteString(":" + strconv.Itoa(p))
	}
	b.WriteString(")")
	b.WriteString(canonicalPath(path))
	if hasQuery && query != "" {
		if q := canonicalQuery(query); q != "" {
			b.WriteString("?" + q)
		}
	}
	return b.String()
}

// hasScheme matches a URL that starts with a scheme.
var hasScheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+\-.]*:`)

// cutScheme reports whether rest, what follows a URL's "http:", is
// "//https://…" or "//http://…", and returns that second scheme.
func cutScheme(rest string) (string, bool) {
	for _, s := range []string{"http", "https"} {
		if strings.HasPrefix(rest, "//"+s+"://") {
			return s, true
		}
	}
	return "", false
}

// canonicalHost is the host as GoogleURLCanonicalizer then
// IAURLCanonicalizer leave it: decoded, in IDNA ASCII form, dots
// collapsed and trimmed, a dotted quad when it is a numeric address,
// re-encoded, lower case, and with massage without a leading www, www1 …
// label.
func canonicalHost(host string, massage bool) string {
	h := unescapeRepeatedly(host)
	if !isASCII(h) {
		// Bytes that are not UTF-8 are dropped, as surt's decode with
		// errors='ignore' does.
		h = strings.ToValidUTF8(h, "")
		if a, err := idnaTransitional.ToASCII(h); err == nil {
			h = a
		}
	}
	h = strings.Trim(strings.ReplaceAll(h, "..", "."), ".")
	if ip, ok := ipv4Forms(h); ok {
		h = ip
	} else {
		h = escapeOnce(strings.ToLower(h))
	}
	h = strings.ToLower(h)
	if m := wwwDigits.FindString(h); massage && m != "" {
		h = h[len(m):]
	}
	return h
}

// idnaTransitional converts a name as Python's "idna" codec (IDNA 2003)
// does: "ß" is "ss", "Bücher" is "xn--bcher-kva".
var idnaTransitional = idna.New(idna.MapForLookup(), idna.Transitional(true))

// wwwDigits is IA's massageHost: a leading "www." or "www" and digits.
var wwwDigits = regexp.MustCompile(`^www\d*\.`)

// surtHost reverses the labels of host and joins them with commas.
func surtHost(host string) string {
	labels := strings.Split(host, ".")
	slices.Reverse(labels)
	return strings.Join(labels, ",")
}

// ipv4Forms returns the dotted quad of a host written as a number, an
// octal or a shortened address ("3279880203", "017.0.0.1", "10.0.258"), as
// surt's attemptIPFormats finds it (a bare number keeps its lower 32 bits;
// the other forms are read as inet_aton reads them).
func ipv4Forms(h string) (string, bool) {
	if h == "" {
		return "", false
	}
	if strings.Trim(h, "0123456789") == "" {
		n, err := strconv.ParseUint(h, 10, 64)
		if err != nil {
			return "", false
		}
		return dottedQuad(uint32(n)), true
	}
	if !decimalIP.MatchString(h) && !octalIP.MatchString(h) {
		return "", false
	}
	parts := strings.Split(h, ".")
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		base := 10
		if len(p) > 1 && p[0] == '0' {
			base = 8
		}
		v, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return "", false
		}
		vals[i] = v
	}
	// inet_aton: each part but the last is one byte; the last fills the
	// bytes left.
	var n uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 255 {
			return "", false
		}
		n |= v << (8 * (3 - i))
	}
	last := vals[len(vals)-1]
	if last >= 1<<(8*(5-len(vals))) {
		return "", false
	}
	return dottedQuad(uint32(n | last)), true
}

var (
	decimalIP = regexp.MustCompile(`^([1-9][0-9]*)(\.[0-9]+)?(\.[0-9]+)?(\.[0-9]+)?$`)
	octalIP   = regexp.MustCompile(`^(0[0-7]*)(\.[0-7]+)?(\.[0-7]+)?(\.[0-7]+)?$`)
)

func dottedQuad(n uint32) string {
	return strconv.Itoa(int(n>>24)) + "." + strconv.Itoa(int(n>>16&255)) + "." + strconv.Itoa(int(n>>8&255)) + "." + strconv.Itoa(int(n&255))
}

// canonicalPath is the path as the canonicalizers leave it: decoded,
// its dot segments resolved and repeated slashes joined, re-encoded, lower
// case, without ASP.NET session ids, without a trailing slash unless it is
// "/".
func canonicalPath(path string) string {
	p := strings.ToLower(escapeOnce(normalizePath(unescapeRepeatedly(path))))
	for _, re := range pathSessionIDs {
		if m := re.FindStringSubmatch(p); m != nil {
			p = m[1] + m[3]
		}
	}
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	return p
}

// normalizePath resolves "." and ".." segments and drops empty ones but a
// last (a trailing slash), as GoogleURLCanonicalizer's normalizePath does;
// a ".." above the root is kept.
func normalizePath(path string) string {
	if path == "" {
		return "/"
	}
	segs := strings.Split(path, "/")[1:]
	var kept []string
	for _, s := range segs {
		switch {
		case s == ".":
		case s == ".." && len(kept) > 0:
			kept = kept[:len(kept)-1]
		default:
			kept = append(kept, s)
		}
	}
	var b strings.Builder
	b.WriteString("/")
	for i, s := range kept {
		if i == len(kept)-1 {
			b.WriteString(s)
		} else if s != "" {
			b.WriteString(s + "/")
		}
	}
	return b.String()
}

// pathSessionIDs are the ASP.NET session ids IA drops from a path.
var pathSessionIDs = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^(.*/)(\((?:[a-z]\([0-9a-z]{24}\))+\)/)([^\?]+\.aspx.*)$`),
	regexp.MustCompile(`(?i)^(.*/)(\([0-9a-z]{24}\)/)([^\?]+\.aspx.*)$`),
}

// querySessionIDs are the session id parameters IA drops from a query.
var querySessionIDs = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^(.*)(?:jsessionid=[0-9a-zA-Z]{32})(?:&(.*))?$`),
	regexp.MustCompile(`(?i)^(.*)(?:phpsessid=[0-9a-zA-Z]{32})(?:&(.*))?$`),
	regexp.MustCompile(`(?i)^(.*)(?:sid=[0-9a-zA-Z]{32})(?:&(.*))?$`),
	regexp.MustCompile(`(?i)^(.*)(?:ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24})(?:&(.*))?$`),
	regexp.MustCompile(`(?i)^(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?$`),
}

// canonicalQuery is the query as the canonicalizers leave it: decoded and
// re-encoded, without session ids, lower case, its parameters sorted by
// name, a parameter without "=" before one with, then by value.
func canonicalQuery(q string) string {
	q = escapeOnce(unescapeRepeatedly(q))
	for _, re := range querySessionIDs {
		if m := re.FindStringSubmatch(q); m != nil {
			q = m[1] + m[2]
		}
	}
	q = strings.ToLower(q)
	if len(q) <= 1 {
		return q
	}
	params := strings.Split(q, "&")
	slices.SortStableFunc(params, func(a, b string) int {
		ka, va, hasA := strings.Cut(a, "=")
		kb, vb, hasB := strings.Cut(b, "=")
		if c := strings.Compare(ka, kb); c != 0 {
			return c
		}
		switch {
		case hasA != hasB && !hasA:
			return -1
		case hasA != hasB:
			return 1
		}
		return strings.Compare(va, vb)
	})
	return strings.Join(params, "&")
}

// unescapeRepeatedly decodes %XX escapes until none is left: "%2525" is
// "%". A '%' not followed by two hexadecimal digits stays.
func unescapeRepeatedly(s string) string {
	for {
		un := unescapeOnce(s)
		if un == s {
			return s
		}
		s = un
	}
}

func unescapeOnce(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b bytes.Buffer
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// escapeOnce percent-encodes, in upper-case hexadecimal, the bytes
// surt's escapeOnce does: controls, space, '#', '%' and every byte beyond
// ASCII; the other printable ASCII characters stay.
func escapeOnce(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || c == '#' || c == '%' {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
