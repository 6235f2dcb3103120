package crawl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"sync"

	"sitesift/sites"
)

// CaptureFunc receives every HTTP exchange of the crawl as it went over the
// wire. See [OnCapture].
type CaptureFunc func(sites.Capture) error

// OnCapture sets the function that receives a [sites.Capture] of every
// response the crawl gets — pages, error answers, redirect hops and
// robots.txt files — with the request that asked for it (default none):
// what an archive of the crawl (a WARC file) records. It is called when the
// response's body is closed, from the goroutine of the fetch, so calls for
// different sites run at once. An error stops the crawl, which then fails
// with a [*CaptureError]: an archive with holes is worse than a crawl cut
// short.
//
// The body is the one received, content codings included: the crawler
// asks for gzip itself, so that net/http hands the compressed bytes up, and
// inflates them above the capture, where [MaxBodySize] caps what it reads.
// What the crawler does not read is not captured, and the capture says so
// ([sites.Capture.Truncated]): the rest of a body beyond the cap, and the
// body of a response that is not HTML, which the crawler drops after its
// headers. A body past 1 MiB comes in a temporary file
// ([sites.Capture.BodyFile]), removed when f returns: read it with
// [sites.Capture.BodyReader] during the call.
func OnCapture(f CaptureFunc) Option {
	return func(c *config) error {
		c.onCapture = f
		return nil
	}
}

// CaptureError is the error of a crawl stopped because its capture function
// failed.
type CaptureError struct {
	URL string
	Err error
}

func (e *CaptureError) Error() string { return fmt.Sprintf("crawl: capture of %s: %v", e.URL, e.Err) }

func (e *CaptureError) Unwrap() error { return e.Err }

// failCapture stops the crawl for the first capture that could not be
// kept.
func (c *Crawler) failCapture(u string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.captureErr != nil {
		return
	}
	c.captureErr = &CaptureError{URL: u, Err: err}
	c.cfg.logger.Error("capture failed, stopping the crawl", "url", u, "err", err)
	c.lastError = c.captureErr.Error()
	if c.cancelRun != nil {
		c.cancelRun(c.captureErr)
	}
}

// captureFailure returns the error of a failed capture, or nil.
func (c *Crawler) captureFailure() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.captureErr == nil {
		return nil
	}
	return c.captureErr
}

// captureTransport is the http.RoundTripper under the pacer that copies
// each exchange into a sites.Capture.
type captureTransport struct {
	next    http.RoundTripper
	proxy   func(*http.Request) (*url.URL, error)
	maxBody int
	emit    func(sites.Capture)
	fail    func(u string, err error)
	clock   Clock // the crawl's: when a capture was made
}

// newCaptureTransport returns next wrapped to hand captures to c's capture
// function, or next itself when there is none.
func newCaptureTransport(c *Crawler, next http.RoundTripper) http.RoundTripper {
	f := c.cfg.onCapture
	if f == nil {
		return next
	}
	emit := func(cp sites.Capture) {
		if err := f(cp); err != nil {
			c.failCapture(cp.URL, err)
		}
	}
	return &captureTransport{next: next, proxy: c.proxy, maxBody: c.cfg.maxBodySize, emit: emit, fail: c.failCapture, clock: c.cfg.clock}
}

func (t *captureTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var (
		mu     sync.Mutex
		remote string
	)
	ctx := req.Context()
	if !t.proxied(req) {
		// Through a proxy the connection's peer is the proxy, not the site.
		ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
			GotConn: func(info httptrace.GotConnInfo) {
				if a, ok := info.Conn.RemoteAddr().(*net.TCPAddr); ok {
					mu.Lock()
					remote = a.IP.String()
					mu.Unlock()
				}
			},
		})
	}
	// A RoundTripper must not change the request it is given.
	req = req.Clone(ctx)
	if req.Header.Get("Accept-Encoding") == "" {
		// net/http inflates a gzip body only when it asked for gzip itself:
		// asking here keeps the bytes as they came for the archive.
		req.Header.Set("Accept-Encoding", "gzip")
	}
	at := t.clock.Now()
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	reqHeader := req.Header.Clone()
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	reqHeader.Set("Host", host)
	mu.Lock()
	ip := remote
	mu.Unlock()
	cb := &captureBody{
		ReadCloser: resp.Body,
		max:        t.maxBody,
		length:     resp.ContentLength,
		emit:       t.emit,
		fail:       t.fail,
		c: sites.Capture{
			Method:         req.Method,
			URL:            req.URL.String(),
			RequestHeader:  reqHeader,
			Proto:          resp.Proto,
			StatusCode:     resp.StatusCode,
			Status:         statusText(resp),
			ResponseHeader: resp.Header.Clone(),
			RemoteIP:       ip,
			At:             at,
		},
	}
	if resp.ContentLength > 0 && resp.ContentLength <= spillAt {
		// A body of known length is kept in one allocation of its size,
		// not in the twice as much a growing buffer may hold.
		cb.buf.Grow(int(resp.ContentLength))
	}
	resp.Body = cb
	return resp, nil
}

