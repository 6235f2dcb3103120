// Package jobs runs the service's background jobs — crawls and recrawls,
// archive imports and lab experiments — one at a time per [Runner], with
// one status shape, one cancel and one close.
//
// A job is a function of a context and a progress callback. The runner
// owns its goroutine: Cancel asks a job to stop, Wait waits for its end,
// Close cancels the running job, waits for it, and refuses new ones.
// Finished jobs are kept, a few of them, for their results.
package jobs

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"
)

// State is where a job is in its life.
type State string

// The states of a job. Running is the only one that changes.
const (
	Running   State = "running"
	Done      State = "done"
	Failed    State = "failed"
	Cancelled State = "cancelled"
)

// Errors of Start and Cancel.
var (
	// ErrBusy: a job of the runner is running.
	ErrBusy = errors.New("jobs: a job is running")
	// ErrClosed: the runner was closed.
	ErrClosed = errors.New("jobs: closed")
	// ErrNotFound: no job of that ID is kept.
	ErrNotFound = errors.New("jobs: no such job")
	// ErrNotRunning: Cancel was asked of a job that ended.
	ErrNotRunning = errors.New("jobs: the job is not running")
)

// Status is a job as a reader sees it at one moment: the request Q it was
// started with, its progress P and, once it ended, its result R (a failed
// or cancelled job keeps the result its function returned with the
// error).
type Status[Q, P, R any] struct {
	ID       string
	Name     string // what the job does, as the caller named it
	Request  Q
	State    State
	Progress P
	Result   R
	Err      error
	Started  time.Time
	Finished time.Time // zero while it runs
	// Elapsed is the time it ran, or has run so far.
	Elapsed time.Duration
}

// Runner runs jobs one at a time. The zero Runner keeps no finished job
// and reads the system clock; it must not be copied after first use.
type Runner[Q, P, R any] struct {
	// Keep is how many finished jobs are kept for their results.
	Keep int
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// OnEnd, when set, is called with every job's final status as it
	// ends, before readers see it (the service logs failures with it).
	OnEnd func(Status[Q, P, R])

	mu      sync.Mutex
	next    int
	jobs    []*job[Q, P, R] // oldest first
	running *job[Q, P, R]
	closed  bool
}

type job[Q, P, R any] struct {
	id       string
	cancel   context.CancelFunc
	finished chan struct{}

	mu sync.Mutex
	st Status[Q, P, R]
}

func (r *Runner[Q, P, R]) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// Running returns the status of the running job, ok false when none runs.
func (r *Runner[Q, P, R]) Running() (st Status[Q, P, R], ok bool) {
	r.mu.Lock()
	j := r.running
	r.mu.Unlock()
	if j == nil {
		return st, false
	}
	return r.status(j), true
}

// Start runs fn as a new job named name, for request req, in the
// background and returns its status at once. While a job runs it returns ErrBusy with the status of
// the running job; after Close, ErrClosed.
func (r *Runner[Q, P, R]) Start(name string, req Q, fn func(ctx context.Context, progress func(P)) (R, error)) (Status[Q, P, R], error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return Status[Q, P, R]{}, ErrClosed
	}
	if r.running != nil {
		return r.status(r.running), ErrBusy
	}
	r.next++
	ctx, cancel := context.WithCancel(context.Background())
	id := strconv.Itoa(r.next)
	j := &job[Q, P, R]{id: id, cancel: cancel, finished: make(chan struct{}),
		st: Status[Q, P, R]{ID: id, Name: name, Request: req, State: Running, Started: r.now()}}
	r.running = j
	r.jobs = append(r.jobs, j)
	// Forget the oldest finished jobs beyond the few kept.
	if len(r.jobs) > r.Keep+1 {
		r.jobs = append([]*job[Q, P, R](nil), r.jobs[len(r.jobs)-r.Keep-1:]...)
	}
	go r.run(ctx, j, fn)
	return r.status(j), nil
}

