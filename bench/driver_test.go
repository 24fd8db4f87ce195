package bench_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The client drivers: the same minimal hand-written clients drive the
// floor and fastmcp, so that what differs between the two results is the
// server alone. They build each request by appending bytes and check each
// answer by searching it for the expected id and result, without decoding
// it.

// addArgsFor returns the arguments of call id: a = id mod 1000, b = 7.
func addArgsFor(id int64) (a, b int64) { return id % 1000, 7 }

// appendCall appends the tools/call request line of call id.
func appendCall(buf []byte, id int64) []byte {
	a, b := addArgsFor(id)
	buf = append(buf, `{"jsonrpc":"2.0","id":`...)
	buf = strconv.AppendInt(buf, id, 10)
	buf = append(buf, `,"method":"tools/call","params":{"name":"add","arguments":{"a":`...)
	buf = strconv.AppendInt(buf, a, 10)
	buf = append(buf, `,"b":`...)
	buf = strconv.AppendInt(buf, b, 10)
	return append(buf, "}}}"...)
}

// checkAnswer checks that answer (a JSON-RPC response, possibly inside an
// SSE event) answers call id of add with a structured sum. When id is
// negative, it reads the id from the answer instead (pipelined answers may
// come in any order) and returns it.
func checkAnswer(answer []byte, id int64, scratch []byte) (int64, error) {
	const idKey = `"id":`
	i := bytes.Index(answer, []byte(idKey))
	if i < 0 {
		return 0, fmt.Errorf("no id in answer %q", answer)
	}
	j := i + len(idKey)
	k := j
	for k < len(answer) && answer[k] >= '0' && answer[k] <= '9' {
		k++
	}
	got, err := strconv.ParseInt(string(answer[j:k]), 10, 64)
	if err != nil || (id >= 0 && got != id) {
		return 0, fmt.Errorf("answer %q does not answer call %d", answer, id)
	}
	a, b := addArgsFor(got)
	want := append(scratch[:0], `"structuredContent":{"result":`...)
	want = strconv.AppendInt(want, a+b, 10)
	want = append(want, '}')
	if !bytes.Contains(answer[k:], want) {
		return 0, fmt.Errorf("answer %q lacks %s", answer, want)
	}
	return got, nil
}

// lineClient is the stdio driver: it writes newline-delimited requests on
// w and reads the answers from r.
type lineClient struct {
	w      io.Writer
	r      *bufio.Reader
	nextID int64
}

func newLineClient(r io.Reader, w io.Writer) *lineClient {
	return &lineClient{w: w, r: bufio.NewReaderSize(r, 256<<10), nextID: 1}
}

// exchange sends one line (a request or a notification) and, when answer
// is set, returns the next line read.
func (c *lineClient) exchange(line string, answer bool) ([]byte, error) {
	if _, err := io.WriteString(c.w, line+"\n"); err != nil {
		return nil, err
	}
	if !answer {
		return nil, nil
	}
	return c.r.ReadSlice('\n')
}

// handshake performs the legacy initialize handshake.
func (c *lineClient) handshake() error {
	ans, err := c.exchange(initializeRequest, true)
	if err != nil {
		return err
	}
	if !bytes.Contains(ans, []byte(`"protocolVersion":"2025-11-25"`)) {
		return fmt.Errorf("initialize answered %q", ans)
	}
	_, err = c.exchange(initializedNotification, false)
	return err
}

