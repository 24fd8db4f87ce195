package main

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// statusLine writes what happens during a command to stderr: server log
// messages, progress, prompts. On a terminal, progress is one bar redrawn
// in place, cleared before any other line is written; otherwise every
// progress notification is a plain line, which logs and pipes keep.
//
// Every text given to it is escaped and bounded (see humanWriter): most
// of it comes from the server.
type statusLine struct {
	mu    sync.Mutex
	w     io.Writer
	term  bool
	limit int64  // --max-output, for each text
	bar   string // the bar on screen, "" if none
}

// status returns the app's status line (made on first use).
func (a *app) status() *statusLine {
	a.statusOnce.Do(func() { a.st = &statusLine{w: a.rawStderr, term: a.stderrTerm, limit: int64(a.maxOutput)} })
	return a.st
}

// line writes one line, above the progress bar if one is drawn.
func (s *statusLine) line(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearLocked()
	fmt.Fprintln(s.w, s.shown(text))
	s.redrawLocked()
}

// prompt writes text without a line break (a question), with the bar
// cleared: the answer is typed after it.
func (s *statusLine) prompt(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearLocked()
	s.bar = ""
	fmt.Fprint(s.w, s.shown(text))
}

// progress shows a progress notification.
func (s *statusLine) progress(p *protocol.ProgressParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.term {
		fmt.Fprintln(s.w, s.shown(progressText(p)))
		return
	}
	s.clearLocked()
	s.bar = s.shown(progressBar(p))
	s.redrawLocked()
}

// done removes the bar at the end of a call.
func (s *statusLine) done() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearLocked()
	s.bar = ""
}

// shown is text as it is written: escaped and bounded.
func (s *statusLine) shown(text string) string {
	return humanText(text, s.limit, "--max-output 0 shows it all")
}

// clearLocked erases the bar from the terminal line (s.mu held).
func (s *statusLine) clearLocked() {
	if s.term && s.bar != "" {
		fmt.Fprint(s.w, "\r\x1b[K")
	}
}

// redrawLocked draws the bar again (s.mu held).
func (s *statusLine) redrawLocked() {
	if s.term && s.bar != "" {
		fmt.Fprint(s.w, s.bar)
	}
}

// progressText is a progress notification as a plain line:
// "progress: 3/10 (30%) loading".
func progressText(p *protocol.ProgressParams) string {
	var b strings.Builder
	b.WriteString("progress: ")
	b.WriteString(number(p.Progress))
	if p.Total > 0 {
		fmt.Fprintf(&b, "/%s (%d%%)", number(p.Total), percent(p))
	}
	if p.Message != "" {
		b.WriteString(" " + p.Message)
	}
	return b.String()
}

// progressBar draws a notification as a bar: "[=====>    ]  50% message";
// without a total, the count and the message.
func progressBar(p *protocol.ProgressParams) string {
	msg := ""
	if p.Message != "" {
		msg = " " + oneLine(p.Message)
	}
	if p.Total <= 0 {
		return "… " + number(p.Progress) + msg
	}
	const width = 30
	n := percent(p) * width / 100
	bar := strings.Repeat("=", n)
	if n < width {
		bar += ">" + strings.Repeat(" ", width-n-1)
	}
	return fmt.Sprintf("[%s] %3d%%%s", bar, percent(p), msg)
}

// percent is how far p is, 0 to 100.
func percent(p *protocol.ProgressParams) int {
	if p.Total <= 0 {
		return 0
	}
	pc := int(p.Progress * 100 / p.Total)
	return min(max(pc, 0), 100)
}

// number prints a float without a needless fraction.
func number(f float64) string {
	return strings.TrimSuffix(fmt.Sprintf("%g", f), ".0")
}
