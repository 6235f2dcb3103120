package crawl

import (
	"sync"
	"time"
)

// stepClock is a Clock that never waits: a wait moves it forward by its
// length at once. A crawl on it runs its schedule — politeness delays,
// retry backoffs, Retry-After — in no time, and the times it records are
// the times it scheduled, exactly, however busy the machine is. Nothing
// else moves it, so what happens between two waits takes no time on it.
type stepClock struct {
	mu sync.Mutex
	t  time.Time
}

// newStepClock returns a stepClock at the time of day t.
func newStepClock(t time.Time) *stepClock { return &stepClock{t: t} }

// at2026 is the time of the tests' clocks: mid-2026, so that the calendar
// guard's "next year" is 2027.
var at2026 = time.Date(2026, time.June, 15, 12, 0, 0, 0, time.UTC)

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *stepClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	if d > 0 {
		c.t = c.t.Add(d)
	}
	t := c.t
	c.mu.Unlock()
	ch := make(chan time.Time, 1)
	ch <- t
	return ch
}
