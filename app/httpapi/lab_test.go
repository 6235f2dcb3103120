package httpapi

import (
	"context"
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sitesift/app"
	"sitesift/app/apptest"
	"sitesift/app/lab"
)

// emptyApp opens a new, empty project.
func emptyApp(t *testing.T) (*app.App, http.Handler) {
	a := apptest.Empty(t)
	return a, New(a)
}

// waitLab polls a lab job until it is no longer running.
func waitLab(t *testing.T, h http.Handler, id string) lab.JobStatus {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var st lab.JobStatus
		apptest.Call(t, h, "GET", "/api/lab/jobs/"+id, "", http.StatusOK, &st)
		if st.State != lab.JobRunning {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("lab job %s still running: %+v", id, st)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// get performs a GET and returns the recorder.
func get(h http.Handler, path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apptest.Request(h, "GET", path, nil))
	return rec
}

func TestLabAPINormLeakOutputs(t *testing.T) {
	_, h := emptyApp(t)
	var st lab.JobStatus
	apptest.Call(t, h, "POST", "/api/lab/normleak", "", http.StatusAccepted, &st)
	if st.ID == "" || st.Experiment != lab.NormLeak {
		t.Fatalf("status %+v", st)
	}
	st = waitLab(t, h, st.ID)
	if st.State != lab.JobDone || st.Error != "" || len(st.Summary) != 6 {
		t.Fatalf("status %+v", st)
	}
	if strings.Join(st.Files, ",") != "normleak.csv,normleak.svg" {
		t.Errorf("files %v", st.Files)
	}
	rec := get(h, "/api/lab/jobs/"+st.ID+"/svg")
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("svg: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	if n := apptest.SeriesCount(t, rec.Body.Bytes()); n != 6 {
		t.Errorf("svg has %d series, want 6", n)
	}
	rec = get(h, "/api/lab/jobs/"+st.ID+"/csv")
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	rows, err := csv.NewReader(rec.Body).ReadAll()
	if err != nil || strings.Join(rows[0], ",") != "case,dangling_pages,matrix,iteration,norm" || len(rows) != 1+6*21 {
		t.Fatalf("csv: %v, %d rows", err, len(rows))
	}
	if rec := get(h, "/api/lab/jobs/"+st.ID+"/files/normleak.csv"); rec.Code != http.StatusOK {
		t.Errorf("files/normleak.csv: %d", rec.Code)
	}
	if rec := get(h, "/api/lab/jobs/"+st.ID+"/files/other.csv"); rec.Code != http.StatusNotFound {
		t.Errorf("files/other.csv: %d, want 404", rec.Code)
	}
	if rec := get(h, "/api/lab/jobs/99/svg"); rec.Code != http.StatusNotFound {
		t.Errorf("svg of an unknown job: %d, want 404", rec.Code)
	}
	var jobs []lab.JobStatus
	apptest.Call(t, h, "GET", "/api/lab/jobs", "", http.StatusOK, &jobs)
	if len(jobs) != 1 || jobs[0].ID != st.ID {
		t.Errorf("jobs %+v", jobs)
	}
}

// TestLabAPIConvergenceOnProject runs the experiment on the crawled
// project's site graph.
func TestLabAPIConvergenceOnProject(t *testing.T) {
	_, h := testApp(t)
	var st lab.JobStatus
	apptest.Call(t, h, "POST", "/api/lab/convergence", `{"graph": "project", "strategies": ["greedy", "random"], "every": 20}`, http.StatusAccepted, &st)
	st = waitLab(t, h, st.ID)
	if st.State != lab.JobDone {
		t.Fatalf("status %+v", st)
	}
	if st.Total == 0 || st.Done != st.Total {
		t.Errorf("progress %d/%d at the end", st.Done, st.Total)
	}
	rec := get(h, "/api/lab/jobs/"+st.ID+"/csv")
	rows, err := csv.NewReader(rec.Body).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != "strategy,step,mean_rel_error_pct,top1pct_rel_error_pct,spearman" {
		t.Fatalf("header %v", rows[0])
	}
	strategies := map[string]int{}
	for _, r := range rows[1:] {
		strategies[r[0]]++
	}
	if len(strategies) != 2 || strategies["greedy"] < 2 || strategies["greedy"] != strategies["random"] {
		t.Errorf("rows by strategy %v", strategies)
	}
	if !strings.HasPrefix(st.Summary[0], "graph project ") {
		t.Errorf("summary %q", st.Summary)
	}
}

func TestLabAPIOneJobAtATimeAndCancel(t *testing.T) {
	a, h := emptyApp(t)
	long := `{"graph": "synthetic", "n": 20000, "steps": 100000000, "every": 10000000}`
	var st lab.JobStatus
	apptest.Call(t, h, "POST", "/api/lab/convergence", long, http.StatusAccepted, &st)
	if st.State != lab.JobRunning {
		t.Fatalf("status %+v", st)
	}
	env := apptest.Call(t, h, "POST", "/api/lab/normleak", `{}`, http.StatusConflict, nil)
	if env.ErrorType != "conflict" || !strings.Contains(env.Error, "a convergence run is already running (job "+st.ID+")") {
		t.Errorf("second job: %+v", env)
	}

	if rec := get(h, "/api/lab/jobs/"+st.ID+"/svg"); rec.Code != http.StatusConflict {
		t.Errorf("svg of a running job: %d, want 409", rec.Code)
	}
	// Progress moves.
	deadline := time.Now().Add(30 * time.Second)
	for {
		var now lab.JobStatus
		apptest.Call(t, h, "GET", "/api/lab/jobs/"+st.ID, "", http.StatusOK, &now)
		if now.Done > 0 && now.Total == 3*100000000 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no progress: %+v", now)
		}
		time.Sleep(20 * time.Millisecond)
	}
	apptest.Call(t, h, "POST", "/api/lab/jobs/"+st.ID+"/cancel", "", http.StatusOK, &st)
	if st.State != lab.JobCancelled || !strings.Contains(st.Error, "canceled") {
		t.Errorf("after cancel: %+v", st)
	}
	// The next job may start.
	apptest.Call(t, h, "POST", "/api/lab/normleak", `{"iterations": 5}`, http.StatusAccepted, &st)
	if st = waitLab(t, h, st.ID); st.State != lab.JobDone {
		t.Errorf("normleak after a cancel: %+v", st)
	}

	// App.Close cancels a running job and waits for it.
	apptest.Call(t, h, "POST", "/api/lab/convergence", long, http.StatusAccepted, &st)
	// The job would run for hours: a Close that waited for it to end
	// instead of cancelling it would hang.
	closed := make(chan struct{})
	go func() { a.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatal("Close did not return within a minute: it waits for the job instead of cancelling it")
	}
	if got, _ := a.Lab.Job(st.ID); got.State != lab.JobCancelled {
		t.Errorf("after Close: %+v", got)
	}
	env = apptest.Call(t, h, "POST", "/api/lab/normleak", "", http.StatusConflict, nil)
	if !strings.Contains(env.Error, "shutting down") {
		t.Errorf("job after Close: %+v", env)
	}
}

