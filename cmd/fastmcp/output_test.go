package main

import (
	"strings"
	"testing"
)

// TestHumanWriter: what is escaped and what is kept, across Writes that
// split a character, and where the bound cuts.
func TestHumanWriter(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		limit  int64
		want   string
	}{
		{"plain text and emoji", []string{"héllo\tworld 👩‍💻\n"}, 0, "héllo\tworld 👩‍💻\n"},
		{"C0, DEL", []string{"a\x1b[2Jb\x07c\x7fd\x00"}, 0, `a\x1b[2Jb\x07c\x7fd\x00`},
		{"CR alone, CRLF", []string{"over\rwrite\r\nnext"}, 0, "over\\x0dwrite\r\nnext"},
		{"CRLF split across writes", []string{"line\r", "\nnext\r"}, 0, "line\r\nnext\\x0d"},
		{"C1 as UTF-8", []string{"a\u009b31mb\u0085"}, 0, `a\u009b31mb\u0085`},
		{"C1 split across writes", []string{"a\xc2", "\x9bb"}, 0, `a\u009bb`},
		{"not UTF-8", []string{"a\x9b\xffb"}, 0, `a\x9b\xffb`},
		{"incomplete at the end", []string{"a\xe2\x80"}, 0, `a\xe2\x80`},
		{"bidi", []string{"x\u202eevil\u202c\u2066y\u2069\u200f"}, 0, `x\u202eevil\u202c\u2066y\u2069\u200f`},
		{"backslash kept", []string{`C:\dir\x1b`}, 0, `C:\dir\x1b`},
		{"bound", []string{"0123456789", "abcdef"}, 8, "01234567\n[cut at --max-output 8B: 8B more not shown; HINT]\n"},
		{"bound never splits an escape", []string{"0123456\x1b"}, 8, "0123456\n[cut at --max-output 8B: 1B more not shown; HINT]\n"},
		{"bound at a line end", []string{"0123456\n89"}, 8, "0123456\n[cut at --max-output 8B: 2B more not shown; HINT]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			h := &humanWriter{w: &b, limit: tt.limit, hint: "HINT", lead: "\n"}
			for _, w := range tt.writes {
				if n, err := h.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			if err := h.end(); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("wrote %q, want %q", b.String(), tt.want)
			}
		})
	}
}

// TestSafeJSON: DEL, C1 and bidi characters in JSON strings become \u
// escapes; the rest is untouched.
func TestSafeJSON(t *testing.T) {
	in := "{\"a\":\"x\x7fy\u009bz\u202e\",\"b\":\"é 👍\"}"
	want := `{"a":"x\u007fy\u009bz\u202e","b":"é 👍"}`
	if got := string(safeJSON([]byte(in))); got != want {
		t.Errorf("safeJSON = %s, want %s", got, want)
	}
}

// TestByteSize: --max-output's values.
func TestByteSize(t *testing.T) {
	for in, want := range map[string]byteSize{"0": 0, "65536": 65536, "64K": 64 << 10, "4MiB": 4 << 20, "1.5m": 3 << 19, "1GB": 1 << 30} {
		var s byteSize
		if err := s.Set(in); err != nil || s != want {
			t.Errorf("Set(%q) = %d, %v; want %d", in, s, err, want)
		}
	}
	for _, in := range []string{"", "-1", "1x", "K", "1e99"} {
		var s byteSize
		if err := s.Set(in); err == nil {
			t.Errorf("Set(%q) = %d, want an error", in, s)
		}
	}
	if s := byteSize(19<<20 + 800<<10).String(); s != "19.8MiB" {
		t.Errorf("String = %s", s)
	}
}
