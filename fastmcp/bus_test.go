package fastmcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/pubsub"
	"github.com/fastmcp-go/fastmcp/store"
)

// replica is one server of a group sharing a bus and a task store, served
// over HTTP on 127.0.0.1.
type replica struct {
	s   *fastmcp.Server
	url string
}

// replicas starts n servers sharing bus and a task store, each with the
// same tools (setup registers them), each behind its own HTTP server.
func replicas(t *testing.T, bus store.Bus, n int, setup func(*fastmcp.Server)) []replica {
	t.Helper()
	tasks := store.NewMemoryTaskStore()
	var out []replica
	for range n {
		s := newServer(fastmcp.SharedStores(&store.Stores{Bus: bus, Tasks: tasks}))
		if setup != nil {
			setup(s)
		}
		if err := s.Start(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(s)
		t.Cleanup(func() { closeNow(s); ts.Close() })
		out = append(out, replica{s, ts.URL + "/mcp"})
	}
	return out
}

// memoryBus returns a memory bus closed when the test ends, after the
// servers using it (cleanups run last-registered first).
func memoryBus(t *testing.T) *pubsub.Memory {
	b := pubsub.NewMemory(nil)
	t.Cleanup(func() { b.Close() })
	return b
}

// TestBusAnnouncements: a list change or a resource update announced on
// one replica reaches the clients of every replica, legacy and modern,
// each exactly once.
func TestBusAnnouncements(t *testing.T) {
	t.Parallel()
	bus := memoryBus(t)
	rs := replicas(t, bus, 2, func(s *fastmcp.Server) {
		s.Tool("t", func() string { return "" })
		s.Prompt("p", func() string { return "" })
		s.Resource("res://a", func() string { return "a" })
		s.Resource("res://b", func() string { return "b" })
	})
	// Each client's expected announcements: from A, then from B (B's are
	// not ordered with A's, so they are made once A's arrived). A modern
	// client with resource subscriptions gets a second listen stream
	// (each Subscribe replaces its listen, and the server may not have
	// ended the previous one yet), so modern clients either follow list
	// changes or subscribe to one resource.
	lists := [][]string{
		{protocol.NotificationToolsListChanged, protocol.NotificationPromptsListChanged},
		{protocol.NotificationResourcesListChanged},
	}
	updates := [][]string{{"res://a"}, {"res://a"}}
	type watcher struct {
		name string
		got  chan string
		want [][]string
	}
	var clients []watcher
	for i, r := range rs {
		name := " client of replica " + string(rune('A'+i))
		gotL := make(chan string, 20)
		c := connect(t, r.s, legacy, client.WithListChangedHandler(func(m string) { gotL <- m }))
		if err := c.Subscribe(ctxT(t), "res://a", func(uri string) { gotL <- uri }); err != nil {
			t.Fatal(err)
		}
		clients = append(clients, watcher{"legacy" + name, gotL, [][]string{
			{lists[0][0], updates[0][0], lists[0][1]}, {lists[1][0], updates[1][0]},
		}})
		gotM := make(chan string, 20)
		connect(t, r.s, client.WithProtocolVersion(protocol.Version20260728), client.WithListChangedHandler(func(m string) { gotM <- m }))
		clients = append(clients, watcher{"modern listing" + name, gotM, lists})
		gotS := make(chan string, 20)
		c = connect(t, r.s, client.WithProtocolVersion(protocol.Version20260728))
		if err := c.Subscribe(ctxT(t), "res://a", func(uri string) { gotS <- uri }); err != nil {
			t.Fatal(err)
		}
		clients = append(clients, watcher{"modern subscribed" + name, gotS, updates})
	}
	a, b := rs[0].s, rs[1].s
	a.NotifyToolsChanged()
	if err := a.NotifyResourceUpdated(ctxT(t), "res://a"); err != nil {
		t.Fatal(err)
	}
	a.NotifyPromptsChanged()
	for _, c := range clients {
		receiveAll(t, c.name+" from A", c.got, c.want[0])
	}
	b.NotifyResourcesChanged()
	if err := b.NotifyResourceUpdated(ctxT(t), "res://a"); err != nil {
		t.Fatal(err)
	}
	for _, c := range clients {
		receiveAll(t, c.name+" from B", c.got, c.want[1])
	}
	// Nothing more: a duplicate would be in the channel by now, as each
	// client got B's last announcement after anything before it.
	for _, c := range clients {
		select {
		case m := <-c.got:
			t.Errorf("%s: extra announcement %s", c.name, m)
		default:
		}
	}
}

// receiveAll receives len(want) announcements and checks they are want, in
// any order: a client runs its notification handlers concurrently.
func receiveAll(t *testing.T, who string, got <-chan string, want []string) {
	t.Helper()
	var all []string
	for range want {
		all = append(all, recvT(t, got))
	}
	slices.Sort(all)
	sorted := slices.Sorted(slices.Values(want))
	if !slices.Equal(all, sorted) {
		t.Fatalf("%s: got %v, want %v", who, all, sorted)
	}
}

// TestBusRegistrationStaysLocal: a tool registered on one replica changes
// that replica's list only; the other replicas' clients are not told.
func TestBusRegistrationStaysLocal(t *testing.T) {
	t.Parallel()
	bus := memoryBus(t)
	rs := replicas(t, bus, 2, func(s *fastmcp.Server) { s.Tool("t", func() string { return "" }) })
	gotA, gotB := make(chan string, 10), make(chan string, 10)
	connect(t, rs[0].s, legacy, client.WithListChangedHandler(func(m string) { gotA <- m }))
	connect(t, rs[1].s, legacy, client.WithListChangedHandler(func(m string) { gotB <- m }))
	rs[0].s.Tool("only-on-a", func() string { return "" })
	if got := recvT(t, gotA); got != protocol.NotificationToolsListChanged {
		t.Fatalf("replica A's client got %s", got)
	}
	// A marker from A through the bus: had the registration gone to B, it
	// would have arrived before.
	rs[0].s.NotifyPromptsChanged()
	if got := recvT(t, gotB); got != protocol.NotificationPromptsListChanged {
		t.Fatalf("replica B's client got %s before the marker", got)
	}
	select {
	case got := <-gotB:
		t.Fatalf("replica B's client got %s", got)
	default:
	}
}

// sseListen opens a 2026-07-28 subscriptions/listen stream on url that
// follows the tasks ids as caller (Authorization; see taskRPC), and
// returns the notifications it carries after the acknowledgment, which
// must follow all of ids. The stream ends with the test.
func sseListen(t *testing.T, url, caller string, ids ...string) <-chan map[string]json.RawMessage {
	t.Helper()
	params := map[string]any{
		"notifications": map[string]any{"taskIds": ids},
		"_meta": map[string]any{
			"io.modelcontextprotocol/protocolVersion":    protocol.Version20260728,
			"io.modelcontextprotocol/clientCapabilities": map[string]any{"extensions": map[string]any{protocol.ExtensionTasks: map[string]any{}}},
		},
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": params})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", protocol.Version20260728)
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	if caller != "" {
		req.Header.Set("Authorization", "Bearer "+caller)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	out := make(chan map[string]json.RawMessage, 16)
	var wg sync.WaitGroup
	wg.Go(func() { // ends when the body is closed
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var m map[string]json.RawMessage
			if json.Unmarshal([]byte(data), &m) == nil {
				out <- m
			}
		}
	})
	t.Cleanup(func() { cancel(); resp.Body.Close(); wg.Wait() })
	ack := recvT(t, out)
	var p protocol.SubscriptionsAcknowledgedParams
	if string(ack["method"]) != `"`+protocol.NotificationSubscriptionsAcknowledged+`"` ||
		json.Unmarshal(ack["params"], &p) != nil || len(p.Notifications.TaskIDs) != len(ids) {
		t.Fatalf("listen answered %v, want an acknowledgment following %v", ack, ids)
	}
	return out
}

// taskNote decodes a notifications/tasks message.
func taskNote(t *testing.T, m map[string]json.RawMessage) protocol.DetailedTask {
	t.Helper()
	var d protocol.DetailedTask
	if string(m["method"]) != `"`+protocol.NotificationTasks+`"` || json.Unmarshal(m["params"], &d) != nil {
		t.Fatalf("got %v, want notifications/tasks", m)
	}
	return d
}

// TestBusTaskAcrossReplicas: a task runs on replica A; a client following
// it on replica B gets its status changes, its input answered through B
// reaches it, and a cancellation through B stops its handler on A.
func TestBusTaskAcrossReplicas(t *testing.T) {
	t.Parallel()
	bus := memoryBus(t)
	release := make(chan struct{})
	cancelled := make(chan error, 1)
	rs := replicas(t, bus, 2, func(s *fastmcp.Server) {
		s.Tool("ask", func(ctx *fastmcp.Context) (string, error) {
			var p taskWho
			if _, err := ctx.Elicit("Who?", &p, fastmcp.InputKey("who")); err != nil {
				return "", err
			}
			<-release
			return "hi " + p.Username, nil
		}, fastmcp.TaskSupport(fastmcp.TaskOptional))
		s.Tool("wait", func(ctx *fastmcp.Context) (string, error) {
			<-ctx.Done()
			cancelled <- context.Cause(ctx)
			return "", ctx.Err()
		}, fastmcp.TaskSupport(fastmcp.TaskOptional))
	})
	onA := &taskRPC{t: t, url: rs[0].url, tasks: true, caller: "ada"}
	onB := &taskRPC{t: t, url: rs[1].url, tasks: true, caller: "ada"}

	id := onA.callTool("ask", nil)["taskId"].(string)
	notes := sseListen(t, rs[1].url, "ada", id)
	// The status on B's stream: input_required (unless the listen came
	// after it: then tasks/get on B shows it).
	onB.await(id, "input_required")
	onB.result("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
		"who": map[string]any{"action": "accept", "content": map[string]any{"username": "ada"}},
	}})
	if got := onB.await(id, "working"); got["status"] != "working" {
		t.Fatalf("after tasks/update on B: %v", got)
	}
	close(release)
	for {
		d := taskNote(t, recvT(t, notes))
		if d.TaskID != id {
			t.Fatalf("notification for task %s, want %s", d.TaskID, id)
		}
		if d.Status == protocol.TaskCompleted {
			if !strings.Contains(string(d.Result), "hi ada") {
				t.Fatalf("completed with %s", d.Result)
			}
			break
		}
		if d.Status != protocol.TaskInputRequired && d.Status != protocol.TaskWorking {
			t.Fatalf("status %s", d.Status)
		}
	}

	id = onA.callTool("wait", nil)["taskId"].(string)
	notes = sseListen(t, rs[0].url, "ada", id) // A's listener hears B's cancellation
	onB.result("tasks/cancel", map[string]any{"taskId": id})
	if cause := recvT(t, cancelled); cause == nil || !strings.Contains(cause.Error(), "cancelled the task") {
		t.Errorf("the handler on A ended with %v", cause)
	}
	if d := taskNote(t, recvT(t, notes)); d.Status != protocol.TaskCancelled {
		t.Errorf("A's listener got %s, want cancelled", d.Status)
	}
	if got := onA.await(id, "cancelled"); got["status"] != "cancelled" {
		t.Errorf("tasks/get on A: %v", got)
	}
}

