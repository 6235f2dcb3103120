package crawl

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// robotsFile is a parsed robots.txt (RFC 9309): its groups in file order.
// Lines that do not parse are skipped, as §2.2 asks, so one typo never
// costs the rest of the file.
type robotsFile struct {
	groups []robotsGroup
}

// robotsGroup is one group: the user agents its user-agent lines name
// (lower-cased product tokens, "*" for any) and its rules.
type robotsGroup struct {
	agents []string
	rules  []robotsRule
	// delay is the group's Crawl-delay, an extension RFC 9309 leaves out
	// that many sites use; 0 when absent.
	delay time.Duration
}

// robotsRule is an allow or disallow line; pattern is percent-encoded as
// robotsPath encodes paths, "*" and a final "$" keep their meaning.
type robotsRule struct {
	allow   bool
	pattern string
}

// robotsPolicy is what a robots.txt says to one crawler: the rules of the
// groups that name its product token, or of the "*" groups when none does.
type robotsPolicy struct {
	rules []robotsRule
	delay time.Duration
}

// allowAll is the policy of a site without robots.txt rules for us.
var allowAll = robotsPolicy{}

// parseRobots parses a robots.txt body. A user-agent line after a rule
// line starts a new group; consecutive user-agent lines share one. Rules
// before the first user-agent line belong to no group and are ignored.
func parseRobots(body []byte) *robotsFile {
	f := &robotsFile{}
	var cur *robotsGroup
	inRules := false // the last member line was a rule: a user-agent line starts a new group
	for len(body) > 0 {
		var line []byte
		if i := bytes.IndexAny(body, "\r\n"); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			line, body = body, nil
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		key, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		k := strings.ToLower(strings.TrimSpace(string(key)))
		v := strings.TrimSpace(string(value))
		switch k {
		case "user-agent":
			if cur == nil || inRules {
				f.groups = append(f.groups, robotsGroup{})
				cur = &f.groups[len(f.groups)-1]
				inRules = false
			}
			cur.agents = append(cur.agents, agentToken(v))
		case "allow", "disallow":
			if cur == nil {
				continue
			}
			inRules = true
			if v == "" {
				continue // "Disallow:" with no path disallows nothing
			}
			cur.rules = append(cur.rules, robotsRule{allow: k == "allow", pattern: robotsPath(v)})
		case "crawl-delay":
			if cur == nil {
				continue
			}
			inRules = true
			if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && s < 1e6 {
				cur.delay = time.Duration(s * float64(time.Second))
			}
		}
	}
	return f
}

// agentToken is the product token a user-agent line names: "*", or its
// leading letters, hyphens and underscores (RFC 9309 §2.2.1), lower-cased,
// so that "SiteSift/1.0" names "sitesift".
func agentToken(v string) string {
	if strings.HasPrefix(v, "*") {
		return "*"
	}
	end := strings.IndexFunc(v, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_')
	})
	if end >= 0 {
		v = v[:end]
	}
	return strings.ToLower(v)
}

// productToken is the product token of a User-Agent header: its first
// token, up to the "/" of its version.
func productToken(ua string) string {
	return agentToken(strings.TrimSpace(ua))
}

// policy returns the rules for the crawler whose product token is token
// (lower-case): every group that names it, merged, or else every "*" group,
// merged; no rules when neither exists. The longest Crawl-delay of the
// chosen groups applies.
func (f *robotsFile) policy(token string) robotsPolicy {
	for _, want := range []string{token, "*"} {
		var p robotsPolicy
		found := false
		for _, g := range f.groups {
			for _, a := range g.agents {
				if a != "" && a == want {
					found = true
					p.rules = append(p.rules, g.rules...)
					p.delay = max(p.delay, g.delay)
					break
				}
			}
		}
		if found {
			return p
		}
	}
	return allowAll
}

// allows reports whether the policy lets the crawler fetch the path and
// query pathQuery (as robotsPath encodes it). The rule with the longest
// pattern that matches decides; allow wins a tie (§2.2.2). /robots.txt
// itself is always allowed.
func (p robotsPolicy) allows(pathQuery string) bool {
	if pathQuery == "/robots.txt" {
		return true
	}
	best, allow := -1, true
	for _, r := range p.rules {
		if len(r.pattern) < best || !patternMatch(r.pattern, pathQuery) {
			continue
		}
		if len(r.pattern) > best {
			best, allow = len(r.pattern), r.allow
		} else if r.allow {
			allow = true
		}
	}
	return allow
}

// patternMatch reports whether pattern matches the beginning of s, "*"
// standing for any run of characters and a final "$" for the end of s.
func patternMatch(pattern, s string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	// Greedy matching with backtracking to the last "*": linear for
	// patterns with one star, O(len(pattern)·len(s)) at worst.
	pi, si := 0, 0
	star, starS := -1, 0
	for si < len(s) {
		switch {
		case pi < len(pattern) && pattern[pi] == '*':
			star, starS = pi, si
			pi++
		case pi < len(pattern) && pattern[pi] == s[si]:
			pi++
			si++
		case pi == len(pattern) && !anchored:
			return true
		case star >= 0:
			starS++
			pi, si = star+1, starS
		default:
			return false
		}
	}
	for pi < len(pattern) && pattern[pi] == '*' {
		pi++
	}
	return pi == len(pattern)
}

// robotsPath percent-encodes a rule's path or a URL's path and query the
// same way, so that they compare octet by octet (§2.2.2): bytes outside
// printable ASCII are encoded, existing escapes get upper-case hex digits.
func robotsPath(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte('%')
			b.WriteString(strings.ToUpper(s[i+1 : i+3]))
			i += 2
		case c <= ' ' || c >= 0x7f:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
