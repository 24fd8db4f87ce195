package redisstore_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/testproc"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store/redisstore/internal/replicaserver"
	"github.com/fastmcp-go/fastmcp/transport"
)

var quietSlog = slog.New(slog.DiscardHandler)

// envReplica makes the test binary run as a replica (see TestMain).
const envReplica = "FASTMCP_TEST_REPLICA"

// replicaProc is a replica process the test started.
type replicaProc struct {
	name   string
	url    string
	cmd    *exec.Cmd
	exited chan error
}

// startReplica runs the test binary as replica name on the Redis at
// redisAddr, and stops it (SIGTERM) when the test ends.
func startReplica(t *testing.T, redisAddr, name string) *replicaProc {
	t.Helper()
	cmd := exec.Command(testproc.Self(t))
	cmd.Env = testproc.Env(envReplica+"=1", "FASTMCP_REDIS_URL=redis://"+redisAddr, replicaserver.EnvName+"="+name,
		"PATH="+os.Getenv("PATH"))
	cmd.Stderr = &testWriter{t: t, prefix: name + ": "}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &replicaProc{name: name, cmd: cmd, exited: make(chan error, 1)}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), replicaserver.ListeningPrefix); ok {
			r.url = u
			break
		}
	}
	go func() { // drains stdout, then reaps the process
		for sc.Scan() {
		}
		r.exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-r.exited
	})
	if r.url == "" {
		t.Fatalf("replica %s did not start", name)
	}
	return r
}

// testWriter logs what a replica writes on stderr (its warnings).
type testWriter struct {
	t      *testing.T
	prefix string
}