// TestBusTaskListenerOnOwner: a listener on the replica running the task
// gets each status once (through the bus, not also directly).
func TestBusTaskListenerOnOwner(t *testing.T) {
	t.Parallel()
	bus := memoryBus(t)
	step := make(chan struct{})
	rs := replicas(t, bus, 2, func(s *fastmcp.Server) {
		s.Tool("steps", func(ctx *fastmcp.Context) (string, error) {
			<-step
			ctx.Progress(1, 2, "half")
			<-step
			return "done", nil
		}, fastmcp.TaskSupport(fastmcp.TaskOptional))
	})
	c := &taskRPC{t: t, url: rs[0].url, tasks: true, caller: "bob"}
	id := c.callTool("steps", nil)["taskId"].(string)
	onA, onB := sseListen(t, rs[0].url, "bob", id), sseListen(t, rs[1].url, "bob", id)
	step <- struct{}{}
	step <- struct{}{}
	for name, notes := range map[string]<-chan map[string]json.RawMessage{"A": onA, "B": onB} {
		if d := taskNote(t, recvT(t, notes)); d.Status != protocol.TaskWorking || d.StatusMessage != "half" {
			t.Errorf("listener on %s: first %s %q, want working \"half\"", name, d.Status, d.StatusMessage)
		}
		if d := taskNote(t, recvT(t, notes)); d.Status != protocol.TaskCompleted {
			t.Errorf("listener on %s: second %s, want completed", name, d.Status)
		}
	}
}

