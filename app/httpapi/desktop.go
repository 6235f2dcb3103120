package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"sitesift/app"
)

// Dialogs are the desktop window's native file dialogs. Each call blocks
// until the person has chosen; a cancelled dialog returns "" and no error.
type Dialogs interface {
	// SaveFile asks where to save a file, suggesting name.
	SaveFile(title, name string, filters []FileFilter) (string, error)
	// OpenFile asks which file to open.
	OpenFile(title string, filters []FileFilter) (string, error)
}

// FileFilter is one choice of a dialog's file type menu: a name and
// patterns separated by ";" ("*.csv;*.txt").
type FileFilter struct {
	Name    string `json:"name"`
	Pattern string `json:"pattern"`
}

// Desktop adds the routes only the desktop window has (POST
// /api/desktop/save and /api/desktop/open), which save and open files
// through d. WebKitGTK saves nothing for a download link and crashes on a
// request body backed by a file, so in the window every file goes through
// these; `sitesift serve` never gives this option.
func Desktop(d Dialogs) Option { return func(c *config) { c.dialogs = d } }

// maxOpenFile bounds a file read by POST /api/desktop/open: the largest
// upload the API takes.
const maxOpenFile = maxUploadBody

// routeDesktop registers the desktop window's file routes when the handler
// has dialogs. The save route serves its GET URL through api, the handler
// without the guard (the window's own request passed it already).
func (h *handler) routeDesktop(mux *http.ServeMux, d Dialogs, api http.Handler) {
	if d == nil {
		return
	}
	mux.HandleFunc("POST /api/desktop/save", h.api(func(r *http.Request) (any, error) {
		var body struct {
			URL     string       `json:"url"`
			Text    *string      `json:"text"`
			Name    string       `json:"name"`
			Title   string       `json:"title"`
			Filters []FileFilter `json:"filters"`
		}
		if err := decodeBody(r, &body); err != nil {
			return nil, err
		}
		if body.Text != nil {
			if body.URL != "" {
				return nil, app.Invalid(errors.New("save: give url or text, not both"))
			}
			return saveFile(d, body.Name, body.Title, body.Filters, func(f *os.File) (int64, error) {
				n, err := io.WriteString(f, *body.Text)
				return int64(n), err
			})
		}
		return saveDownload(d, api, body.URL, body.Name, body.Title, body.Filters)
	}))
	mux.HandleFunc("POST /api/desktop/open", h.api(func(r *http.Request) (any, error) {
		var body struct {
			Title   string       `json:"title"`
			Filters []FileFilter `json:"filters"`
		}
		if err := decodeBody(r, &body); err != nil {
			return nil, err
		}
		return openFile(d, body.Title, body.Filters)
	}))
}

// Saved is the answer of POST /api/desktop/save: the file written, or that
// the person cancelled.
type Saved struct {
	Path      string `json:"path,omitempty"`
	Bytes     int64  `json:"bytes"`
	Cancelled bool   `json:"cancelled"`
}

// saveDownload asks where to save the file of the GET API URL target, then
// writes the answer of api to it.
func saveDownload(d Dialogs, api http.Handler, target, name, title string, filters []FileFilter) (Saved, error) {
	u, err := url.Parse(target)
	if err != nil || target == "" || u.Scheme != "" || u.Host != "" || !strings.HasPrefix(u.Path, "/api/") || strings.HasPrefix(u.Path, "/api/desktop/") {
		return Saved{}, app.Invalid(fmt.Errorf("save: %q is not a download of the API (want /api/…)", target))
	}
	req, err := http.NewRequest(http.MethodGet, u.RequestURI(), nil)
	if err != nil {
		return Saved{}, app.Invalid(fmt.Errorf("save %s: %w", target, err))
	}
	req.Host = desktopHost
	return saveFile(d, name, title, filters, func(f *os.File) (int64, error) {
		w := &fileResponse{f: f, header: http.Header{}}
		api.ServeHTTP(w, req)
		return w.n, w.result()
	})
}

