package httpapi

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"sitesift/app/apptest"
)

// browserChooser is a window whose system browser opens URLs (or fails to).
type browserChooser struct {
	chooser
	opened []string
	fail   error
}

func (b *browserChooser) OpenURL(u string) error {
	if b.fail != nil {
		return b.fail
	}
	b.opened = append(b.opened, u)
	return nil
}

// TestDesktopBrowser: in the window, POST /api/desktop/browser serves the
// app on loopback, as `sitesift serve` does (its pages and the API, a
// site's captures included, replayed on the window's replay origin, never
// on the app's), and asks the system
// browser to open the page asked for there; asked again, it opens the same
// server. A page that is not the app's is refused; a browser that cannot
// be started is said; `serve`'s handler has no such route.
func TestDesktopBrowser(t *testing.T) {
	a, _ := apptest.Open(t, apptest.CrawledProject(t))
	d := &browserChooser{}
	assets := fstest.MapFS{
		"index.html":   {Data: []byte("<title>sitesift</title>")},
		"replay/sw.js": {Data: []byte("self.addEventListener('fetch', () => {});")},
		"replay/ui.js": {Data: []byte("customElements.define('replay-web-page', class extends HTMLElement {});")},
	}
	ro, err := NewReplayOrigin(assets, ReplayOriginOptions{Addr: "127.0.0.1:40125"})
	if err != nil {
		t.Fatal(err)
	}
	h := New(a, Assets(assets), Desktop(d), Replay(ro))
	var got BrowserOpened
	apptest.Call(t, h, "POST", "/api/desktop/browser", `{"page": "#/sites/open-encyclopedia.test"}`, 200, &got)
	if !got.Opened || got.Error != "" || !strings.HasPrefix(got.URL, "http://127.0.0.1:") || !strings.HasSuffix(got.URL, "/#/sites/open-encyclopedia.test") ||
		len(d.opened) != 1 || d.opened[0] != got.URL {
		t.Fatalf("opened %+v; the browser was asked for %v", got, d.opened)
	}
	base := strings.TrimSuffix(got.URL, "#/sites/open-encyclopedia.test")
	for path, want := range map[string]string{
		"replay/sw.js": "text/plain",
		"":             "text/html",
		"api/sites/open-encyclopedia.test/captures": "application/json",
	} {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		wantStatus := 200
		if strings.HasPrefix(path, "replay/") {
			wantStatus = 404 // the replay origin's alone
		}
		if res.StatusCode != wantStatus || !strings.HasPrefix(res.Header.Get("Content-Type"), want) {
			t.Errorf("GET %s%s: %d %s %.100s", base, path, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
		if path != "" && strings.HasPrefix(path, "api/") && !strings.Contains(string(body), `"frame":"http://127.0.0.1:40125/?source=`) {
			t.Errorf("GET %s: %.200s", path, body)
		}
	}
	// The browser's server is not the window's: it takes no wails Host.
	req, _ := http.NewRequest("GET", base+"api/project", nil)
	req.Host = "wails"
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("the loopback server with Host wails: %v %v", res, err)
	}
	apptest.Call(t, h, "POST", "/api/desktop/browser", `{"page": "#/review"}`, 200, &got)
	if got.URL != base+"#/review" {
		t.Errorf("asked again: %s, want the same server %s", got.URL, base)
	}
	apptest.Call(t, h, "POST", "/api/desktop/browser", `{"page": "https://example.org/"}`, 400, nil)
	d.fail = errors.New("no browser")
	apptest.Call(t, h, "POST", "/api/desktop/browser", `{"page": "#/sites/open-encyclopedia.test"}`, 200, &got)
	if got.Opened || got.Error != "no browser" || got.URL == "" {
		t.Errorf("a browser that fails: %+v", got)
	}
	// Dialogs without a browser, and serve's handler: no route.
	apptest.Call(t, New(a, Desktop(&chooser{})), "POST", "/api/desktop/browser", `{}`, 404, nil)
	apptest.Call(t, New(a), "POST", "/api/desktop/browser", `{}`, 404, nil)
}
