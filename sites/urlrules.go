package sites

import (
	_ "embed"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// The URL rules of a crawl, kept as data (one entry a line, "#" comments)
// so that they can be read, reviewed and extended without reading code.
var (
	//go:embed urlrules/tracking.txt
	trackingFile string
	//go:embed urlrules/share.txt
	shareFile string
	//go:embed urlrules/media.txt
	mediaFile string
)

// urlRules are the rules of the urlrules files, read once.
type urlRules struct {
	tracking       map[string]bool // parameter names, lower-cased
	trackingPrefix []string        // from "name*" lines
	// trackingWith maps a parameter name to the names that make it
	// tracking when the query has one of them ("nb with share" lines).
	trackingWith map[string][]string
	share        []shareRule
	media        map[string]bool // extensions without the dot, lower-cased
}

type shareRule struct{ host, prefix string } // both lower-cased

var (
	paramRE     = regexp.MustCompile(`^[a-z0-9_.\-\[\]]+\*?$`)
	nameRE      = regexp.MustCompile(`^[a-z0-9_.\-\[\]]+$`)
	extensionRE = regexp.MustCompile(`^[a-z0-9]+$`)
)

// ruleLines returns the entries of a rules file: each line without its
// comment and surrounding space, lower-cased, with its line number; blank
// lines are skipped.
func ruleLines(text string) (lines []string, numbers []int) {
	for i, l := range strings.Split(text, "\n") {
		l, _, _ = strings.Cut(l, "#")
		if l = strings.ToLower(strings.TrimSpace(l)); l != "" {
			lines = append(lines, l)
			numbers = append(numbers, i+1)
		}
	}
	return lines, numbers
}

// parseURLRules reads the three rules files; an entry that cannot be a
// rule is an error naming its file and line.
func parseURLRules(tracking, share, media string) (*urlRules, error) {
	r := &urlRules{tracking: map[string]bool{}, trackingWith: map[string][]string{}, media: map[string]bool{}}
	lines, nums := ruleLines(tracking)
	for i, l := range lines {
		if name, with, ok := strings.Cut(l, " with "); ok {
			name, with = strings.TrimSpace(name), strings.TrimSpace(with)
			if !nameRE.MatchString(name) || !nameRE.MatchString(with) {
				return nil, fmt.Errorf("sites: urlrules/tracking.txt line %d: %q is no \"name with name\" of two parameter names", nums[i], l)
			}
			r.trackingWith[name] = append(r.trackingWith[name], with)
			continue
		}
		if !paramRE.MatchString(l) {
			return nil, fmt.Errorf("sites: urlrules/tracking.txt line %d: %q is no parameter name", nums[i], l)
		}
		if p, ok := strings.CutSuffix(l, "*"); ok {
			r.trackingPrefix = append(r.trackingPrefix, p)
		} else {
			r.tracking[l] = true
		}
	}
	lines, nums = ruleLines(share)
	for i, l := range lines {
		host, prefix, ok := strings.Cut(l, "/")
		h, err := Host(host)
		if !ok || err != nil || h != host {
			return nil, fmt.Errorf("sites: urlrules/share.txt line %d: %q is no host/path-prefix", nums[i], l)
		}
		r.share = append(r.share, shareRule{host: host, prefix: "/" + prefix})
	}
	lines, nums = ruleLines(media)
	for i, l := range lines {
		if !extensionRE.MatchString(l) {
			return nil, fmt.Errorf("sites: urlrules/media.txt line %d: %q is no file name extension", nums[i], l)
		}
		r.media[l] = true
	}
	return r, nil
}

// rules are the embedded rules; the test of the files makes sure they read.
var rules = sync.OnceValue(func() *urlRules {
	r, err := parseURLRules(trackingFile, shareFile, mediaFile)
	if err != nil {
		panic(err)
	}
	return r
})

// isTracking reports whether the query parameter name (unescaped) is one
// of urlrules/tracking.txt.
func (r *urlRules) isTracking(name string) bool {
	name = strings.ToLower(name)
	if r.tracking[name] {
		return true
	}
	for _, p := range r.trackingPrefix {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// StripTracking removes from u's query the parameters that track a reader
// or a share (utm_source, fbclid, share, ref …: the list is
// urlrules/tracking.txt), and those that only come along with one of them
// (WordPress's "?share=email&nb=1"), keeping the others as written and in
// order, and reports whether it removed any. A crawl calls it on each link
// before queuing it, so that one article shared three ways is one page.
func StripTracking(u *url.URL) bool {
	if u.RawQuery == "" {
		return false
	}
	r := rules()
	params := strings.Split(u.RawQuery, "&")
	names := make([]string, len(params))
	present := make(map[string]bool, len(params))
	for i, p := range params {
		name, _, _ := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		names[i] = strings.ToLower(name)
		present[names[i]] = true
	}
	kept := params[:0]
	for i, p := range params {
		if !r.isTracking(names[i]) && !slices.ContainsFunc(r.trackingWith[names[i]], func(w string) bool { return present[w] }) {
			kept = append(kept, p)
		}
	}
	if len(kept) == len(params) {
		return false
	}
	u.RawQuery = strings.Join(kept, "&")
	u.ForceQuery = false
	return true
}

// IsShareLink reports whether u is the endpoint of a share button
// (twitter.com/intent/tweet, facebook.com/sharer.php …: the list is
// urlrules/share.txt): no page to fetch, and no link to the platform.
func IsShareLink(u *url.URL) bool {
	host := strings.ToLower(u.Hostname())
	p := strings.ToLower(u.EscapedPath())
	for _, s := range rules().share {
		if (host == s.host || strings.HasSuffix(host, "."+s.host)) && strings.HasPrefix(p, s.prefix) {
			return true
		}
	}
	return false
}

// IsMedia reports whether the path of u ends in the extension of an image,
// video, audio, font, style sheet or script (the list is
// urlrules/media.txt): a file, not a page.
func IsMedia(u *url.URL) bool {
	ext := path.Ext(u.Path)
	return ext != "" && rules().media[strings.ToLower(ext[1:])]
}
