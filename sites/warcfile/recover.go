package warcfile

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Recover mends the WARC files in dir that a killed writer left open: each
// NAME.warc.gz.open is cut after its last whole gzip member (a record),
// renamed NAME.warc.gz and indexed again, or removed when not even one
// record is whole. Finished files without an index are indexed, and
// leftover open indexes removed. It returns the names of the files it
// kept. [Open] calls it; call it alone to mend a directory no writer uses.
func Recover(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("warcfile: %w", err)
	}
	var kept []string
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), warcSuffix+openSuffix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		name += warcSuffix
		open := filepath.Join(dir, e.Name())
		n, err := wholeMembers(open)
		if err != nil {
			return kept, err
		}
		if n == 0 {
			if err := os.Remove(open); err != nil {
				return kept, fmt.Errorf("warcfile: %w", err)
			}
			continue
		}
		if err := os.Truncate(open, n); err != nil {
			return kept, fmt.Errorf("warcfile: recover %s: %w", e.Name(), err)
		}
		if err := os.Rename(open, filepath.Join(dir, name)); err != nil {
			return kept, fmt.Errorf("warcfile: recover %s: %w", e.Name(), err)
		}
		// Its open index may lack the last records or point past the cut.
		if err := os.Remove(filepath.Join(dir, indexName(name))); err != nil && !errors.Is(err, os.ErrNotExist) {
			return kept, fmt.Errorf("warcfile: %w", err)
		}
		kept = append(kept, name)
	}
	files, err := warcFiles(dir)
	if err != nil {
		return kept, err
	}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, indexName(f))); errors.Is(err, os.ErrNotExist) {
			if err := reindex(dir, f); err != nil {
				return kept, err
			}
		}
		if err := os.Remove(filepath.Join(dir, indexName(f)+openSuffix)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return kept, fmt.Errorf("warcfile: %w", err)
		}
	}
	return kept, nil
}

// wholeMembers returns the length of the longest prefix of the gzip file at
// path made of whole members: each inflates to its end and its checksum
// matches.
func wholeMembers(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("warcfile: %w", err)
	}
	defer f.Close()
	cr := &countingReader{r: f}
	// A bufio.Reader is an io.ByteReader, so the inflater reads no byte
	// past the end of a member: the count minus what is buffered is where
	// the member ends.
	br := bufio.NewReader(cr)
	var (
		zr   gzip.Reader
		good int64
	)
	for {
		if _, err := br.Peek(1); err != nil {
			return good, nil // the end of the file
		}
		if err := zr.Reset(br); err != nil {
			return good, nil
		}
		zr.Multistream(false)
		if _, err := io.Copy(io.Discard, &zr); err != nil {
			return good, nil
		}
		good = cr.n - int64(br.Buffered())
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// warcFiles returns the names of the finished WARC files in dir, oldest
// first (their names begin with their creation time).
func warcFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("warcfile: %w", err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), warcSuffix) && e.Type().IsRegular() {
			out = append(out, e.Name())
		}
	}
	slices.Sort(out)
	return out, nil
}
