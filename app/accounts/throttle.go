package accounts

import (
	"sync"
	"time"
)

// throttle slows failed sign-ins. Each attempt is counted against a few
// keys (see [Service.SignIn]: the name and address together, the address,
// the name, a signed device), each with its own number of free tries;
// after those, each further attempt must wait a delay that doubles with
// every failure, up to maxDelay. An attempt is counted before its password
// is hashed (reserve), so that a burst of attempts arriving together is
// slowed after the first few instead of being hashed whole; a success or
// an attempt that checked nothing gives its count back (release). Slowing
// is a refusal with the time left, not a sleep, so that a guesser holds no
// goroutine and no hash slot while it waits.
type throttle struct {
	mu    sync.Mutex
	fails map[string]failures
	// places are, by lower-case name, the addresses the name last signed
	// in from (at most placesKept): the name's own slowing, which anyone
	// anywhere can cause, does not apply there.
	places map[string][]string
}

type failures struct {
	count int
	last  time.Time
}

// key is what an attempt is counted against, and the failures it is
// allowed before it is slowed; own is a key of the librarian's alone (her
// name from one address, her device), which her success clears.
type key struct {
	id   string
	free int
	own  bool
}

const (
	// freeTries are the failures allowed for a name from one address, or
	// from one signed device.
	freeTries = 3
	// looseTries are the failures allowed from one address whatever the
	// names, and for one name from the addresses it never signed in from.
	looseTries = 10
	baseDelay  = time.Second
	maxDelay   = 15 * time.Minute
	// forgetAfter is how long a key's failures are kept after the last.
	forgetAfter = time.Hour
	// pruneAt is the number of keys at which forgotten ones are dropped.
	pruneAt = 10000
	// placesKept is the number of addresses kept for each name.
	placesKept = 8
)

// delay is the wait after n failures of a key allowed free of them.
func delay(n, free int) time.Duration {
	if n < free {
		return 0
	}
	d := baseDelay
	for i := free; i < n && d < maxDelay; i++ {
		d *= 2
	}
	return min(d, maxDelay)
}

// reserve counts an attempt against keys at now and returns 0, or returns
// how long the keys must still wait and counts nothing.
func (t *throttle) reserve(now time.Time, keys ...key) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	var w time.Duration
	for _, k := range keys {
		f := t.fails[k.id]
		if now.Sub(f.last) > forgetAfter {
			continue
		}
		if left := f.last.Add(delay(f.count, k.free)).Sub(now); f.count > 0 && left > w {
			w = left
		}
	}
	if w > 0 {
		return w
	}
	if t.fails == nil {
		t.fails = map[string]failures{}
	}
	if len(t.fails) >= pruneAt {
		for id, f := range t.fails {
			if now.Sub(f.last) > forgetAfter {
				delete(t.fails, id)
			}
		}
	}
	for _, k := range keys {
		f := t.fails[k.id]
		if now.Sub(f.last) > forgetAfter {
			f.count = 0
		}
		t.fails[k.id] = failures{count: f.count + 1, last: now}
	}
	return 0
}

// release gives back the count of one reserved attempt of each key.
func (t *throttle) release(keys ...key) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range keys {
		if f, ok := t.fails[k.id]; ok {
			if f.count <= 1 {
				delete(t.fails, k.id)
			} else {
				f.count--
				t.fails[k.id] = f
			}
		}
	}
}

// clear forgets the failures of keys.
func (t *throttle) clear(keys ...key) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range keys {
		delete(t.fails, k.id)
	}
}

// signedInFrom remembers that name signed in from address.
func (t *throttle) signedInFrom(name, address string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.places == nil {
		t.places = map[string][]string{}
	}
	kept := []string{address}
	for _, a := range t.places[name] {
		if a != address && len(kept) < placesKept {
			kept = append(kept, a)
		}
	}
	t.places[name] = kept
}

// known reports whether name signed in from address lately.
func (t *throttle) known(name, address string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, a := range t.places[name] {
		if a == address {
			return true
		}
	}
	return false
}
