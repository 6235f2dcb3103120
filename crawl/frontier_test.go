package crawl

import (
	"context"
	"fmt"
	"testing"
	"time"
)

func TestFrontierFIFOAndDedup(t *testing.T) {
	f := newFrontier()
	a, added := f.site("a.test")
	if !added || a.id != 0 {
		t.Fatalf("first site: id %d, added %v", a.id, added)
	}
	b, _ := f.site("b.test")
	if again, added := f.site("a.test"); again != a || added || b.id != 1 {
		t.Fatal("site ids not stable")
	}
	for i := range 3 {
		if !f.push(a, queuedURL{url: fmt.Sprintf("http://a.test/%d", i), depth: i}) {
			t.Fatalf("push %d refused", i)
		}
	}
	if f.push(a, queuedURL{url: "http://a.test/1", depth: 5}) {
		t.Error("duplicate URL queued")
	}
	f.push(b, queuedURL{url: "http://b.test/", depth: 0})
	if f.queued != 4 || a.waiting != 3 || b.waiting != 1 {
		t.Fatalf("queued %d, a %d, b %d", f.queued, a.waiting, b.waiting)
	}
	for i := range 3 {
		q, ok := f.pop(a)
		if !ok || q.url != fmt.Sprintf("http://a.test/%d", i) || q.depth != i {
			t.Fatalf("pop %d = %+v, %v", i, q, ok)
		}
	}
	if _, ok := f.pop(a); ok {
		t.Error("pop from an empty queue")
	}
	if f.push(a, queuedURL{url: "http://a.test/0", depth: 0}) {
		t.Error("a fetched URL was queued again")
	}
}

func TestFrontierMarkDone(t *testing.T) {
	f := newFrontier()
	a, _ := f.site("a.test")
	f.push(a, queuedURL{url: "http://a.test/1", depth: 1})
	f.push(a, queuedURL{url: "http://a.test/2", depth: 1})
	// A redirect lands on a queued URL: it is fetched, so pop skips it.
	if f.markDone("http://a.test/1", a) {
		t.Error("queued URL reported as already done")
	}
	if f.queued != 1 || a.waiting != 1 {
		t.Errorf("after markDone: queued %d, waiting %d", f.queued, a.waiting)
	}
	if q, ok := f.pop(a); !ok || q.url != "http://a.test/2" {
		t.Errorf("pop = %+v, %v; want /2", q, ok)
	}
	if !f.markDone("http://a.test/2", a) || !f.markDone("http://a.test/1", a) {
		t.Error("done URL not reported as done")
	}
	if f.markDone("http://a.test/new", a) || !f.markDone("http://a.test/new", a) {
		t.Error("unknown URL: first markDone must report new, second done")
	}
}

func TestFrontierCloseAndCompact(t *testing.T) {
	f := newFrontier()
	a, _ := f.site("a.test")
	b, _ := f.site("b.test")
	for i := range 200 {
		f.push(a, queuedURL{url: fmt.Sprintf("http://a.test/%d", i), depth: 0})
	}
	f.push(b, queuedURL{url: "http://b.test/", depth: 0})
	for i := range 150 {
		if q, _ := f.pop(a); q.url != fmt.Sprintf("http://a.test/%d", i) {
			t.Fatalf("pop %d = %q", i, q.url)
		}
	}
	if len(a.queue)-a.head != 50 || len(a.queue) > 150 {
		t.Errorf("queue of %d with head %d: not compacted", len(a.queue), a.head)
	}
	f.closeSite(a)
	if f.queued != 1 || a.waiting != 0 || f.push(a, queuedURL{url: "http://a.test/x", depth: 0}) {
		t.Errorf("after close: queued %d, waiting %d", f.queued, a.waiting)
	}
	if f.push(b, queuedURL{url: "http://a.test/199", depth: 0}) {
		t.Error("a dropped URL was queued again")
	}
}

// TestPacer: a second request to a site waits for the first to end, then
// the site's delay, on the crawl's clock: exactly the delay after the
// first ended.
func TestPacer(t *testing.T) {
	const delay = 30 * time.Millisecond
	clk := newStepClock(at2026)
	woke := make(chan struct{}, 10)
	p := newPacer(delay, DefaultMaxDelay, clk, func() { woke <- struct{}{} })
	ctx := context.Background()
	if err := p.acquire(ctx, "a.test"); err != nil {
		t.Fatal(err)
	}
	got := make(chan time.Time)
	go func() {
		if err := p.acquire(ctx, "a.test"); err != nil {
			t.Error(err)
		}
		got <- clk.Now()
	}()
	released := clk.Now()
	p.release("a.test")
	<-woke
	if at := <-got; at.Sub(released) != delay {
		t.Errorf("second request %v after the first ended, want the delay %v", at.Sub(released), delay)
	}
	p.mu.Lock()
	_, busy := p.readyAt("a.test")
	at, _ := p.readyAt("b.test")
	p.mu.Unlock()
	if !busy || !at.IsZero() {
		t.Errorf("readyAt: a busy %v, b at %v", busy, at)
	}
	// Waiting stops with the context.
	cctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	if err := p.acquire(cctx, "a.test"); err == nil {
		t.Error("acquire of a busy site returned before its context ended")
	}
}
