package memo

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

func constant(v string, k int, calls *atomic.Int32) func(context.Context) (string, int, error) {
	return func(context.Context) (string, int, error) {
		calls.Add(1)
		return v, k, nil
	}
}

// A value is computed once per key: the same key gets it back, another key
// computes again.
func TestGetKeepsTheValueOfItsKey(t *testing.T) {
	ctx := context.Background()
	var m Memo[int, string]
	var calls atomic.Int32
	for _, want := range []struct {
		key   int
		v     string
		calls int32
	}{{1, "one", 1}, {1, "one", 1}, {2, "two", 2}, {1, "one", 3}} {
		got, err := m.Get(ctx, Equal(want.key), constant(map[int]string{1: "one", 2: "two"}[want.key], want.key, &calls))
		if err != nil {
			t.Fatal(err)
		}
		if got != want.v || calls.Load() != want.calls {
			t.Fatalf("Get(%d) = %q after %d computations, want %q after %d", want.key, got, calls.Load(), want.v, want.calls)
		}
	}
}

// start begins a computation on m that holds until release is closed, and
// returns once it runs.
func start(t *testing.T, m *Memo[int, string], key int, v string, release chan struct{}) <-chan string {
	t.Helper()
	running := make(chan struct{})
	out := make(chan string, 1)
	go func() {
		got, err := m.Get(context.Background(), Equal(key), func(context.Context) (string, int, error) {
			close(running)
			<-release
			return v, key, nil
		})
		if err != nil {
			t.Error(err)
		}
		out <- got
	}()
	<-running
	return out
}

// Readers arriving while a value is computed wait for it and share it: the
// computation runs once.
func TestGetWaitsForTheComputationUnderWay(t *testing.T) {
	var m Memo[int, string]
	release := make(chan struct{})
	first := start(t, &m, 1, "one", release)
	var calls atomic.Int32
	var wg sync.WaitGroup
	got := make([]string, 4)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := m.Get(context.Background(), Equal(1), constant("again", 1, &calls))
			if err != nil {
				t.Error(err)
			}
			got[i] = v
		}()
	}
	close(release)
	wg.Wait()
	if v := <-first; v != "one" {
		t.Errorf("first reader got %q", v)
	}
	for i, v := range got {
		if v != "one" {
			t.Errorf("waiting reader %d got %q, want the value under way", i, v)
		}
	}
	if calls.Load() != 0 {
		t.Errorf("%d readers computed again", calls.Load())
	}
}

// A Stale memo serves the kept value at once while a newer one is computed,
// and keeps the newer one after.
func TestStaleServesTheLastValueMeanwhile(t *testing.T) {
	ctx := context.Background()
	m := Memo[int, string]{Stale: true}
	var calls atomic.Int32
	if _, err := m.Get(ctx, Equal(1), constant("one", 1, &calls)); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	second := start(t, &m, 2, "two", release)
	got, err := m.Get(ctx, Equal(2), constant("never", 2, &calls))
	if err != nil {
		t.Fatal(err)
	}
	if got != "one" {
		t.Errorf("meanwhile got %q, want the last value", got)
	}
	close(release)
	if v := <-second; v != "two" {
		t.Errorf("computing reader got %q", v)
	}
	if k, v, ok := m.Peek(); !ok || k != 2 || v != "two" {
		t.Errorf("kept %d %q %v, want 2 two", k, v, ok)
	}
	if calls.Load() != 1 {
		t.Errorf("%d computations, want 1", calls.Load())
	}
}

// A waiting reader gives up with its context, and the computation under
// way is not disturbed.
func TestGetWaiterCancels(t *testing.T) {
	var m Memo[int, string]
	release := make(chan struct{})
	first := start(t, &m, 1, "one", release)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var calls atomic.Int32
	if _, err := m.Get(ctx, Equal(1), constant("x", 1, &calls)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled waiter: err %v, want context.Canceled", err)
	}
	close(release)
	if v := <-first; v != "one" {
		t.Errorf("computing reader got %q", v)
	}
}

// A failed computation keeps nothing: the kept value stays, and the next
// reader computes.
func TestFailedComputationKeepsTheLastValue(t *testing.T) {
	ctx := context.Background()
	var m Memo[int, string]
	var calls atomic.Int32
	if _, err := m.Get(ctx, Equal(1), constant("one", 1, &calls)); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if _, err := m.Get(ctx, Equal(2), func(context.Context) (string, int, error) { return "bad", 2, boom }); !errors.Is(err, boom) {
		t.Fatalf("err %v, want boom", err)
	}
	if k, v, _ := m.Peek(); k != 1 || v != "one" {
		t.Errorf("after a failure kept %d %q, want 1 one", k, v)
	}
	if v, err := m.Get(ctx, Equal(2), constant("two", 2, &calls)); err != nil || v != "two" {
		t.Errorf("next reader got %q %v", v, err)
	}
}

// Replaces keeps the newer of two values whose computations ended out of
// order.
func TestReplacesKeepsTheNewer(t *testing.T) {
	ctx := context.Background()
	m := Memo[int, string]{Replaces: func(kept, made int) bool { return made >= kept }}
	var calls atomic.Int32
	if _, err := m.Get(ctx, Equal(5), constant("five", 5, &calls)); err != nil {
		t.Fatal(err)
	}
	// A reader of version 3 whose read was older than what is kept.
	got, err := m.Get(ctx, Equal(3), constant("three", 3, &calls))
	if err != nil || got != "three" {
		t.Fatalf("reader got %q %v, want its own value", got, err)
	}
	if k, v, _ := m.Peek(); k != 5 || v != "five" {
		t.Errorf("kept %d %q, want the newer 5 five", k, v)
	}
}
