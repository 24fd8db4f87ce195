package main

import (
	"os"
	"syscall"
)

// sysProcAttr makes a server die with the driver, however the driver ends.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// maxRSS returns the peak resident set of an exited process in bytes
// (wait4's ru_maxrss, in KiB on Linux).
func maxRSS(s *os.ProcessState) int64 {
	if ru, ok := s.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10
	}
	return 0
}
