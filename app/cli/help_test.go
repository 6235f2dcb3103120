package cli

import (
	"flag"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// leaves is every command of the table that runs: the subcommands of a
// command that has them, else the command.
func leaves() []command {
	var list []command
	for _, cmd := range commands {
		list = append(list, withSubs(cmd)...)
	}
	return list
}

var flagName = regexp.MustCompile(`--([a-z][a-z0-9-]*)`)

// shownDefault is a flag the synopsis shows with a number, its default:
// "[--top 20]", "[--addr 127.0.0.1:7777]".
var shownDefault = regexp.MustCompile(`\[--([a-z][a-z0-9-]*)[ =](-?[0-9][0-9.:]*)\]`)

// TestCommandTableMatchesFlags: every command of the table stops at its
// flags' parse when described, takes --project exactly as the table says,
// names in its synopsis and notes only flags it defines, and names every
// flag it defines, with its default where the synopsis shows a number, so the help cannot promise a flag a command refuses or
// keep one quiet.
func TestCommandTableMatchesFlags(t *testing.T) {
	for _, cmd := range leaves() {
		fs, err := describe(cmd.name)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if fs.Name() != "sitesift "+cmd.name {
			t.Errorf("sitesift %s: its flag set is named %q", cmd.name, fs.Name())
		}
		if (fs.Lookup("project") != nil) != (cmd.project != nil) {
			t.Errorf("sitesift %s: --project declared %v, the table says %v", cmd.name, fs.Lookup("project") != nil, cmd.project != nil)
		}
		named := map[string]bool{}
		for _, m := range flagName.FindAllStringSubmatch(strings.Join(cmd.usage, " ")+" "+cmd.notes, -1) {
			named[m[1]] = true
			if fs.Lookup(m[1]) == nil {
				t.Errorf("sitesift %s: the help names --%s, which the command does not define", cmd.name, m[1])
			}
		}
		for _, m := range shownDefault.FindAllStringSubmatch(strings.Join(cmd.usage, " "), -1) {
			if f := fs.Lookup(m[1]); f != nil && f.DefValue != m[2] {
				t.Errorf("sitesift %s: the synopsis shows --%s %s, its default is %s", cmd.name, m[1], m[2], f.DefValue)
			}
		}
		fs.VisitAll(func(f *flag.Flag) {
			if !named[f.Name] {
				t.Errorf("sitesift %s: --%s is defined but its synopsis and notes leave it out", cmd.name, f.Name)
			}
		})
	}
}

// TestSubcommandsMatchDispatch: the subcommands the table lists are those
// the parent command runs, as its error for an unknown one lists them.
func TestSubcommandsMatchDispatch(t *testing.T) {
	want := regexp.MustCompile(`\(want ([a-z, ]+)\)`)
	for _, cmd := range commands {
		if len(cmd.subs) == 0 {
			continue
		}
		code, _, stderr := runCLI(t, cmd.name, "nosuch")
		m := want.FindStringSubmatch(stderr)
		if code != 2 || m == nil {
			t.Errorf("sitesift %s nosuch: %d %q", cmd.name, code, stderr)
			continue
		}
		dispatched := strings.FieldsFunc(strings.ReplaceAll(m[1], " or ", ","), func(r rune) bool { return r == ',' || r == ' ' })
		var listed []string
		for _, sub := range cmd.subs {
			listed = append(listed, strings.TrimPrefix(sub.name, cmd.name+" "))
		}
		if !slices.Equal(dispatched, listed) {
			t.Errorf("sitesift %s runs %v, the table lists %v", cmd.name, dispatched, listed)
		}
	}
}

// TestHelpIsGenerated: sitesift help lists every command of the table, and
// a command's --help and help COMMAND print its flags as its flag set
// defines them, usage and default.
func TestHelpIsGenerated(t *testing.T) {
	code, out, stderr := runCLI(t, "help")
	if code != 0 || stderr != "" {
		t.Fatalf("help: %d %s", code, stderr)
	}
	for _, cmd := range leaves() {
		for _, u := range cmd.usage {
			if !strings.Contains(out, synopsis(cmd.name, u, "  ")) {
				t.Errorf("sitesift help lacks %q", u)
			}
		}
		if !strings.Contains(out, cmd.summary) {
			t.Errorf("sitesift help lacks the summary of %s: %q", cmd.name, cmd.summary)
		}
	}
	for _, args := range [][]string{{"crawl", "--help"}, {"help", "crawl"}, {"crawl", "-h"}} {
		code, out, stderr := runCLI(t, args...)
		if code != 0 || stderr != "" {
			t.Fatalf("%v: %d %s", args, code, stderr)
		}
		for _, w := range []string{
			"sitesift crawl — ",
			"  --max-pages int\n        pages to fetch fine in all (failures count apart); every seed is asked for first (default 500)\n",
			"  --strategy string\n        crawl order: greedy (most OPIC cash first), random or cycle (default \"greedy\")\n",
			"  --no-warc\n        write no WARC files",
			"  --project string\n        project directory (created when missing)\n",
		} {
			if !strings.Contains(out, w) {
				t.Errorf("%v lacks %q:\n%s", args, w, out)
			}
		}
	}
	code, out, _ = runCLI(t, "help", "lab", "seeds")
	if code != 0 || !strings.Contains(out, "--project string\n        project whose page graph to evaluate on\n") ||
		strings.Contains(out, "lab links") {
		t.Errorf("help lab seeds: %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "lab", "help")
	if code != 0 || !strings.Contains(out, "sitesift lab normleak — ") || !strings.Contains(out, "--damping float") {
		t.Errorf("lab help: %d\n%s", code, out)
	}
	if code, _, stderr := runCLI(t, "help", "frobnicate"); code != 2 || !strings.Contains(stderr, `unknown command "frobnicate"`) {
		t.Errorf("help frobnicate: %d %s", code, stderr)
	}
}
