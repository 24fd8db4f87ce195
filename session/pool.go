package session

import (
	"context"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// The worker pool: the goroutines that serve a session's requests and
// read its messages, on every transport.
//
// Why not a fresh goroutine per request behind a semaphore (issue 14,
// measured whole-process on tools/call over OS pipes, 2 cores, medians of
// 10 A/B pairs): a fresh goroutine pays the handler's stack growth every
// time (copystack was ~40% of CPU), 16 in flight 1.9x the wall time; with
// goroutines reused but no relay or spinning, one call at a time took
// 1.23x the wall time (1.32x the CPU) of this pool. Idle workers do not spin before
// they park (issue 14, bench/ BenchmarkToolCallHTTP and
// BenchmarkToolCallStdio, 12 interleaved runs, throughput ratio to the
// floor): spinning gained 6% on stdio one call at a time, under the 10%
// bar, and cost 15-18% on HTTP with 4 clients and 23% on stdio with 16 in
// flight. goroutines_test.go pins down which goroutines exist in each
// state.
//
// The reading role is handed on late (issue 30): the worker that read a
// call keeps the role, serves the call and goes back to reading; only when
// the call still runs readHandOffDelay after it was read does a timer wake
// a parked worker (or start one) to take the role over. A fast call then
// costs no wake-up at all, where handing the role on at once cost every
// call a futex wake and a park (1.42 futex calls a call against a
// hand-written server's 0.14; performance-2.md E2). The price: a message
// that arrives behind a running call waits up to readHandOffDelay (plus
// the time to wake a worker) before anyone reads it, a
// notifications/cancelled for that call too. The delay is a constant, not
// a setting: it is about one round trip over stdio (a hand-written server
// answers 15k calls/s one at a time on the benchmark machine) and far
// below any network's, a call slower than it hands the role on as before,
// and a handler that needs the next message (it calls the peer and waits
// for the answer) gets it after the delay; no user choice would do better.

// workerPool holds the requests waiting for a worker and the workers'
// accounting, under its own lock (the reading goroutine takes it once per
// request).
type workerPool struct {
	mu      sync.Mutex
	cond    sync.Cond // a parked worker waits on it
	queue   []job     // requests waiting for a worker, oldest first from head
	head    int
	max     int  // most workers at once (MaxConcurrency)
	workers int  // workers alive
	parked  int  // workers waiting on cond that no one has woken yet
	shed    int  // workers asked to exit the next time they find no work
	closed  bool // the session ended: workers exit once the queue is empty

	// The reading role moves between the workers: the worker reading a
	// call hands the role to an idle worker and serves the call itself,
	// so that the response does not wait for another goroutine to wake
	// up. reading says that one of the workers holds the role (it does not
	// count as busy), and readPending that the role waits for the worker
	// it was handed to.
	// lateHandOff, when armed (handOffArmed), wakes a worker to take a
	// pending role that no worker has taken readHandOffDelay after it was
	// left (handOff); a worker taking the role disarms it.
	reading      bool
	readPending  bool
	lateHandOff  *time.Timer
	handOffArmed bool

	served    uint64      // requests taken from the queue or kept by a reader, ever
	seen      uint64      // served when the idle timer last fired
	idle      *time.Timer // sheds the parked workers of an idle session
	idleArmed bool
}

const (
	// maxParked is how many idle workers a session keeps waiting for work;
	// more than that exit when they find nothing to do.
	maxParked = 16
	// idleWorkers is how long a session must serve no request before its
	// parked workers exit.
	idleWorkers = time.Second
	// readHandOffDelay is how long a worker serving the call it read may
	// keep the reading role before another worker is woken to read on.
	// Handing on late, against at once (issue 30; the bench/compare
	// server over OS pipes, 9 interleaved rounds, medians, 2 shared
	// cores): one call at a time 14.4k -> 18.4k calls/s, server CPU 46 ->
	// 33 µs a call, futex calls 1.10 -> 0.06 a call (perf stat); 16 in
	// flight 44.9k -> 49.5k calls/s, CPU 20 -> 17 µs. performance-2.md E2
	// found never handing on (the unsafe bound) no faster than 100 µs.
	readHandOffDelay = 100 * time.Microsecond
)

// job is one admitted request waiting to be served.
type job struct {
	ctx     context.Context // the handler's: cancelled by the peer or at the end
	related context.Context // ctx's parent, never cancelled: for the response
	cancel  context.CancelCauseFunc
	req     *Request
	resp    *protocol.Response // where to build the response
	batch   *batchReply        // the batch the request came in, if any
}

// handOff leaves the reading role pending when the call just read may be
// served at once (a turn is free and no request waits for one), and arms
// the timer that wakes a worker to take the role if the call still runs
// after readHandOffDelay. It reports whether it did; the caller then
// serves the call and, unless another worker took the role meanwhile,
// reads on.
func (s *Session) handOff() bool {
	p := &s.pool
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.head != len(p.queue) || p.busy() >= p.max {
		return false
	}
	p.readPending = true
	p.served++
	p.handOffArmed = true
	if p.lateHandOff == nil {
		p.lateHandOff = time.AfterFunc(readHandOffDelay, s.handOffLate)
	} else {
		p.lateHandOff.Reset(readHandOffDelay)
	}
	return true
}

// handOffLate runs on the lateHandOff timer: the call read last still
// runs, so a parked worker (or a new one) takes the pending reading role.
// A firing that finds the role taken, or armed again for the next call,
// wakes a worker at most readHandOffDelay early, as handing on at once
// did always.
func (s *Session) handOffLate() {
	p := &s.pool
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || !p.readPending || !p.handOffArmed {
		return
	}
	p.handOffArmed = false
	switch {
	case p.parked > 0:
		p.parked--
		p.cond.Signal()
	default:
		s.startWorkerLocked()
	}
}

// takeRole gives the pending reading role to the calling worker; p.mu
// held.
func (p *workerPool) takeRole() {
	p.readPending = false
	if p.handOffArmed {
		p.handOffArmed = false
		p.lateHandOff.Stop()
	}
}

// stopReading records that the reading role has ended.
func (p *workerPool) stopReading() {
	p.mu.Lock()
	p.reading = false
	p.mu.Unlock()
}

// busy is how many requests are being served; p.mu held.
func (p *workerPool) busy() int {
	n := p.workers - p.parked
	if p.reading {
		n-- // the worker holding the reading role
	}
	return n
}

// enqueue hands an admitted request to a worker: a parked one if there is
// one, else a new one while fewer than MaxConcurrency requests are being
// served; otherwise it waits in the queue for the first worker to finish.
// It never blocks on handlers. Once the session has ended it serves the
// (cancelled) request itself, which only does the bookkeeping: no worker
// may start after Close began to wait for them.
func (s *Session) enqueue(j job) {
	p := &s.pool
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		s.serve(j)
		return
	}
	if p.head > 0 && len(p.queue) == cap(p.queue) {
		// Reuse the space of the requests already taken rather than grow.
		n := copy(p.queue, p.queue[p.head:])
		clear(p.queue[n:])
		p.queue, p.head = p.queue[:n], 0
	}
	p.queue = append(p.queue, j)
	switch {
	case p.parked > 0:
		p.parked--
		p.cond.Signal()
	case p.busy() < p.max:
		s.startWorkerLocked()
	}
	p.mu.Unlock()
}

