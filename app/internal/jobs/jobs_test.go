package jobs

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

type runner = Runner[string, int, string]

// clock is a clock that moves only when told.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// blocking returns a job function that reports progress 1, signals started,
// and ends with result res and err when release is closed, or with the
// context's error when it is cancelled first.
func blocking(started, release chan struct{}, res string, err error) func(context.Context, func(int)) (string, error) {
	return func(ctx context.Context, progress func(int)) (string, error) {
		progress(1)
		close(started)
		select {
		case <-release:
			return res, err
		case <-ctx.Done():
			return "partial", ctx.Err()
		}
	}
}

// wait returns the status of id once its job ended.
func wait(t *testing.T, r *runner, id string) Status[string, int, string] {
	t.Helper()
	for {
		st, err := r.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		if st.State != Running {
			return st
		}
		time.Sleep(time.Millisecond)
	}
}

// One job runs at a time; its status shows its request, progress and
// elapsed time by the runner's clock, then its result.
func TestRunnerOneAtATime(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	r := &runner{Keep: 2, Now: c.now}
	started, release := make(chan struct{}), make(chan struct{})
	st, err := r.Start("import", "a.warc", blocking(started, release, "3 files", nil))
	if err != nil || st.State != Running || st.ID != "1" || st.Request != "a.warc" {
		t.Fatalf("Start = %+v, %v", st, err)
	}
	<-started
	if busy, err := r.Start("import", "b.warc", nil); !errors.Is(err, ErrBusy) || busy.ID != "1" {
		t.Errorf("second Start while one runs = %+v, %v; want ErrBusy with the running job", busy, err)
	}
	c.add(3 * time.Second)
	if run, ok := r.Running(); !ok || run.Progress != 1 || run.Elapsed != 3*time.Second {
		t.Errorf("Running = %+v %v, want progress 1 after 3s", run, ok)
	}
	close(release)
	end := wait(t, r, "1")
	if end.State != Done || end.Result != "3 files" || end.Err != nil || end.Finished.IsZero() {
		t.Errorf("ended as %+v", end)
	}
	c.add(time.Hour)
	if again, _ := r.Get("1"); again.Elapsed != 3*time.Second {
		t.Errorf("elapsed after the end = %v, want the 3s it ran", again.Elapsed)
	}
	if _, ok := r.Running(); ok {
		t.Error("a job still runs after the end")
	}
}

// Cancel stops a running job and waits for it; the job is cancelled with
// the result it returned. Cancelling an ended job says so.
func TestRunnerCancel(t *testing.T) {
	r := &runner{Keep: 2}
	started := make(chan struct{})
	st, err := r.Start("lab", "", blocking(started, make(chan struct{}), "", nil))
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if err := r.Cancel(st.ID); err != nil {
		t.Fatal(err)
	}
	end, err := r.Wait(context.Background(), st.ID)
	if err != nil || end.State != Cancelled || end.Result != "partial" || !errors.Is(end.Err, context.Canceled) {
		t.Errorf("Wait after Cancel = %+v, %v", end, err)
	}
	if err := r.Cancel(st.ID); !errors.Is(err, ErrNotRunning) {
		t.Errorf("Cancel of an ended job: %v, want ErrNotRunning", err)
	}
	if err := r.Cancel("99"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Cancel of no job: %v, want ErrNotFound", err)
	}
	if _, err := r.Wait(context.Background(), "99"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Wait for no job: %v, want ErrNotFound", err)
	}
}

// A failed job is failed with its error, and OnEnd sees it before
// readers do.
func TestRunnerFailure(t *testing.T) {
	boom := errors.New("boom")
	var ended []Status[string, int, string]
	r := &runner{}
	r.OnEnd = func(st Status[string, int, string]) { ended = append(ended, st) }
	started, release := make(chan struct{}), make(chan struct{})
	st, _ := r.Start("lab", "", blocking(started, release, "", boom))
	<-started
	close(release)
	end := wait(t, r, st.ID)
	if end.State != Failed || !errors.Is(end.Err, boom) {
		t.Errorf("ended as %+v", end)
	}
	if len(ended) != 1 || ended[0].State != Failed {
		t.Errorf("OnEnd saw %+v", ended)
	}
}

// Only Keep finished jobs are kept, beside the newest; List is newest
// first and Last is the newest.
func TestRunnerKeeps(t *testing.T) {
	r := &runner{Keep: 2}
	for i := range 5 {
		started, release := make(chan struct{}), make(chan struct{})
		st, err := r.Start("lab", "", blocking(started, release, "", nil))
		if err != nil {
			t.Fatal(i, err)
		}
		<-started
		close(release)
		wait(t, r, st.ID)
	}
	var ids []string
	for _, st := range r.List() {
		ids = append(ids, st.ID)
	}
	if len(ids) != 3 || ids[0] != "5" || ids[2] != "3" {
		t.Errorf("kept %v, want 5 4 3", ids)
	}
	if last, ok := r.Last(); !ok || last.ID != "5" {
		t.Errorf("Last = %+v %v", last, ok)
	}
	if _, err := r.Get("1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("job 1: %v, want forgotten", err)
	}
}

// A Wait gives up with its context while the job runs on.
func TestRunnerWaitGivesUp(t *testing.T) {
	r := &runner{}
	started, release := make(chan struct{}), make(chan struct{})
	st, _ := r.Start("crawl", "", blocking(started, release, "", nil))
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := r.Wait(ctx, st.ID); !errors.Is(err, context.Canceled) || got.State != Running {
		t.Errorf("Wait with a cancelled context = %+v, %v", got, err)
	}
	close(release)
	if got, err := r.Wait(context.Background(), st.ID); err != nil || got.State != Done {
		t.Errorf("Wait = %+v, %v", got, err)
	}
}

// Close cancels the running job, waits for it, and refuses new ones.
func TestRunnerClose(t *testing.T) {
	r := &runner{}
	started := make(chan struct{})
	st, _ := r.Start("import", "", blocking(started, make(chan struct{}), "", nil))
	<-started
	r.Close()
	if got, _ := r.Get(st.ID); got.State != Cancelled {
		t.Errorf("after Close the job is %s", got.State)
	}
	if _, err := r.Start("import", "", nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Start after Close: %v, want ErrClosed", err)
	}
	var empty runner
	if _, ok := empty.Last(); ok {
		t.Error("Last of a runner that ran nothing")
	}
}
