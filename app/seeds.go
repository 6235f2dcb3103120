package app

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"sitesift/sites"
)

// ReadSeeds reads a seed file: one http(s) URL a line; blank lines and lines
// starting with # are skipped, as is anything after " #" on a line. A bad
// line fails the whole file with its name and line number.
func ReadSeeds(r io.Reader, name string) ([]string, error) {
	var seeds []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if i := strings.Index(text, " #"); i >= 0 {
			text = strings.TrimSpace(text[:i])
		}
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if strings.ContainsAny(text, " \t") {
			return nil, fmt.Errorf("%s:%d: %q: one URL a line", name, line, text)
		}
		u, err := sites.Normalize(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		seeds = append(seeds, u)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return seeds, nil
}
