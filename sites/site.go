package sites

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
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
	host := strings.ToLower(u.Hostname())
	host = strings.TrimSuffix(host, ".")
	if host == "" {
		return nil, fmt.Errorf("sites: no host in %q", raw)
	}
	port := u.Port()
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
	if u.Path == "" {
		u.Path = "/"
		u.RawPath = ""
	}
	return u, nil
}

// Normalize returns the normalised string form of an absolute http(s) URL.
func Normalize(rawURL string) (string, error) {
	u, err := Parse(rawURL)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// HomeURL returns the URL that stands for a site in seed lists: its root page
// over http.
func HomeURL(site string) string {
	return "http://" + site + "/"
}
