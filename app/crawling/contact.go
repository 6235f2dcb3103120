package crawling

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/sites"
)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// ErrNoContact is why a crawl of the open web does not start: the operator
// has not said how webmasters can reach them.
var ErrNoContact = errors.New("a crawl beyond the demo web's .test hosts and loopback needs an operator contact " +

	"(an e-mail address or a web page) for the user agent, so that webmasters can reach you: " +
	"give it once with `sitesift crawl --contact you@library.org …` or `sitesift settings --project DIR --contact you@library.org`, " +
	"or in the app's crawl settings")

// checkContact refuses a crawl of seeds without a contact unless every seed
// is on a .test host (the demo web) or a loopback address.
func checkContact(s project.Settings, seeds []string) error {
	if s.Contact != "" {
		return nil
	}
	for _, seed := range seeds {
		if u, err := sites.Parse(seed); err != nil || !localHost(u.Hostname()) {
			return fault.Invalid(fmt.Errorf("crawl of %s: %w", seed, ErrNoContact))
		}
	}
	return nil
}

// localHost reports whether host is a .test name (RFC 2606, the demo web's)
// or this machine.
func localHost(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".test") {
		return true
	}
	a, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && a.Unmap().IsLoopback()
}
