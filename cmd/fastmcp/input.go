package main

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"sync"
)

// lineReader reads the user's answers from stdin a line at a time.
type lineReader struct {
	mu sync.Mutex
	r  *bufio.Reader
}

// newLineReader reads the lines of r.
func newLineReader(r io.Reader) *lineReader { return &lineReader{r: bufio.NewReader(r)} }

// errNoInput is returned when stdin ends before an answer.
var errNoInput = errors.New("no answer: standard input is closed (use --no-input to decline without asking)")

// readLine returns the next line without its line break.
func (l *lineReader) readLine() (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s, err := l.r.ReadString('\n')
	if err != nil && (s == "" || !errors.Is(err, io.EOF)) {
		if errors.Is(err, io.EOF) {
			return "", errNoInput
		}
		return "", err
	}
	return strings.TrimRight(s, "\r\n"), nil
}
