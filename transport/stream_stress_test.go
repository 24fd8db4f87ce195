package transport_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// stressSizes returns the payload size of each of n messages: mostly
// small, some around the 1 MiB mark the flush buffers are kept up to, and a
// few up to 8 MiB, in an order that mixes them. The first messages include
// a 1.5 MiB one, after which the buffers were once shared.
func stressSizes(n int, seed uint64) []int {
	r := rand.New(rand.NewPCG(seed, 1))
	sizes := make([]int, n)
	for i := range sizes {
		switch p := r.IntN(100); {
		case p < 88:
			sizes[i] = 10 + r.IntN(10<<10)
		case p < 97:
			sizes[i] = 512<<10 + r.IntN(1<<20)
		default:
			sizes[i] = 2<<20 + r.IntN(6<<20)
		}
	}
	sizes[1] = 3 << 19 // 1.5 MiB
	sizes[n/2] = 8 << 20
	return sizes
}

// stressMessage is message key with a payload of size bytes, filled with
// a letter that depends on key, so that a line mixing two messages does not
// pass for either.
func stressMessage(key string, size int) *protocol.Response {
	fill := byte('a' + len(key)*7%26)
	for _, c := range []byte(key) {
		fill = 'a' + (fill-'a'+c)%26
	}
	return &protocol.Response{ID: protocol.StringID(key), Result: json.RawMessage(`{"pad":"` + strings.Repeat(string(fill), size) + `"}`)}
}

// stallingCheck reads the lines written to r, stalling now and then (so
// that writes block and queue up behind each other), and checks that each
// line is one of want, whole, and that each arrives exactly once. It
// returns the first problem found, after draining r.
func stallingCheck(r io.Reader, want map[string]int) error {
	br := bufio.NewReaderSize(r, 4<<10)
	seen := map[string]bool{}
	var problem error
	note := func(err error) {
		if problem == nil {
			problem = err
		}
	}
	for n := 0; ; n++ {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			if len(line) > 0 {
				note(fmt.Errorf("unterminated last line %.80q", line))
			}
			break
		}
		if err != nil {
			return err
		}
		if n%5 == 0 {
			time.Sleep(time.Millisecond) // stall: the writers block meanwhile
		}
		m, err := protocol.DecodeMessage(line[:len(line)-1])
		if err != nil {
			note(fmt.Errorf("line %d does not parse (%v): %.120q", n, err, line))
			continue
		}
		resp, ok := m.(*protocol.Response)
		if !ok {
			note(fmt.Errorf("line %d is not a response: %.120q", n, line))
			continue
		}
		key := resp.ID.String()
		size, ok := want[key]
		if !ok {
			note(fmt.Errorf("line %d has unexpected id %s", n, key))
			continue
		}
		if seen[key] {
			note(fmt.Errorf("id %s arrived twice", key))
		}
		seen[key] = true
		if exp := stressMessage(key, size); !bytes.Equal(resp.Result, exp.Result) {
			note(fmt.Errorf("message %s garbled: %d bytes of result, want %d: %.120q", key, len(resp.Result), len(exp.Result), resp.Result))
		}
	}
	for key := range want {
		if !seen[key] {
			note(fmt.Errorf("id %s never arrived (%d of %d did)", key, len(seen), len(want)))
			break
		}
	}
	return problem
}

// TestStreamStress writes messages from 10 bytes to 8 MiB from concurrent
// writers to a reader that stalls and resumes, and checks that every line
// parses and every message arrives once and whole. "held" also has the
// Stream's reading side busy with buffered input, so that output is held
// back and written in batches by the Stream's own goroutine, while other
// goroutines write meanwhile (as a tool writing progress does).
func TestStreamStress(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		held bool
	}{
		{"concurrent writers", false},
		{"held output", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			const writers, each, requests = 4, 25, 200
			sizes := stressSizes(writers*each, 7)
			want := map[string]int{}
			for g := range writers {
				for i := range each {
					want[fmt.Sprintf("w%d-%d", g, i)] = sizes[g*each+i]
				}
			}
			var input io.Reader = strings.NewReader("")
			if tc.held {
				// Requests the reading side answers, arriving in bulk.
				var in bytes.Buffer
				for i := range requests {
					fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":"r%d","method":"tools/call"}`+"\n", i)
					want[fmt.Sprintf("r%d", i)] = 10 + i*(i%7)*100
				}
				input = &in
			}
			pr, pw := io.Pipe()
			s := transport.NewStream(input, pw, nil)
			checked := make(chan error, 1)
			go func() { checked <- stallingCheck(pr, want) }()

			ctx := context.Background()
			var wg sync.WaitGroup
			if tc.held {
				wg.Go(func() {
					for {
						m, err := s.Read(ctx)
						if err != nil {
							if !errors.Is(err, io.EOF) {
								t.Errorf("Read: %v", err)
							}
							return
						}
						key := m.(*protocol.Request).ID.String()
						if err := s.Write(ctx, stressMessage(key, want[key])); err != nil {
							t.Errorf("Write %s: %v", key, err)
							return
						}
					}
				})
			}
			for g := range writers {
				wg.Go(func() {
					for i := range each {
						key := fmt.Sprintf("w%d-%d", g, i)
						if err := s.Write(ctx, stressMessage(key, want[key])); err != nil {
							t.Errorf("Write %s: %v", key, err)
							return
						}
					}
				})
			}
			wg.Wait()
			if err := s.Flush(); err != nil {
				t.Errorf("Flush: %v", err)
			}
			pw.Close()
			select {
			case err := <-checked:
				if err != nil {
					t.Error(err)
				}
			case <-time.After(time.Minute):
				t.Fatal("the reader did not finish within a minute")
			}
			s.Close()
		})
	}
}
