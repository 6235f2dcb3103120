package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path"

	"sitesift/app/fault"
	"sitesift/app/internal/jobs"
	"sitesift/app/lab"
)

// Lab jobs: the app's Lab page runs an experiment in the background and
// polls its progress. One job runs at a time (an experiment keeps a core
// busy, and the machines sitesift runs on have few); the App owns the
// goroutine, and App.Close cancels it and waits for it.

// Lab job states.
const (
	LabRunning   = string(jobs.Running)
	LabDone      = string(jobs.Done)
	LabFailed    = string(jobs.Failed)
	LabCancelled = string(jobs.Cancelled)
)

// labKeepJobs is how many finished jobs keep their outputs for download.
const labKeepJobs = 8

// ErrLabRunning is returned (as a conflict) when a lab job is asked for
// while another runs.
var ErrLabRunning = errors.New("lab: one experiment runs at a time")

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

// labJobs runs the App's lab jobs: the request is the experiment's
// parameters, the progress its steps done of the total.
type labJobs = jobs.Runner[any, labProgress, *lab.Output]

type labProgress struct{ done, total int }

// newLabJobs returns the runner of the lab jobs, which logs their
// failures to log.
func newLabJobs(log *slog.Logger) *labJobs {
	return &labJobs{Keep: labKeepJobs, OnEnd: func(st jobs.Status[any, labProgress, *lab.Output]) {
		if st.State == jobs.Failed {
			log.Error("lab", "experiment", st.Name, "job", st.ID, "err", st.Err)
		}
	}}
}

func labStatus(st jobs.Status[any, labProgress, *lab.Output]) LabJobStatus {
	out := LabJobStatus{ID: st.ID, Experiment: st.Name, State: string(st.State), Done: st.Progress.done,
		Total: st.Progress.total, Params: st.Request, Files: []string{}, Summary: []string{},
		ElapsedSec: st.Elapsed.Seconds()}
	if st.State == jobs.Done {
		out.Done = out.Total
	}
	if st.Err != nil {
		out.Error = fault.OneLine(st.Err)
	}
	if st.State == jobs.Done && st.Result != nil {
		for _, f := range st.Result.Files {
			out.Files = append(out.Files, f.Name)
		}
		out.Summary = st.Result.Summary
	}
	return out
}

// labBusy is the conflict of a lab job asked for while job st runs.
func labBusy(st jobs.Status[any, labProgress, *lab.Output]) error {
	return fault.Conflict(fmt.Errorf("%w: a %s run is already running (job %s); wait for it or cancel it", ErrLabRunning, st.Name, st.ID))
}

