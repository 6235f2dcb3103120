package cli

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sitesift/internal/refdata"
)

// TestCLIImportArchives: a WARC file and its CDX imported from the command
// line, each file's counts printed; the same command again skips both; a
// missing file is refused naming it, before any project is created; files
// listed after a flag belong to it.
func TestCLIImportArchives(t *testing.T) {
	ref := refdata.Shared(t, "warc")
	dir := filepath.Join(t.TempDir(), "p")
	args := []string{"import", "--project", dir, "--warc", filepath.Join(ref, "iana.warc.gz"), filepath.Join(ref, "example.warc.gz"),
		"--cdx", filepath.Join(ref, "iana.cdx")}
	code, stdout, stderr := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{`"html_pages":20`, `"revisits":123`, "example.warc.gz: {", `"captures":171`, "3 files"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, stderr = runCLI(t, args...)
	if code != 0 || strings.Count(stdout, "imported before") != 3 {
		t.Errorf("second run: exit %d, stdout %s, stderr %s; want the 3 files skipped", code, stdout, stderr)
	}

	missing := filepath.Join(t.TempDir(), "nope.warc.gz")
	fresh := filepath.Join(t.TempDir(), "fresh")
	code, _, stderr = runCLI(t, "import", "--project", fresh, "--warc", missing)
	if code != 1 || !strings.Contains(stderr, missing) {
		t.Errorf("missing file: exit %d, stderr %q; want 1 and the path", code, stderr)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("a refused import created the project %s (%v)", fresh, err)
	}
	if code, _, stderr = runCLI(t, "import", "--project", fresh, "--tld", "fr", "x"); code != 2 || !strings.Contains(stderr, `unexpected argument "x"`) {
		t.Errorf("argument after --tld: exit %d, stderr %q", code, stderr)
	}
}

// TestCLIImportWARCWarnings: a WARC file read past breaches of the
// standard says so on a line of its own, in words, with the counts.
func TestCLIImportWARCWarnings(t *testing.T) {
	block := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<title>A</title><a href=\"http://b.test/\">b</a>"
	rec := "warc/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: <http://a.test/>\r\nWARC-Date: 2019-05-14T08:30:00Z\r\n" +
		"WARC-Record-ID: <urn:uuid:5b5a0a9a-3e8e-4b43-9c52-9bbd2b1b0a01>\r\nContent-Type: application/http;msgtype=response\r\n" +
		"Content-Length: " + strconv.Itoa(len(block)) + "\r\n\r\n" + block + "\r\n\r\n"
	file := filepath.Join(t.TempDir(), "wget.warc")
	if err := os.WriteFile(file, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "import", "--project", filepath.Join(t.TempDir(), "p"), "--warc", file)
	want := "wget.warc: warning: 1 record read although it breaks the WARC standard: 1 target URI in angle brackets; 1 lower-case warc/ version line"
	if code != 0 || !strings.Contains(stdout, want) || !strings.Contains(stdout, `"warnings":1`) {
		t.Errorf("exit %d, stdout %s, stderr %s; want a line saying %q", code, stdout, stderr, want)
	}
}

// TestCLIImportWholeGzipWARC: a WARC file whose records share one gzip
// member (a plain WARC file run through gzip) is read whole from the
// command line, its 20 pages imported, and a warning says its records
// share a member.
func TestCLIImportWholeGzipWARC(t *testing.T) {
	zb, err := os.ReadFile(refdata.Shared(t, "warc", "iana.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(zb))
	if err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(t.TempDir(), "whole.warc.gz")
	f, err := os.Create(whole)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	if _, err := io.Copy(zw, zr); err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(zw.Close(), f.Close()); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "import", "--project", filepath.Join(t.TempDir(), "p"), "--warc", whole)
	if code != 0 || !strings.Contains(stdout, `"pages_written":20`) || !strings.Contains(stdout, `"shared_gzip_records":343`) ||
		!strings.Contains(stderr, "warning: "+whole+": 343 of its 343 records share one gzip member") {
		t.Errorf("exit %d\nstdout %s\nstderr %s\nwant 20 pages and a warning that the records share a gzip member", code, stdout, stderr)
	}
	// The pages written split as the project counts them; the numbers
	// must add up to the pages written.
	m := regexp.MustCompile(`: 20 written: (\d+) pages, (\d+) redirects, (\d+) error captures \(4xx, 5xx\)\n`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("stdout does not split the 20 pages written:\n%s", stdout)
	}
	n := 0
	for _, x := range m[1:] {
		v, _ := strconv.Atoi(x)
		n += v
	}
	if n != 20 {
		t.Errorf("%q adds up to %d, want 20", m[0], n)
	}
}

// TestCLIImportWARCDNSAndSpace: Heritrix's dns: records are counted apart,
// not as bad URLs, and a target URI holding a raw space is read, counted
// and named in a warning, as warcio warns of it.
func TestCLIImportWARCDNSAndSpace(t *testing.T) {
	record := func(id, uri, ctype, block string) string {
		return "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri + "\r\nWARC-Date: 2019-05-14T08:30:00Z\r\n" +
			"WARC-Record-ID: <urn:uuid:" + id + ">\r\nContent-Type: " + ctype + "\r\n" +
			"Content-Length: " + strconv.Itoa(len(block)) + "\r\n\r\n" + block + "\r\n\r\n"
	}
	page := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<title>A</title><a href=\"http://b.test/\">b</a>"
	file := filepath.Join(t.TempDir(), "heritrix.warc")
	warc := record("5b5a0a9a-3e8e-4b43-9c52-9bbd2b1b0a01", "dns:a.test", "text/dns", "20190514083000\na.test.\t300\tIN\tA\t192.0.2.1\n") +
		record("5b5a0a9a-3e8e-4b43-9c52-9bbd2b1b0a02", "http://a.test/", "application/http; msgtype=response", page) +
		record("5b5a0a9a-3e8e-4b43-9c52-9bbd2b1b0a03", "http://a.test/a b", "application/http; msgtype=response", page)
	if err := os.WriteFile(file, []byte(warc), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "import", "--project", filepath.Join(t.TempDir(), "p"), "--warc", file)
	for _, want := range []string{`"dns":1`, `"bad_urls":0`, `"responses":2`, `"warnings":1`, `"warn_space_in_uris":1`,
		"heritrix.warc: warning: 1 record read although it breaks the WARC standard: 1 target URI with white space"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("exit %d, stdout lacks %q:\n%s\n%s", code, want, stdout, stderr)
		}
	}
	if want := `1 target URI holds white space, which a URI cannot (read as written; warcio warns of it too): ` +
		`WARC-Target-URI "http://a.test/a b" holds white space (record at byte offset 578)`; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
}
