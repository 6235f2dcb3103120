package app

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strconv"
	"sync"
	"time"

	"sitesift/app/lab"
)

// Lab jobs: the app's Lab page runs an experiment in the background and
// polls its progress. One job runs at a time (an experiment keeps a core
// busy, and the machines sitesift runs on have few); the App owns the
// goroutine, and App.Close cancels it and waits for it.

// Lab job states.
const (
	LabRunning   = "running"
	LabDone      = "done"
	LabFailed    = "failed"
	LabCancelled = "cancelled"
)

// labKeepJobs is how many finished jobs keep their outputs for download.
const labKeepJobs = 8

// ErrLabRunning is returned (as a conflict) when a lab job is asked for
// while another runs.
var ErrLabRunning = errors.New("lab: one experiment runs at a time")

// busy returns a conflict when no job can start: one runs, or the app is
// closing.
func (l *labJobs) busy() error {
	if l.closed {
		return conflict(errors.New("lab: the app is shutting down"))
	}
	if j := l.running; j != nil {
		return conflict(fmt.Errorf("%w: a %s run is already running (job %s); wait for it or cancel it", ErrLabRunning, j.experiment, j.id))
	}
	return nil
}

// LabJobStatus is what GET /api/lab/jobs/{id} answers.
type LabJobStatus struct {
	ID         string   `json:"id"`
	Experiment string   `json:"experiment"`
	State      string   `json:"state"`
	Done       int      `json:"done"`
	Total      int      `json:"total"`
	Error      string   `json:"error"`
	ElapsedSec float64  `json:"elapsed_sec"`
	Params     any      `json:"params"`
	Files      []string `json:"files"`
	Summary    []string `json:"summary"`
}

// labJobs is the App's record of its lab jobs; the zero value is ready.
type labJobs struct {
	mu      sync.Mutex
	next    int
	jobs    []*labJob // oldest first, at most labKeepJobs finished ones
	running *labJob
	closed  bool
}

type labJob struct {
	id, experiment string
	params         any
	start          time.Time
	cancel         context.CancelFunc
	finished       chan struct{}

	mu          sync.Mutex
	state       string
	done, total int
	err         error
	elapsed     time.Duration
	out         *lab.Output
}

func (j *labJob) status() LabJobStatus {
	j.mu.Lock()
	defer j.mu.Unlock()
	st := LabJobStatus{ID: j.id, Experiment: j.experiment, State: j.state, Done: j.done, Total: j.total,
		Params: j.params, Files: []string{}, Summary: []string{}}
	st.ElapsedSec = j.elapsed.Seconds()
	if j.state == LabRunning {
		st.ElapsedSec = time.Since(j.start).Seconds()
	}
	if j.err != nil {
		st.Error = OneLine(j.err)
	}
	if j.out != nil {
		for _, f := range j.out.Files {
			st.Files = append(st.Files, f.Name)
		}
		st.Summary = j.out.Summary
	}
	return st
}

func (j *labJob) progress(done, total int) {
	j.mu.Lock()
	j.done, j.total = done, total
	j.mu.Unlock()
}

// close cancels the running job, waits for it, and refuses new ones.
func (l *labJobs) close() {
	l.mu.Lock()
	l.closed = true
	j := l.running
	l.mu.Unlock()
	if j != nil {
		j.cancel()
		<-j.finished
	}
}

