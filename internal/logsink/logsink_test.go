package logsink

import (
	"bytes"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
)

// TestDetachWaitsForTheSink: once detach returns, the sink is not running
// and is never called again, however busy the writers are: a test's Log
// must not run after the test ended.
func TestDetachWaitsForTheSink(t *testing.T) {
	var base bytes.Buffer
	var baseMu sync.Mutex
	w := NewWriter(writerFunc(func(p []byte) (int, error) {
		baseMu.Lock()
		defer baseMu.Unlock()
		return base.Write(p)
	}))
	l := slog.New(slog.NewTextHandler(w, nil))
	var detached, late, calls atomic.Int64
	detach := w.Attach("test", func(string) {
		calls.Add(1)
		if detached.Load() != 0 {
			late.Add(1)
		}
	})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
					l.Info("tick")
				}
			}
		})
	}
	for calls.Load() < 100 {
		l.Info("warm up") // until the writers are busy
	}
	detach()
	detached.Store(1)
	for range 100 {
		l.Info("after")
	}
	close(stop)
	wg.Wait()
	if n := late.Load(); n > 0 {
		t.Errorf("the sink ran %d times after detach returned", n)
	}
	baseMu.Lock()
	defer baseMu.Unlock()
	if !bytes.Contains(base.Bytes(), []byte("msg=after")) {
		t.Error("after detach the lines do not go to the base writer")
	}
}

// TestAttachCounts: the same key attached twice gets each line once, and
// stays attached until both detach.
func TestAttachCounts(t *testing.T) {
	var base bytes.Buffer
	w := NewWriter(&base)
	var got []string
	fn := func(line string) { got = append(got, line) }
	d1, d2 := w.Attach("t", fn), w.Attach("t", fn)
	w.Write([]byte("one\n"))
	d1()
	d1() // once only
	w.Write([]byte("two\n"))
	d2()
	w.Write([]byte("three\n"))
	if want := []string{"one", "two"}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("sink got %q, want %q", got, want)
	}
	if base.String() != "three\n" {
		t.Errorf("base got %q, want only the line written after both detached", base.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
