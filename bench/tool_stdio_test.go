package bench_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"os"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/transport"
)

// AddArgs are the arguments of the add tool, as the fastmcp documentation
// writes them: two integers, b at least 0.
type AddArgs struct {
	A int `json:"a" jsonschema:"description=first addend"`
	B int `json:"b" jsonschema:"description=second addend" validate:"gte=0"`
}

func add(ctx *fastmcp.Context, in AddArgs) (int, error) { return in.A + in.B, nil }

// newAddServer returns a fastmcp server with the add tool.
func newAddServer(opts ...fastmcp.Option) *fastmcp.Server {
	s := fastmcp.New("bench", "1", append([]fastmcp.Option{fastmcp.Logger(slog.New(slog.DiscardHandler))}, opts...)...)
	s.Tool("add", add, fastmcp.Description("Add two integers"))
	return s
}

// window is how many calls the pipelined driver keeps in flight.
const window = 16

// BenchmarkToolCallStdio measures tools/call of add over a pair of OS
// pipes carrying newline-delimited JSON, as a stdio server sees it: the
// floor (a hand-written loop, see floorTools) and fastmcp (a
// fastmcp.Server with validated arguments, served by Serve over
// transport.NewStream), driven by the same hand-written client.
//
//   - seq: one call at a time, so ns/op is the latency of a round trip.
//   - pipelined: 16 calls in flight, so ns/op is the inverse of throughput.
//
// fastmcp results report thru-vs-floor (the floor's ns/op divided by
// fastmcp's: the share of the floor's throughput reached; the bar is 0.8).
func BenchmarkToolCallStdio(b *testing.B) {
	for _, mode := range []string{"seq", "pipelined"} {
		b.Run(mode+"/floor", func(b *testing.B) {
			c := startFloorStdio(b, nil)
			driveLines(b, c, mode)
			recordFloor(b, "stdio/"+mode)
		})
		b.Run(mode+"/fastmcp", func(b *testing.B) {
			c := startFastMCPStdio(b, newAddServer())
			driveLines(b, c, mode)
			reportThroughput(b, "stdio/"+mode)
		})
	}
}

func driveLines(b *testing.B, c *lineClient, mode string) {
	if err := c.handshake(); err != nil {
		b.Fatal(err)
	}
	if err := c.seq(10); err != nil { // warm up, and prove the set-up works
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var err error
	if mode == "seq" {
		err = c.seq(b.N)
	} else {
		err = c.pipelined(b.N, window)
	}
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
}

// osPipePair returns the two ends of a stdio connection made of OS pipes.
func osPipePair(b *testing.B) (clientR, serverR *os.File, clientW, serverW *os.File) {
	c2sR, c2sW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	s2cR, s2cW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	return s2cR, c2sR, c2sW, s2cW
}

// startFloorStdio runs the floor's loop on OS pipes: read a line, answer
// it, and flush when no more input is waiting. A non-nil list is the
// pre-encoded tools/list result to answer with.
func startFloorStdio(b *testing.B, list []byte) *lineClient {
	cr, sr, cw, sw := osPipePair(b)
	var wg sync.WaitGroup
	wg.Go(func() {
		defer sw.Close()
		defer sr.Close()
		br := bufio.NewReaderSize(sr, 64<<10)
		f := floorTools{list: list}
		out := make([]byte, 0, 64<<10)
		for {
			line, err := br.ReadSlice('\n')
			if err != nil {
				return
			}
			out = f.serve(line, out)
			if br.Buffered() == 0 || len(out) > 32<<10 {
				if _, err := sw.Write(out); err != nil {
					return
				}
				out = out[:0]
			}
		}
	})
	b.Cleanup(func() {
		cw.Close() // the loop's input ends; it closes its output
		wg.Wait()
		cr.Close()
	})
	return newLineClient(cr, cw)
}

// startFastMCPStdio serves s on OS pipes.
func startFastMCPStdio(b *testing.B, s *fastmcp.Server) *lineClient {
	cr, sr, cw, sw := osPipePair(b)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := s.Serve(ctx, transport.NewStream(sr, sw, nil)); err != nil && err != io.EOF {
			b.Error(err)
		}
	})
	b.Cleanup(func() {
		cw.Close() // the server's input ends; its session ends and closes the pipes
		wg.Wait()
		cancel()
		cr.Close()
	})
	return newLineClient(cr, cw)
}