// saveFile asks where to save a file named name, then has fill write it:
// first into a temporary file beside the chosen path, renamed into place
// only once fill has written it all, so that a failure leaves nothing
// behind and never a half-written file in the place of an older one.
func saveFile(d Dialogs, name, title string, filters []FileFilter, fill func(*os.File) (int64, error)) (Saved, error) {
	name = filepath.Base(strings.TrimSpace(name))
	if name == "." || name == "/" || name == "" {
		name = "download"
	}
	if title == "" {
		title = "Save " + name
	}
	path, err := d.SaveFile(title, name, filters)
	if err != nil {
		return Saved{}, fmt.Errorf("save %s: the dialog failed: %w", name, err)
	}
	if path == "" {
		return Saved{Cancelled: true}, nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".part-*")
	if err != nil {
		return Saved{}, app.Invalid(fmt.Errorf("save %s: %w", path, err))
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	n, err := fill(tmp)
	if err != nil {
		tmp.Close()
		return Saved{}, fmt.Errorf("save %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return Saved{}, fmt.Errorf("save %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return Saved{}, fmt.Errorf("save %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return Saved{}, fmt.Errorf("save %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return Saved{}, fmt.Errorf("save %s: %w", path, err)
	}
	return Saved{Path: path, Bytes: n}, nil
}

// fileResponse is the response writer of a download saved to a file: a
// success's body goes to the file, a failure's (an envelope) is kept for
// its message.
type fileResponse struct {
	f      *os.File
	header http.Header
	status int
	n      int64
	errBuf bytes.Buffer
	err    error
}

func (w *fileResponse) Header() http.Header { return w.header }

func (w *fileResponse) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *fileResponse) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if w.status != http.StatusOK {
		if w.errBuf.Len() < 64<<10 {
			w.errBuf.Write(p)
		}
		return len(p), nil
	}
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.f.Write(p)
	w.n += int64(n)
	if err != nil {
		w.err = err
	}
	return n, err
}

// result is the download's outcome: nil when the whole body was written.
func (w *fileResponse) result() error {
	if w.err != nil {
		return w.err
	}
	switch w.status {
	case 0, http.StatusOK:
		return nil
	}
	var env envelope
	if json.Unmarshal(w.errBuf.Bytes(), &env) == nil && env.Error != "" {
		return &apiError{env.ErrorType, w.status, errors.New(env.Error)}
	}
	return &apiError{"internal", http.StatusBadGateway, fmt.Errorf("HTTP %d: %s", w.status, strings.TrimSpace(w.errBuf.String()))}
}

// Opened is the answer of POST /api/desktop/open: the file chosen and its
// bytes (base64 in JSON), or that the person cancelled.
type Opened struct {
	Path      string `json:"path,omitempty"`
	Name      string `json:"name,omitempty"`
	Data      []byte `json:"data,omitempty"`
	Cancelled bool   `json:"cancelled"`
}

// openFile asks which file to open and reads it whole for the page, which
// sends it on to the import it is for as a plain byte body.
func openFile(d Dialogs, title string, filters []FileFilter) (Opened, error) {
	if title == "" {
		title = "Open"
	}
	path, err := d.OpenFile(title, filters)
	if err != nil {
		return Opened{}, fmt.Errorf("open: the dialog failed: %w", err)
	}
	if path == "" {
		return Opened{Cancelled: true}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return Opened{}, app.Invalid(fmt.Errorf("open %s: %w", path, err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxOpenFile+1))
	if err != nil {
		return Opened{}, app.Invalid(fmt.Errorf("open %s: %w", path, err))
	}
	if len(data) > maxOpenFile {
		return Opened{}, &apiError{"too_large", http.StatusRequestEntityTooLarge,
			fmt.Errorf("open %s: larger than %d MiB", path, maxOpenFile>>20)}
	}
	return Opened{Path: path, Name: filepath.Base(path), Data: data}, nil
}
