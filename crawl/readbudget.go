package crawl

import (
	"context"
	"io"
	"sync"
)

// maxReadingBytes is how many bytes the bodies being read at once, and
// those read and not yet parsed, may hold beyond the largest one being read:
// a crawl's fetches at once do not each hold a body of up to MaxBodySize
// (twice over, for colly's copy and the capture's), whatever Parallel says.
const maxReadingBytes = 8 << 20

// readBudget bounds the bytes of the bodies being read at once and of
// those read and waiting to be parsed (see add). The body being read that
// holds the most (the oldest of those, on a tie) may always go on, so that
// some read always progresses (parsing does not wait for the budget), and
// a body that comes slowly, holding little, does not hold the others back;
// the others wait while the bound is reached, until a body is closed or
// parsed, or is no longer the largest.
type readBudget struct {
	max int

	mu      sync.Mutex
	held    int           // bytes read by the bodies open
	queued  int           // bytes of bodies read and not yet parsed
	open    []*budgetBody // oldest first
	changed chan struct{} // closed, and made anew, when bytes are freed
	most    int           // the most held by bodies read at once, beyond the largest one's: what tests check
}

func newReadBudget(max int) *readBudget {
	return &readBudget{max: max, changed: make(chan struct{})}
}

// body returns rc, counted against the budget until it is closed; reads
// waiting for room end when ctx does.
func (b *readBudget) body(ctx context.Context, rc io.ReadCloser) io.ReadCloser {
	bb := &budgetBody{ReadCloser: rc, budget: b, ctx: ctx}
	b.mu.Lock()
	b.open = append(b.open, bb)
	b.mu.Unlock()
	return bb
}

// leader returns the body open that holds the most, the oldest on a tie.
// b.mu must be held, and a body be open.
func (b *readBudget) leader() *budgetBody {
	l := b.open[0]
	for _, o := range b.open[1:] {
		if o.held > l.held {
			l = o
		}
	}
	return l
}

// take counts n more bytes read by bb, waiting while they would go over the
// bound and bb is not the body open that holds the most.
func (b *readBudget) take(bb *budgetBody, n int) error {
	b.mu.Lock()
	for b.held+b.queued+n > b.max && b.leader() != bb {
		changed := b.changed
		b.mu.Unlock()
		select {
		case <-changed:
		case <-bb.ctx.Done():
			return bb.ctx.Err()
		}
		b.mu.Lock()
	}
	b.held += n
	bb.held += n
	b.most = max(b.most, b.held-b.leader().held)
	b.mu.Unlock()
	return nil
}

// add counts n more bytes of bodies read and not yet parsed (fewer when
// n < 0). It never waits: the bytes are there already.
func (b *readBudget) add(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.queued += n
	if n < 0 {
		b.freed()
	}
}

// release forgets bb and its bytes, and wakes the reads waiting: one of
// them may now hold the most.
func (b *readBudget) release(bb *budgetBody) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, o := range b.open {
		if o == bb {
			b.open = append(b.open[:i], b.open[i+1:]...)
			b.held -= bb.held
			b.freed()
			return
		}
	}
}

// freed wakes the reads waiting for room. b.mu must be held.
func (b *readBudget) freed() {
	close(b.changed)
	b.changed = make(chan struct{})
}

// budgetBody is a body counted against a readBudget.
type budgetBody struct {
	io.ReadCloser
	budget *readBudget
	ctx    context.Context
	held   int // bytes read, counted in budget.held
	once   sync.Once
}

// Read reads, then counts what it read: it waits, holding it, while the
// budget has no room, so a body goes over the bound by one read at most.
func (bb *budgetBody) Read(p []byte) (int, error) {
	n, err := bb.ReadCloser.Read(p)
	if n > 0 {
		if werr := bb.budget.take(bb, n); werr != nil {
			return n, werr
		}
	}
	return n, err
}

// Close closes the body, then frees its room: closing it hands its capture
// over (see OnCapture), which holds its bytes until then.
func (bb *budgetBody) Close() error {
	err := bb.ReadCloser.Close()
	bb.once.Do(func() { bb.budget.release(bb) })
	return err
}
