package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"sitesift/app/fault"
	"sitesift/sites/wholefile"
)

// Dialogs are the desktop window's native file dialogs. Each call blocks
// until the person has chosen; a cancelled dialog returns "" and no error.
// A dialog given a folder starts in it; given "", the window chooses.
type Dialogs interface {
	// SaveFile asks where to save a file, suggesting name.
	SaveFile(dir, title, name string, filters []FileFilter) (string, error)
	// OpenFile asks which file to open.
	OpenFile(title string, filters []FileFilter) (string, error)
	// OpenFiles asks which files to open, one or more; none is a cancelled
	// dialog.
	OpenFiles(title string, filters []FileFilter) ([]string, error)
	// OpenDirectory asks which folder to open.
	OpenDirectory(dir, title string) (string, error)
}

// FileFilter is one choice of a dialog's file type menu: a name and
// patterns separated by ";" ("*.csv;*.txt").
type FileFilter struct {
	Name    string `json:"name"`
	Pattern string `json:"pattern"`
}

// Desktop adds the routes only the desktop window has (POST
// /api/desktop/save, /api/desktop/open and /api/desktop/choose), which save
// and open files through d. WebKitGTK saves nothing for a download link and
// crashes on a request body backed by a file, so in the window every file
// goes through these; `sitesift serve` never gives this option. It also
// makes the handler accept the window's Host ("wails"), which the
// handler of `serve` refuses with 421.
func Desktop(d Dialogs) Option { return func(c *config) { c.dialogs, c.guard.window = d, true } }

// maxOpenFile bounds a file read by POST /api/desktop/open: the largest
// upload the API takes.
const maxOpenFile = maxUploadBody

// routeDesktop registers the desktop window's file routes when the handler
// has dialogs. The save route serves its GET URL through api, the handler
// without the guard (the window's own request passed it already).
func (h *handler) routeDesktop(mux *router, d Dialogs, api http.Handler) {
	if d == nil {
		return
	}
	mux.HandleFunc("POST /api/desktop/save", h.api(func(r *http.Request) (any, error) {
		var body saveRequest
		if err := decodeBody(r, &body); err != nil {
			return nil, err
		}
		if body.Text != nil {
			if body.URL != "" {
				return nil, fault.Invalid(errors.New("save: give url or text, not both"))
			}
			return saveFile(d, body.Name, body.Title, body.Filters, func(f *os.File) (int64, error) {
				n, err := io.WriteString(f, *body.Text)
				return int64(n), err
			})
		}
		return saveDownload(d, api, body.URL, body.Name, body.Title, body.Filters)
	}))
	mux.HandleFunc("POST /api/desktop/open", h.api(func(r *http.Request) (any, error) {
		var body openRequest
		if err := decodeBody(r, &body); err != nil {
			return nil, err
		}
		return openFile(d, body.Title, body.Filters)
	}))
	mux.HandleFunc("POST /api/desktop/choose", h.api(func(r *http.Request) (any, error) {
		var body openRequest
		if err := decodeBody(r, &body); err != nil {
			return nil, err
		}
		return chooseFiles(d, body.Title, body.Filters)
	}))
}

// openRequest is the body of POST /api/desktop/open and /api/desktop/choose:
// the Open dialog's title and file types.
type openRequest struct {
	Title   string       `json:"title"`
	Filters []FileFilter `json:"filters"`
}

// Saved is the answer of POST /api/desktop/save: the file written, or that
// the person cancelled.
type Saved struct {
	Path      string `json:"path,omitempty"`
	Bytes     int64  `json:"bytes"`
	Cancelled bool   `json:"cancelled"`
}