// downBus is a bus whose Publish fails, as a Redis bus does while Redis is
// unreachable.
type downBus struct{ *pubsub.Memory }

var errBusDown = errors.New("bus down")

func (downBus) Publish(context.Context, string, []byte) error { return errBusDown }

// TestBusDown: a server whose bus cannot subscribe does not start; one
// whose bus cannot publish tells its own clients, once, and reports the
// bus's error.
func TestBusDown(t *testing.T) {
	t.Parallel()
	closed := pubsub.NewMemory(nil)
	closed.Close()
	if err := newServer(fastmcp.SharedStores(&store.Stores{Bus: closed})).Start(ctxT(t)); !errors.Is(err, store.ErrBusClosed) {
		t.Errorf("Start with a closed bus = %v, want store.ErrBusClosed", err)
	}

	rs := replicas(t, downBus{memoryBus(t)}, 1, func(s *fastmcp.Server) {
		s.Resource("res://a", func() string { return "a" })
	})
	got := make(chan string, 10)
	c := connect(t, rs[0].s, legacy, client.WithListChangedHandler(func(m string) { got <- m }))
	if err := c.Subscribe(ctxT(t), "res://a", func(uri string) { got <- uri }); err != nil {
		t.Fatal(err)
	}
	if err := rs[0].s.NotifyResourceUpdated(ctxT(t), "res://a"); !errors.Is(err, errBusDown) {
		t.Errorf("NotifyResourceUpdated = %v, want the bus's error", err)
	}
	rs[0].s.NotifyToolsChanged()
	receiveAll(t, "the client", got, []string{"res://a", protocol.NotificationToolsListChanged})
}

