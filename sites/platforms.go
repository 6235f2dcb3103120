package sites

import (
	_ "embed"
	"fmt"
	"net"
	"strings"
	"sync"
)

// platformsFile is the list of platforms, kept as data like the URL rules
// (see urlrules/platforms.txt for what a platform is and how a line
// matches).
//
//go:embed urlrules/platforms.txt
var platformsFile string

// parsePlatforms reads a platforms file into its set of domains; a line
// that is no host name is an error naming its line.
func parsePlatforms(text string) (map[string]bool, error) {
	set := map[string]bool{}
	lines, nums := ruleLines(text)
	for i, l := range lines {
		h, err := Host(l)
		if err != nil || h != l || !strings.Contains(h, ".") || net.ParseIP(h) != nil {
			return nil, fmt.Errorf("sites: urlrules/platforms.txt line %d: %q is no domain name", nums[i], l)
		}
		set[h] = true
	}
	return set, nil
}

// platforms is the embedded list; the test of the file makes sure it reads.
var platforms = sync.OnceValue(func() map[string]bool {
	set, err := parsePlatforms(platformsFile)
	if err != nil {
		panic(err)
	}
	return set
})

// IsPlatform reports whether the site called name is on the list of
// platforms (urlrules/platforms.txt: social networks, video platforms, URL
// shorteners, CDNs, ad and tracking hosts): whether the host its name
// starts with is a listed domain or a subdomain of one. It takes a site
// name under any rule ("www.facebook.com", "facebook.com",
// "m.youtube.com:8080", an imported graph's "x.com/path") and says nothing
// of a project's own choices, which the store keeps.
func IsPlatform(name string) bool {
	return isListed(platforms(), name)
}

// isListed is IsPlatform over the domains of set.
func isListed(set map[string]bool, name string) bool {
	host := strings.ToLower(name)
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(host, ".")
	// Each suffix of the host that starts at a label: "m.facebook.com",
	// "facebook.com", "com".
	for host != "" {
		if set[host] {
			return true
		}
		_, rest, ok := strings.Cut(host, ".")
		if !ok {
			return false
		}
		host = rest
	}
	return false
}
