package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// printJSON prints v (a protocol value, or any value encoding/json
// handles) as indented JSON, the characters a terminal acts on escaped
// (see safeJSON).
func printJSON(w io.Writer, v any) error {
	b, err := protocol.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding the JSON output: %w", err)
	}
	_, err = w.Write(append(safeJSON(indentJSON(b)), '\n'))
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

// row adds a row; tabs and line breaks in cells become spaces, and the
// characters a terminal acts on are escaped (before the columns are
// measured).
func (t *table) row(cells ...string) {
	for i, c := range cells {
		cells[i] = oneLine(escapeText(c))
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

// Human-readable output. Everything the command prints for a person goes
// through a humanWriter (results on stdout) or humanText (the lines on
// stderr: log messages, progress, questions, errors), because the server
// chooses most of what is printed: names, descriptions, instructions, text
// content, log messages. Both do two things to it:
//
//   - They escape what a terminal would act on rather than show: the C0
//     control characters except newline and tab (a carriage return is
//     kept only before a newline), DEL, the C1 controls U+0080 to U+009F
//     and the bidirectional formatting characters (Trojan Source) are
//     shown as \x1b or \u009b, a byte that is not UTF-8 as \xff. So a
//     hostile server can neither set the window title, clear the screen,
//     plant links nor overwrite or reorder what is shown, on a terminal
//     or through a pipe. Backslashes are left as they are.
//   - They bound it: past --max-output bytes the rest is cut, and a last
//     line says how much and how to see it all.
//
// --json and -o FILE are the exact output: JSON (whose strings carry
// every character escaped), and the result as the server sent it.

// defaultMaxOutput is the default of --max-output: the most bytes of one
// result, or of one line on stderr, printed for a person.
const defaultMaxOutput = 256 << 10

// humanWriter writes text for a person to w: escaped, and bounded to
// limit bytes (see above). A UTF-8 sequence split across two Writes is
// joined. end writes what is held back and the note on what was cut.
type humanWriter struct {
	w     io.Writer
	exact bool   // write as it is, in full (-o FILE)
	limit int64  // the most bytes written; 0: no limit
	hint  string // how to see what is cut: "--json or -o FILE"
	lead  string // what comes before the note: "\n" (its own line), or " " (on the same line)
	n     int64  // bytes written
	cut   int64  // bytes of input not written
	held  []byte // the start of a character (or a "\r") whose end may be in the next Write
	last  byte   // the last byte written
	err   error
}

// Write escapes p and writes it, up to the limit; it reports p written
// whatever was cut.
func (h *humanWriter) Write(p []byte) (int, error) {
	n := len(p)
	if h.err != nil {
		return 0, h.err
	}
	if h.exact {
		h.flush(p)
		return n, h.err
	}
	if h.cut > 0 {
		h.cut += int64(n)
		return n, nil
	}
	if len(h.held) > 0 {
		p = append(h.held, p...)
		h.held = nil
	}
	h.write(p, false)
	return n, h.err
}

// write escapes p and writes it; unless end, an incomplete character at
// its end is held back for the next Write.
func (h *humanWriter) write(p []byte, end bool) {
	out := make([]byte, 0, min(len(p)+len(p)/8, 64<<10))
	for i := 0; i < len(p); {
		if !end && (!utf8.FullRune(p[i:]) || (p[i] == '\r' && i+1 == len(p))) {
			h.held = append([]byte(nil), p[i:]...)
			break
		}
		r, size := utf8.DecodeRune(p[i:])
		next := out
		out = appendShown(out, p[i:i+size], r, i+size < len(p) && p[i+size] == '\n')
		if h.limit > 0 && h.n+int64(len(out)) > h.limit {
			out = next
			h.cut = int64(len(p) - i)
			break
		}
		i += size
		if len(out) >= 32<<10 { // write as it goes: a large result is not copied whole
			h.flush(out)
			out = out[:0]
		}
	}
	h.flush(out)
}

// flush writes out to w, counting it.
func (h *humanWriter) flush(out []byte) {
	if len(out) == 0 || h.err != nil {
		return
	}
	_, h.err = h.w.Write(out)
	h.n += int64(len(out))
	h.last = out[len(out)-1]
}

// end writes what was held back and, if anything was cut, a last line
// saying how much and how to see it.
func (h *humanWriter) end() error {
	if len(h.held) > 0 && h.cut == 0 {
		held := h.held
		h.held = nil
		h.write(held, true)
	} else if len(h.held) > 0 {
		h.cut += int64(len(h.held))
	}
	if h.cut > 0 && h.err == nil {
		lead := h.lead
		if h.n == 0 || h.last == '\n' {
			lead = ""
		}
		_, h.err = fmt.Fprintf(h.w, "%s[cut at --max-output %s: %s more not shown; %s]\n", lead, byteSize(h.limit), byteSize(h.cut), h.hint)
	}
	return h.err
}

// appendShown appends the character r (the bytes b) as it is shown to a
// person: itself, or escaped (see humanWriter). crlf: a newline follows.
func appendShown(dst, b []byte, r rune, crlf bool) []byte {
	switch {
	case r >= 0x20 && r < 0x7f:
		return append(dst, b...)
	case r == utf8.RuneError && len(b) == 1: // a byte that is not UTF-8
		return fmt.Appendf(dst, `\x%02x`, b[0])
	case r == '\n', r == '\t', r == '\r' && crlf:
		return append(dst, b...)
	case r < 0x20, r == 0x7f:
		return fmt.Appendf(dst, `\x%02x`, r)
	case r >= 0x80 && r <= 0x9f, unicode.Is(unicode.Bidi_Control, r):
		return fmt.Appendf(dst, `\u%04x`, r)
	}
	return append(dst, b...)
}

// raw writes p as it is, unbounded: a binary resource's bytes, written
// to a file or a pipe on purpose.
func (h *humanWriter) raw(p []byte) error {
	h.flush(p)
	return h.err
}

// humanText is s as it is shown to a person (see humanWriter), at most
// limit bytes long (0: no limit) followed, on the same line, by the note
// on what was cut, which says hint.
func humanText(s string, limit int64, hint string) string {
	var b strings.Builder
	h := &humanWriter{w: &b, limit: limit, hint: hint, lead: " "}
	h.Write([]byte(s))
	h.end()
	if h.cut > 0 {
		return strings.TrimSuffix(b.String(), "\n")
	}
	return b.String()
}

// escapeText is s with the characters a terminal would act on escaped,
// unbounded (for the cells of a table, which are cut anyway).
func escapeText(s string) string { return humanText(s, 0, "") }

// safeJSON escapes, in a JSON document, the characters that encoding
// leaves as they are but a terminal acts on: DEL, the C1 controls and the
// bidirectional formatting characters become \u escapes. These can only
// be inside strings, so the document means the same: --json stays exact.
func safeJSON(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) || unicode.Is(unicode.Bidi_Control, r) {
			if out == nil {
				out = append(make([]byte, 0, len(b)+64), b[:i]...)
			}
			out = fmt.Appendf(out, `\u%04x`, r)
		} else if out != nil {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	if out == nil {
		return b
	}
	return out
}

// byteSize is a number of bytes: --max-output's value, and sizes in
// messages ("256KiB", "19.8MiB").
type byteSize int64

// String formats the size in the largest unit it has a whole one of.
func (s byteSize) String() string {
	switch {
	case s >= 1<<30:
		return unitSize(s, 1<<30, "GiB")
	case s >= 1<<20:
		return unitSize(s, 1<<20, "MiB")
	case s >= 1<<10:
		return unitSize(s, 1<<10, "KiB")
	}
	return fmt.Sprintf("%dB", int64(s))
}

// unitSize formats s in unit, with one decimal unless it is whole.
func unitSize(s, unit byteSize, name string) string {
	if s%unit == 0 {
		return fmt.Sprintf("%d%s", s/unit, name)
	}
	return fmt.Sprintf("%.1f%s", float64(s)/float64(unit), name)
}

// Set parses a size: a number of bytes, or one with the suffix K, KB,
// KiB, M, MB, MiB, G, GB or GiB (all powers of 1024); 0 means no limit.
func (s *byteSize) Set(v string) error {
	num := strings.TrimRight(v, "KMGiBkmgb")
	unit := strings.ToUpper(strings.TrimSpace(v[len(num):]))
	mult := map[string]int64{"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10,
		"M": 1 << 20, "MB": 1 << 20, "MIB": 1 << 20, "G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30}[unit]
	n, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if mult == 0 || err != nil || n < 0 || n*float64(mult) > math.MaxInt64/2 {
		return fmt.Errorf("%q: want a size such as 65536, 256K or 4MiB (0: no limit)", v)
	}
	*s = byteSize(n * float64(mult))
	return nil
}

// Type names the value in the help.
func (s *byteSize) Type() string { return "size" }

// toolNameOK reports whether name follows the protocol's rule for tool
// names (SEP-986, as the 2025-11-25 specification words it): 1 to 128
// characters, each an ASCII letter or digit, '_', '-' or '.'.
func toolNameOK(name string) bool {
	if len(name) == 0 || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// showToolName is a tool's name as shown: itself, or, outside the MCP
// tool-name characters, quoted as Go quotes strings, every character
// that is not plainly visible escaped ("bad\x1b[2Jname", "a\u00a0b"), so
// that it can neither act on the terminal nor pass for another name.
func showToolName(name string) string {
	if toolNameOK(name) {
		return name
	}
	return strconv.Quote(name)
}

// badToolNames counts the tools whose names are outside the MCP tool-name
// characters.
func badToolNames(tools []*protocol.Tool) int {
	n := 0
	for _, t := range tools {
		if !toolNameOK(t.Name) {
			n++
		}
	}
	return n
}
