package review

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"sitesift/sites/store"
)

// summarize says in words what an audit row records, from its action and
// its states before and after: which account changed and how, which
// librarian was added, where a site moved, what a decision or a settings
// change made different, what a crawl or an import asked. "" for a row
// whose states are withheld or empty.
func summarize(action string, before, after json.RawMessage) string {
	var b, a map[string]any
	if len(before) > 0 {
		json.Unmarshal(before, &b)
	}
	if len(after) > 0 {
		json.Unmarshal(after, &a)
	}
	if a == nil && b == nil {
		return ""
	}
	switch action {
	case store.AuditAccount:
		return accountSummary(b, a)
	case store.AuditLibrarian:
		return "librarian " + str(a["name"]) + " added"
	case store.AuditPlatform:
		return platformSummary(a)
	case store.AuditCrawl, store.AuditImport:
		return fieldsSummary(a)
	}
	if c := changeSummary(b, a); c != "" || b == nil || a == nil {
		return c
	}
	return "nothing changed"
}

// accountSummary is an account change: an account's state holds its name,
// role and disabled, and after holds the change (see app/accounts).
func accountSummary(b, a map[string]any) string {
	name := str(a["name"])
	switch str(a["change"]) {
	case "added":
		return fmt.Sprintf("account %s added (%s)", name, str(a["role"]))
	case "role":
		return fmt.Sprintf("%s made %s (was %s)", name, str(a["role"]), str(b["role"]))
	case "disabled":
		return name + "'s account disabled"
	case "enabled":
		return name + "'s account enabled"
	case "password reset":
		return name + "'s password reset and account enabled"
	case "own password changed":
		return name + " changed their own password"
	}
	return strings.TrimSpace(name + " " + changeSummary(b, a))
}

// platformSummary is a site moved into or out of the platforms.
func platformSummary(a map[string]any) string {
	in, listed := a["platform"] == true, a["listed"] == true
	switch {
	case in && listed:
		return "moved into the platforms, as the list has it"
	case in:
		return "moved into the platforms"
	case listed:
		return "moved out of the platforms, though the list names it"
	}
	return "moved out of the platforms"
}

// changeSummary lists the fields whose values differ between b and a,
// "rating 2 → 3 · note — → good soup"; a field new in a reads "rating 3".
func changeSummary(b, a map[string]any) string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	order := map[string]int{"status": 1, "rating": 2, "note": 3, "subject": 4, "reason": 5}
	slices.SortStableFunc(keys, func(x, y string) int { return rank(order, x) - rank(order, y) })
	var parts []string
	for _, k := range keys {
		bv, inB := b[k]
		av := a[k]
		if inB && value(bv) == value(av) {
			continue
		}
		if b == nil {
			if value(av) != "—" {
				parts = append(parts, k+" "+value(av))
			}
			continue
		}
		parts = append(parts, k+" "+value(bv)+" → "+value(av))
	}
	return strings.Join(parts, " · ")
}

func rank(order map[string]int, k string) int {
	if r, ok := order[k]; ok {
		return r
	}
	return len(order) + 1
}

// fieldsSummary lists what a crawl or an import asked: its fields that
// are set, "max_pages: 500 · seeds: 3".
func fieldsSummary(a map[string]any) string {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		if v := value(a[k]); v != "—" && v != "false" {
			parts = append(parts, k+": "+v)
		}
	}
	return strings.Join(parts, " · ")
}

// maxValue is the most characters a value shows.
const maxValue = 80

// value is a JSON value in words: "—" for nothing, a list's first items,
// an object's fields.
func value(v any) string {
	var s string
	switch v := v.(type) {
	case nil:
		return "—"
	case string:
		if v == "" {
			return "—"
		}
		s = v
	case float64:
		s = strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		s = strconv.FormatBool(v)
	case []any:
		if len(v) == 0 {
			return "—"
		}
		items := make([]string, 0, 3)
		for _, x := range v[:min(len(v), 3)] {
			items = append(items, value(x))
		}
		s = strings.Join(items, ", ")
		if len(v) > 3 {
			s += fmt.Sprintf(" … (%d)", len(v))
		}
	case map[string]any:
		if len(v) == 0 {
			return "—"
		}
		s = "{" + fieldsSummary(v) + "}"
	default:
		s = fmt.Sprint(v)
	}
	if utf8.RuneCountInString(s) > maxValue {
		s = string([]rune(s)[:maxValue-1]) + "…"
	}
	return s
}

// str is a JSON string value, "" for anything else.
func str(v any) string {
	s, _ := v.(string)
	return s
}
