// Command gen writes a synthetic WARC file for import benchmarks: N HTML
// pages of about 8 KB over 500 hosts, each with 20 links to random pages,
// through sitesift's own WARC writer, into DIR.
//
//	go run ./tools/warcgen DIR N
package main

import (
	"fmt"
	"math/rand"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"sitesift/sites"
	"sitesift/sites/warcfile"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gen DIR N")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil || n <= 0 {
		fmt.Fprintln(os.Stderr, "gen: N must be a positive number")
		os.Exit(2)
	}
	if err := run(os.Args[1], n); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(dir string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	w, err := warcfile.Open(dir, warcfile.Options{Software: "sitesift-bench-gen", MaxFileSize: 1 << 40})
	if err != nil {
		return err
	}
	r := rand.New(rand.NewSource(1))
	words := strings.Fields("archive web library site crawl heritage page link national domain record capture harvest collection digital memory")
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		host := fmt.Sprintf("h%d.test", i%500)
		var b strings.Builder
		fmt.Fprintf(&b, "<html><head><title>Page %d of %s</title></head><body>", i, host)
		for range 1200 {
			b.WriteString(words[r.Intn(len(words))] + " ")
		}
		for range 20 {
			fmt.Fprintf(&b, `<a href="http://h%d.test/p%d">x</a>`, r.Intn(500), r.Intn(n))
		}
		b.WriteString("</body></html>")
		c := sites.Capture{Method: "GET", URL: fmt.Sprintf("http://%s/p%d", host, i), RequestHeader: http.Header{"Host": {host}},
			Proto: "HTTP/1.1", StatusCode: 200, Status: "200 OK", ResponseHeader: http.Header{"Content-Type": {"text/html"}},
			Body: []byte(b.String()), At: t0.Add(time.Duration(i) * time.Second)}
		if err := w.Write(c); err != nil {
			w.Close()
			return err
		}
	}
	return w.Close()
}