// proxied reports whether req goes through a proxy.
func (t *captureTransport) proxied(req *http.Request) bool {
	if t.proxy == nil {
		return false
	}
	u, err := t.proxy(req)
	return err != nil || u != nil
}

// statusText is the status line of resp after the protocol: "200 OK".
func statusText(resp *http.Response) string {
	if s := resp.Status; len(s) > 4 && s[3] == ' ' {
		return s
	}
	return fmt.Sprintf("%d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
}

// spillAt is the size past which a capture's body is kept in a temporary
// file rather than in memory, and handed over in it (sites.Capture.BodyFile):
// while it is read colly holds it too, and a body of MaxBodySize would be
// held twice over.
const spillAt = 1 << 20

// captureBody keeps what is read of a body, max bytes at most, and hands
// the capture over when the body is closed.
type captureBody struct {
	io.ReadCloser
	c      sites.Capture
	buf    bytes.Buffer
	spill  *os.File // the body past spillAt, from its start; nil until then
	size   int      // bytes kept
	max    int
	length int64 // Content-Length, -1 when unknown
	over   bool  // more than max bytes were read
	eof    bool
	err    error // a read error other than EOF
	emit   func(sites.Capture)
	fail   func(u string, err error) // the capture could not be kept
	once   sync.Once
}

func (b *captureBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if room := b.max - b.size; n > room {
		b.keep(p[:room])
		b.over = true
	} else {
		b.keep(p[:n])
	}
	switch {
	case err == io.EOF:
		b.eof = true
	case err != nil && b.err == nil:
		b.err = err
	}
	return n, err
}

// keep adds p to the body kept, in memory up to spillAt bytes, then in a
// temporary file; when no file can be made, it stays in memory.
func (b *captureBody) keep(p []byte) {
	b.size += len(p)
	if b.spill == nil && b.buf.Len()+len(p) > spillAt {
		if f, err := os.CreateTemp("", "sitesift-capture-*"); err == nil {
			b.spill = f
			if _, err := f.Write(b.buf.Bytes()); err != nil {
				b.failed(err)
				return
			}
			b.buf = bytes.Buffer{}
		}
	}
	if b.spill != nil {
		if _, err := b.spill.Write(p); err != nil {
			b.failed(err)
		}
		return
	}
	b.buf.Write(p)
}

// failed stops the crawl for a capture whose body could not be kept.
func (b *captureBody) failed(err error) {
	if b.fail != nil {
		b.fail(b.c.URL, fmt.Errorf("keep the body: %w", err))
		b.fail = nil
	}
}

func (b *captureBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(func() {
		c := b.c
		if b.spill != nil {
			// Read from the file while the capture is handed over, then
			// removed.
			defer os.Remove(b.spill.Name())
			defer b.spill.Close()
			c.BodyFile, c.BodySize = b.spill, int64(b.size)
		} else {
			c.Body = b.buf.Bytes()
		}
		var netErr net.Error
		switch {
		case b.err != nil && (errors.Is(b.err, context.DeadlineExceeded) || errors.As(b.err, &netErr) && netErr.Timeout()):
			c.Truncated = sites.TruncatedTime
		case b.err != nil:
			c.Truncated = sites.TruncatedDisconnect
		case b.over, !b.eof && int64(b.size) != b.length:
			// Closed before the end: the body cap, or a body the
			// crawler does not read.
			c.Truncated = sites.TruncatedLength
		}
		b.emit(c)
	})
	return err
}
