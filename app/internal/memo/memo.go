// Package memo keeps the last value a slow computation made, with the key
// it was made for, so that readers asking again for the same key get it
// back instead of computing it again.
//
// One reader computes at a time, outside the lock; the readers arriving
// meanwhile wait for it (each may give up with its context), or, in a
// [Memo] with Stale set, take the last value at once. A reader whose
// computation fails leaves the kept value as it was, and a waiter then
// computes in turn.
package memo

import (
	"context"
	"sync"
)

// Memo is the last value of type V computed and the key of type K it was
// computed for. The zero Memo is empty and ready for use; a Memo must not
// be copied after first use. Values are shared between readers: they must
// not change them.
type Memo[K comparable, V any] struct {
	// Stale lets a reader take the kept value, whatever its key, while
	// another reader computes, rather than wait for the new one.
	Stale bool
	// Replaces tells whether a value computed at key made replaces the one
	// kept at key kept; nil replaces always. A memo keyed by a version uses
	// it to keep the newer of two computations that ended out of order.
	Replaces func(kept, made K) bool

	mu    sync.Mutex
	valid bool
	key   K
	val   V
	// running is closed when the computation under way ends; nil when
	// none is.
	running chan struct{}
}

// Get returns the kept value when serves says its key serves the reader,
// else the value compute returns, which is kept under the key compute
// gives (the key of what it read, which may be newer than the reader's).
// compute runs with the reader's context.
func (m *Memo[K, V]) Get(ctx context.Context, serves func(kept K) bool, compute func(context.Context) (V, K, error)) (V, error) {
	for {
		m.mu.Lock()
		if m.valid && (serves(m.key) || (m.Stale && m.running != nil)) {
			v := m.val
			m.mu.Unlock()
			return v, nil
		}
		if m.running == nil {
			break // m.mu held: this reader computes
		}
		wait := m.running
		m.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			var zero V
			return zero, ctx.Err()
		}
	}
	done := make(chan struct{})
	m.running = done
	m.mu.Unlock()

	v, k, err := compute(ctx)

	m.mu.Lock()
	defer m.mu.Unlock()
	m.running = nil
	close(done)
	if err != nil {
		var zero V
		return zero, err
	}
	if !m.valid || m.Replaces == nil || m.Replaces(m.key, k) {
		m.valid, m.key, m.val = true, k, v
	}
	return v, nil
}

// Equal returns the serves function of a reader who wants the value of
// key and no other.
func Equal[K comparable](key K) func(kept K) bool {
	return func(kept K) bool { return kept == key }
}

// Peek returns the kept value and its key, ok false when none is kept. It
// never waits for a computation.
func (m *Memo[K, V]) Peek() (key K, val V, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.key, m.val, m.valid
}
