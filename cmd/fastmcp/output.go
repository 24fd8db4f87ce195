package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// printJSON prints v (a protocol value, or any value encoding/json
// handles) as indented JSON.
func printJSON(w io.Writer, v any) error {
	b, err := protocol.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding the JSON output: %w", err)
	}
	_, err = w.Write(append(indentJSON(b), '\n'))
	return err
}

// indentJSON indents a JSON document by two spaces (as it is, if it is
// not JSON).
func indentJSON(b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return b
	}
	return buf.Bytes()
}

// compactJSON removes the insignificant space of a JSON document.
func compactJSON(b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return b
	}
	return buf.Bytes()
}

// table prints rows under a header, in columns.
type table struct {
	w *tabwriter.Writer
}

// newTable starts a table on w.
func newTable(w io.Writer, header ...string) *table {
	t := &table{w: tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)}
	t.row(header...)
	return t
}

// row adds a row; tabs and line breaks in cells become spaces.
func (t *table) row(cells ...string) {
	for i, c := range cells {
		cells[i] = oneLine(c)
	}
	fmt.Fprintln(t.w, strings.Join(cells, "\t"))
}

// flush writes the table out.
func (t *table) flush() error { return t.w.Flush() }

// oneLine makes s fit on one line of a table.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	const max = 80
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

// orDash stands in for an empty cell.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
