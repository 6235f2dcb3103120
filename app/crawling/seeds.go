package crawling

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"sitesift/sites"
	"sitesift/sites/textlines"
)

// maxSeedLine is the longest line of a seed file.
const maxSeedLine = 1 << 20

// MaxBadSeedLines is the number of bad lines a refused seed file reports
// one by one; the total is always given.
const MaxBadSeedLines = 20

// SeedsFileError refuses a seed file: it lists its bad lines, at most
// MaxBadSeedLines of them in line order, and counts them all.
type SeedsFileError struct {
	// Name is the file's name, for messages.
	Name  string
	Lines []textlines.BadLine
	Total int
}

func (e *SeedsFileError) Error() string {
	return textlines.Refusal(e.Name, "no seed read", e.Total, e.Lines)
}

func (e *SeedsFileError) add(line int, msg string) {
	e.Total++
	if len(e.Lines) < MaxBadSeedLines {
		e.Lines = append(e.Lines, textlines.BadLine{Line: line, Msg: msg})
	}
}

// ReadSeeds reads a seed file: one http(s) URL a line; blank lines and lines
// starting with # are skipped, as is anything after " #" on a line, and a
// UTF-8 byte-order mark at the start. Bad lines (a URL that is not http(s),
// whose host is not a valid host name or whose port is not 1-65535, two
// URLs on a line, or a line longer than 1 MiB, after which nothing more is
// read) fail the whole file with a [*SeedsFileError] naming every one by
// its line number and saying what is wrong in words: it never quotes a
// line, since a file given as a seed file by mistake may hold anything.
func ReadSeeds(r io.Reader, name string) ([]string, error) {
	var seeds []string
	bad := &SeedsFileError{Name: name}
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
			bad.add(line, "more than one field: one URL a line")
			continue
		}
		u, err := sites.Normalize(text)
		if err != nil {
			bad.add(line, sites.Problem(text, err))
			continue
		}
		seeds = append(seeds, u)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		bad.add(line, fmt.Sprintf("a line longer than %d bytes (it starts at byte offset %d); the file was not read further", maxSeedLine, next))
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if bad.Total > 0 {
		return nil, bad
	}
	return seeds, nil
}
