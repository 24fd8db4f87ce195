package fastmcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// ReportArgs are the arguments of the report tool.
type ReportArgs struct {
	Quarter string `json:"quarter" jsonschema:"description=the quarter\\, like 2026-Q3"`
}

// buildReport is long work: it reports progress, which a task shows as its
// status message, and stops when the client cancels the task.
func buildReport(ctx *fastmcp.Context, in ReportArgs) (string, error) {
	for step := range 3 {
		ctx.Progress(float64(step), 3, fmt.Sprintf("step %d of 3", step+1))
		select {
		case <-time.After(10 * time.Millisecond):
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	return "report for " + in.Quarter + " is ready", nil
}

// ExampleTaskSupport runs a tool as a task and polls it over the 2026-07-28 wire,
// as a client declaring the tasks extension does.
func ExampleTaskSupport() {
	s := fastmcp.New("reports", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)),
		fastmcp.Tasks(fastmcp.TaskSettings{TTL: 24 * time.Hour, PollInterval: 50 * time.Millisecond}))
	s.Tool("report", buildReport, fastmcp.TaskSupport(fastmcp.TaskOptional),
		fastmcp.Description("Builds the quarterly report"))

	ts := httptest.NewServer(s)
	defer ts.Close()
	defer closeNow(s)

	created := rpc(ts.URL+"/mcp", "tools/call", map[string]any{"name": "report", "arguments": map[string]any{"quarter": "2026-Q3"}})
	fmt.Println(created["resultType"], created["status"], created["ttlMs"], created["pollIntervalMs"])
	for {
		task := rpc(ts.URL+"/mcp", "tasks/get", map[string]any{"taskId": created["taskId"]})
		if task["status"] == "completed" {
			content := task["result"].(map[string]any)["content"].([]any)
			fmt.Println(task["status"], content[0].(map[string]any)["text"])
			break
		}
		time.Sleep(time.Duration(created["pollIntervalMs"].(float64)) * time.Millisecond)
	}
	// Output:
	// task working 8.64e+07 50
	// completed report for 2026-Q3 is ready
}

// rpc sends one 2026-07-28 request declaring the tasks extension and
// returns its result.
func rpc(url, method string, params map[string]any) map[string]any {
	params["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion": "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{
			"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}},
		},
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name, ok := params["name"].(string); ok {
		req.Header.Set("Mcp-Name", name)
	}
	if id, ok := params["taskId"].(string); ok {
		req.Header.Set("Mcp-Name", id)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var reply struct {
		Result map[string]any `json:"result"`
	}
	json.NewDecoder(resp.Body).Decode(&reply)
	return reply.Result
}

// ExampleTaskSupport_client calls the report tool with the client: the call
// becomes a task, the task's status messages come to WithProgress, and
// CallTool returns the result as a plain call does; GetTask gives the same
// typed result afterwards.
func ExampleTaskSupport_client() {
	s := fastmcp.New("reports", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)),
		fastmcp.Tasks(fastmcp.TaskSettings{PollInterval: 20 * time.Millisecond}))
	s.Tool("report", buildReport, fastmcp.TaskSupport(fastmcp.TaskOptional))
	ts := httptest.NewServer(s)
	defer ts.Close()
	defer closeNow(s)

	ctx := context.Background()
	c, err := client.ConnectHTTP(ctx, ts.URL+"/mcp", client.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		panic(err)
	}
	defer c.Close()

	var last, taskID string
	res, err := c.CallTool(ctx, "report", ReportArgs{Quarter: "2026-Q3"},
		client.WithProgress(func(p *protocol.ProgressParams) { last = p.Message }),
		client.WithTaskStarted(func(tc *protocol.TaskCreatedResult) { taskID = tc.TaskID }))
	if err != nil {
		panic(err)
	}
	fmt.Println(last)
	fmt.Println(res.Content[0].(*protocol.TextContent).Text)
	if err := printTask(ctx, c, taskID); err != nil {
		panic(err)
	}
	// Output:
	// step 3 of 3
	// report for 2026-Q3 is ready
	// report for 2026-Q3 is ready false
}

// printTask shows a task's outcome as a host that drives tasks does.
func printTask(ctx context.Context, c *client.Client, taskID string) error {
	d, err := c.GetTask(ctx, taskID)
	if err != nil {
		return err
	}
	switch res, err := d.ToolResult(); {
	case errors.Is(err, protocol.ErrNoTaskResult):
		// still working, waiting for input (d.InputRequests) or cancelled: see d.Status
	case err != nil:
		return err // a failed task's *protocol.Error, or a result that does not decode
	default:
		fmt.Println(res.Content[0].(*protocol.TextContent).Text, res.IsError)
	}
	return nil
}
