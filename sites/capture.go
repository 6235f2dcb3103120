package sites

import (
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
	// not undone.
	Body []byte
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

// Why a [Capture]'s body is not whole, in the terms of WARC-Truncated.
const (
	TruncatedLength     = "length"     // the crawler stopped reading: body cap, or a body it does not use
	TruncatedTime       = "time"       // the request's time limit ran out
	TruncatedDisconnect = "disconnect" // the connection failed during the body
)
