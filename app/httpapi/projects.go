package httpapi

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"sitesift/app"
	"sitesift/app/fault"
	"sitesift/app/projects"
)

// Switching returns the handler of [New] over whichever project sw has
// open: the desktop window and `serve --projects`, where the person opens
// and creates projects from the page (the /api/projects routes). A switch
// takes effect on the next request, without a new server or window; the
// per-process write token stays the same, so that the page's writes go on
// passing the guard.
func Switching(sw *projects.Switcher, opts ...Option) http.Handler {
	c := newConfig(opts...)
	c.switcher = sw
	return &switching{sw: sw, c: c}
}

// switching serves through the handler built over the open project,
// built again when the project changes.
type switching struct {
	sw *projects.Switcher
	c  *config

	mu    sync.Mutex
	built bool
	app   *app.App
	h     http.Handler
}

func (s *switching) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a, _ := s.sw.Current()
	s.mu.Lock()
	if !s.built || a != s.app {
		c := *s.c
		// The job streams of the project closed read nothing any more.
		c.feeds = newFeeds()
		c.feeds.tick, c.feeds.keepAlive = s.c.feeds.tick, s.c.feeds.keepAlive
		s.h, _ = buildWith(a, &c)
		s.app, s.built = a, true
	}
	h := s.h
	s.mu.Unlock()
	h.ServeHTTP(w, r)
}

// errNoProject answers the routes of a project when none is open.
var errNoProject = errors.New("no project is open: open or create one on the Projects page (#/projects)")

// noProject answers 409 no_project to every API route but the session and
// the projects routes, which are all a page needs to open a project.
func noProject(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if strings.HasPrefix(p, "/api/") && p != "/api/session" && p != "/api/projects" && !strings.HasPrefix(p, "/api/projects/") {
			writeError(w, &apiError{"no_project", http.StatusConflict, errNoProject})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ProjectRequest is the body of POST /api/projects/open and
// /api/projects/create: a project's name in the folder of `serve
// --projects`, or its folder in the desktop window.
type ProjectRequest struct {
	Name string `json:"name,omitempty"`
	Dir  string `json:"dir,omitempty"`
}

// ProjectOpened is the answer of the routes that open a project: its
// folder, or that the person cancelled the dialog.
type ProjectOpened struct {
	Dir       string `json:"dir,omitempty"`
	Cancelled bool   `json:"cancelled"`
}

// routeProjects registers the projects routes when the handler has a
// switcher; the dialog routes when it has the window's dialogs too.
func (h *handler) routeProjects(mux *router, sw *projects.Switcher, d Dialogs) {
	if sw == nil {
		return
	}
	mux.HandleFunc("GET /api/projects", h.api(func(r *http.Request) (any, error) { return sw.State() }))
	byBody := func(named, byDir func(string) (string, error)) http.HandlerFunc {
		return h.api(func(r *http.Request) (any, error) {
			var body ProjectRequest
			if err := decodeBody(r, &body); err != nil {
				return nil, err
			}
			if (body.Name == "") == (body.Dir == "") {
				return nil, fault.Invalid(errors.New("give the project's name or its folder, one of them"))
			}
			var dir string
			var err error
			if body.Name != "" {
				dir, err = named(body.Name)
			} else {
				dir, err = byDir(body.Dir)
			}
			return ProjectOpened{Dir: dir}, err
		})
	}
	mux.HandleFunc("POST /api/projects/open", byBody(sw.OpenNamed, sw.OpenDir))
	mux.HandleFunc("POST /api/projects/create", byBody(sw.CreateNamed, sw.CreateDir))
	if d == nil {
		return
	}
	mux.HandleFunc("POST /api/projects/open-dialog", h.api(func(r *http.Request) (any, error) {
		dir, err := d.OpenDirectory(sw.DialogDir(), "Open a sitesift project")
		if err != nil {
			return nil, fmt.Errorf("open project: the dialog failed: %w", err)
		}
		if dir == "" {
			return ProjectOpened{Cancelled: true}, nil
		}
		dir, err = sw.OpenDir(dir)
		return ProjectOpened{Dir: dir}, err
	}))
	mux.HandleFunc("POST /api/projects/new-dialog", h.api(func(r *http.Request) (any, error) {
		// A Save dialog names a folder that does not exist yet, which an
		// Open-folder dialog cannot.
		dir, err := d.SaveFile(sw.DialogDir(), "New sitesift project: its folder", "new-project", nil)
		if err != nil {
			return nil, fmt.Errorf("new project: the dialog failed: %w", err)
		}
		if dir == "" {
			return ProjectOpened{Cancelled: true}, nil
		}
		dir, err = sw.CreateDir(dir)
		return ProjectOpened{Dir: dir}, err
	}))
}
