package lab

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"sitesift/app/project"

	"sitesift/app/fault"
	"sitesift/app/internal/jobs"
)

// Lab jobs: the app's Lab page runs an experiment in the background and
// polls its progress. One job runs at a time (an experiment keeps a core
// busy, and the machines sitesift runs on have few); the App owns the
// goroutine, and App.Close cancels it and waits for it.

// Lab job states.
const (
	JobRunning   = string(jobs.Running)
	JobDone      = string(jobs.Done)
	JobFailed    = string(jobs.Failed)
	JobCancelled = string(jobs.Cancelled)
)

// keepJobs is how many finished jobs keep their outputs for download.
const keepJobs = 8

// ErrRunning is returned (as a conflict) when a lab job is asked for
// while another runs.
var ErrRunning = errors.New("lab: one experiment runs at a time")

// JobStatus is what GET /api/lab/jobs/{id} answers.
type JobStatus struct {
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
type labJobs = jobs.Runner[any, labProgress, *Output]

type labProgress struct{ done, total int }

// newLabJobs returns the runner of the lab jobs, which logs their
// failures to log.
func newLabJobs(log *slog.Logger) *labJobs {
	return &labJobs{Keep: keepJobs, OnEnd: func(st jobs.Status[any, labProgress, *Output]) {
		if st.State == jobs.Failed {
			log.Error("lab", "experiment", st.Name, "job", st.ID, "err", st.Err)
		}
	}}
}

func labStatus(st jobs.Status[any, labProgress, *Output]) JobStatus {
	out := JobStatus{ID: st.ID, Experiment: st.Name, State: string(st.State), Done: st.Progress.done,
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
func labBusy(st jobs.Status[any, labProgress, *Output]) error {
	return fault.Conflict(fmt.Errorf("%w: a %s run is already running (job %s); wait for it or cancel it", ErrRunning, st.Name, st.ID))
}

// Start starts an experiment with its parameters (a
// *ConvergenceParams, *WindowsParams, *NormLeakParams or
// *LinksParams, see
// NewParams; zero fields take the defaults) and returns its job at
// once. A convergence run on "graph": "project" reads the project's site
// graph before returning; a synthetic graph is built in the job.
func (s *Service) Start(ctx context.Context, request any) (JobStatus, error) {
	// The experiments take the machine's cores for minutes: on a team
	// server, an admin's to start.
	if err := project.Require(ctx, project.RoleAdmin, "run a lab experiment"); err != nil {
		return JobStatus{}, err
	}
	// Refuse at once while a job runs, before reading a graph for nothing;
	// the check of Start below is the one that counts.
	if st, ok := s.jobs.Running(); ok {
		return JobStatus{}, labBusy(st)
	}
	var experiment string
	var params any // what the job shows of its parameters, filled in
	var run func(context.Context, func(done, total int)) (*Output, error)
	switch ps := request.(type) {
	case *ConvergenceParams:
		experiment = Convergence
		p := *ps
		if p.Graph == GraphEdges {
			return JobStatus{}, fault.Invalid(errors.New("lab convergence: graph \"edges\" is for the command line; import the edge list into a project and use \"project\""))
		}
		if err := p.Check(); err != nil {
			return JobStatus{}, fault.Invalid(err)
		}
		var lg Graph
		n := p.N
		if p.Graph == GraphProject {
			_, g, err := s.ranking.ProjectGraph(ctx)
			if err != nil {
				return JobStatus{}, err
			}
			if lg, err = NewGraph(g, p.Weighting, "project "+path.Base(s.project.Dir)); err != nil {
				return JobStatus{}, fault.Invalid(err)
			}
			n = lg.Graph.N
		}
		if err := p.FillSteps(n); err != nil {
			return JobStatus{}, fault.Invalid(err)
		}
		if p.Graph == GraphSynthetic {
			if err := CheckAPIBounds("convergence", p.N, p.AvgOut, p.Steps); err != nil {
				return JobStatus{}, fault.Invalid(err)
			}
		} else if err := CheckAPIBounds("convergence", 0, 0, p.Steps); err != nil {
			return JobStatus{}, fault.Invalid(err)
		}
		params = p
		run = func(ctx context.Context, progress func(int, int)) (*Output, error) {
			if lg.Graph == nil {
				lg = SyntheticGraph(&p)
			}
			return RunConvergence(ctx, p, lg, progress)
		}
	case *WindowsParams:
		experiment = Windows
		p := *ps
		if err := p.Check(); err != nil {
			return JobStatus{}, fault.Invalid(err)
		}
		if err := CheckAPIBounds("windows", p.N, p.AvgOut, p.Steps); err != nil {
			return JobStatus{}, fault.Invalid(err)
		}
		params = p
		run = func(ctx context.Context, progress func(int, int)) (*Output, error) {
			return RunWindows(ctx, p, progress)
		}
	case *LinksParams:
		experiment = Links
		p := *ps
		if err := p.Check(); err != nil {
			return JobStatus{}, fault.Invalid(err)
		}
		// The graphs are read before the job starts, as a convergence run
		// on the project's graph reads it: a project that cannot give them
		// is refused at once.
		gs, teleport, err := s.LinkGraphs(ctx)
		if err != nil {
			return JobStatus{}, err
		}
		if len(gs.Names) == 0 {
			return JobStatus{}, fault.Invalid(errors.New("lab links: the project has no sites yet: crawl or import some first"))
		}
		params = p
		source := "project " + path.Base(s.project.Dir)
		run = func(context.Context, func(int, int)) (*Output, error) {
			return LinksOutput(gs, p.Top, teleport, source)
		}
	case *NormLeakParams:
		experiment = NormLeak
		p := *ps
		if err := p.Check(); err != nil {
			return JobStatus{}, fault.Invalid(err)
		}
		params = p
		run = func(context.Context, func(int, int)) (*Output, error) { return RunNormLeak(p) }
	default:
		return JobStatus{}, fmt.Errorf("lab: parameters of type %T", request)
	}

	st, err := s.jobs.Start(experiment, params, func(ctx context.Context, progress func(labProgress)) (*Output, error) {
		return run(ctx, func(done, total int) { progress(labProgress{done, total}) })
	})
	switch {
	case errors.Is(err, jobs.ErrBusy):
		return JobStatus{}, labBusy(st)
	case errors.Is(err, jobs.ErrClosed):
		return JobStatus{}, fault.Conflict(errors.New("lab: the app is shutting down"))
	}
	return labStatus(st), err
}

// Job returns the status of lab job id.
func (s *Service) Job(id string) (JobStatus, error) {
	st, err := s.labJob(id)
	return labStatus(st), err
}

// Jobs returns the status of the jobs kept, newest first.
func (s *Service) Jobs() []JobStatus {
	out := []JobStatus{}
	for _, st := range s.jobs.List() {
		out = append(out, labStatus(st))
	}
	return out
}

// Cancel cancels lab job id if it runs, and returns its status.
func (s *Service) Cancel(id string) (JobStatus, error) {
	err := s.jobs.Cancel(id)
	switch {
	case errors.Is(err, jobs.ErrNotFound):
		return JobStatus{}, fault.NotFound(fmt.Errorf("no lab job %q", id))
	case err != nil && !errors.Is(err, jobs.ErrNotRunning): // one that ended: its status says how
		return JobStatus{}, err
	}
	st, err := s.jobs.Wait(context.Background(), id)
	return labStatus(st), err
}

// File returns an output of lab job id: name, or with name "csv" or
// "svg" the experiment's main CSV or SVG file (its first of that kind).
func (s *Service) File(id, name string) (File, error) {
	st, err := s.labJob(id)
	if err != nil {
		return File{}, err
	}
	if st.State != jobs.Done {
		return File{}, fault.Conflict(fmt.Errorf("lab job %s is %s: no output", id, st.State))
	}
	out := st.Result
	if name == "csv" || name == "svg" {
		// The main file: an experiment's files come main CSV and SVG first
		// (Output), and one without a plot (links) has no SVG.
		ext := "." + name
		for _, f := range out.Files {
			if path.Ext(f.Name) == ext {
				return f, nil
			}
		}
		return File{}, fault.NotFound(fmt.Errorf("lab job %s (%s) has no %s file", id, st.Name, name))
	}
	f, ok := out.File(name)
	if !ok {
		return File{}, fault.NotFound(fmt.Errorf("lab job %s has no file %q", id, name))
	}
	return f, nil
}

func (s *Service) labJob(id string) (jobs.Status[any, labProgress, *Output], error) {
	st, err := s.jobs.Get(id)
	if errors.Is(err, jobs.ErrNotFound) {
		err = fault.NotFound(fmt.Errorf("no lab job %q", id))
	}
	return st, err
}
