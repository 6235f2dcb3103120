package sites

import (
	"bytes"
	"io"
	"net/http"
	"time"
)

// Capture is one HTTP exchange as it went over the wire: the request the
// crawler sent and the response it got, for an archive of the crawl. The
// crawler hands one over for every response it receives, robots.txt and
// redirect hops included.
type Capture struct {
	Method string
	// URL is the absolute URL requested, as sent (not normalised).
	URL string
	// RequestHeader holds the request's header fields as sent, Host
	// included.
	RequestHeader http.Header
	// Proto is the response's protocol ("HTTP/1.1"), Status its status
	// line after the protocol ("200 OK").
	Proto      string
	StatusCode int
	Status     string
	// ResponseHeader holds the response's header fields as received; a
	// chunked transfer coding has been removed from the body, and so its
	// Transfer-Encoding field.
	ResponseHeader http.Header
	// Body is the response body as received: content codings (gzip) are
	// not undone. See BodyFile.
	Body []byte
	// BodyFile, when not nil, holds the body in its first BodySize bytes
	// instead of Body: a body too large to be kept in memory until it is
	// archived. It can be read only during the call that hands the
	// capture over. [Capture.BodyReader] reads the body either way.
	BodyFile io.ReaderAt
	BodySize int64
	// Truncated says why Body is not the whole body, as the WARC-Truncated
	// field does: TruncatedLength, TruncatedTime, TruncatedDisconnect;
	// "" when it is whole.
	Truncated string
	// RemoteIP is the address the response came from; "" when it is not
	// known or was a proxy.
	RemoteIP string
	// At is when the request was sent.
	At time.Time
}

// BodyReader returns a reader of c's body, from Body or BodyFile.
func (c Capture) BodyReader() io.Reader {
	if c.BodyFile != nil {
		return io.NewSectionReader(c.BodyFile, 0, c.BodySize)
	}
	return bytes.NewReader(c.Body)
}

// BodyLen returns the length of c's body, in Body or BodyFile.
func (c Capture) BodyLen() int64 {
	if c.BodyFile != nil {
		return c.BodySize
	}
	return int64(len(c.Body))
}

// Why a [Capture]'s body is not whole, in the terms of WARC-Truncated.
const (
	TruncatedLength     = "length"     // the crawler stopped reading: body cap, or a body it does not use
	TruncatedTime       = "time"       // the request's time limit ran out
	TruncatedDisconnect = "disconnect" // the connection failed during the body
)
