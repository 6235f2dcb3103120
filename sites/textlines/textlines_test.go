package textlines

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"
)

func collect(t *testing.T, data []byte, maxLine int) ([]string, error) {
	t.Helper()
	var got []string
	err := Scan(bytes.NewReader(data), maxLine, func(n int64, line []byte) error {
		if int(n) != len(got)+1 {
			t.Fatalf("line number %d after %d lines", n, len(got))
		}
		got = append(got, string(line))
		return nil
	})
	return got, err
}

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestScanPlainAndGzip(t *testing.T) {
	for name, data := range map[string][]byte{"plain": []byte("a\nb b\n\nc"), "gzip": gz(t, "a\nb b\n\nc")} {
		got, err := collect(t, data, 1<<10)
		if err != nil || strings.Join(got, "|") != "a|b b||c" {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
}

func TestScanStops(t *testing.T) {
	whole := gz(t, strings.Repeat("line of a file\n", 2000))
	_, err := collect(t, whole[:len(whole)/2], 1<<10)
	var e *Error
	if !errors.As(err, &e) || e.Line < 2 || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("a cut gzip file: %v; want a truncated error at a line", err)
	}
	got, err := collect(t, []byte("short\n"+strings.Repeat("x", 100)+"\n"), 50)
	if !errors.As(err, &e) || e.Line != 2 || !strings.Contains(err.Error(), "a line over 50 bytes") || len(got) != 1 {
		t.Errorf("a long line: %q, %v; want line 2 named", got, err)
	}
	stop := errors.New("stop")
	if err := Scan(strings.NewReader("a\nb\n"), 10, func(int64, []byte) error { return stop }); err != stop {
		t.Errorf("fn's error: %v, want it as it is", err)
	}
}