const (
	initializeRequest       = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`
	initializedNotification = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// seq makes n calls one at a time on one goroutine: write a request, read
// its answer.
func (c *lineClient) seq(n int) error {
	var buf, scratch []byte
	for range n {
		id := c.nextID
		c.nextID++
		buf = append(appendCall(buf[:0], id), '\n')
		if _, err := c.w.Write(buf); err != nil {
			return err
		}
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return err
		}
		if _, err := checkAnswer(line, id, scratch); err != nil {
			return err
		}
	}
	return nil
}

// pipelined makes n calls keeping up to window of them in flight: one
// goroutine writes requests whenever the window has room (all that fit in
// one write), the caller's goroutine reads the answers, in whatever order
// they come, and frees their room.
func (c *lineClient) pipelined(n, window int) error {
	room := make(chan struct{}, window)
	for range window {
		room <- struct{}{}
	}
	stop := make(chan struct{})
	werr := make(chan error, 1)
	first := c.nextID
	c.nextID += int64(n)
	go func() {
		var buf []byte
		for sent := 0; sent < n; {
			select {
			case <-room:
			case <-stop:
				werr <- nil
				return
			}
			buf = buf[:0]
			for {
				buf = append(appendCall(buf, first+int64(sent)), '\n')
				sent++
				if sent == n {
					break
				}
				select {
				case <-room:
					continue
				default:
				}
				break
			}
			if _, err := c.w.Write(buf); err != nil {
				werr <- err
				return
			}
		}
		werr <- nil
	}()
	var scratch []byte
	var err error
	for range n {
		var line []byte
		if line, err = c.r.ReadSlice('\n'); err != nil {
			break
		}
		if _, err = checkAnswer(line, -1, scratch); err != nil {
			break
		}
		room <- struct{}{}
	}
	close(stop)
	if werrv := <-werr; err == nil {
		err = werrv
	}
	return err
}

// httpDriver is the HTTP driver: the same net/http client, with one
// keep-alive connection per concurrent caller, against either server.
type httpDriver struct {
	url    string
	client *http.Client
	sid    string // Mcp-Session-Id, when the server gave one
}

func newHTTPDriver(url string) *httpDriver {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 64
	return &httpDriver{url: url, client: &http.Client{Transport: tr}}
}

func (d *httpDriver) close() { d.client.CloseIdleConnections() }

// post sends one message and returns the status and the whole body in buf.
func (d *httpDriver) post(body []byte, buf *bytes.Buffer) (int, http.Header, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, d.url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if d.sid != "" {
		req.Header.Set("Mcp-Session-Id", d.sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := d.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	buf.Reset()
	_, err = buf.ReadFrom(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header, err
}

// handshake performs the legacy initialize handshake and keeps the session
// id the server issued, if any.
func (d *httpDriver) handshake() error {
	var buf bytes.Buffer
	status, hdr, err := d.post([]byte(initializeRequest), &buf)
	if err != nil {
		return err
	}
	if status != http.StatusOK || !bytes.Contains(buf.Bytes(), []byte(`"protocolVersion":"2025-11-25"`)) {
		return fmt.Errorf("initialize answered %d %q", status, buf.Bytes())
	}
	d.sid = hdr.Get("Mcp-Session-Id")
	status, _, err = d.post([]byte(initializedNotification), &buf)
	if err == nil && status/100 != 2 {
		err = fmt.Errorf("notifications/initialized answered %d %q", status, buf.Bytes())
	}
	return err
}

// calls makes n calls one after another and returns the latency of each.
func (d *httpDriver) calls(n int) ([]time.Duration, error) {
	var body, scratch []byte
	var buf bytes.Buffer
	lat := make([]time.Duration, 0, n)
	for i := range n {
		id := int64(1 + i)
		body = appendCall(body[:0], id)
		t0 := time.Now()
		status, _, err := d.post(body, &buf)
		if err == nil && status != http.StatusOK {
			err = fmt.Errorf("status %d: %q", status, buf.Bytes())
		}
		if err == nil {
			_, err = checkAnswer(buf.Bytes(), id, scratch)
		}
		if err != nil {
			return lat, err
		}
		lat = append(lat, time.Since(t0))
	}
	return lat, nil
}

// The floor comparison: each benchmark runs the floor first and the
// fastmcp path after it, in the same parent benchmark; the fastmcp result
// reports its ratio to the last floor run with the same key.

var (
	ratioMu   sync.Mutex
	floorRuns = map[string]float64{} // ns/op of the floor by key; the last run wins
)

// recordFloor remembers the floor's ns/op under key.
func recordFloor(b *testing.B, key string) {
	ratioMu.Lock()
	defer ratioMu.Unlock()
	floorRuns[key] = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
}

func floorNsOp(key string) float64 {
	ratioMu.Lock()
	defer ratioMu.Unlock()
	return floorRuns[key]
}

// reportThroughput reports thru-vs-floor: fastmcp's throughput as a
// fraction of the floor's (floor ns/op ÷ fastmcp ns/op). Higher is better;
// 1 matches the floor, and the bar is 0.8.
func reportThroughput(b *testing.B, key string) {
	if f := floorNsOp(key); f > 0 {
		b.ReportMetric(f/(float64(b.Elapsed().Nanoseconds())/float64(b.N)), "thru-vs-floor")
	}
}

// reportTime reports time-vs-floor: fastmcp's time per op as a multiple
// of the floor's (fastmcp ns/op ÷ floor ns/op). Lower is better; 1 matches
// the floor, and the bar is 2.
func reportTime(b *testing.B, key string) {
	if f := floorNsOp(key); f > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/f, "time-vs-floor")
	}
}
