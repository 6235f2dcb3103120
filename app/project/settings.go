package project

import (
	"context"
	"fmt"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"time"

	"sitesift/app/fault"
	"sitesift/sites"
	"sitesift/sites/store"
)

// Defaults of a project's settings: the one source of the defaults of the
// command line, the API and the app.
const (
	DefaultDelayMS    = 1000
	DefaultParallel   = 4
	DefaultMaxDelayMS = 30_000
)

// The window policies of Adaptive OPIC, as `sitesift lab windows` names
// them: how a recrawl weighs the importance readings of the crawls.
const (
	WindowFixed         = "fixed"
	WindowImproved      = "improved"
	WindowVariable      = "variable"
	WindowInterpolation = "interpolation"
	WindowFullHistory   = "full-history"
)

// Windows lists the window policies a project may choose.
var Windows = []string{WindowFixed, WindowImproved, WindowVariable, WindowInterpolation, WindowFullHistory}

// The default window policy: Variable Window, which `sitesift lab windows`
// measures best at most change rates (README), over the last crawl that
// read each site: one crawl's reading sums all the reads of a site in it,
// several measures of the paper's.
const (
	DefaultWindow     = WindowVariable
	DefaultWindowSize = 1
)

// Settings are a project's crawl settings: who crawls, and how politely.
// Every crawl of the project uses them; a crawl request may change them
// (see [SettingsUpdate]), and the change is kept for the next crawls. Every
// service reads them through [Project.Settings].
type Settings struct {
	// Contact is how a webmaster reaches the operator: an e-mail address
	// or an http(s) URL; "" for none. It is sent in the default user agent
	// (and an e-mail address as the From header). A crawl of hosts other
	// than the demo web's .test hosts or loopback needs one.
	Contact string `json:"contact"`
	// UserAgent is the User-Agent the operator set; "" for the default,
	// "sitesift/VERSION (+CONTACT)". Its product token (the name before the
	// "/") is what robots.txt groups are matched against.
	UserAgent string `json:"user_agent"`
	// EffectiveUserAgent is the User-Agent crawls send.
	EffectiveUserAgent string `json:"effective_user_agent"`
	// DelayMS is the least time between two requests to one site, in
	// milliseconds; a longer Crawl-delay of the site's robots.txt wins.
	DelayMS int `json:"delay_ms"`
	// Parallel is how many sites are fetched at once.
	Parallel int `json:"parallel"`
	// MaxDelayMS caps a site's delay, in milliseconds: a Crawl-delay over
	// it keeps the site from being crawled (its status is slow); a
	// Retry-After and the doubling of a site's delay after a 429 or 503
	// stop there.
	MaxDelayMS int `json:"max_delay_ms"`
	// SiteRule is how the project's URLs map to sites: host, host-www (a
	// leading www. dropped) or domain (the registered domain). It is chosen
	// when the project is created: it can change only while the project has
	// no site.
	SiteRule string `json:"site_rule"`
	// Window is the window policy of Adaptive OPIC that sets the sites'
	// importance after a recrawl (app/crawling): fixed,
	// improved, variable, interpolation or full-history, the policies of
	// `sitesift lab windows`; WindowSize is its size in crawls (the first
	// crawl and each recrawl give every site one importance reading).
	Window     string `json:"window"`
	WindowSize int    `json:"window_size"`
	// SinglePersonApproval lets the librarian who nominated a site approve
	// it too, for a project with a lone librarian. Off by default: two
	// librarians look at every approved site (app/review).
	SinglePersonApproval bool `json:"single_person_approval"`
	// Links is the site graph the importance is computed on: editorial
	// (the default: the links inside the pages' main content, which their
	// authors wrote) or all (the template's too: navigation, footers,
	// share buttons). Changing it computes the importance again.
	Links string `json:"links"`
}

// SettingsUpdate changes some crawl settings: a nil field keeps the stored
// value (or the default). An empty Contact or UserAgent removes it.
type SettingsUpdate struct {
	Contact    *string `json:"contact,omitempty"`
	UserAgent  *string `json:"user_agent,omitempty"`
	DelayMS    *int    `json:"delay_ms,omitempty"`
	Parallel   *int    `json:"parallel,omitempty"`
	MaxDelayMS *int    `json:"max_delay_ms,omitempty"`
	SiteRule   *string `json:"site_rule,omitempty"`
	Window     *string `json:"window,omitempty"`
	WindowSize *int    `json:"window_size,omitempty"`

	SinglePersonApproval *bool `json:"single_person_approval,omitempty"`

	Links *string `json:"links,omitempty"`
}