func (r *Runner[Q, P, R]) run(ctx context.Context, j *job[Q, P, R], fn func(context.Context, func(P)) (R, error)) {
	defer close(j.finished)
	defer j.cancel()
	res, err := fn(ctx, func(p P) {
		j.mu.Lock()
		j.st.Progress = p
		j.mu.Unlock()
	})
	// The job leaves the running slot as its state becomes final, under
	// both locks (runner, then job), so that a reader who sees it ended
	// can start the next one at once.
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running == j {
		r.running = nil
	}
	j.mu.Lock()
	j.st.Result, j.st.Err, j.st.Finished = res, err, r.now()
	switch {
	case err == nil:
		j.st.State = Done
	case errors.Is(err, context.Canceled):
		j.st.State = Cancelled
	default:
		j.st.State = Failed
	}
	st := j.st
	j.mu.Unlock()
	if r.OnEnd != nil {
		r.OnEnd(r.withElapsed(st))
	}
}

// status returns j's status with its elapsed time.
func (r *Runner[Q, P, R]) status(j *job[Q, P, R]) Status[Q, P, R] {
	j.mu.Lock()
	st := j.st
	j.mu.Unlock()
	return r.withElapsed(st)
}

func (r *Runner[Q, P, R]) withElapsed(st Status[Q, P, R]) Status[Q, P, R] {
	end := st.Finished
	if st.State == Running {
		end = r.now()
	}
	st.Elapsed = end.Sub(st.Started)
	return st
}

// Get returns the status of job id.
func (r *Runner[Q, P, R]) Get(id string) (Status[Q, P, R], error) {
	j, err := r.find(id)
	if err != nil {
		return Status[Q, P, R]{}, err
	}
	return r.status(j), nil
}

// Last returns the status of the newest job, ok false before the first.
func (r *Runner[Q, P, R]) Last() (st Status[Q, P, R], ok bool) {
	r.mu.Lock()
	var j *job[Q, P, R]
	if len(r.jobs) > 0 {
		j = r.jobs[len(r.jobs)-1]
	}
	r.mu.Unlock()
	if j == nil {
		return st, false
	}
	return r.status(j), true
}

// List returns the status of every job kept, newest first.
func (r *Runner[Q, P, R]) List() []Status[Q, P, R] {
	r.mu.Lock()
	jobs := append([]*job[Q, P, R](nil), r.jobs...)
	r.mu.Unlock()
	out := make([]Status[Q, P, R], 0, len(jobs))
	for i := len(jobs) - 1; i >= 0; i-- {
		out = append(out, r.status(jobs[i]))
	}
	return out
}

// Cancel asks job id to stop, if it runs, and returns at once; [Runner.Wait]
// waits for its end. Asking a job that already ended returns
// ErrNotRunning.
func (r *Runner[Q, P, R]) Cancel(id string) error {
	j, err := r.find(id)
	if err != nil {
		return err
	}
	select {
	case <-j.finished:
		return ErrNotRunning
	default:
	}
	j.cancel()
	return nil
}

// Wait waits for job id to end and returns its final status, or returns
// ctx's error first.
func (r *Runner[Q, P, R]) Wait(ctx context.Context, id string) (Status[Q, P, R], error) {
	j, err := r.find(id)
	if err != nil {
		return Status[Q, P, R]{}, err
	}
	select {
	case <-j.finished:
		return r.status(j), nil
	case <-ctx.Done():
		return r.status(j), ctx.Err()
	}
}

// Done returns a channel closed when job id ends.
func (r *Runner[Q, P, R]) Done(id string) (<-chan struct{}, error) {
	j, err := r.find(id)
	if err != nil {
		return nil, err
	}
	return j.finished, nil
}

// Close cancels the running job, waits for it, and refuses new ones.
func (r *Runner[Q, P, R]) Close() {
	r.mu.Lock()
	r.closed = true
	j := r.running
	r.mu.Unlock()
	if j != nil {
		j.cancel()
		<-j.finished
	}
}

func (r *Runner[Q, P, R]) find(id string) (*job[Q, P, R], error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, j := range r.jobs {
		if j.id == id {
			return j, nil
		}
	}
	return nil, ErrNotFound
}
