package exports

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"regexp"
	"slices"
	"strings"

	"sitesift/app/fault"
	"sitesift/app/project"
	"sitesift/app/review"
	"sitesift/sites"
)

// CrawlerExport is what the big crawlers need of a project's approved
// selection: the seeds, how far each reaches (its site, by the project's
// site rule), the URLs the project's crawls left out and the user agent.
type CrawlerExport struct {
	Seeds []review.SelectedSeed
	// Rule is the project's site rule: a seed's scope is its site.
	Rule sites.Rule
	// Exclude are the regular expressions of URLs the last crawl of the
	// project excluded (its --exclude), kept out of the big crawl too.
	Exclude []string
	// UserAgent is the project's user agent, its contact in it
	// ("sitesift/VERSION (+CONTACT)"): what a crawl of the selection
	// appends to its own.
	UserAgent string
	// LeftOut counts the approved sites left out, by reason: those whose
	// crawl gave nothing worth archiving and the platform sites.
	LeftOut []LeftOut
	// Empty says why there is no seed, "" when there are some (see
	// [Written.Empty]).
	Empty string
}

// CrawlerExport returns the approved selection with what a crawl of it
// needs, leaving out the sites whose crawl gave nothing worth archiving
// and the platform sites (social media are captured with other tools).
// An empty selection gives no seeds, and Empty says so.
func (s *Service) CrawlerExport(ctx context.Context) (CrawlerExport, error) {
	if err := s.ranking.RequireImportance(ctx, "export"); err != nil {
		return CrawlerExport{}, err
	}
	seeds, left, err := s.approvedSeeds(ctx, false, false)
	if err != nil {
		return CrawlerExport{}, err
	}
	settings, err := s.project.Settings(ctx)
	if err != nil {
		return CrawlerExport{}, err
	}
	exclude, err := s.crawling.LastExclude(ctx)
	if err != nil {
		return CrawlerExport{}, err
	}
	return CrawlerExport{Seeds: seeds, Rule: s.store.SiteRule(), Exclude: exclude, UserAgent: settings.EffectiveUserAgent, LeftOut: left,
		Empty: nothingApproved(len(seeds), left)}, nil
}

// yamlString quotes s as a YAML double-quoted scalar: JSON's string syntax
// is one (YAML 1.2 is a superset of JSON), escapes included.
func yamlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// browsertrixScope returns the scopeType of a seed of site under rule, and
// for a custom scope the include expression: the host rule is Browsertrix's
// host scope, the domain rule its domain scope (the registered domain and
// every subdomain), and host-www (a site is one host with or without
// "www.") a custom scope of exactly those two hosts.
func browsertrixScope(site string, rule sites.Rule) (scope, include string) {
	switch rule {
	case sites.RuleHost:
		return "host", ""
	case sites.RuleDomain:
		return "domain", ""
	}
	host, port, _ := strings.Cut(site, ":")
	hp := regexp.QuoteMeta(host)
	if port != "" {
		hp += ":" + port
	}
	return "custom", `^https?://(www\.)?` + hp + `(/|$)`
}

