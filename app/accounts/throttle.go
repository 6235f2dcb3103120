package accounts

import (
	"sync"
	"time"
)

// throttle slows failed sign-ins, per name and per address: after
// freeTries failures, each further attempt must wait a delay that doubles
// with every failure, up to maxDelay. A success clears the name's and the
// address's count. Slowing is a refusal with the time left, not a sleep,
// so that a guesser holds no goroutine and no hash slot while it waits.
type throttle struct {
	mu    sync.Mutex
	fails map[string]failures
}

type failures struct {
	count int
	last  time.Time
}

const (
	freeTries = 3
	baseDelay = time.Second
	maxDelay  = 15 * time.Minute
	// forgetAfter is how long a key's failures are kept after the last.
	forgetAfter = time.Hour
	// pruneAt is the number of keys at which forgotten ones are dropped.
	pruneAt = 10000
)

// delay is the wait after n failures.
func delay(n int) time.Duration {
	if n < freeTries {
		return 0
	}
	d := baseDelay
	for i := freeTries; i < n && d < maxDelay; i++ {
		d *= 2
	}
	return min(d, maxDelay)
}

// wait returns how long the keys must still wait at now before another
// attempt; 0 allows it.
func (t *throttle) wait(now time.Time, keys ...string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	var w time.Duration
	for _, k := range keys {
		f := t.fails[k]
		if left := f.last.Add(delay(f.count)).Sub(now); f.count > 0 && left > w {
			w = left
		}
	}
	return w
}

// fail records a failure of each key at now.
func (t *throttle) fail(now time.Time, keys ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fails == nil {
		t.fails = map[string]failures{}
	}
	if len(t.fails) >= pruneAt {
		for k, f := range t.fails {
			if now.Sub(f.last) > forgetAfter {
				delete(t.fails, k)
			}
		}
	}
	for _, k := range keys {
		f := t.fails[k]
		if now.Sub(f.last) > forgetAfter {
			f.count = 0
		}
		t.fails[k] = failures{count: f.count + 1, last: now}
	}
}

// clear forgets the failures of keys.
func (t *throttle) clear(keys ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range keys {
		delete(t.fails, k)
	}
}