// saveDownload asks where to save the file of the GET API URL target, then
// writes the answer of api to it. The answer is started before the dialog
// opens: a download that fails asks nothing, and the file name the answer
// gives (its Content-Disposition, as a browser reads it) is the one the
// dialog suggests, over name.
func saveDownload(d Dialogs, api http.Handler, target, name, title string, filters []FileFilter) (Saved, error) {
	u, err := url.Parse(target)
	if err != nil || target == "" || u.Scheme != "" || u.Host != "" || !strings.HasPrefix(u.Path, "/api/") || strings.HasPrefix(u.Path, "/api/desktop/") {
		return Saved{}, fault.Invalid(fmt.Errorf("save: %q is not a download of the API (want /api/…)", target))
	}
	req, err := http.NewRequest(http.MethodGet, u.RequestURI(), nil)
	if err != nil {
		return Saved{}, fault.Invalid(fmt.Errorf("save %s: %w", target, err))
	}
	req.Host = desktopHost
	body, w := io.Pipe()
	resp := &pipeResponse{w: w, header: http.Header{}, started: make(chan struct{})}
	served := make(chan struct{})
	go func() {
		defer close(served)
		defer w.Close()
		api.ServeHTTP(resp, req)
		resp.WriteHeader(http.StatusOK) // an empty answer
	}()
	// Whatever happens (a cancelled dialog, a failed write), the answer's
	// writes fail from here on and its handler ends before this returns.
	defer func() {
		body.CloseWithError(errors.New("save: the file is not read any more"))
		<-served
	}()
	<-resp.started
	if resp.status != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(body, 64<<10))
		var env envelope
		if json.Unmarshal(msg, &env) == nil && env.Error != "" {
			return Saved{}, &apiError{env.ErrorType, resp.status, errors.New(env.Error)}
		}
		return Saved{}, &apiError{"internal", http.StatusBadGateway, fmt.Errorf("HTTP %d: %s", resp.status, strings.TrimSpace(string(msg)))}
	}
	if _, params, err := mime.ParseMediaType(resp.sent.Get("Content-Disposition")); err == nil && params["filename"] != "" {
		name = params["filename"]
	}
	return saveFile(d, name, title, filters, func(f *os.File) (int64, error) { return io.Copy(f, body) })
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
	path, err := d.SaveFile("", title, name, filters)
	if err != nil {
		return Saved{}, fmt.Errorf("save %s: the dialog failed: %w", name, err)
	}
	if path == "" {
		return Saved{Cancelled: true}, nil
	}
	f, err := wholefile.Create(path)
	if err != nil {
		return Saved{}, fault.Invalid(fmt.Errorf("save %w", err))
	}
	defer f.Abort()
	n, err := fill(f.File)
	if err == nil {
		err = f.Commit()
	}
	if err != nil {
		return Saved{}, fmt.Errorf("save %s: %w", path, err)
	}
	return Saved{Path: path, Bytes: n}, nil
}

// pipeResponse is the response writer of a download saved to a file: the
// body goes through a pipe the file is filled from; started is closed once
// the status and headers are known (sent keeps the headers as they were).
type pipeResponse struct {
	w       *io.PipeWriter
	header  http.Header
	sent    http.Header
	status  int
	once    sync.Once
	started chan struct{}
}

func (r *pipeResponse) Header() http.Header { return r.header }

func (r *pipeResponse) WriteHeader(status int) {
	r.once.Do(func() {
		r.status, r.sent = status, r.header.Clone()
		close(r.started)
	})
}

func (r *pipeResponse) Write(p []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.w.Write(p)
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
		return Opened{}, fault.Invalid(fmt.Errorf("open %s: %w", path, err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxOpenFile+1))
	if err != nil {
		return Opened{}, fault.Invalid(fmt.Errorf("open %s: %w", path, err))
	}
	if len(data) > maxOpenFile {
		return Opened{}, &apiError{"too_large", http.StatusRequestEntityTooLarge,
			fmt.Errorf("open %s: larger than %d MiB", path, maxOpenFile>>20)}
	}
	return Opened{Path: path, Name: filepath.Base(path), Data: data}, nil
}

// Chosen is the answer of POST /api/desktop/choose: the paths of the files
// chosen, or that the person cancelled.
type Chosen struct {
	Paths     []string `json:"paths"`
	Cancelled bool     `json:"cancelled"`
}

// chooseFiles asks which files to import and answers their paths only: the
// window and the server are one machine, so an import reads the files where
// they are, where an upload would copy archives of gigabytes into the
// project (and the page would hold each one whole to send it). The import
// checks each path when it starts.
func chooseFiles(d Dialogs, title string, filters []FileFilter) (Chosen, error) {
	if title == "" {
		title = "Choose files"
	}
	paths, err := d.OpenFiles(title, filters)
	if err != nil {
		return Chosen{}, fmt.Errorf("choose: the dialog failed: %w", err)
	}
	if len(paths) == 0 {
		return Chosen{Paths: []string{}, Cancelled: true}, nil
	}
	return Chosen{Paths: paths}, nil
}

// saveRequest is the body of POST /api/desktop/save: a URL of the API to save, or a text.
type saveRequest struct {
	URL     string       `json:"url"`
	Text    *string      `json:"text"`
	Name    string       `json:"name"`
	Title   string       `json:"title"`
	Filters []FileFilter `json:"filters"`
}
