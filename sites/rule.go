package sites

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// Rule is a site rule: how the host of a URL maps to its site. A project
// keeps one, chosen when it is created, and every crawl, import and URL or
// site name given to a command goes through it.
type Rule string

// The site rules.
const (
	// RuleHost: the site is the host ("www.example.org" and "example.org"
	// are two sites), the rule of projects made before rules were chosen.
	RuleHost Rule = "host"
	// RuleHostWWW: the host without a leading "www.", as Common Crawl's
	// host graph has it ("www.example.org" and "example.org" are one site).
	RuleHostWWW Rule = "host-www"
	// RuleDomain: the registered domain, by the public suffix list
	// ("news.bbc.co.uk" and "www.bbc.co.uk" are the site "bbc.co.uk"); an IP
	// address or a name with no registered domain stays whole.
	RuleDomain Rule = "domain"
	// DefaultRule is the rule of a new project.
	DefaultRule = RuleHostWWW
)

// Rules lists the site rules.
func Rules() []Rule { return []Rule{RuleHost, RuleHostWWW, RuleDomain} }

// ParseRule returns the rule named s; "" is DefaultRule.
func ParseRule(s string) (Rule, error) {
	if s == "" {
		return DefaultRule, nil
	}
	for _, r := range Rules() {
		if string(r) == s {
			return r, nil
		}
	}
	return "", fmt.Errorf("sites: unknown site rule %q (want host, host-www or domain)", s)
}

// Of returns the site of a URL under the rule.
func (r Rule) Of(rawURL string) (string, error) {
	u, err := Parse(rawURL)
	if err != nil {
		return "", err
	}
	return r.OfURL(u), nil
}

// OfURL is [Rule.Of] for an already parsed and normalised URL (see
// [Parse]); the port, when the URL has one, stays part of the site.
func (r Rule) OfURL(u *url.URL) string { return r.ofHost(u.Host) }

// ofHost applies the rule to a canonical "host" or "host:port".
func (r Rule) ofHost(hostport string) string {
	if r == RuleHost || r == "" {
		return hostport
	}
	host, port := hostport, ""
	if h, p, err := net.SplitHostPort(hostport); err == nil {
		host, port = h, p
	}
	if net.ParseIP(host) != nil {
		return hostport
	}
	switch r {
	case RuleHostWWW:
		if s, ok := strings.CutPrefix(host, "www."); ok && s != "" {
			host = s
		}
	case RuleDomain:
		if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
			host = d
		}
	}
	if port != "" {
		return net.JoinHostPort(host, port)
	}
	return host
}

// Name returns the canonical form of a site name written without a scheme
// under the rule: "host" or "host:port" is normalised as the site of
// "http://host:port/" would be (IDNA, case, a trailing dot, port 80
// dropped) and then mapped as the rule maps hosts ("www.example.org" under
// host-www is "example.org"); anything else (a label such as
// "blog.example/path" that names a site of an imported graph) is only
// lower-cased.
func (r Rule) Name(s string) string {
	if !strings.ContainsAny(s, "/?#@\\ ") {
		if u, err := Parse("http://" + s + "/"); err == nil {
			return r.OfURL(u)
		}
	}
	return strings.ToLower(s)
}

// CheckName reports whether s may name a site in a file that names sites
// without a scheme, as an edge list does: a host (a host name or IP
// address, as [Host] accepts it) with an optional port, then optionally a
// path, query or fragment ("blog.example.com/~ann", as the labels of
// imported graphs have it). Anything else ("<img/src=x>", "=evilhub()",
// "javascript:alert(1)", "mailto:a@b") is an [ErrBadHost] error.
func CheckName(s string) error {
	hostport := s
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		hostport = s[:i]
	}
	if hostport == "" || strings.ContainsAny(hostport, "@\\ \t") {
		return fmt.Errorf("%w: a site name must start with a host name", ErrBadHost)
	}
	if asciiHostPort(hostport) {
		return nil
	}
	if _, err := Parse("http://" + hostport + "/"); err != nil {
		if !errors.Is(err, ErrBadHost) { // a URL that does not parse
			return fmt.Errorf("%w: %w", ErrBadHost, err)
		}
		return err
	}
	return nil
}

// Problem says in words why rawURL, a URL or a site name of a file, was
// refused (err is what [Parse], [Rule.Of] or [CheckName] returned for it),
// without quoting it: an error about a file never quotes the file's bytes.
func Problem(rawURL string, err error) string {
	switch {
	case errors.Is(err, ErrNotHTTP):
		return "not an http(s) URL"
	case errors.Is(err, ErrBadHost):
		if !strings.Contains(rawURL, "://") {
			rawURL = "http://" + rawURL
		}
		if u, perr := url.Parse(strings.TrimSpace(rawURL)); perr == nil && u.Port() != "" {
			if n, aerr := strconv.Atoi(u.Port()); aerr != nil || n < 1 || n > 65535 {
				return "its port is not a number from 1 to 65535"
			}
		}
		return "its host is no valid host name or IP address"
	}
	return "not a URL"
}

// asciiHostPort reports whether s is a host name that [Host] accepts
// without IDNA's work: ASCII letters, digits, '-' and '_' in labels of 1 to
// 63 bytes, at most 253 bytes, the last label no number, then maybe a port
// of 1-65535. An edge list of millions of distinct names checks each once;
// through Parse that was most of its reading.
func asciiHostPort(s string) bool {
	host, port, hasPort := strings.Cut(s, ":")
	if hasPort {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || strings.Trim(port, "0123456789") != "" {
			return false
		}
	}
	host = strings.TrimSuffix(host, ".")
	if host == "" || len(host) > 253 {
		return false
	}
	label := 0 // the start of the current label
	for i := 0; i <= len(host); i++ {
		if i == len(host) || host[i] == '.' {
			if i == label || i-label > 63 {
				return false
			}
			if i == len(host) && isNumeric(strings.ToLower(host[label:])) {
				return false
			}
			label = i + 1
			continue
		}
		c := host[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