// StartLab starts an experiment with its parameters (a
// *lab.ConvergenceParams, *lab.WindowsParams, *lab.NormLeakParams or
// *lab.LinksParams, see
// lab.NewParams; zero fields take the defaults) and returns its job at
// once. A convergence run on "graph": "project" reads the project's site
// graph before returning; a synthetic graph is built in the job.
func (a *App) StartLab(ctx context.Context, request any) (LabJobStatus, error) {
	// Refuse at once while a job runs, before reading a graph for nothing;
	// the check under the lock below is the one that counts.
	a.lab.mu.Lock()
	err := a.lab.busy()
	a.lab.mu.Unlock()
	if err != nil {
		return LabJobStatus{}, err
	}
	var experiment string
	var params any // what the job shows of its parameters, filled in
	var run func(context.Context, func(done, total int)) (*lab.Output, error)
	switch ps := request.(type) {
	case *lab.ConvergenceParams:
		experiment = lab.Convergence
		p := *ps
		if p.Graph == lab.GraphEdges {
			return LabJobStatus{}, badRequest(errors.New("lab convergence: graph \"edges\" is for the command line; import the edge list into a project and use \"project\""))
		}
		if err := p.Check(); err != nil {
			return LabJobStatus{}, badRequest(err)
		}
		var lg lab.Graph
		n := p.N
		if p.Graph == lab.GraphProject {
			_, g, err := a.projectGraph(ctx)
			if err != nil {
				return LabJobStatus{}, err
			}
			if lg, err = lab.NewGraph(g, p.Weighting, "project "+path.Base(a.project.Dir)); err != nil {
				return LabJobStatus{}, badRequest(err)
			}
			n = lg.Graph.N
		}
		if err := p.FillSteps(n); err != nil {
			return LabJobStatus{}, badRequest(err)
		}
		if p.Graph == lab.GraphSynthetic {
			if err := lab.CheckAPIBounds("convergence", p.N, p.AvgOut, p.Steps); err != nil {
				return LabJobStatus{}, badRequest(err)
			}
		} else if err := lab.CheckAPIBounds("convergence", 0, 0, p.Steps); err != nil {
			return LabJobStatus{}, badRequest(err)
		}
		params = p
		run = func(ctx context.Context, progress func(int, int)) (*lab.Output, error) {
			if lg.Graph == nil {
				lg = lab.SyntheticGraph(&p)
			}
			return lab.RunConvergence(ctx, p, lg, progress)
		}
	case *lab.WindowsParams:
		experiment = lab.Windows
		p := *ps
		if err := p.Check(); err != nil {
			return LabJobStatus{}, badRequest(err)
		}
		if err := lab.CheckAPIBounds("windows", p.N, p.AvgOut, p.Steps); err != nil {
			return LabJobStatus{}, badRequest(err)
		}
		params = p
		run = func(ctx context.Context, progress func(int, int)) (*lab.Output, error) {
			return lab.RunWindows(ctx, p, progress)
		}
	case *lab.LinksParams:
		experiment = lab.Links
		p := *ps
		if err := p.Check(); err != nil {
			return LabJobStatus{}, badRequest(err)
		}
		// The graphs are read before the job starts, as a convergence run
		// on the project's graph reads it: a project that cannot give them
		// is refused at once.
		gs, teleport, err := a.LinkGraphs(ctx)
		if err != nil {
			return LabJobStatus{}, err
		}
		if len(gs.Names) == 0 {
			return LabJobStatus{}, badRequest(errors.New("lab links: the project has no sites yet: crawl or import some first"))
		}
		params = p
		source := "project " + path.Base(a.project.Dir)
		run = func(context.Context, func(int, int)) (*lab.Output, error) {
			return lab.LinksOutput(gs, p.Top, teleport, source)
		}
	case *lab.NormLeakParams:
		experiment = lab.NormLeak
		p := *ps
		if err := p.Check(); err != nil {
			return LabJobStatus{}, badRequest(err)
		}
		params = p
		run = func(context.Context, func(int, int)) (*lab.Output, error) { return lab.RunNormLeak(p) }
	default:
		return LabJobStatus{}, fmt.Errorf("lab: parameters of type %T", request)
	}

	l := &a.lab
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.busy(); err != nil {
		return LabJobStatus{}, err
	}
	l.next++
	jctx, cancel := context.WithCancel(context.Background())
	j := &labJob{id: strconv.Itoa(l.next), experiment: experiment, params: params, start: time.Now(),
		cancel: cancel, finished: make(chan struct{}), state: LabRunning}
	l.running = j
	l.jobs = append(l.jobs, j)
	// Forget the oldest finished jobs beyond the few kept.
	if len(l.jobs) > labKeepJobs+1 {
		l.jobs = append([]*labJob(nil), l.jobs[len(l.jobs)-labKeepJobs-1:]...)
	}
	go a.runLab(jctx, j, run)
	return j.status(), nil
}

func (a *App) runLab(ctx context.Context, j *labJob, run func(context.Context, func(int, int)) (*lab.Output, error)) {
	defer close(j.finished)
	defer j.cancel()
	out, err := run(ctx, j.progress)
	// The job leaves the running slot as its state becomes final, under
	// both locks (jobs, then job), so that a client that sees it done can
	// start the next one at once.
	a.lab.mu.Lock()
	defer a.lab.mu.Unlock()
	if a.lab.running == j {
		a.lab.running = nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.elapsed = time.Since(j.start)
	switch {
	case err == nil:
		j.state, j.out = LabDone, out
		j.done = j.total
	case errors.Is(err, context.Canceled):
		j.state, j.err = LabCancelled, err
	default:
		j.state, j.err = LabFailed, err
		a.log.Error("lab", "experiment", j.experiment, "job", j.id, "err", err)
	}
}

// LabJob returns the status of lab job id.
func (a *App) LabJob(id string) (LabJobStatus, error) {
	j, err := a.labJob(id)
	if err != nil {
		return LabJobStatus{}, err
	}
	return j.status(), nil
}

// LabJobs returns the status of the jobs kept, newest first.
func (a *App) LabJobs() []LabJobStatus {
	a.lab.mu.Lock()
	jobs := append([]*labJob(nil), a.lab.jobs...)
	a.lab.mu.Unlock()
	out := make([]LabJobStatus, 0, len(jobs))
	for i := len(jobs) - 1; i >= 0; i-- {
		out = append(out, jobs[i].status())
	}
	return out
}

// CancelLab cancels lab job id if it runs, and returns its status.
func (a *App) CancelLab(id string) (LabJobStatus, error) {
	j, err := a.labJob(id)
	if err != nil {
		return LabJobStatus{}, err
	}
	j.cancel()
	<-j.finished
	return j.status(), nil
}

// LabFile returns an output of lab job id: name, or with name "csv" or
// "svg" the experiment's main CSV or SVG file (its first of that kind).
func (a *App) LabFile(id, name string) (lab.File, error) {
	j, err := a.labJob(id)
	if err != nil {
		return lab.File{}, err
	}
	j.mu.Lock()
	state, out := j.state, j.out
	j.mu.Unlock()
	if state != LabDone {
		return lab.File{}, conflict(fmt.Errorf("lab job %s is %s: no output", id, state))
	}
	if name == "csv" || name == "svg" {
		// The main file: an experiment's files come main CSV and SVG first
		// (lab.Output), and one without a plot (links) has no SVG.
		ext := "." + name
		for _, f := range out.Files {
			if path.Ext(f.Name) == ext {
				return f, nil
			}
		}
		return lab.File{}, notFound(fmt.Errorf("lab job %s (%s) has no %s file", id, j.experiment, name))
	}
	f, ok := out.File(name)
	if !ok {
		return lab.File{}, notFound(fmt.Errorf("lab job %s has no file %q", id, name))
	}
	return f, nil
}

func (a *App) labJob(id string) (*labJob, error) {
	a.lab.mu.Lock()
	defer a.lab.mu.Unlock()
	for _, j := range a.lab.jobs {
		if j.id == id {
			return j, nil
		}
	}
	return nil, notFound(fmt.Errorf("no lab job %q", id))
}
