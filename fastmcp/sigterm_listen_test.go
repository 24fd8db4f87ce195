//go:build unix

package fastmcp_test

import (
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"
)

// TestSIGTERMWithOpenListenExitsPromptly: a server program under Run,
// with an open listen stream, exits on SIGTERM without waiting for the
// ShutdownTimeout, and the stream ends with its final result.
func TestSIGTERMWithOpenListenExitsPromptly(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd, lines, _, _ := startHelper(t, "FASTMCP_ADDR="+addr, "FASTMCP_LOG_LEVEL=error", "FASTMCP_SHUTDOWN_TIMEOUT=30s")
	waitLine(t, lines, "lifespan: started")
	for range 200 {
		if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		time.Sleep(10 * time.Millisecond) // waiting for another process to listen
	}
	ls := openListen(t, "http://"+addr)
	began := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		t.Logf("the process exited %v after SIGTERM with an open listen stream", time.Since(began))
		if err != nil {
			t.Fatalf("exit: %v, want status 0", err)
		}
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-exited
		t.Fatal("the process did not exit within 5s of SIGTERM")
	}
	ls.checkFinalResult(t)
}