func TestLabAPIBadRequests(t *testing.T) {
	_, h := emptyApp(t)
	for _, tc := range []struct {
		path, body string
		status     int
		want       string
	}{
		{"/api/lab/speed", `{}`, http.StatusNotFound, `unknown experiment "speed"`},
		{"/api/lab/convergence", `{}`, http.StatusBadRequest, "needs n from 2"},
		{"/api/lab/convergence", `{"graph": "synthetic", "n": 100, "fast": true}`, http.StatusBadRequest, `unknown field "fast"`},
		{"/api/lab/convergence", `{"graph": "edges"}`, http.StatusBadRequest, "command line"},
		{"/api/lab/convergence", `{"graph": "web"}`, http.StatusBadRequest, `unknown graph "web"`},
		{"/api/lab/convergence", `{"n": 100, "strategies": ["greedy", "fastest"]}`, http.StatusBadRequest, `unknown strategy "fastest"`},
		{"/api/lab/convergence", `{"n": 100, "teleport": 1.5}`, http.StatusBadRequest, "teleport"},
		{"/api/lab/convergence", `{"graph": "project"}`, http.StatusBadRequest, "0 nodes"},
		{"/api/lab/convergence", `{"n": 100} {"n": 3}`, http.StatusBadRequest, "more than one"},
		{"/api/lab/convergence", `[1]`, http.StatusBadRequest, "parameters"},
		{"/api/lab/windows", `{"n": 100}`, http.StatusBadRequest, "change rate is required"},
		{"/api/lab/windows", `{"n": 100, "change_rate": -0.5}`, http.StatusBadRequest, "not in [0, 1]"},
		{"/api/lab/normleak", `{"damping": 3}`, http.StatusBadRequest, "damping 3"},
		// The app's bounds, below the command line's.
		{"/api/lab/convergence", `{"n": 10000000, "avg_out": 5}`, http.StatusBadRequest, "n = 10000000 nodes; the app runs at most 1000000"},
		{"/api/lab/convergence", `{"n": 1000000, "avg_out": 8}`, http.StatusBadRequest, "8000000 arcs; the app runs at most 4000000"},
		{"/api/lab/convergence", `{"n": 100, "steps": 2000000000, "every": 1000000}`, http.StatusBadRequest, "2000000000 steps"},
		{"/api/lab/windows", `{"n": 10000000, "avg_out": 5, "change_rate": 0.1}`, http.StatusBadRequest, "the app runs at most 1000000"},
	} {
		env := apptest.Call(t, h, "POST", tc.path, tc.body, tc.status, nil)
		if !strings.Contains(env.Error, tc.want) {
			t.Errorf("POST %s %s: error %q, want it to contain %q", tc.path, tc.body, env.Error, tc.want)
		}
	}
	if rec := get(h, "/api/lab/jobs/1"); rec.Code != http.StatusNotFound {
		t.Errorf("unknown job: %d", rec.Code)
	}
}

