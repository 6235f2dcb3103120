package sites

import (
	"fmt"
	"net"
	"net/url"
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
