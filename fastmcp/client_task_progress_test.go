package fastmcp_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// A tool that may become a task feels like a call on both eras: CallTool
// with WithProgress sees each step the handler reports (notifications on
// 2025-11-25, where the call stays plain; the task's status messages on
// 2026-07-28, where it becomes a task), and the result, from CallTool or
// from GetTask, is the typed *protocol.CallToolResult, which encoding/json
// decodes too. With After the steps before the task come as notifications
// and the others as status messages, in one increasing sequence.
func TestClientTaskFeelsLikeACall(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, version string
		task          fastmcp.TaskOption
	}{
		{"2025-11-25", protocol.Version20251125, fastmcp.TaskSupport(fastmcp.TaskOptional)},
		{"2026-07-28", protocol.Version20260728, fastmcp.TaskSupport(fastmcp.TaskOptional)},
		{"2026-07-28 After", protocol.Version20260728, fastmcp.TaskSupport(fastmcp.TaskOptional).After(20 * time.Millisecond)},
	} {
		v := tt.version
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, url := taskServer(t, fastmcp.Tasks(fastmcp.TaskSettings{PollInterval: 10 * time.Millisecond}))
			seen := make(chan string, 64)
			started := make(chan struct{}) // closed when the client learns of the task
			s.Tool("steps", func(ctx *fastmcp.Context) (*fastmcp.ToolResult, error) {
				for i := 1; i <= 3; i++ {
					want := fmt.Sprintf("step %d", i)
					if err := ctx.Progress(float64(i), 3, want); err != nil {
						return nil, err
					}
					// Go on once the client has seen the step (a client that
					// never does fails below, after the generous bound).
					for waiting := true; waiting; {
						select {
						case m := <-seen:
							waiting = m != want
						case <-time.After(2 * time.Second):
							waiting = false
						case <-ctx.Done():
							return nil, ctx.Err()
						}
					}
					if i == 1 && tt.name == "2026-07-28 After" {
						// Run on until the call has become a task.
						select {
						case <-started:
						case <-time.After(5 * time.Second):
						}
					}
				}
				return &fastmcp.ToolResult{Content: protocol.ContentList{
					&protocol.TextContent{Text: "done"},
					&protocol.ImageContent{Data: []byte{1, 2}, MIMEType: "image/png"},
				}}, nil
			}, tt.task)

			c, err := client.ConnectHTTP(ctxT(t), url, client.WithLogger(quietLogger), client.WithProtocolVersion(v))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()

			var (
				mu    sync.Mutex
				notes []protocol.ProgressParams
				task  *protocol.TaskCreatedResult
			)
			res, err := c.CallTool(ctxT(t), "steps", nil,
				client.WithProgress(func(p *protocol.ProgressParams) {
					mu.Lock()
					notes = append(notes, *p)
					mu.Unlock()
					seen <- p.Message
				}),
				client.WithTaskStarted(func(tc *protocol.TaskCreatedResult) { task = tc; close(started) }))
			if err != nil {
				t.Fatalf("CallTool(steps) = %v", err)
			}
			if textOf(t, res) != "done" || len(res.Content) != 2 {
				t.Errorf("CallTool(steps) = %+v", res)
			}
			if got := (task != nil); got != (v == protocol.Version20260728) {
				t.Errorf("the call became a task: %v on %s", got, v)
			}

			mu.Lock()
			var steps []string
			for i, n := range notes {
				if strings.HasPrefix(n.Message, "step ") {
					steps = append(steps, n.Message)
				}
				if !n.ProgressToken.IsValid() || (i > 0 && (n.Progress <= notes[i-1].Progress || n.ProgressToken != notes[0].ProgressToken)) {
					t.Errorf("progress %d of %+v: want one valid token and increasing values", i, notes)
				}
			}
			t.Logf("WithProgress saw %+v", notes)
			mu.Unlock()
			if want := []string{"step 1", "step 2", "step 3"}; !reflect.DeepEqual(steps, want) {
				t.Errorf("WithProgress saw the steps %q (all: %+v), want %q", steps, notes, want)
			}

			// encoding/json decodes the result as it travels.
			wire, err := protocol.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			var std protocol.CallToolResult
			if err := json.Unmarshal(wire, &std); err != nil || !reflect.DeepEqual(&std, res) {
				t.Errorf("encoding/json decoded the result to %+v, %v; want %+v", &std, err, res)
			}
			if task == nil {
				return
			}
			d, err := c.GetTask(ctxT(t), task.TaskID)
			if err != nil {
				t.Fatalf("GetTask = %v", err)
			}
			if got, err := d.ToolResult(); err != nil || !reflect.DeepEqual(got.Content, res.Content) {
				t.Errorf("GetTask(...).ToolResult() = %+v, %v; want the content CallTool returned, %+v", got, err, res.Content)
			}
			var std2 protocol.CallToolResult
			if err := json.Unmarshal(d.Result, &std2); err != nil || !reflect.DeepEqual(std2.Content, res.Content) {
				t.Errorf("encoding/json decoded the task's result to %+v, %v", std2, err)
			}
		})
	}
}
