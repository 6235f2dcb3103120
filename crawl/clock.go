package crawl

import (
	"errors"
	"time"
)

// Clock is the time of a crawl: what it reads as now — for its schedule
// (politeness, retries), the times it records and the calendar guard's
// "this year" — and how it waits for a time of that schedule. How long a
// request and its body take is measured on the system's clock whatever the
// Clock: that is the network's pace, not the crawl's schedule.
type Clock interface {
	Now() time.Time
	// After returns a channel that receives the time once d has passed on
	// the clock.
	After(d time.Duration) <-chan time.Time
}

// systemClock is the Clock of a crawl without a [WithClock] option.
type systemClock struct{}

func (systemClock) Now() time.Time                         { return time.Now() }
func (systemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// WithClock sets the clock of the crawl (default the system's). A test sets
// one to run a crawl's schedule without waiting for it and to read it back
// exactly, or to fix the year the calendar guard measures dates from.
func WithClock(c Clock) Option {
	return func(cfg *config) error {
		if c == nil {
			return errors.New("crawl: nil clock")
		}
		cfg.clock = c
		return nil
	}
}
