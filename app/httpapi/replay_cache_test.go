package httpapi

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestReplayOriginRevalidates: the frame page and ReplayWeb.page's files
// carry an ETag of their contents and are revalidated on every use
// (Cache-Control: no-cache), so that a frame loaded again (each review
// card loads one) gets 304 and no body instead of 2 MB of scripts, and a
// new build's files are never served stale.
func TestReplayOriginRevalidates(t *testing.T) {
	ro, err := NewReplayOrigin(replayAssets, ReplayOriginOptions{Addr: "127.0.0.1:40126"})
	if err != nil {
		t.Fatal(err)
	}
	get := func(path, inm string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "http://127.0.0.1"+path, nil)
		if inm != "" {
			req.Header.Set("If-None-Match", inm)
		}
		rec := httptest.NewRecorder()
		ro.ServeHTTP(rec, req)
		return rec
	}
	tags := map[string]string{}
	for _, path := range []string{"/", "/frame.js", "/replay/ui.js", "/replay/sw.js"} {
		first := get(path, "")
		tag := first.Header().Get("ETag")
		if first.Code != 200 || len(tag) < 3 || tag[0] != '"' || tag[len(tag)-1] != '"' {
			t.Errorf("GET %s: %d, ETag %q; want 200 and a strong ETag", path, first.Code, tag)
			continue
		}
		if cc := first.Header().Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("GET %s: Cache-Control %q, want no-cache", path, cc)
		}
		if again := get(path, ""); again.Header().Get("ETag") != tag {
			t.Errorf("GET %s twice: ETags %q and %q", path, tag, again.Header().Get("ETag"))
		}
		if rec := get(path, tag); rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
			t.Errorf("GET %s with If-None-Match %s: %d and %d bytes, want 304 and none", path, tag, rec.Code, rec.Body.Len())
		}
		if rec := get(path, `"another"`); rec.Code != 200 || rec.Body.Len() == 0 {
			t.Errorf("GET %s with another ETag: %d, want 200 and the file", path, rec.Code)
		}
		for other, ot := range tags {
			if ot == tag {
				t.Errorf("%s and %s have one ETag %s", path, other, tag)
			}
		}
		tags[path] = tag
	}
}
