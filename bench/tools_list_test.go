package bench_test

//go:generate go run gentools.go

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"testing"

	"github.com/fastmcp-go/fastmcp/bench/internal/floortools"
	"github.com/fastmcp-go/fastmcp/bench/internal/tools100"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
)

// floorServer is what the floor builds at startup: a map from tool name to
// descriptor and handler, and the tools/list answer, encoded once.
type floorServer struct {
	tools map[string]floorEntry
	list  []byte // the tools/list result
}

type floorEntry struct {
	def *floortools.Def
	fn  func(args []byte) (string, error)
}

// floorStartup is the floor's startup: build the static map of the 100
// descriptors and encode the tools/list answer once.
func floorStartup() (*floorServer, error) {
	s := &floorServer{tools: make(map[string]floorEntry, len(floortools.Tools))}
	for i := range floortools.Tools {
		d := &floortools.Tools[i]
		s.tools[d.Name] = floorEntry{def: d, fn: floorSearch}
	}
	var err error
	s.list, err = floortools.ListResult()
	return s, err
}

func floorSearch(args []byte) (string, error) { return string(args), nil }

// fastmcpStartup builds the same server with fastmcp and serves one
// tools/list, so that the answer is encoded once as in the floor.
func fastmcpStartup() (*fastmcp.Server, json.RawMessage, error) {
	s := fastmcp.New("bench", "1", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	tools100.Register(s)
	list, err := listTools(s)
	return s, list, err
}

// listTools serves tools/list through the server's method table, as a
// session would, and returns the encoded result.
func listTools(s *fastmcp.Server) ([]byte, error) {
	res, err := s.Lowlevel().Handler().Handle(context.Background(), &session.Request{ID: protocol.Int64ID(1), Method: protocol.MethodToolsList})
	if err != nil {
		return nil, err
	}
	return session.EncodeResult(res)
}

// BenchmarkStartup100 measures building a server with 100 tools (each
// taking a distinct five-field struct with jsonschema and validate tags)
// up to its first tools/list answer: fastmcp derives each schema and
// prepares each binder by reflection; the floor fills a map from
// hand-written descriptors and encodes the list. fastmcp reports
// time-vs-floor (fastmcp ns/op ÷ floor ns/op; the bar is 2).
//
// The loop runs in one process, so caches that outlive a server (the
// validator's parsed struct tags, reflect's type data) are warm after the
// first iteration, as they would be for a process that builds a second
// server; a real process pays their first fill once more.
func BenchmarkStartup100(b *testing.B) {
	want := checkSameList(b)
	b.Run("floor", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := floorStartup(); err != nil {
				b.Fatal(err)
			}
		}
		recordFloor(b, "startup100")
	})
	b.Run("fastmcp", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, list, err := fastmcpStartup(); err != nil || len(list) != len(want) {
				b.Fatal(err)
			}
		}
		reportTime(b, "startup100")
	})
}

// checkSameList checks that the floor and fastmcp list the same 100 tools
// byte for byte, and returns the list.
func checkSameList(b *testing.B) []byte {
	fl, err := floorStartup()
	if err != nil {
		b.Fatal(err)
	}
	_, list, err := fastmcpStartup()
	if err != nil {
		b.Fatal(err)
	}
	if !bytes.Equal(fl.list, list) {
		b.Fatalf("the floor's tools/list differs from fastmcp's:\nfloor:   %.300s\nfastmcp: %.300s", fl.list, list)
	}
	return list
}

// BenchmarkToolsList100 measures tools/list of the 100 tools, one call at
// a time, two ways:
//
//   - stdio: a whole round trip over OS pipes with the line driver; the
//     floor's loop writes its pre-encoded answer behind the request's id.
//   - handler: no transport: the floor appends the pre-encoded answer
//     behind the id to a reused buffer; fastmcp serves the request through
//     its method table and encodes the response message into a reused
//     buffer, as its stdio transport does.
//
// fastmcp reports time-vs-floor (the bar is 2).
func BenchmarkToolsList100(b *testing.B) {
	want := checkSameList(b)
	b.Run("stdio/floor", func(b *testing.B) {
		fl, err := floorStartup()
		if err != nil {
			b.Fatal(err)
		}
		c := startFloorStdio(b, fl.list)
		driveList(b, c, len(want))
		recordFloor(b, "list100/stdio")
	})
	b.Run("stdio/fastmcp", func(b *testing.B) {
		s := fastmcp.New("bench", "1", fastmcp.Logger(slog.New(slog.DiscardHandler)))
		tools100.Register(s)
		c := startFastMCPStdio(b, s)
		driveList(b, c, len(want))
		reportTime(b, "list100/stdio")
	})
	b.Run("handler/floor", func(b *testing.B) {
		fl, err := floorStartup()
		if err != nil {
			b.Fatal(err)
		}
		var out []byte
		b.ReportAllocs()
		id := int64(0)
		for b.Loop() {
			id++
			out = append(out[:0], `{"jsonrpc":"2.0","id":`...)
			out = strconv.AppendInt(out, id, 10)
			out = append(out, `,"result":`...)
			out = append(out, fl.list...)
			out = append(out, "}\n"...)
		}
		recordFloor(b, "list100/handler")
	})
	b.Run("handler/fastmcp", func(b *testing.B) {
		s := fastmcp.New("bench", "1", fastmcp.Logger(slog.New(slog.DiscardHandler)))
		tools100.Register(s)
		h := s.Lowlevel().Handler()
		ctx := context.Background()
		var out []byte
		b.ReportAllocs()
		id := int64(0)
		for b.Loop() {
			id++
			req := &session.Request{ID: protocol.Int64ID(id), Method: protocol.MethodToolsList}
			res, err := h.Handle(ctx, req)
			if err != nil {
				b.Fatal(err)
			}
			raw, err := session.EncodeResult(res)
			if err != nil {
				b.Fatal(err)
			}
			if out, err = protocol.AppendMessage(out[:0], &protocol.Response{ID: req.ID, Result: raw}); err != nil {
				b.Fatal(err)
			}
			out = append(out, '\n')
		}
		reportTime(b, "list100/handler")
	})
}

// driveList makes tools/list calls one at a time and checks each answer's
// length.
func driveList(b *testing.B, c *lineClient, size int) {
	if err := c.handshake(); err != nil {
		b.Fatal(err)
	}
	var req []byte
	list := func(id int64) {
		req = append(req[:0], `{"jsonrpc":"2.0","id":`...)
		req = strconv.AppendInt(req, id, 10)
		req = append(req, `,"method":"tools/list"}`+"\n"...)
		if _, err := c.w.Write(req); err != nil {
			b.Fatal(err)
		}
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			b.Fatal(err)
		}
		// {"jsonrpc":"2.0","id":N,"result":<list>}\n
		if want := len(`{"jsonrpc":"2.0","id":,"result":}`) + len(strconv.FormatInt(id, 10)) + size + 1; len(line) != want {
			b.Fatalf("tools/list answer of %d bytes, want %d: %.200s", len(line), want, line)
		}
	}
	list(1) // warm up and check
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		list(int64(i + 2))
	}
	b.StopTimer()
}