// The keys of the text settings in the store.
const (
	keyContact   = "contact"
	keyUserAgent = "user_agent"
	keyWindow    = "window"
	keySingle    = "single_person_approval"
)

// numeric are the numeric settings: their key in the store, their field
// and the field of an update.
var numeric = []struct {
	key    string
	field  func(*Settings) *int
	update func(SettingsUpdate) *int
}{
	{"delay_ms", func(s *Settings) *int { return &s.DelayMS }, func(u SettingsUpdate) *int { return u.DelayMS }},
	{"parallel", func(s *Settings) *int { return &s.Parallel }, func(u SettingsUpdate) *int { return u.Parallel }},
	{"max_delay_ms", func(s *Settings) *int { return &s.MaxDelayMS }, func(u SettingsUpdate) *int { return u.MaxDelayMS }},
	{"window_size", func(s *Settings) *int { return &s.WindowSize }, func(u SettingsUpdate) *int { return u.WindowSize }},
}

// DefaultLinks is the link graph the importance of a new project is
// computed on (see [store.DefaultLinkGraph]).
const DefaultLinks = string(store.DefaultLinkGraph)

// DefaultSettings are the settings of a new project.
func DefaultSettings() Settings {
	return Settings{DelayMS: DefaultDelayMS, Parallel: DefaultParallel, MaxDelayMS: DefaultMaxDelayMS,
		SiteRule: string(sites.DefaultRule), Window: DefaultWindow, WindowSize: DefaultWindowSize,
		Links: DefaultLinks}
}

// Settings returns the project's settings, defaults filled in.
func (p *Project) Settings(ctx context.Context) (Settings, error) {
	kv, err := p.Store.Settings(ctx)
	if err != nil {
		return Settings{}, err
	}
	s := DefaultSettings()
	s.Contact, s.UserAgent = kv[keyContact], kv[keyUserAgent]
	if w, ok := kv[keyWindow]; ok {
		s.Window = w
	}
	for _, n := range numeric {
		if v, ok := kv[n.key]; ok {
			if *n.field(&s), err = strconv.Atoi(v); err != nil {
				return Settings{}, fmt.Errorf("settings: stored %s %q is not a number", n.key, v)
			}
		}
	}
	if v, ok := kv[keySingle]; ok {
		if s.SinglePersonApproval, err = strconv.ParseBool(v); err != nil {
			return Settings{}, fmt.Errorf("settings: stored %s %q is not true or false", keySingle, v)
		}
	}
	s.EffectiveUserAgent = s.userAgent()
	s.SiteRule = string(p.Store.SiteRule())
	lg, err := p.Store.LinkGraph(ctx)
	if err != nil {
		return Settings{}, err
	}
	s.Links = string(lg.Links)
	return s, nil
}

// SetSettings applies u to the project's settings, stores them and writes
// the change to the audit log; a value that is not valid is an error
// (fault.KindInvalid) and nothing is stored. Relink reports that the link
// graph changed: the store has marked the importance stale, and it must be
// computed again on the graph chosen now (app/ranking's SetSettings does).
func (p *Project) SetSettings(ctx context.Context, u SettingsUpdate) (s Settings, relink bool, err error) {
	if err := Require(ctx, RoleAdmin, "change the settings"); err != nil {
		return Settings{}, false, err
	}
	before, err := p.Settings(ctx)
	if err != nil {
		return Settings{}, false, err
	}
	if s, err = u.Apply(before); err != nil {
		return Settings{}, false, err
	}
	if err := p.Store.SetSiteRule(ctx, sites.Rule(s.SiteRule)); err != nil {
		return Settings{}, false, err
	}
	kv := map[string]string{}
	if u.Contact != nil {
		kv[keyContact] = s.Contact
	}
	if u.UserAgent != nil {
		kv[keyUserAgent] = s.UserAgent
	}
	if u.Window != nil {
		kv[keyWindow] = s.Window
	}
	for _, n := range numeric {
		if v := n.update(u); v != nil {
			kv[n.key] = strconv.Itoa(*v)
		}
	}
	if u.SinglePersonApproval != nil {
		kv[keySingle] = strconv.FormatBool(*u.SinglePersonApproval)
	}
	if len(kv) > 0 {
		if err := p.Store.SetSettings(ctx, kv); err != nil {
			return Settings{}, false, err
		}
	}
	if u.Links != nil {
		if relink, err = p.Store.SetLinkGraph(ctx, store.LinkGraph(s.Links)); err != nil {
			return Settings{}, false, err
		}
	}
	return s, relink, p.Audit(ctx, "", store.AuditSettings, "", before, s)
}

