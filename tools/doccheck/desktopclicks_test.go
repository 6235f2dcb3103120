package doccheck

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fixedClick matches a click at a place written in the script: xdotool
// moving to two numbers and clicking, or a helper called with two numbers.
var fixedClick = regexp.MustCompile(`mousemove\s+(--\S+\s+)*\d+\s+\d+\s.*\bclick\b|(^|[;&|({"']\s*|\s)click\s+\d+\s+\d+`)

// fixedRegion matches a part of a screenshot written in the script as
// numbers (the screenshot helpers take NAME [COLOUR] X0 Y0 W H), but for the
// whole page below the top bar.
var fixedRegion = regexp.MustCompile(`\b(shown|pixels|box_of)\s+\S+\s+("[^"]*"\s+)?(\d+\s+\d+\s+\d+\s+\d+)`)

// pageRegion is the page below the window's top bar at 1280×800.
const pageRegion = "0 48 1280 752"

// TestDesktopTestsClickElements: the scripts that drive the desktop window
// with xdotool click an element found by its role and accessible name
// (.ci/a11y-find), never a place on the screen, which lands on another
// element once a page gains a card, and look for what a step shows in that
// element's box or the whole page, never in a fixed part of the screen; and .ci/install installs what finding
// them takes (the accessibility bus, Python's GObject bindings to it, a
// session bus of the test's own).
func TestDesktopTestsClickElements(t *testing.T) {
	for _, script := range []string{"desktop-test", "ui-test"} {
		b, err := os.ReadFile(filepath.Join(root, ".ci", script))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			code, _, _ := strings.Cut(line, "#")
			if fixedClick.MatchString(code) {
				t.Errorf(".ci/%s:%d clicks at a fixed place, not at an element found by its name: %s", script, i+1, strings.TrimSpace(line))
			}
			if m := fixedRegion.FindStringSubmatch(code); m != nil && strings.Join(strings.Fields(m[3]), " ") != pageRegion {
				t.Errorf(".ci/%s:%d looks at a fixed part of the screen, not at an element's box or the whole page: %s", script, i+1, strings.TrimSpace(line))
			}
		}
		if !strings.Contains(string(b), ".ci/a11y-find") {
			t.Errorf(".ci/%s does not find what it clicks with .ci/a11y-find", script)
		}
	}
	install, err := os.ReadFile(filepath.Join(root, ".ci", "install"))
	if err != nil {
		t.Fatal(err)
	}
	list := regexp.MustCompile(`(?s)APT_PACKAGES=\(([^)]*)\)`).FindSubmatch(install)
	if list == nil {
		t.Fatal(".ci/install: no APT_PACKAGES")
	}
	for _, pkg := range []string{"at-spi2-core", "python3-gi", "gir1.2-atspi-2.0", "dbus-daemon"} {
		if !slices.Contains(strings.Fields(string(list[1])), pkg) {
			t.Errorf(".ci/install: APT_PACKAGES does not hold %s, which .ci/a11y-find needs", pkg)
		}
	}
}

// TestFixedClickPattern holds the pattern to the clicks it must tell apart.
func TestFixedClickPattern(t *testing.T) {
	for _, tc := range []struct {
		line  string
		fixed bool
	}{
		{`click 100 524`, true},
		{`  click 972 503`, true},
		{`save "click 60 284" "$name-approved.txt" is_approved_txt approved txt`, true},
		{`xdotool mousemove 1180 23 click 1; sleep 0.5`, true},
		{`xdotool mousemove --sync 10 20 click 1`, true},
		{`xdotool mousemove $((fx + fw / 2)) $((fy + fh / 2)) click 1`, false},
		{`xdotool mousemove 1000 600`, false},
		{`pick link "$name-sites.csv"`, false},
		{`fail "no API call /$1/ after the click ($3)"`, false},
	} {
		if got := fixedClick.MatchString(tc.line); got != tc.fixed {
			t.Errorf("%q: fixed click %v, want %v", tc.line, got, tc.fixed)
		}
	}
}

// TestFixedRegionPattern holds the pattern to the screenshot regions it must
// tell apart.
func TestFixedRegionPattern(t *testing.T) {
	for _, tc := range []struct {
		line  string
		fixed bool
	}{
		{`shown 15-captured 30 330 960 470`, true},
		{`[ -z "$(box_of 16-review "$warn" 0 300 1280 500)" ]`, true},
		{`[ "$(pixels "$1-chosen" "$pink" 900 520 360 120)" -lt 100 ]`, true},
		{`[ "$(pixels 14-lab "$accent_weak" 735 10 60 26)" -gt 600 ]`, true},
		{`[ "$(pixels 05-bad-refused "$pink" 0 48 1280 752)" -gt 5000 ]`, false},
		{`shown 15-captured "$fx" "$fy" "$fw" "$fh"`, false},
		{`[ -z "$(box_of 15-captured "$warn" 0 $((fy - 60)) 1280 $((800 - fy + 60)))" ]`, false},
	} {
		m := fixedRegion.FindStringSubmatch(tc.line)
		if got := m != nil && strings.Join(strings.Fields(m[3]), " ") != pageRegion; got != tc.fixed {
			t.Errorf("%q: fixed region %v, want %v", tc.line, got, tc.fixed)
		}
	}
}