func (w *testWriter) Write(p []byte) (int, error) {
	w.t.Logf("%s%s", w.prefix, strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// gateKey is the Redis key the test sets once it killed r1 (see
// replicaserver.WorkArgs.Gate).
const gateKey = "replicas-test:killed"

// The test's shape.
const (
	numClients = 100 // half legacy (2025-11-25), half 2026-07-28
	numCalls   = 6   // work calls per client
	workSteps  = 4   // progress notifications per work call
	numBumps   = 4   // resource updates announced, bump://1 to bump://numBumps

	// legacyAttempt guards a legacy call's attempt: far above its normal
	// duration (at most 800 ms, plus, for the call amid which the replica
	// is killed, the wait for the kill) and the time a resumed stream of a request
	// whose replica died takes to fail (410 Gone after ProbeTimeout, 2 s).
	// A call that reaches it hung: the test fails.
	legacyAttempt = 30 * time.Second
)

// watcher is one test client and what it saw.
type watcher struct {
	i      int
	modern bool
	c      *client.Client

	// gen changes when the client's listening changes: a restored listen
	// (2026-07-28, +1), a lost session (legacy, +1 when the client finds
	// it lost, +1 once the new session is subscribed). A bump announced
	// while gen keeps one value up to the end must reach the client.
	gen atomic.Int64

	mu        sync.Mutex
	got       map[int64]int // bump n → notifications received
	results   map[string]int
	reopened  int // legacy: sessions opened again after the old one was lost
	resent    int // legacy: calls made again in the same session after their answer was lost
	abandoned int // legacy: calls given up after legacyAttempt and made again
	broken    int // calls whose progress shows more than one attempt
	taskID    string
	holdID    string // a task that runs until the end, on some replica
}

// TestReplicas is the multi-replica test of issue 18: three replica
// processes on one Redis behind a round-robin proxy, 100 clients of both
// eras calling a streaming tool while listening for resource updates, one
// replica killed with SIGKILL while calls stream through it: every client
// starts its third call at once, and the kill comes when all of them have
// its second progress step.
//
// What is counted, and what "lost" means for each era:
//
//   - Calls, both eras: every work call returns exactly one result, its
//     own (matching id), and its progress, seen across attempts, is one or
//     more runs 1, 2, … each a prefix of 1..workSteps and the last one
//     complete: an attempt cut by the kill shows as a shorter run, and no
//     step is delivered twice within an attempt. A 2026-07-28 call whose
//     stream broke is re-issued by the client (that revision has no
//     resumption: the broken request is lost and sent again with a new
//     id); a legacy call resumes with Last-Event-ID on another replica
//     (sessions are shared), and when that fails too (the request died
//     with its replica: the resumption gets 410 Gone and the call fails
//     with transport.ErrStreamLost), or the proxy answered 502, the test
//     calls again in the same session, as a user of a legacy client
//     would. No legacy session may be lost, and no call may hang.
//   - Resource updates: no client gets a bump twice. A client whose
//     listen (2026-07-28) or session (legacy) was never lost from before a
//     bump was announced to the end of the test must get it: a 2026-07-28
//     listen that broke is restored by the client, but what was announced
//     in the gap is lost by definition (the revision has no redelivery),
//     which the client reports with WithListenRestoredHandler; a legacy
//     session survives its replica, and so do its resources/subscribe
//     subscriptions, kept in the session store whichever replica took them
//     (the proxy tells which the dead one took: some must be); its GET
//     stream resumes elsewhere from the shared event log, losing nothing.
//     Every client has the updates announced before the kill before it
//     happens.
//   - Listens: after the kill, every client is listening again (2026-07-28:
//     a subscriptions/listen stream; legacy: a GET stream), counted at the
//     proxy.
//   - Tasks: a task created before the kill (on any replica) is read
//     afterwards, completed, from another (the shared task store); a task
//     still running is read working from a survivor that runs it, and
//     failed ("the server replica running this task stopped") once the
//     lease of r1, which ran it, lapsed: never working for ever.
func TestReplicas(t *testing.T) {
	start := time.Now()
	srv := startRedis(t)
	replicas := make([]*replicaProc, 3)
	urls := make([]string, len(replicas))
	for i := range replicas {
		replicas[i] = startReplica(t, srv.addr, fmt.Sprintf("r%d", i))
		urls[i] = replicas[i].url
	}
	t.Logf("replicas up (%v)", time.Since(start))
	proxy, err := replicaserver.NewProxy(urls...)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(proxy)
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// Connect and subscribe every client to every bump.
	ws := make([]*watcher, numClients)
	var wg sync.WaitGroup
	errs := make(chan error, numClients)
	for i := range ws {
		w := &watcher{i: i, modern: i%2 == 1, got: map[int64]int{}, results: map[string]int{}}
		ws[i] = w
		wg.Go(func() {
			if err := w.connect(ctx, ts.URL); err != nil {
				errs <- fmt.Errorf("client %d: %w", w.i, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	// The clients close before the proxy (deferred earlier), also when
	// one of them failed: the proxy's Close waits for their streams.
	defer func() {
		for _, w := range ws {
			w.close()
		}
	}()
	for err := range errs {
		t.Fatal(err)
	}
	half := numClients / 2
	t.Logf("%d clients connected and subscribed (%v)", numClients, time.Since(start))
	if err := proxy.WaitStreams(ctx, func(l, g int) bool { return l == half && g == half }); err != nil {
		l, g := proxy.Streams()
		t.Fatalf("listening before the run: %d listens, %d GET streams, want %d of each: %v", l, g, half, err)
	}

	// The run: clients call, a bumper announces updates, and r1 is killed
	// while every client is amid its last call before the middle (it got
	// progress step 2 of 4), so that the streams through r1 break. Every
	// client waits for the kill before its middle call, so that each calls
	// again afterwards.
	killed := make(chan struct{})
	var inFlight atomic.Int64 // clients amid their last call before the middle
	var ready sync.WaitGroup  // clients about to start it
	ready.Add(numClients)
	var killOnce sync.Once
	firstHalf := make(chan struct{}) // every client has the bumps announced before the kill
	// The calls amid which r1 is killed wait after their step 2 until the
	// gate opens, after the kill: the kill cuts those through r1 however
	// slowly the 100 clients get there on a loaded machine.
	rdb := srv.client(t)
	kill := func() {
		killOnce.Do(func() {
			select {
			case <-firstHalf:
			case <-ctx.Done():
			}
			if err := replicas[1].cmd.Process.Kill(); err != nil { // SIGKILL
				t.Error(err)
			}
			close(killed)
			if err := rdb.Set(context.WithoutCancel(ctx), gateKey, "open", 0).Err(); err != nil {
				t.Errorf("opening the gate: %v", err)
			}
		})
	}
	snapshots := make([][]int64, numBumps+1) // bump n → each client's gen before it was announced
	bumpErr := make(chan error, 1)
	go func() {
		bumpErr <- bumpAll(ctx, ts.URL, ws, snapshots, firstHalf, killed)
	}()
	errs = make(chan error, numClients)
	for _, w := range ws {
		wg.Go(func() {
			for k := range numCalls {
				if k == numCalls/2 {
					select {
					case <-killed:
					case <-ctx.Done():
					}
				}
				var midstream func()
				if k == numCalls/2-1 {
					// All start it together, so that all are amid it at the kill.
					ready.Done()
					ready.Wait()
					var once sync.Once
					midstream = func() {
						once.Do(func() {
							if inFlight.Add(1) == numClients {
								kill()
							}
						})
					}
				}
				if err := w.work(ctx, ts.URL, fmt.Sprintf("c%d-%d", w.i, k), midstream); err != nil {
					errs <- fmt.Errorf("client %d call %d: %w", w.i, k, err)
					if k < numCalls/2-1 {
						ready.Done() // not to leave the others waiting
					}
					kill()
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("calls done (%v)", time.Since(start))
	if err := <-bumpErr; err != nil {
		t.Fatalf("bumping: %v", err)
	}
	if t.Failed() {
		return
	}
	select {
	case <-killed:
	default:
		t.Fatal("the replica was never killed")
	}
	if down := proxy.Down(); !down[1] || down[0] || down[2] {
		t.Errorf("the proxy found these replicas down: %v, want r1 only", down)
	}

	// Every client is listening again.
	if err := proxy.WaitStreams(ctx, func(l, g int) bool { return l == half && g == half }); err != nil {
		l, g := proxy.Streams()
		t.Errorf("listening after the kill: %d listens, %d GET streams, want %d of each: %v", l, g, half, err)
	}

	// Tasks created before the kill are read from the survivors: ended
	// tasks completed, those still running on a survivor working, and
	// those that ran on r1 failed once their lease lapsed.
	var lapsed int
	for _, w := range ws {
		if w.modern {
			if err := w.checkTask(ctx); err != nil {
				t.Errorf("client %d: %v", w.i, err)
			}
			failed, err := w.checkHold(ctx, replicaserver.HeldBy("r1"))
			if err != nil {
				t.Errorf("client %d: %v", w.i, err)
			}
			if failed {
				lapsed++
			}
		}
	}
	t.Logf("%d tasks running on r1 reported failed by the survivors", lapsed)
	if lapsed == 0 {
		t.Error("no task ran on r1: the lapse of its leases was not tested")
	}

	// The counts.
	var reopened, resent, abandoned, broken, restored int
	for _, w := range ws {
		w.mu.Lock()
		for k := range numCalls {
			id := fmt.Sprintf("c%d-%d", w.i, k)
			if n := w.results[id]; n != 1 {
				t.Errorf("client %d: call %s returned %d results, want 1", w.i, id, n)
			}
		}
		for n, c := range w.got {
			if c > 1 {
				t.Errorf("client %d got bump %d %d times", w.i, n, c)
			}
		}
		reopened += w.reopened
		resent += w.resent
		abandoned += w.abandoned
		broken += w.broken
		if w.modern {
			restored += int(w.gen.Load())
		}
		w.mu.Unlock()
	}
	t.Logf("after the kill: %d calls cut (re-sent or resumed), legacy calls made again in their session: "+
		"%d after a transport error, %d abandoned after %v; %d legacy sessions opened again, %d listens restored",
		broken, resent, abandoned, legacyAttempt, reopened, restored)
	if broken == 0 {
		t.Error("the kill cut no call: nothing was tested mid-stream")
	}
	if abandoned > 0 {
		t.Errorf("%d legacy calls hung until the %v guard: a call whose request died with its replica must fail (transport.ErrStreamLost)", abandoned, legacyAttempt)
	}
	if reopened > 0 {
		t.Errorf("%d legacy sessions were lost with their replica; want all continued on another", reopened)
	}
	// A legacy session's resources/subscribe lives in the session store:
	// the subscriptions r1 took survive it, and their updates announced
	// after the kill are counted like every other. The proxy tells which
	// r1 took, so that the test knows it tested some.
	var onKilled int
	for _, w := range ws {
		for n := int64(numBumps/2 + 1); n <= numBumps; n++ {
			if r, ok := proxy.SubscribedOn(strconv.Itoa(w.i), replicaserver.BumpURI(n)); !w.modern && ok && r == 1 {
				onKilled++
			}
		}
		if err := w.awaitBumps(ctx, snapshots); err != nil {
			t.Errorf("client %d: %v", w.i, err)
		}
	}
	t.Logf("%d legacy subscriptions (session, URI of an update after the kill) taken by r1", onKilled)
	if onKilled == 0 {
		t.Error("r1 took no legacy subscription: their survival was not tested")
	}
}

// connect connects w through the proxy at url and subscribes it to every
// bump.
func (w *watcher) connect(ctx context.Context, url string) error {
	v := "2025-11-25"
	if w.modern {
		v = "2026-07-28"
	}
	opts := []client.Option{client.WithProtocolVersion(v), client.WithLogger(quietSlog),
		client.WithHTTPHeader(http.Header{replicaserver.ClientHeader: {strconv.Itoa(w.i)}})}
	if w.modern {
		opts = append(opts, client.WithListenRestoredHandler(func() { w.gen.Add(1) }))
	}
	c, err := client.ConnectHTTP(ctx, url+"/mcp", opts...)
	if err != nil {
		return err
	}
	w.mu.Lock()
	w.c = c
	w.mu.Unlock()
	for n := int64(1); n <= numBumps; n++ {
		if err := c.Subscribe(ctx, replicaserver.BumpURI(n), func(string) {
			w.mu.Lock()
			w.got[n]++
			w.mu.Unlock()
		}); err != nil {
			return fmt.Errorf("subscribing: %w", err)
		}
	}
	return nil
}

func (w *watcher) conn() *client.Client {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.c
}

func (w *watcher) close() {
	if c := w.conn(); c != nil {
		c.Close()
	}
}

// work calls the work tool as call id until it returns, and checks its
// result and progress. A legacy client whose session was lost opens a new
// one and calls again.
//
// With midstream, the call is slow (a step every 200 ms) and midstream is
// called once step 2 has arrived.
func (w *watcher) work(ctx context.Context, url, id string, midstream func()) error {
	var progress []int
	var pmu sync.Mutex
	opt := client.WithProgress(func(p *protocol.ProgressParams) {
		pmu.Lock()
		progress = append(progress, int(p.Progress))
		pmu.Unlock()
		if p.Progress == 2 && midstream != nil {
			go midstream() // not on the client's reading goroutine
		}
	})
	args := replicaserver.WorkArgs{ID: id, Steps: workSteps, DelayMs: 3}
	if midstream != nil {
		args.DelayMs = 200
		args.Gate, args.GateAfter = gateKey, 2 // held there until the kill
	}
	for attempt := 0; ; attempt++ {
		actx, cancel := ctx, context.CancelFunc(func() {})
		if !w.modern {
			// A legacy call whose replica died is resumed on another,
			// which finds that no replica runs the request: the call
			// fails with ErrStreamLost (docs/scale.md). The deadline
			// only guards against a hang, which fails the test.
			actx, cancel = context.WithTimeout(ctx, legacyAttempt)
		}
		res, err := w.conn().CallTool(actx, "work", args, opt)
		cancel()
		switch {
		case err == nil || w.modern || attempt >= 3:
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			w.mu.Lock()
			w.abandoned++
			w.mu.Unlock()
			continue
		case errors.Is(err, transport.ErrSessionExpired):
			// The session died with its replica (it should not: sessions
			// are shared): a new session, subscribed again.
			if rerr := w.reopen(ctx, url); rerr != nil {
				return fmt.Errorf("opening a new session after %v: %w", err, rerr)
			}
			continue
		case errors.Is(err, transport.ErrTransport) || isBadGateway(err):
			// The answer was lost and its stream could not be resumed
			// (or the proxy's connection to the dead replica broke
			// before it): the call again, in the same session.
			w.mu.Lock()
			w.resent++
			w.mu.Unlock()
			continue
		}
		if err != nil {
			return err
		}
		var out replicaserver.WorkResult
		if err := res.Structured(&out); err != nil || out.ID != id || out.Steps != workSteps {
			return fmt.Errorf("result %+v (%v), want id %s", out, err, id)
		}
		break
	}
	pmu.Lock()
	defer pmu.Unlock()
	runs, err := progressRuns(progress, workSteps)
	if err != nil {
		return err
	}
	w.mu.Lock()
	w.results[id]++
	if runs > 1 {
		w.broken++
	}
	w.mu.Unlock()
	if w.modern && w.taskID == "" {
		_, task, err := w.conn().StartTool(ctx, "report", map[string]string{"id": id})
		if err != nil || task == nil {
			return fmt.Errorf("starting the report task: %v, %v", task, err)
		}
		w.taskID = task.TaskID
		if _, task, err = w.conn().StartTool(ctx, "hold", nil); err != nil || task == nil {
			return fmt.Errorf("starting the hold task: %v, %v", task, err)
		}
		w.holdID = task.TaskID
	}
	return nil
}

// checkHold reads w's hold task until it knows where it ran: on a
// survivor it is still working, its status message naming the replica;
// on the killed replica it is reported failed once its lease lapsed
// (never working for ever). It reports whether the task failed so.
func (w *watcher) checkHold(ctx context.Context, killed string) (failed bool, err error) {
	for {
		task, err := w.conn().GetTask(ctx, w.holdID)
		if err != nil {
			return false, fmt.Errorf("hold task %s: %w", w.holdID, err)
		}
		switch {
		case task.Status == protocol.TaskFailed:
			if task.StatusMessage != fastmcp.TaskLapsedMessage {
				return false, fmt.Errorf("hold task %s failed: %q, want %q", w.holdID, task.StatusMessage, fastmcp.TaskLapsedMessage)
			}
			return true, nil
		case task.Status != protocol.TaskWorking:
			return false, fmt.Errorf("hold task %s: status %s", w.holdID, task.Status)
		case task.StatusMessage != "" && task.StatusMessage != killed:
			return false, nil // a survivor runs it
		}
		if err := sleepCtx(ctx, 50*time.Millisecond); err != nil { // poll interval
			return false, fmt.Errorf("hold task %s still working (%q): %w", w.holdID, task.StatusMessage, err)
		}
	}
}

// progressRuns checks the progress a call reported across its attempts:
// runs 1, 2, … each a prefix of 1..steps, the last one complete. It returns
// the number of runs (attempts that reported progress).
func progressRuns(progress []int, steps int) (int, error) {
	runs, next := 0, 1
	for _, p := range progress {
		switch p {
		case 1:
			runs, next = runs+1, 2
		case next:
			next++
		default:
			return 0, fmt.Errorf("progress %v: step %d out of order (lost or duplicated)", progress, p)
		}
		if next > steps+1 {
			return 0, fmt.Errorf("progress %v: more than %d steps", progress, steps)
		}
	}
	if next != steps+1 {
		return 0, fmt.Errorf("progress %v: the last attempt did not report every step", progress)
	}
	return runs, nil
}

func isBadGateway(err error) bool {
	he, ok := errors.AsType[*transport.HTTPError](err)
	return ok && he.StatusCode == http.StatusBadGateway
}

// reopen replaces w's lost legacy session with a new one, subscribed again.
func (w *watcher) reopen(ctx context.Context, url string) error {
	old := w.conn()
	w.gen.Add(1)
	w.mu.Lock()
	w.reopened++
	w.mu.Unlock()
	if err := w.connect(ctx, url); err != nil {
		return err
	}
	// Subscribed again: what is announced from now on must arrive.
	w.gen.Add(1)
	old.Close()
	return nil
}

// checkTask reads w's report task, completed, from whichever replica the
// proxy picks.
func (w *watcher) checkTask(ctx context.Context) error {
	for {
		task, err := w.conn().GetTask(ctx, w.taskID)
		if err != nil {
			return fmt.Errorf("task %s: %w", w.taskID, err)
		}
		switch task.Status {
		case protocol.TaskCompleted:
			var res fastmcp.ToolResult
			if err := protocol.Unmarshal(task.Result, &res); err != nil || !strings.HasPrefix(res.Text(), "report c") {
				return fmt.Errorf("task %s: result %s (%v)", w.taskID, task.Result, err)
			}
			return nil
		case protocol.TaskWorking:
			if err := sleepCtx(ctx, 10*time.Millisecond); err != nil { // poll interval
				return fmt.Errorf("task %s still working: %w", w.taskID, err)
			}
		default:
			return fmt.Errorf("task %s: status %s", w.taskID, task.Status)
		}
	}
}

// awaitBumps waits until w has every bump it must get: those announced
// while its gen kept the value it has at the end.
func (w *watcher) awaitBumps(ctx context.Context, snapshots [][]int64) error {
	final := w.gen.Load()
	for {
		var missing []int64
		w.mu.Lock()
		for n := int64(1); n < int64(len(snapshots)); n++ {
			if snapshots[n][w.i] == final && w.got[n] == 0 {
				missing = append(missing, n)
			}
		}
		w.mu.Unlock()
		if len(missing) == 0 {
			return nil
		}
		if err := sleepCtx(ctx, 10*time.Millisecond); err != nil { // poll interval
			return fmt.Errorf("never got bumps %v (gen %d)", missing, final)
		}
	}
}

// bumpAll announces the bumps through its own 2026-07-28 client: the first
// half, then, once every client has them (it closes firstHalf, which lets
// the kill happen), waits for the kill and announces the rest. Before each,
// it records every client's gen.
func bumpAll(ctx context.Context, url string, ws []*watcher, snapshots [][]int64, firstHalf chan<- struct{}, killed <-chan struct{}) error {
	c, err := client.ConnectHTTP(ctx, url+"/mcp", client.WithProtocolVersion("2026-07-28"), client.WithLogger(quietSlog))
	if err != nil {
		return err
	}
	defer c.Close()
	for next := int64(1); next <= numBumps; {
		if next > numBumps/2 {
			if firstHalf != nil {
				// Every client has them before the kill: no update
				// announced before it is lost with it.
				for _, w := range ws {
					if err := w.awaitBumps(ctx, snapshots[:numBumps/2+1]); err != nil {
						return fmt.Errorf("client %d before the kill: %w", w.i, err)
					}
				}
				close(firstHalf)
				firstHalf = nil
			}
			select {
			case <-killed:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		snap := make([]int64, len(ws))
		for i, w := range ws {
			snap[i] = w.gen.Load()
		}
		res, err := c.CallTool(ctx, "bump", nil)
		if err != nil {
			return err
		}
		var out replicaserver.BumpResult
		if err := res.Structured(&out); err != nil || out.N < next {
			return fmt.Errorf("bump %d answered %+v (%v)", next, out, err)
		}
		// A bump re-issued after its stream broke was counted (and maybe
		// announced) more than once: the numbers it skipped were announced
		// in the same window.
		for ; next <= out.N && next <= numBumps; next++ {
			snapshots[next] = snap
		}
		next = out.N + 1
	}
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