// Apply returns s changed by u, checked: a value that is not valid is an
// error (fault.KindInvalid).
func (u SettingsUpdate) Apply(s Settings) (Settings, error) {
	if u.Contact != nil {
		s.Contact = strings.TrimSpace(*u.Contact)
	}
	if u.UserAgent != nil {
		s.UserAgent = strings.TrimSpace(*u.UserAgent)
	}
	if u.SiteRule != nil {
		r, err := sites.ParseRule(strings.TrimSpace(*u.SiteRule))
		if err != nil {
			return Settings{}, fault.Invalid(fmt.Errorf("settings: %w", err))
		}
		s.SiteRule = string(r)
	}
	if u.Window != nil {
		s.Window = strings.TrimSpace(*u.Window)
	}
	for _, n := range numeric {
		if v := n.update(u); v != nil {
			*n.field(&s) = *v
		}
	}
	if u.SinglePersonApproval != nil {
		s.SinglePersonApproval = *u.SinglePersonApproval
	}
	if u.Links != nil {
		g, err := store.ParseLinkGraph(strings.TrimSpace(*u.Links))
		if err != nil {
			return Settings{}, fault.Invalid(fmt.Errorf("settings: %w", err))
		}
		s.Links = string(g)
	}
	if err := s.check(); err != nil {
		return Settings{}, fault.Invalid(err)
	}
	s.EffectiveUserAgent = s.userAgent()
	return s, nil
}

// check reports what is wrong with s.
func (s Settings) check() error {
	if s.Contact != "" && !isEmail(s.Contact) && !isWebURL(s.Contact) {
		return fmt.Errorf("settings: contact %q is neither an e-mail address nor an http(s) URL", s.Contact)
	}
	if s.UserAgent != "" {
		if len(s.UserAgent) > 500 || strings.IndexFunc(s.UserAgent, func(r rune) bool { return r < ' ' || r > '~' }) >= 0 {
			return fmt.Errorf("settings: user agent %q must be at most 500 printable ASCII characters", s.UserAgent)
		}
		if t := s.UserAgent[0]; !(t >= 'a' && t <= 'z' || t >= 'A' && t <= 'Z') {
			return fmt.Errorf("settings: user agent %q must start with a product name (\"mybot/1.0 (+https://…)\")", s.UserAgent)
		}
	}
	switch {
	case s.DelayMS < 0:
		return fmt.Errorf("settings: delay %d ms is negative", s.DelayMS)
	case s.Parallel < 1 || s.Parallel > 64:
		return fmt.Errorf("settings: parallel %d must lie in 1..64", s.Parallel)
	case s.MaxDelayMS < 1:
		return fmt.Errorf("settings: max delay %d ms must be positive", s.MaxDelayMS)
	case s.MaxDelayMS < s.DelayMS:
		return fmt.Errorf("settings: max delay %v is shorter than the delay %v", ms(s.MaxDelayMS), ms(s.DelayMS))
	case !slices.Contains(Windows, s.Window):
		return fmt.Errorf("settings: window %q is none of %s", s.Window, strings.Join(Windows, ", "))
	case s.WindowSize < 1 || s.WindowSize > 100:
		return fmt.Errorf("settings: window size %d must lie in 1..100 crawls", s.WindowSize)
	}
	return nil
}

// Update is s as an update that sets every field, the user agent to the
// effective one: what a crawl's record keeps of the settings it ran with.
func (s Settings) Update() SettingsUpdate {
	return SettingsUpdate{Contact: new(s.Contact), UserAgent: new(s.EffectiveUserAgent), DelayMS: new(s.DelayMS),
		Parallel: new(s.Parallel), MaxDelayMS: new(s.MaxDelayMS), SiteRule: new(s.SiteRule),
		Window: new(s.Window), WindowSize: new(s.WindowSize), Links: new(s.Links)}
}

// userAgent is the User-Agent crawls send.
func (s Settings) userAgent() string {
	switch {
	case s.UserAgent != "":
		return s.UserAgent
	case s.Contact != "":
		return "sitesift/" + Version + " (+" + s.Contact + ")"
	}
	return "sitesift/" + Version
}

// From is the From header crawls send: the contact when it is an e-mail
// address.
func (s Settings) From() string {
	if isEmail(s.Contact) {
		return s.Contact
	}
	return ""
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// isEmail reports whether s is a bare e-mail address ("you@library.org").
func isEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && a.Name == ""
}

// isWebURL reports whether s is an absolute http(s) URL with a host.
func isWebURL(s string) bool {
	_, err := sites.Parse(s)
	return err == nil && strings.HasPrefix(strings.ToLower(s), "http")
}