// eagerBus delivers a task status to each new subscriber of a task's
// status topic before Subscribe returns, as a status published while a
// listen stream subscribes would be.
type eagerBus struct{ *pubsub.Memory }

func (b eagerBus) Subscribe(ctx context.Context, topic string, fn func([]byte)) (func(), error) {
	un, err := b.Memory.Subscribe(ctx, topic, fn)
	if err == nil && strings.HasSuffix(topic, "/status") {
		fn([]byte(`{"taskId":"early","status":"working"}`))
	}
	return un, err
}

// TestBusTaskStatusAfterAck: a task status that comes through the bus
// while a listen stream is being set up is delivered on it, after its
// acknowledgment. (The acknowledgment usually wins the race anyway;
// serveListen holds the listener's lock from before subscribing so that
// it always does.)
func TestBusTaskStatusAfterAck(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	rs := replicas(t, eagerBus{memoryBus(t)}, 1, func(s *fastmcp.Server) {
		s.Tool("wait", func(ctx *fastmcp.Context) (string, error) {
			<-release
			return "", nil
		}, fastmcp.TaskSupport(fastmcp.TaskOptional))
	})
	t.Cleanup(func() { close(release) })
	c := &taskRPC{t: t, url: rs[0].url, tasks: true}
	id := c.callTool("wait", nil)["taskId"].(string)
	notes := sseListen(t, rs[0].url, "", id) // fails unless the acknowledgment comes first
	if d := taskNote(t, recvT(t, notes)); d.TaskID != "early" {
		t.Errorf("after the acknowledgment: %+v", d)
	}
}