// StartLab starts an experiment with its parameters (a
// *lab.ConvergenceParams, *lab.WindowsParams, *lab.NormLeakParams or
// *lab.LinksParams, see
// lab.NewParams; zero fields take the defaults) and returns its job at
// once. A convergence run on "graph": "project" reads the project's site
// graph before returning; a synthetic graph is built in the job.
func (a *App) StartLab(ctx context.Context, request any) (LabJobStatus, error) {
	// Refuse at once while a job runs, before reading a graph for nothing;
	// the check of Start below is the one that counts.
	if st, ok := a.lab.Running(); ok {
		return LabJobStatus{}, labBusy(st)
	}
	var experiment string
	var params any // what the job shows of its parameters, filled in
	var run func(context.Context, func(done, total int)) (*lab.Output, error)
	switch ps := request.(type) {
	case *lab.ConvergenceParams:
		experiment = lab.Convergence
		p := *ps
		if p.Graph == lab.GraphEdges {
			return LabJobStatus{}, fault.Invalid(errors.New("lab convergence: graph \"edges\" is for the command line; import the edge list into a project and use \"project\""))
		}
		if err := p.Check(); err != nil {
			return LabJobStatus{}, fault.Invalid(err)
		}
		var lg lab.Graph
		n := p.N
		if p.Graph == lab.GraphProject {
			_, g, err := a.Ranking.ProjectGraph(ctx)
			if err != nil {
				return LabJobStatus{}, err
			}
			if lg, err = lab.NewGraph(g, p.Weighting, "project "+path.Base(a.project.Dir)); err != nil {
				return LabJobStatus{}, fault.Invalid(err)
			}
			n = lg.Graph.N
		}
		if err := p.FillSteps(n); err != nil {
			return LabJobStatus{}, fault.Invalid(err)
		}
		if p.Graph == lab.GraphSynthetic {
			if err := lab.CheckAPIBounds("convergence", p.N, p.AvgOut, p.Steps); err != nil {
				return LabJobStatus{}, fault.Invalid(err)
			}
		} else if err := lab.CheckAPIBounds("convergence", 0, 0, p.Steps); err != nil {
			return LabJobStatus{}, fault.Invalid(err)
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
			return LabJobStatus{}, fault.Invalid(err)
		}
		if err := lab.CheckAPIBounds("windows", p.N, p.AvgOut, p.Steps); err != nil {
			return LabJobStatus{}, fault.Invalid(err)
		}
		params = p
		run = func(ctx context.Context, progress func(int, int)) (*lab.Output, error) {
			return lab.RunWindows(ctx, p, progress)
		}
	case *lab.LinksParams:
		experiment = lab.Links
		p := *ps
		if err := p.Check(); err != nil {
			return LabJobStatus{}, fault.Invalid(err)
		}
		// The graphs are read before the job starts, as a convergence run
		// on the project's graph reads it: a project that cannot give them
		// is refused at once.
		gs, teleport, err := a.LinkGraphs(ctx)
		if err != nil {
			return LabJobStatus{}, err
		}
		if len(gs.Names) == 0 {
			return LabJobStatus{}, fault.Invalid(errors.New("lab links: the project has no sites yet: crawl or import some first"))
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
			return LabJobStatus{}, fault.Invalid(err)
		}
		params = p
		run = func(context.Context, func(int, int)) (*lab.Output, error) { return lab.RunNormLeak(p) }
	default:
		return LabJobStatus{}, fmt.Errorf("lab: parameters of type %T", request)
	}

	st, err := a.lab.Start(experiment, params, func(ctx context.Context, progress func(labProgress)) (*lab.Output, error) {
		return run(ctx, func(done, total int) { progress(labProgress{done, total}) })
	})
	switch {
	case errors.Is(err, jobs.ErrBusy):
		return LabJobStatus{}, labBusy(st)
	case errors.Is(err, jobs.ErrClosed):
		return LabJobStatus{}, fault.Conflict(errors.New("lab: the app is shutting down"))
	}
	return labStatus(st), err
}

// LabJob returns the status of lab job id.
func (a *App) LabJob(id string) (LabJobStatus, error) {
	st, err := a.labJob(id)
	return labStatus(st), err
}

// LabJobs returns the status of the jobs kept, newest first.
func (a *App) LabJobs() []LabJobStatus {
	out := []LabJobStatus{}
	for _, st := range a.lab.List() {
		out = append(out, labStatus(st))
	}
	return out
}

// CancelLab cancels lab job id if it runs, and returns its status.
func (a *App) CancelLab(id string) (LabJobStatus, error) {
	err := a.lab.Cancel(id)
	switch {
	case errors.Is(err, jobs.ErrNotFound):
		return LabJobStatus{}, fault.NotFound(fmt.Errorf("no lab job %q", id))
	case err != nil && !errors.Is(err, jobs.ErrNotRunning): // one that ended: its status says how
		return LabJobStatus{}, err
	}
	st, err := a.lab.Wait(context.Background(), id)
	return labStatus(st), err
}

// LabFile returns an output of lab job id: name, or with name "csv" or
// "svg" the experiment's main CSV or SVG file (its first of that kind).
func (a *App) LabFile(id, name string) (lab.File, error) {
	st, err := a.labJob(id)
	if err != nil {
		return lab.File{}, err
	}
	if st.State != jobs.Done {
		return lab.File{}, fault.Conflict(fmt.Errorf("lab job %s is %s: no output", id, st.State))
	}
	out := st.Result
	if name == "csv" || name == "svg" {
		// The main file: an experiment's files come main CSV and SVG first
		// (lab.Output), and one without a plot (links) has no SVG.
		ext := "." + name
		for _, f := range out.Files {
			if path.Ext(f.Name) == ext {
				return f, nil
			}
		}
		return lab.File{}, fault.NotFound(fmt.Errorf("lab job %s (%s) has no %s file", id, st.Name, name))
	}
	f, ok := out.File(name)
	if !ok {
		return lab.File{}, fault.NotFound(fmt.Errorf("lab job %s has no file %q", id, name))
	}
	return f, nil
}

func (a *App) labJob(id string) (jobs.Status[any, labProgress, *lab.Output], error) {
	st, err := a.lab.Get(id)
	if errors.Is(err, jobs.ErrNotFound) {
		err = fault.NotFound(fmt.Errorf("no lab job %q", id))
	}
	return st, err
}
