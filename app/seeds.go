package app

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"sitesift/sites"
)

// maxSeedLine is the longest line of a seed file.
const maxSeedLine = 1 << 20

// ReadSeeds reads a seed file: one http(s) URL a line; blank lines and lines
// starting with # are skipped, as is anything after " #" on a line, and a
// UTF-8 byte-order mark at the start. A bad line (a URL that is not http(s),
// whose host is not a valid host name or whose port is not 1-65535, or a
// line longer than 1 MiB) fails the whole file with its name and line
// number.
func ReadSeeds(r io.Reader, name string) ([]string, error) {
	var seeds []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxSeedLine)
	// next is where the next line starts: bufio.Scanner reports a line too
	// long to read without its number or place.
	var next int64
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		adv, tok, err := bufio.ScanLines(data, atEOF)
		next += int64(adv)
		return adv, tok, err
	})
	line := 1
	for ; sc.Scan(); line++ {
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\uFEFF")
		}
		text = strings.TrimSpace(text)
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
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%s:%d: a line longer than %d bytes (it starts at byte offset %d)", name, line, maxSeedLine, next)
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return seeds, nil
}