// WriteBrowsertrixConfig writes a crawl configuration file of
// browsertrix-crawler (its --config YAML, whose keys are its command-line
// options): the approved seeds, each with its scope, the exclusions and the
// user agent suffix. Browsertrix Cloud takes the same seeds and exclusions.
// A seed marked as its page only has the page scope.
//
// browsertrix-crawler compiles include and exclude with JavaScript's
// RegExp, where sitesift's are Go (RE2) expressions: each is written in
// its JavaScript form (see [JSRegExp]), and an expression that has none is
// a bad request that names it, rather than a file on which the crawler
// skips every seed and stops. The project's user agent goes in
// userAgentSuffix, which the crawler appends to its browser's own user
// agent: replacing the browser's (userAgent) would make a browser crawl
// look like a bot to the sites, the contact is what a webmaster needs.
func WriteBrowsertrixConfig(w io.Writer, e CrawlerExport) error {
	var b strings.Builder
	b.WriteString("# browsertrix-crawler configuration written by sitesift " + project.Version + ":\n")
	b.WriteString("# the sites librarians approved, each crawled within its site.\n")
	if pageOnly(e.Seeds) {
		b.WriteString("# A seed whose scopeType is page was marked as its page only.\n")
	}
	if t := LeftOutText(e.LeftOut); t != "" {
		b.WriteString("# It " + t + ".\n")
	}
	b.WriteString("# Run: docker run -v $PWD:/crawls/ webrecorder/browsertrix-crawler crawl --config /crawls/THIS_FILE\n")
	if len(e.Seeds) == 0 {
		// An empty list, not YAML's null: the file is still a configuration.
		b.WriteString("seeds: []\n")
	} else {
		b.WriteString("seeds:\n")
	}
	for _, s := range e.Seeds {
		scope, include := browsertrixScope(s.Site, e.Rule)
		if s.PageOnly {
			scope, include = "page", ""
		}
		fmt.Fprintf(&b, "  - url: %s\n    scopeType: %s\n", yamlString(s.SeedURL), scope)
		if include != "" {
			js, err := JSRegExp(include)
			if err != nil {
				return fault.Invalid(fmt.Errorf("browsertrix export: the scope of %s: %w", s.Site, err))
			}
			fmt.Fprintf(&b, "    include: %s\n", yamlString(js))
		}
	}
	if len(e.Exclude) > 0 {
		b.WriteString("exclude:\n")
		for _, x := range e.Exclude {
			js, err := JSRegExp(x)
			if err != nil {
				return fault.Invalid(fmt.Errorf("browsertrix export: the last crawl's --exclude: %w", err))
			}
			fmt.Fprintf(&b, "  - %s\n", yamlString(js))
		}
	}
	if e.UserAgent != "" {
		fmt.Fprintf(&b, "userAgentSuffix: %s\n", yamlString(e.UserAgent))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteHeritrixSeeds writes a Heritrix seeds file (seeds.txt, as the
// TextSeedModule reads it): a comment naming what it holds, then the
// approved sites by OPIC importance, each as its seed URL on a line and its
// scope on the lines that follow, "+" and a SURT prefix (see
// [heritrixSurtPrefixes]), but for a seed marked as its page only, which
// has no such line. Heritrix's SurtPrefixedDecideRule takes these
// lines as they are and adds the prefix each seed implies, its SURT form
// cut after its last slash: a seed that is an article
// (https://www.cnn.com/2019/11/18/investing/story/index.html) would
// otherwise scope the crawl to its folder, not its site. The "+" lines
// scope the same sites as the Browsertrix export (see [browsertrixScope]).
func WriteHeritrixSeeds(w io.Writer, e CrawlerExport) error {
	var b strings.Builder
	b.WriteString("# Heritrix seeds written by sitesift " + project.Version + ": the sites librarians approved, by importance,\n")
	b.WriteString("# each seed followed by its site's SURT prefixes (+), which SurtPrefixedDecideRule keeps in scope.\n")
	if pageOnly(e.Seeds) {
		b.WriteString("# A seed with no + line was marked as its page only: Heritrix keeps the URLs under its last / in scope.\n")
	}
	if t := LeftOutText(e.LeftOut); t != "" {
		b.WriteString("# It " + t + ".\n")
	}
	for _, s := range e.Seeds {
		b.WriteString(s.SeedURL + "\n")
		if s.PageOnly {
			continue
		}
		for _, p := range heritrixSurtPrefixes(s.Site, e.Rule) {
			b.WriteString("+" + p + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// pageOnly reports whether a seed of seeds is marked as its page only.
func pageOnly(seeds []review.SelectedSeed) bool {
	return slices.ContainsFunc(seeds, func(s review.SelectedSeed) bool { return s.PageOnly })
}

// heritrixSurtPrefixes returns the SURT prefixes, in Heritrix's SURT form
// ("http://(org,example,www,:8080)/"), that hold exactly the URLs of site
// under rule, http and https alike (SurtPrefixedDecideRule compares https
// URLs as http): under the host rule the host, under host-www the host
// with and without "www.", under the domain rule the open prefix of the
// registered domain ("http://(com,cnn,"), which takes every subdomain and
// port. A prefix that ends in ")/" takes no other host: the ")" closes the
// host. Heritrix does not reverse an IPv4 address, and an IP or a name
// with a port is always one host (the port is part of it).
func heritrixSurtPrefixes(site string, rule sites.Rule) []string {
	host, port := site, ""
	if h, p, err := net.SplitHostPort(site); err == nil {
		host, port = h, p
	}
	if port != "" {
		port = ":" + port
	}
	reversed := func(h string) string {
		if ip := net.ParseIP(h); ip != nil {
			return h
		}
		parts := strings.Split(h, ".")
		slices.Reverse(parts)
		return strings.Join(parts, ",") + ","
	}
	exact := func(h string) string { return "http://(" + reversed(h) + port + ")/" }
	if net.ParseIP(host) != nil {
		return []string{exact(host)}
	}
	switch rule {
	case sites.RuleDomain:
		return []string{"http://(" + reversed(host)}
	case sites.RuleHostWWW:
		return []string{exact(host), exact("www." + host)}
	}
	return []string{exact(host)}
}
