package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// serveStdio answers newline-delimited requests from in on out, one at a
// time, until in ends.
func serveStdio(in io.Reader, out io.Writer, list json.RawMessage) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriterSize(out, 64<<10)
	enc := json.NewEncoder(w)
	for {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return w.Flush()
		}
		if err != nil {
			return fmt.Errorf("reading stdin: %w", err)
		}
		var req request
		var resp *response
		if err := json.Unmarshal(line, &req); err != nil {
			resp = &response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcError{-32700, "Parse error"}}
		} else {
			resp = answer(&req, list)
		}
		if resp != nil {
			if err := enc.Encode(resp); err != nil {
				return fmt.Errorf("writing stdout: %w", err)
			}
		}
		if r.Buffered() == 0 {
			if err := w.Flush(); err != nil {
				return fmt.Errorf("writing stdout: %w", err)
			}
		}
	}
}
