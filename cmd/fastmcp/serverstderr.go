package main

import (
	"io"
	"strings"
	"sync"
)

// serverStderrTail is how much of what a server started with -- wrote to
// its stderr the command keeps, to show when the command fails.
const serverStderrTail = 4 << 10

// serverStderr is where the stderr of a server started with -- goes. The
// log messages the server sends (notifications/message) are printed as
// they come, and a fastmcp server also writes each to its own logger, on
// its stderr: copying that too printed every line twice. So the server's
// stderr is shown as it comes only with -v; otherwise its last
// serverStderrTail bytes are kept and shown when the server exits before
// the command is done (see showServerStderr), where a crash or a refusal
// to start explains itself.
func (a *app) serverStderr() io.Writer {
	if a.verbose {
		return a.rawStderr
	}
	a.stderrTail = &tailBuffer{max: serverStderrTail}
	return a.stderrTail
}

// showServerStderr prints, escaped, what the server started with -- wrote
// to its stderr and serverStderr kept, if anything.
func (a *app) showServerStderr() {
	if a.stderrTail == nil {
		return
	}
	text := strings.TrimRight(a.stderrTail.String(), "\n")
	if text == "" {
		return
	}
	st := a.status()
	st.line("the server's stderr (its last lines; -v shows it as it comes):")
	for l := range strings.SplitSeq(text, "\n") {
		st.line("  " + l)
	}
}

// tailBuffer keeps the last max bytes written to it, from the start of a
// line when it can. It is safe for concurrent use.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
	cut bool // bytes were dropped
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
		t.cut = true
	}
	return len(p), nil
}

// String is what was kept: from the first whole line once bytes were
// dropped.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(t.b)
	if t.cut {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
	}
	return s
}