// startWorkerLocked starts a worker; s.pool.mu held, the session open.
func (s *Session) startWorkerLocked() {
	p := &s.pool
	p.workers++
	s.handlers.Add(1)
	go s.work()
	if !p.idleArmed {
		p.idleArmed = true
		if p.idle == nil {
			p.idle = time.AfterFunc(idleWorkers, p.shedIdle)
		} else {
			p.idle.Reset(idleWorkers)
		}
	}
}

// shedIdle runs on the idle timer: when no request was served since it
// last ran, it asks the parked workers to exit. It re-arms itself while
// workers remain.
func (p *workerPool) shedIdle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		p.idleArmed = false
		return
	}
	if p.served == p.seen && p.parked > 0 {
		p.shed += p.parked
		p.parked = 0
		p.cond.Broadcast()
	}
	p.seen = p.served
	if idle := p.workers; (p.reading && idle > p.shed+1) || (!p.reading && idle > p.shed) {
		p.idle.Reset(idleWorkers)
	} else {
		p.idleArmed = false
	}
}

// work is a worker: it serves queued requests one after another, takes
// the reading role when it is handed the role, and parks when there is
// nothing to do, until the session ends (or enough workers are parked
// already).
func (s *Session) work() {
	defer s.handlers.Done()
	p := &s.pool
	for {
		p.mu.Lock()
		for p.head == len(p.queue) && !p.readPending {
			if p.closed || p.shed > 0 || p.parked >= maxParked {
				if p.shed > 0 {
					p.shed--
				}
				p.workers--
				p.mu.Unlock()
				return
			}
			p.parked++
			p.cond.Wait() // whoever wakes us has counted us out of parked
		}
		if p.readPending {
			p.takeRole()
			p.mu.Unlock()
			if j, ok := s.read(); ok {
				s.serve(j)
			}
			continue
		}
		j := p.queue[p.head]
		p.queue[p.head] = job{}
		p.head++
		p.served++
		if p.head == len(p.queue) {
			p.queue, p.head = p.queue[:0], 0
		}
		p.mu.Unlock()
		s.serve(j)
	}
}

// close wakes every parked worker so that the workers exit once the queue
// is drained (the requests left in it are cancelled and end quickly).
func (p *workerPool) close() {
	p.mu.Lock()
	p.closed = true
	p.parked = 0
	if p.idle != nil {
		p.idle.Stop()
		p.idleArmed = false
	}
	if p.handOffArmed {
		p.handOffArmed = false
		p.lateHandOff.Stop()
	}
	p.cond.Broadcast()
	p.mu.Unlock()
}
