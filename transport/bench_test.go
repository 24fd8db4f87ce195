package transport_test

import (
	"bytes"
	"context"
	"encoding/json" // the floor only: a plain JSON-RPC handler as anyone would write it
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// floorHandler is the hand-written floor: decode a JSON-RPC request with
// encoding/json, add, write the response. No MCP.
func floorHandler(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params addParams       `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": addResult{Sum: req.Params.A + req.Params.B}})
}

// benchClient is the plain net/http client used against both servers.
func benchClient() (*http.Client, func()) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 64
	return &http.Client{Transport: tr}, tr.CloseIdleConnections
}

// postCall POSTs an add request and checks the answer (JSON or SSE).
func postCall(c *http.Client, url, sid string, id int, buf *bytes.Buffer) error {
	body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"add","params":{"a":` + strconv.Itoa(id) + `,"b":1}}`
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader([]byte(body)))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	buf.Reset()
	_, err = io.Copy(buf, resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	if resp.StatusCode != 200 || !bytes.Contains(buf.Bytes(), []byte(`"sum":`+strconv.Itoa(id+1)+`}`)) {
		return fmt.Errorf("bad answer %d: %s", resp.StatusCode, buf.Bytes())
	}
	return nil
}

func initSession(c *http.Client, url string) (string, error) {
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader([]byte(initBody)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	req, _ = http.NewRequest(http.MethodPost, url, bytes.NewReader([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	resp, err = c.Do(req)
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	return sid, nil
}

// runCalls makes b.N calls spread over `sessions` goroutines, one session
// each, and reports calls/s and the p99 latency.
func runCalls(b *testing.B, url string, sessions int, mcp bool) {
	c, closeIdle := benchClient()
	defer closeIdle()
	sids := make([]string, sessions)
	if mcp {
		for i := range sids {
			sid, err := initSession(c, url)
			if err != nil {
				b.Fatal(err)
			}
			sids[i] = sid
		}
	}
	lat := make([][]time.Duration, sessions)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for s := range sessions {
		n := b.N / sessions
		if s < b.N%sessions {
			n++
		}
		wg.Go(func() {
			var buf bytes.Buffer
			lat[s] = make([]time.Duration, 0, n)
			for i := range n {
				t0 := time.Now()
				if err := postCall(c, url, sids[s], i, &buf); err != nil {
					b.Error(err)
					return
				}
				lat[s] = append(lat[s], time.Since(t0))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	all := slices.Concat(lat...)
	slices.Sort(all)
	if len(all) > 0 {
		b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
}

// BenchmarkHTTPCall compares calls/s through the Streamable HTTP handler
// and the session engine (JSON and SSE answers) with the floor, a plain
// net/http JSON-RPC handler, using the same net/http client.
func BenchmarkHTTPCall(b *testing.B) {
	for _, sessions := range []int{1, 4} {
		b.Run(fmt.Sprintf("floor/sessions=%d", sessions), func(b *testing.B) {
			ts := httptest.NewServer(http.HandlerFunc(floorHandler))
			defer ts.Close()
			runCalls(b, ts.URL, sessions, false)
		})
		for _, mode := range []struct {
			name string
			opts transport.HTTPOptions
		}{
			{"json", transport.HTTPOptions{JSONResponse: true}},
			{"sse", transport.HTTPOptions{}},
		} {
			b.Run(fmt.Sprintf("fastmcp-%s/sessions=%d", mode.name, sessions), func(b *testing.B) {
				srv := newTestServer(nil, nil)
				o := mode.opts
				o.Logger = quiet
				h := transport.NewStreamableHandler(srv.Connect, &o)
				ts := httptest.NewServer(h)
				defer ts.Close()
				defer h.Close()
				runCalls(b, ts.URL, sessions, true)
			})
		}
	}
}

// BenchmarkHTTPClientCall measures whole calls through the client stack
// (session engine over StreamableClient) against the handler.
func BenchmarkHTTPClientCall(b *testing.B) {
	for _, mode := range []struct {
		name string
		opts transport.HTTPOptions
	}{
		{"json", transport.HTTPOptions{JSONResponse: true}},
		{"sse", transport.HTTPOptions{}},
	} {
		b.Run(mode.name, func(b *testing.B) {
			f := newFixture(b, &mode.opts, nil)
			cli := dial(b, transport.NewStreamableClient(f.url, clientOpts), nil)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				var res addResult
				if err := cli.Call(ctx, "add", addParams{i, 1}, &res); err != nil || res.Sum != i+1 {
					b.Fatal(res, err)
				}
			}
		})
	}
}

// BenchmarkIdleSessionMemory reports the heap held per idle legacy session
// (the handler's state plus the session engine serving it), and the stack
// of the engine's reading goroutine, measured over 500 sessions
// initialized through one keep-alive connection.
func BenchmarkIdleSessionMemory(b *testing.B) {
	const n = 500
	c, closeIdle := benchClient()
	defer closeIdle()
	for range b.N {
		b.StopTimer()
		srv := newTestServer(nil, nil)
		h := transport.NewStreamableHandler(srv.Connect, &transport.HTTPOptions{Logger: quiet})
		ts := httptest.NewServer(h)
		// Warm up the connection and the pools, then measure.
		if _, err := initSession(c, ts.URL); err != nil {
			b.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		for range n {
			if _, err := initSession(c, ts.URL); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/n, "bytes/session")
		b.ReportMetric(float64(int64(after.StackInuse)-int64(before.StackInuse))/n, "stack-bytes/session")
		h.Close()
		ts.Close()
		for { // let the sessions end before the next round
			live := 0
			for range srv.Sessions() {
				live++
			}
			if live == 0 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		b.StartTimer()
	}
}

var _ = protocol.LatestVersion
var _ session.Role