func TestLabAPIWindows(t *testing.T) {
	_, h := emptyApp(t)
	var st lab.JobStatus
	apptest.Call(t, h, "POST", "/api/lab/windows", `{"n": 300, "change_rate": 0.1, "steps": 1500, "every": 300}`, http.StatusAccepted, &st)
	st = waitLab(t, h, st.ID)
	if st.State != lab.JobDone {
		t.Fatalf("status %+v", st)
	}
	rec := get(h, "/api/lab/jobs/"+st.ID+"/csv")
	rows, err := csv.NewReader(rec.Body).ReadAll()
	if err != nil || len(rows) != 1+5*6 {
		t.Fatalf("%v, %d rows", err, len(rows))
	}
	if n := apptest.SeriesCount(t, get(h, "/api/lab/jobs/"+st.ID+"/files/windows-measures.svg").Body.Bytes()); n != 5 {
		t.Errorf("measures plot has %d series", n)
	}
}

// TestLabAPILinks runs the comparison of the crawled project's editorial
// and all-links site graphs as a lab job: its three CSV files are those
// `sitesift lab links` writes for the project (the same graphs through the
// same function), the main CSV is the top sites side by side, and there is
// no plot.
func TestLabAPILinks(t *testing.T) {
	a, h := testApp(t)
	var st lab.JobStatus
	apptest.Call(t, h, "POST", "/api/lab/links", `{"top": 5}`, http.StatusAccepted, &st)
	if st.Experiment != lab.Links {
		t.Fatalf("status %+v", st)
	}
	st = waitLab(t, h, st.ID)
	if st.State != lab.JobDone || st.Error != "" || len(st.Summary) != 2 {
		t.Fatalf("status %+v", st)
	}
	if got := strings.Join(st.Files, ","); got != "links-top.csv,links-sites.csv,links-summary.csv" {
		t.Errorf("files %s", got)
	}
	if p, ok := st.Params.(map[string]any); !ok || p["top"] != float64(5) {
		t.Errorf("params %#v, want top 5", st.Params)
	}
	gs, teleport, err := a.Lab.LinkGraphs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want, err := lab.LinksOutput(gs, 5, teleport, "project")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range want.Files {
		rec := get(h, "/api/lab/jobs/"+st.ID+"/files/"+f.Name)
		if f.Name == "links-summary.csv" {
			// The source names the project as the app or the command does: the rest is the same.
			w, g := strings.SplitN(string(f.Data), "\n", 3), strings.SplitN(rec.Body.String(), "\n", 3)
			if rec.Code != http.StatusOK || len(g) != 3 || w[2] != g[2] || !strings.HasPrefix(g[1], "source,project ") {
				t.Errorf("%s: %d\n%s\nwant\n%s", f.Name, rec.Code, rec.Body, f.Data)
			}
			continue
		}
		if rec.Code != http.StatusOK || rec.Body.String() != string(f.Data) {
			t.Errorf("%s: %d\n%s\nwant\n%s", f.Name, rec.Code, rec.Body, f.Data)
		}
	}
	rec := get(h, "/api/lab/jobs/"+st.ID+"/csv")
	rows, err := csv.NewReader(rec.Body).ReadAll()
	if err != nil || len(rows) != 6 || rows[0][1] != "editorial_site" || rows[0][4] != "all_links_site" {
		t.Errorf("main CSV: %v, %q; want links-top.csv with 5 places", err, rows)
	}
	if rec := get(h, "/api/lab/jobs/"+st.ID+"/svg"); rec.Code != http.StatusNotFound {
		t.Errorf("svg of the links comparison: %d, want 404", rec.Code)
	}

	_, empty := emptyApp(t)
	for _, tc := range []struct {
		h          http.Handler
		body, want string
	}{
		{h, `{"top": -1}`, "top -1"},
		{h, `{"top": 5000}`, "top 5000"},
		{h, `{"graph": "all"}`, `unknown field "graph"`},
		{empty, `{}`, "no sites"},
	} {
		env := apptest.Call(t, tc.h, "POST", "/api/lab/links", tc.body, http.StatusBadRequest, nil)
		if !strings.Contains(env.Error, tc.want) {
			t.Errorf("POST /api/lab/links %s: error %q, want it to contain %q", tc.body, env.Error, tc.want)
		}
	}
}
