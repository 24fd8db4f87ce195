package bench_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// BenchmarkToolCallHTTP measures tools/call of add over Streamable HTTP
// with 1 and 4 concurrent clients (each with its own keep-alive
// connection and, for fastmcp, its own session), each making calls one
// after another. The floor is a net/http handler doing the floor's
// hand-written work (see floorTools) and answering with a JSON body (json)
// or a one-event SSE stream (sse); fastmcp is a fastmcp.Server's
// Server mounted as an http.Handler in JSON-response mode (json) or its default SSE mode (sse).
// The same net/http client drives both.
//
// fastmcp results report thru-vs-floor (the share of the floor's calls/s
// reached; the bar is 0.8) and both report calls/s and the median and
// 99th-percentile latencies of single calls (measured by each client, and
// kept off the clock: the bookkeeping is done after the timer stops).
func BenchmarkToolCallHTTP(b *testing.B) {
	for _, clients := range []int{1, 4} {
		for _, mode := range []string{"json", "sse"} {
			key := fmt.Sprintf("http/%s/clients=%d", mode, clients)
			b.Run(fmt.Sprintf("%s/clients=%d/floor", mode, clients), func(b *testing.B) {
				ts := httptest.NewServer(floorHTTP(mode == "sse"))
				defer ts.Close()
				driveHTTP(b, ts.URL, clients)
				recordFloor(b, key)
			})
			b.Run(fmt.Sprintf("%s/clients=%d/fastmcp", mode, clients), func(b *testing.B) {
				h := newAddServer(fastmcp.JSONResponse(mode == "json"),
					fastmcp.HTTPEndpoints(func(c *fastmcp.HTTPConfig) { c.NoSSE = true }))
				ts := httptest.NewServer(h)
				defer ts.Close()
				defer h.Shutdown(context.Background())
				driveHTTP(b, ts.URL+"/mcp", clients)
				reportThroughput(b, key)
			})
		}
	}
}

func driveHTTP(b *testing.B, url string, clients int) {
	drivers := make([]*httpDriver, clients)
	for i := range drivers {
		d := newHTTPDriver(url)
		defer d.close()
		if err := d.handshake(); err != nil {
			b.Fatal(err)
		}
		if _, err := d.calls(5); err != nil { // warm up; prove the set-up works
			b.Fatal(err)
		}
		drivers[i] = d
	}
	b.ReportAllocs()
	b.ResetTimer()
	var wg sync.WaitGroup
	lat := make([][]time.Duration, clients)
	errs := make([]error, clients)
	for i, d := range drivers {
		n := b.N / clients
		if i < b.N%clients {
			n++
		}
		wg.Go(func() { lat[i], errs[i] = d.calls(n) })
	}
	wg.Wait()
	b.StopTimer()
	if err := errors.Join(errs...); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
	all := slices.Concat(lat...)
	slices.Sort(all)
	b.ReportMetric(float64(quantile(all, 0.5).Nanoseconds())/1e3, "median-µs")
	b.ReportMetric(float64(quantile(all, 0.99).Nanoseconds())/1e3, "p99-µs")
}

// quantile returns the q-quantile (0 < q <= 1) of the sorted latencies by
// the nearest-rank method: the smallest value that at least q of them do
// not exceed. It returns 0 for no latencies.
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(q * float64(len(sorted)))) // 1-based
	return sorted[min(max(rank, 1), len(sorted))-1]
}

// floorHTTP is the floor's net/http handler: read the body, answer it
// with the floor's hand-written work, write the answer as a JSON body or
// as one SSE event. It ignores the session headers (it has no sessions).
func floorHTTP(sse bool) http.Handler {
	type state struct {
		f   floorTools
		in  []byte
		out []byte
	}
	pool := sync.Pool{New: func() any { return &state{in: make([]byte, 0, 512), out: make([]byte, 0, 512)} }}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		st := pool.Get().(*state)
		defer pool.Put(st)
		in := st.in[:0]
		for {
			if len(in) == cap(in) {
				in = append(in, 0)[:len(in)]
			}
			n, err := r.Body.Read(in[len(in):cap(in)])
			in = in[:len(in)+n]
			if err == io.EOF {
				break
			}
			if err != nil {
				w.WriteHeader(http.StatusBadRequest)
				return
			}
		}
		st.in = in
		out := st.out[:0]
		if sse {
			out = append(out, "event: message\ndata: "...)
		}
		n := len(out)
		out = st.f.serve(in, out)
		if len(out) == n { // a notification
			w.WriteHeader(http.StatusAccepted)
			return
		}
		hdr := w.Header()
		if sse {
			out = append(out, '\n') // serve ended the line; a blank line ends the event
			hdr["Content-Type"] = []string{"text/event-stream"}
			hdr["Cache-Control"] = []string{"no-cache"}
		} else {
			hdr["Content-Type"] = []string{"application/json"}
			hdr["Content-Length"] = []string{strconv.Itoa(len(out))}
		}
		st.out = out
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(out)
	})
}

func TestQuantile(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = i + 1
	}
	for _, tc := range []struct {
		lat  []time.Duration
		q    float64
		want time.Duration
	}{
		{nil, 0.99, 0},
		{ms(5), 0.5, 5 * time.Millisecond},
		{ms(5), 0.99, 5 * time.Millisecond},
		{ms(1, 2, 3), 0.5, 2 * time.Millisecond},
		{ms(1, 2, 3, 4), 0.5, 2 * time.Millisecond},
		{ms(hundred...), 0.99, 99 * time.Millisecond},
		{ms(hundred...), 1, 100 * time.Millisecond},
		{ms(append(hundred, 1000)...), 0.99, 100 * time.Millisecond},
	} {
		if got := quantile(tc.lat, tc.q); got != tc.want {
			t.Errorf("quantile(%d latencies, %v) = %v, want %v", len(tc.lat), tc.q, got, tc.want)
		}
	}
}
