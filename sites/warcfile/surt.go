package warcfile

import (
	"net/url"
	"slices"
	"strings"
)

// SURT returns the Sort-friendly URI Reordering Transform of rawURL as pywb
// writes it in CDXJ keys: the scheme and a leading "www." dropped, the
// host's labels reversed and joined by commas, a non-default port kept,
// then ")" and the path and query lower-cased, the query's parameters
// sorted, a trailing slash dropped from the path, no fragment: "http://www.Example.org:8080/A?b=1&a=2#x" is
// "org,example:8080)/a?a=2&b=1".
func SURT(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return strings.ToLower(rawURL)
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if h, ok := strings.CutPrefix(host, "www."); ok && h != "" {
		host = h
	}
	labels := strings.Split(host, ".")
	slices.Reverse(labels)
	var b strings.Builder
	b.WriteString(strings.Join(labels, ","))
	if p := u.Port(); p != "" && !(p == "80" && u.Scheme == "http") && !(p == "443" && u.Scheme == "https") {
		b.WriteString(":" + p)
	}
	b.WriteString(")")
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	} else if len(path) > 1 {
		path = strings.TrimSuffix(path, "/")
	}
	b.WriteString(strings.ToLower(path))
	if u.RawQuery != "" {
		params := strings.Split(strings.ToLower(u.RawQuery), "&")
		slices.Sort(params)
		b.WriteString("?" + strings.Join(params, "&"))
	}
	return b.String()
}
