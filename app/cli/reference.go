package cli

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Reference is the command reference of docs/cli.md in Markdown, written
// from the command table as the help is: every command with its summary,
// synopsis, notes and flags (their help and defaults as their flag sets
// define them). It does not depend on the machine it runs on: a default
// project directory is shown as $XDG_DATA_HOME/sitesift/NAME.
func Reference() (string, error) {
	var b strings.Builder
	for _, cmd := range commands {
		if err := reference(&b, &cmd, "###"); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

func reference(b *strings.Builder, cmd *command, heading string) error {
	fmt.Fprintf(b, "%s %s\n\n%s\n\n", heading, strings.TrimSpace("sitesift "+cmd.name), sentence(cmd.summary))
	for _, sub := range cmd.subs {
		if err := reference(b, &sub, heading+"#"); err != nil {
			return err
		}
	}
	if len(cmd.subs) > 0 {
		return nil
	}
	for _, u := range cmd.usage {
		fmt.Fprintf(b, "    %s\n", synopsis(cmd.name, u, "    "))
	}
	b.WriteString("\n")
	if cmd.notes != "" {
		fmt.Fprintf(b, "%s\n\n", markdownText(cmd.notes))
	}
	fs, err := describe(cmd.name)
	if err != nil {
		return err
	}
	fl := flagList(fs)
	for _, f := range fl {
		name := "--" + f.Name
		if f.arg != "" {
			name += " " + f.arg
		}
		def := ""
		if f.def != "" {
			def = f.DefValue // unquoted: the code span shows where it ends
		}
		if f.Name == "project" && cmd.project != nil && cmd.project.defaultName != "" {
			def = "$XDG_DATA_HOME/sitesift/" + cmd.project.defaultName
		}
		fmt.Fprintf(b, "- `%s`: %s", name, markdownText(f.usage))
		if def != "" {
			fmt.Fprintf(b, " (default `%s`)", def)
		}
		b.WriteString("\n")
	}
	if len(fl) > 0 {
		b.WriteString("\n")
	}
	return nil
}

// sentence is a summary as a sentence: capital first, full stop last.
func sentence(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return markdownText(string(unicode.ToUpper(r)) + s[n:] + ".")
}

// markdownText escapes what Markdown would read as markup in a help text:
// "<TAB>" as an HTML tag, "*.warc" or "HTTP_PROXY" as emphasis.
var markdownText = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`,
	"<", "&lt;", ">", "&gt;", "&", "&amp;").Replace
